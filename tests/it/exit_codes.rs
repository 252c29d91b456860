//! Issue 33, item 6: exit codes are README.md's table for every command. One table in the code
//! (`referee::cli::exit`) is the expectation: README.md's table must be it, every command's `--help` must end with
//! its rendering for that command, and every user-facing command, run on a small passing class and a small
//! failing one, must exit with the code the table gives it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use clap::CommandFactory;
use referee::cli::exit;
use referee::cli::{RefereeCli, TakeStonesCli};
use referee::exercise::{variant, Kind};

use crate::exercise_students::answer_file;
use crate::referee::fixture;

const PYTHON: &str = "/usr/bin/python3";

fn run(bin: &str, args: &[&str]) -> Output {
    assert_cmd::Command::cargo_bin(bin).unwrap().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every command path of `cmd` (its own and its subcommands', recursively), e.g. `referee grade mancala`.
fn paths(cmd: &clap::Command, prefix: &str, all: &mut Vec<String>) {
    let path = if prefix.is_empty() { cmd.get_name().to_string() } else { format!("{prefix} {}", cmd.get_name()) };
    for sub in cmd.get_subcommands() {
        paths(sub, &path, all);
    }
    all.push(path);
}

#[test]
fn readme_and_every_commands_help_state_the_one_table() {
    // README.md's table is the code's, row for row, with the platform runners' note under it.
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = &readme[readme.find("## Exit codes").unwrap()..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let rows: Vec<(u8, String)> = section
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim().trim_matches('|').split('|').map(str::trim).collect();
            Some((cells.first()?.parse().ok()?, cells.get(1)?.to_string()))
        })
        .collect();
    let table: Vec<(u8, String)> = exit::TABLE.iter().map(|r| (r.code, r.meaning.to_string())).collect();
    assert_eq!(rows, table, "README.md's exit-code table is referee::cli::exit::TABLE");
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words(section).contains(&words(exit::PLATFORM_NOTE)), "README.md states the platform runners' note");

    // Every command of both binaries has its codes in the table, each code one of the table's, and its --help
    // ends with them.
    let mut all = Vec::new();
    paths(&RefereeCli::command(), "", &mut all);
    paths(&TakeStonesCli::command(), "", &mut all);
    let parents = [
        "referee match",
        "referee tournament",
        "referee agent",
        "referee gradescope",
        "referee exercise",
        "referee perft",
    ];
    for path in &all {
        if parents.contains(&path.as_str()) {
            continue;
        }
        if path != "referee" {
            let codes = exit::codes(path).unwrap_or_else(|| panic!("{path}: no exit codes in referee::cli::exit"));
            for (code, words) in codes.codes {
                assert!(exit::TABLE.iter().any(|r| r.code == *code), "{path}: code {code} is not in the table");
                assert!(!words.is_empty(), "{path}: code {code}");
            }
        }
        let mut words: Vec<&str> = path.split(' ').collect();
        let bin = words.remove(0);
        words.push("--help");
        let out = run(bin, &words);
        assert_eq!(out.status.code(), Some(0), "{path} --help");
        let help = text(&out.stdout);
        let expected = exit::help(path);
        assert!(!expected.is_empty(), "{path}");
        assert!(help.trim_end().ends_with(expected.trim_end()), "{path} --help ends with its exit codes:\n{help}");
    }
}

/// A Take-Stones class: `right` (the course-style Python program) and, when `failing`, `wrong` (children
/// searched in reverse), each a folder of its own.
fn takestones_class(root: &Path, failing: bool) -> PathBuf {
    let class = root.join(if failing { "failing" } else { "passing" });
    let copy = |from: &Path, to: &Path| {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    };
    copy(&fixture("submissions/python-stats"), &class.join("right"));
    if failing {
        copy(&fixture("takestones/reversed-children"), &class.join("wrong"));
    }
    class
}

/// An Othello class: `good` (a course-style alpha-beta agent) and, when `failing`, `broken` (does not parse).
fn othello_class(root: &Path, failing: bool) -> PathBuf {
    let class = root.join(if failing { "othello-failing" } else { "othello-passing" });
    let source = fs::read_to_string(fixture("othello/modules/limit_ai.py")).unwrap();
    fs::create_dir_all(class.join("ab2101")).unwrap();
    fs::write(class.join("ab2101/ab2101_ai.py"), &source).unwrap();
    if failing {
        fs::create_dir_all(class.join("sx8808")).unwrap();
        fs::write(class.join("sx8808/sx8808_ai.py"), source.replace("def ", "def (")).unwrap();
    }
    class
}

