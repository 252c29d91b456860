//! Mistakes a TA's grade command shows before anything runs: a shell pattern or operator in `--cmd`/`--build`
//! without `--shell` (no shell runs, so `javac {dir}/*.java` hands javac a file literally named `*.java` and every
//! student gets a build error), and a `--cmd` without `{args}` for a suite whose cases give the program arguments
//! (every student's program then runs without them). `grade`, `gradescope bundle` and the platforms' flows (which
//! are `grade`) refuse these alike unless `--solution` shows the commands give a correct program full marks. A
//! command that starts an explicit shell (`sh -c "javac {dir}/*.java"`) has its patterns read by that shell: fine.

use crate::harness::suite::Suite;

/// The characters only a shell gives a meaning to: patterns, operators, redirections, expansions.
const SHELL_ONLY: [char; 10] = ['*', '?', '[', ';', '|', '&', '<', '>', '`', '$'];

/// What is wrong with `--cmd` (`command`) and `--build` (`build`) for `suite`, run with or without `--shell`: one
/// line per mistake, naming the flag.
pub fn command_mistakes(command: &str, build: Option<&str>, shell: bool, suite: &Suite) -> Vec<String> {
    let mut found = Vec::new();
    if !shell {
        for (flag, text) in [("--cmd", Some(command)), ("--build", build)] {
            let Some(text) = text else { continue };
            let words = shlex::split(text).unwrap_or_default();
            if starts_a_shell(&words) {
                continue;
            }
            let mut seen: Vec<char> = words.iter().flat_map(|w| w.chars()).filter(|c| SHELL_ONLY.contains(c)).collect();
            seen.dedup();
            if let Some(&c) = seen.first() {
                found.push(format!(
                    "{flag} '{text}' has `{c}`, which only a shell understands, but the command runs without one \
                     (each word is passed as it is); add --shell, or write the command without it"
                ));
            }
        }
    }
    let needs_args = suite.cases.iter().find(|c| !c.args.is_empty());
    if let Some(case) = needs_args.filter(|_| !command.contains("{args}")) {
        found.push(format!(
            "--cmd '{command}' has no {{args}}, but the suite's cases give the program arguments (case '{}': {}); \
             put {{args}} where they go",
            case.name,
            case.args.join(" ")
        ));
    }
    found
}

/// The shells whose `-c` runs a command line: the patterns in it are theirs to expand.
const SHELLS: [&str; 6] = ["sh", "bash", "dash", "zsh", "ksh", "ash"];

/// Whether `words` start a shell with a command line (`sh -c '...'`, `/bin/bash -ec '...'`, `env bash -c ...`).
fn starts_a_shell(words: &[String]) -> bool {
    let name = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    let mut rest = words.iter().map(String::as_str);
    let mut first = rest.next().map(name);
    if first.as_deref() == Some("env") {
        first = rest.by_ref().find(|w| !w.starts_with('-') && !w.contains('=')).map(name);
    }
    let Some(first) = first else { return false };
    SHELLS.contains(&first.as_str())
        && rest.take_while(|w| w.starts_with('-')).any(|w| !w.starts_with("--") && w[1..].contains('c'))
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn shell_words_without_a_shell_and_a_missing_args() {
        let suite = crate::harness::suite::load("builtin:takestones-stats-2019").unwrap();
        let java = "java -cp {dir} TakeStones {args}";
        assert!(command_mistakes(java, Some("javac -d {dir} {dir}/*.java"), true, &suite).is_empty());
        let found = command_mistakes(java, Some("javac -d {dir} {dir}/*.java"), false, &suite);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("--build 'javac -d {dir} {dir}/*.java' has `*`"), "{}", found[0]);
        let found = command_mistakes("java -cp {dir} TakeStones", None, false, &suite);
        assert!(found[0].contains("has no {args}") && found[0].contains("(case '"), "{found:?}");
        assert_eq!(command_mistakes("python3 {dir}/a.py {args}; echo", None, false, &suite).len(), 1);
        // An explicit shell expands its own patterns.
        for build in
            ["sh -c \"javac -d {dir} {dir}/*.java\"", "/bin/bash -ec 'javac {dir}/*.java'", "env sh -c 'a | b'"]
        {
            assert!(command_mistakes(java, Some(build), false, &suite).is_empty(), "{build}");
        }
        for build in ["sh {dir}/*.sh", "shx -c '*'", "sh --command-x 'a*'"] {
            assert_eq!(command_mistakes(java, Some(build), false, &suite).len(), 1, "{build}");
        }
    }
}
