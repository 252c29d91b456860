//! The docs cannot drift: every command README.md and docs/*.md show is run here, and where they show its output,
//! the output is compared.
//!
//! A fenced block's language says what it is:
//! - `console`: `$ command` lines, each followed by the output it prints (stdout and stderr, either first). In the output, a
//!   line `...` stands for any number of lines and `[..]` for any text within a line. A command must exit 0 unless
//!   its line ends with the comment `# exits N`.
//! - `sh`: commands only; each must exit 0. `sh no-run` marks commands this test cannot run (installing packages,
//!   a cluster, a container): they are listed, not run.
//! - anything else (`text`, `toml`, `json`, ...) is not a command.
//!
//! Commands run under `sh -c` in a fresh folder holding links to the repository's `testcases/`, `tests/`, `deploy/`
//! and `docs/`, with the built `referee` and `takestones` first on PATH, so a command written for the repository's
//! root runs the same here. Blocks of one file share the folder, in order, so a later block may read what an
//! earlier one wrote.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One fenced block of a Markdown file.
#[derive(Debug)]
struct Block {
    file: String,
    line: usize,
    info: String,
    body: Vec<String>,
}

fn blocks(path: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                let info = line.trim_start().trim_start_matches('`').trim().to_string();
                open = Some(Block { file: file.clone(), line: i + 1, info, body: Vec::new() });
            }
            (Some(_), true) => out.extend(open.take()),
            (Some(block), false) => block.body.push(line.to_string()),
            (None, false) => {}
        }
    }
    out
}

/// A `console` block's commands, each with its expected exit code and output lines.
fn sessions(block: &Block) -> Vec<(String, i32, Vec<String>)> {
    let mut out: Vec<(String, i32, Vec<String>)> = Vec::new();
    let mut continued = false;
    for line in &block.body {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push((command.to_string(), 0, Vec::new()));
            continued = command.ends_with('\\');
        } else if continued {
            let last = out.last_mut().unwrap();
            last.0.push('\n');
            last.0.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(last) = out.last_mut() {
            last.2.push(line.clone());
        } else {
            panic!("{}:{}: output before any `$ command` line", block.file, block.line);
        }
    }
    for (command, code, _) in &mut out {
        if let Some((_, n)) = command.rsplit_once("# exits ") {
            *code = n.trim().parse().unwrap_or_else(|_| panic!("bad '# exits' in {command}"));
        }
    }
    out
}

/// An `sh` block's commands: its lines but blanks and comments, a line ending in `\\` joined to the next.
fn shell_commands(block: &Block) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut continued = false;
    for line in block.body.iter().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')) {
        match out.last_mut() {
            Some(last) if continued => {
                last.push('\n');
                last.push_str(line);
            }
            _ => out.push(line.clone()),
        }
        continued = line.ends_with('\\');
    }
    out
}