/// Asserts `out` exited with `code`, which `command`'s table must list.
fn assert_code(command: &str, what: &str, out: &Output, code: u8) {
    let listed = exit::codes(command).unwrap_or_else(|| panic!("{command}: not in the table"));
    assert!(listed.codes.iter().any(|(c, _)| *c == code), "{command}: {code} is not among its codes");
    assert_eq!(
        out.status.code(),
        Some(i32::from(code)),
        "{command} ({what}):\nstdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn program_suites_and_self_checks_exit_by_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    let cmd = format!("{PYTHON} {{dir}}/takestones.py {{args}}");
    let suite = "builtin:takestones-stats-2019";
    for (failing, code) in [(false, exit::SUCCESS), (true, exit::FAILED)] {
        let class = takestones_class(tmp.path(), failing);
        let out = tmp.path().join(format!("out-{failing}"));
        let graded = run(
            "referee",
            &["grade", "--suite", suite, "--cmd", &cmd, "-j", "2", "--timeout", "5s"]
                .into_iter()
                .chain(["--submissions", class.to_str().unwrap(), "--out", out.to_str().unwrap()])
                .collect::<Vec<_>>(),
        );
        assert_code("referee grade", &format!("failing={failing}"), &graded, code);
        let student = class.join(if failing { "wrong" } else { "right" });
        let checked =
            run("referee", &["check", "takestones", "--cmd", &cmd, "--dir", student.to_str().unwrap(), "--cases", "5"]);
        assert_code("referee check", &format!("failing={failing}"), &checked, code);
    }
    // A Gradescope bundle of the same command, and one the table calls a bad argument (no {args}).
    let zip = tmp.path().join("autograder.zip");
    let bundle = |cmd: &str| {
        run("referee", &["gradescope", "bundle", "--out", zip.to_str().unwrap(), "--suite", suite, "--cmd", cmd])
    };
    assert_code("referee gradescope bundle", "a good command", &bundle(&cmd), exit::SUCCESS);
    assert_code(
        "referee gradescope bundle",
        "no {args}",
        &bundle(&format!("{PYTHON} {{dir}}/takestones.py")),
        exit::USAGE,
    );
    // The reference itself: a move, a finished game, a bad position.
    for bin in ["takestones", "referee takestones"] {
        let mut words: Vec<&str> = bin.split(' ').collect();
        let name = words.remove(0);
        let with = |args: &[&str]| run(name, &[words.as_slice(), args].concat());
        assert_code(bin, "a position", &with(&["7", "2", "1", "2", "0"]), exit::SUCCESS);
        assert_code(bin, "no legal move", &with(&["4", "3", "1", "2", "4", "0"]), exit::GAME_OVER);
        assert_code(bin, "a bad position", &with(&["x"]), exit::USAGE);
    }
    assert_code("referee verify", "the official cases", &run("referee", &["verify"]), exit::SUCCESS);
}

#[test]
fn written_problems_exit_by_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    let kinds = "alphabeta,hillclimb";
    let variants = |id: &str| vec![variant(2024, id, Kind::Alphabeta), variant(2024, id, Kind::Hillclimb)];
    for (failing, code) in [(false, exit::SUCCESS), (true, exit::FAILED)] {
        let class = tmp.path().join(format!("class-{failing}"));
        let right = answer_file("ann", &variants("ann"), &[], &[]);
        fs::create_dir_all(class.join("ann")).unwrap();
        fs::write(class.join("ann/answers.txt"), &right).unwrap();
        if failing {
            let wrong = answer_file("ben", &variants("ben"), &crate::exercise_students::ALL, &[]);
            fs::create_dir_all(class.join("ben")).unwrap();
            fs::write(class.join("ben/answers.txt"), wrong).unwrap();
        }
        let out = tmp.path().join(format!("out-{failing}"));
        let graded = run(
            "referee",
            &["exercise", "grade", "--seed", "2024", "--kind", kinds, "--submissions", class.to_str().unwrap()]
                .into_iter()
                .chain(["--out", out.to_str().unwrap()])
                .collect::<Vec<_>>(),
        );
        assert_code("referee exercise grade", &format!("failing={failing}"), &graded, code);
        let file = class.join(if failing { "blank.txt" } else { "ann/answers.txt" });
        if failing {
            fs::write(&file, referee::exercise::file::template("ann", &variants("ann"))).unwrap();
        }
        let checked = run("referee", &["exercise", "check", "--kind", kinds, "--answers", file.to_str().unwrap()]);
        assert_code("referee exercise check", &format!("failing={failing}"), &checked, code);
    }
    let made = tmp.path().join("made");
    let make = run(
        "referee",
        &["exercise", "make", "--kind", kinds, "--ids", "ann", "--seed", "1", "--out", made.to_str().unwrap()],
    );
    assert_code("referee exercise make", "a roster of one", &make, exit::SUCCESS);
}

#[test]
fn games_exit_by_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    let small = ["--size", "4", "--time", "2", "--seed", "3", "--python", PYTHON];
    for (failing, code) in [(false, exit::SUCCESS), (true, exit::FAILED)] {
        let class = othello_class(tmp.path(), failing);
        let out = tmp.path().join(format!("othello-out-{failing}"));
        let graded = run(
            "referee",
            &[&["grade", "othello", "--games", "1", "--check-share", "0", "--target", "0.5"][..], &small]
                .concat()
                .into_iter()
                .chain(["--submissions", class.to_str().unwrap(), "--out", out.to_str().unwrap()])
                .collect::<Vec<_>>(),
        );
        assert_code("referee grade othello", &format!("failing={failing}"), &graded, code);
        let agent = class.join(if failing { "sx8808/sx8808_ai.py" } else { "ab2101/ab2101_ai.py" });
        let played = run(
            "referee",
            &[&["match", "othello", agent.to_str().unwrap(), "builtin:random", "--games", "1", "-q"][..], &small]
                .concat(),
        );
        assert_code("referee match othello", &format!("failing={failing}"), &played, code);
        // A tournament is played whatever the agents do: 0 (the agent that does not parse is left out).
        let standings = tmp.path().join(format!("tournament-{failing}"));
        let tournament = run(
            "referee",
            &[&["tournament", "othello", "--with", "builtin:random"][..], &small]
                .concat()
                .into_iter()
                .chain(["--submissions", class.to_str().unwrap(), "--out", standings.to_str().unwrap()])
                .collect::<Vec<_>>(),
        );
        assert_code("referee tournament othello", &format!("failing={failing}"), &tournament, exit::SUCCESS);
    }
}