/// Whether `got` matches the pattern line `want` (`[..]` is any text).
fn line_matches(want: &str, got: &str) -> bool {
    let parts: Vec<&str> = want.split("[..]").collect();
    if parts.len() == 1 {
        return want == got;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !got.starts_with(first) || got.len() < first.len() + last.len() || !got.ends_with(last) {
        return false;
    }
    let mut rest = &got[first.len()..got.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the output lines `got` match the pattern lines `want` (`...` is any number of lines).
fn output_matches(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first == "..." => (0..=got.len()).any(|skip| output_matches(rest, &got[skip..])),
        Some((first, rest)) => {
            got.split_first().is_some_and(|(line, more)| line_matches(first, line) && output_matches(rest, more))
        }
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for one file's commands: links to the repository's data, the binaries first on PATH.
fn workdir() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    for name in ["testcases", "tests", "deploy", "docs"] {
        std::os::unix::fs::symlink(repo().join(name), dir.path().join(name)).unwrap();
    }
    let bin = assert_cmd::cargo::cargo_bin("referee");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    (dir, path)
}

/// Runs `command`; returns its exit code, and its stdout and stderr.
fn run(command: &str, dir: &Path, path: &str) -> (i32, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "120")
        .env_remove("CI")
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// Every Markdown file the docs test reads: README.md and docs/*.md.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![repo().join("README.md")];
    if let Ok(entries) = std::fs::read_dir(repo().join("docs")) {
        let mut docs: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
        docs.sort();
        files.extend(docs);
    }
    files
}

/// What running one file's commands found: failures, blocks not run, commands run.
#[derive(Default)]
struct FileRun {
    failures: Vec<String>,
    skipped: Vec<String>,
    ran: usize,
}

/// Runs every command of one Markdown file, in order, in a fresh folder of its own.
fn run_file(file: &Path) -> FileRun {
    let mut result = FileRun::default();
    let all = blocks(file);
    let runnable: Vec<&Block> =
        all.iter().filter(|b| b.info.starts_with("console") || b.info.starts_with("sh")).collect();
    if runnable.is_empty() {
        return result;
    }
    let (dir, path) = workdir();
    for block in runnable {
        if block.info.contains("no-run") {
            result.skipped.push(format!("{}:{}", block.file, block.line));
            continue;
        }
        let commands: Vec<(String, i32, Vec<String>)> = if block.info.starts_with("console") {
            sessions(block)
        } else {
            shell_commands(block).into_iter().map(|c| (c, 0, vec!["...".to_string()])).collect()
        };
        for (command, code, want) in commands {
            result.ran += 1;
            let (got_code, stdout, stderr) = run(&command, dir.path(), &path);
            // A terminal shows stdout and stderr interleaved: the docs may show either stream first.
            let matches = [format!("{stdout}{stderr}"), format!("{stderr}{stdout}")]
                .iter()
                .any(|got| output_matches(&want, &got.lines().collect::<Vec<_>>()));
            if got_code != code || !matches {
                result.failures.push(format!(
                    "{}:{}: `{command}` exited {got_code} (docs say {code})\n--- docs show:\n{}\n--- it printed:\n{stdout}{stderr}",
                    block.file,
                    block.line,
                    want.join("\n")
                ));
            }
        }
    }
    result
}

#[test]
fn every_console_block_prints_what_it_shows_and_every_sh_block_runs() {
    // Files run side by side (each in its own folder); a file's commands run in order.
    let files = documents();
    let runs: Vec<FileRun> = std::thread::scope(|scope| {
        let handles: Vec<_> = files.iter().map(|file| scope.spawn(move || run_file(file))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ran: usize = runs.iter().map(|r| r.ran).sum();
    let skipped: Vec<String> = runs.iter().flat_map(|r| r.skipped.clone()).collect();
    let failures: Vec<String> = runs.into_iter().flat_map(|r| r.failures).collect();
    eprintln!("docs: ran {ran} commands; not run (marked no-run): {}", skipped.join(", "));
    assert!(
        failures.is_empty(),
        "{} of {ran} documented commands drifted:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_matcher_takes_wildcards_and_refuses_what_differs() {
    let want: Vec<String> = ["a [..] c", "...", "end"].iter().map(|s| s.to_string()).collect();
    assert!(output_matches(&want, &["a b c", "x", "y", "end"]));
    assert!(output_matches(&want, &["a  c", "end"]));
    assert!(!output_matches(&want, &["a b d", "end"]));
    assert!(!output_matches(&want, &["a b c", "x"]));
    assert!(!line_matches("verify: 8 of 8", "verify: 7 of 8"));
    assert!(line_matches("[..]of 8[..]", "verify: 8 of 8 cases"));
}

/// Every file the docs name (a link, or a backticked path into the repository) exists, so no guide cites a file
/// the repository does not hold.
#[test]
fn every_file_the_docs_name_exists() {
    let roots = ["src/", "tests/", "deploy/", "docs/", "testcases/", ".ci/"];
    let mut missing = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        let base = file.parent().unwrap().to_path_buf();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for (i, line) in text.lines().enumerate() {
            // Markdown links: ](target), relative to the file.
            for part in line.split("](").skip(1) {
                let target = part.split(')').next().unwrap_or("").split('#').next().unwrap_or("");
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                if !base.join(target).exists() {
                    missing.push(format!("{name}:{}: link to {target}", i + 1));
                }
            }
            // Backticked paths into the repository, relative to its root.
            for (k, part) in line.split('`').enumerate() {
                let path = part.split_whitespace().next().unwrap_or("");
                let plain = !path.contains(['<', '*', '{', '$']) && !path.contains("...");
                if k % 2 == 1 && part == path && plain && roots.iter().any(|r| path.starts_with(r)) {
                    let path = path.trim_end_matches([',', ':', ')']);
                    if !repo().join(path).exists() {
                        missing.push(format!("{name}:{}: `{path}`", i + 1));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "the docs name files that do not exist:\n{}", missing.join("\n"));
}

/// README.md is a front page: short enough to read in five minutes, the rest in docs/.
#[test]
fn the_readme_is_a_front_page_that_opens_with_the_two_commands() {
    let text = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines; move detail into a guide under docs/");
    let first = blocks(&repo().join("README.md")).into_iter().next().unwrap();
    assert_eq!(
        first.body,
        ["cargo run --release -- verify", "cargo test"],
        "README.md must open with the two commands"
    );
    let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim() == "cargo test"), ".ci/run must run README's test command");
    // Before the first example calls `referee` by name, the reader is told how it gets on the PATH.
    let first_use = text.find("$ referee ").expect("the quick start runs referee");
    let path = text.find("PATH=").expect("README says how referee gets on the PATH");
    assert!(path < first_use, "README says how referee gets on the PATH only after an example uses it");
    // The sandbox's table and cost figures live in the containment guide; the front page links there.
    assert!(!text.contains("| environment |"), "the sandbox table belongs in docs/containment.md");
    assert!(text.contains("docs/containment.md#which-promise-holds-where"), "README links the sandbox table");
}
