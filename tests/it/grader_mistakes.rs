//! Issue 33, item 4: a TA's mistake stops the run before anyone gets a final zero. Relative paths (`--work`, a
//! bare agent file name, a relative class folder) are made absolute before anything runs, so correct agents are
//! never "does not parse"; a program the runs cannot reach (missing, relative, closed to the sandbox user) is
//! refused up front in `grade`, Classroom 50's flow and PrairieLearn's (exit 2, one line); and a class whose
//! hand-ins mostly fail alike, or mostly print the other Take-Stones edition's output, is a suspected grader
//! problem (exit 5, what to check said above the summary), not a row of students' zeros.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

use crate::grade::{fixture, python};
use crate::variants::materialize;

fn referee_in(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("referee").unwrap().current_dir(dir).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `referee match othello` with the agent given by its bare file name, and `grade othello` with a relative class
/// folder, --out and --work, each from the folder that holds them.
#[test]
fn relative_agent_paths_and_work_folders_do_not_fail_correct_agents() {
    let tmp = tempfile::tempdir().unwrap();
    let agent = fixture("othello/modules/limit_ai.py");
    fs::copy(&agent, tmp.path().join("ab2101_ai.py")).unwrap();
    let common = ["--size", "4", "--time", "5", "--seed", "3", "--python", "/usr/bin/python3"];
    let run = referee_in(
        tmp.path(),
        &[&["match", "othello", "ab2101_ai.py", "builtin:random", "--games", "1", "-q"][..], &common].concat(),
    );
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(0), "{stdout}{stderr}");
    assert!(!stderr.contains("does not parse") && !stdout.contains("does not parse"), "{stdout}{stderr}");
    // The same agent in a class, every path relative to the TA's folder.
    fs::create_dir_all(tmp.path().join("class/ab2101")).unwrap();
    fs::copy(&agent, tmp.path().join("class/ab2101/ab2101_ai.py")).unwrap();
    let run = referee_in(
        tmp.path(),
        &[
            &["grade", "othello", "--submissions", "class", "--out", "res", "--work", "wk", "--games", "1"][..],
            &["--check-share", "0"],
            &common,
        ]
        .concat(),
    );
    let stdout = text(&run.stdout);
    assert!(matches!(run.status.code(), Some(0 | 1)), "{stdout}{}", text(&run.stderr));
    let results = crate::html_report::load_results(&tmp.path().join("res"));
    assert_eq!(results.len(), 1);
    assert!(results[0].build.as_ref().is_none_or(|b| b.ok), "a correct agent builds: {:?}", results[0].build);
    let built = |c: &referee::harness::model::CaseResult| c.status != referee::harness::model::Status::BuildError;
    assert!(
        results[0].cases.iter().all(|c| built(c) && !c.detail.contains("does not parse")),
        "{:?}",
        results[0].cases
    );
}

/// `referee match mancala` with a player given by its bare file name.
#[test]
fn a_bare_java_player_name_plays() {
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(fixture("mancala/goodPlayer.java"), tmp.path().join("goodPlayer.java")).unwrap();
    let run = referee_in(
        tmp.path(),
        &[
            "match",
            "mancala",
            "goodPlayer.java",
            "builtin:random",
            "--games",
            "1",
            "--time",
            "0.3",
            "-q",
            "--seed",
            "1",
        ],
    );
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(0), "{stdout}{stderr}");
    assert!(!stderr.contains("cannot") && !stdout.contains("build error"), "{stdout}{stderr}");
}

fn grade_one(dir: &Path, cmd: &str, extra: &[&str]) -> Output {
    let sub = dir.join("sub");
    if !sub.exists() {
        materialize(&fixture("submissions/python-stats"), &[], &sub);
    }
    let args = ["grade", "--suite", "builtin:takestones-stats-2019", "--dir", "sub", "--cmd", cmd];
    referee_in(dir, &[&args[..], extra].concat())
}

/// A one-line refusal with exit 2, naming `--cmd` and `what`.
fn refused(run: &Output, what: &str) {
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{}{stderr}", text(&run.stdout));
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("--cmd: ") && stderr.contains(what), "{stderr}");
    assert!(run.stdout.is_empty(), "nothing graded: {}", text(&run.stdout));
}

#[test]
fn an_interpreter_the_runs_cannot_reach_is_refused_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    refused(&grade_one(tmp.path(), "/nonexistent/python3 {dir}/takestones.py {args}", &[]), "does not exist");
    // A relative interpreter names nothing in a run's own folder.
    fs::create_dir_all(tmp.path().join("bin")).unwrap();
    std::os::unix::fs::symlink(python(), tmp.path().join("bin/python3")).unwrap();
    let run = grade_one(tmp.path(), "bin/python3 {dir}/takestones.py {args}", &[]);
    refused(&run, &format!("write {}", tmp.path().join("bin/python3").display()));
    // The same through Classroom 50's flow.
    let mut cmd = Command::cargo_bin("referee").unwrap();
    cmd.current_dir(tmp.path());
    cmd.args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir", "sub", "--format", "classroom50"]);
    cmd.args(["--cmd", "/nonexistent/python3 {dir}/takestones.py {args}"]);
    for (k, v) in crate::classroom50::RUNNER_ENV {
        cmd.env(k, v);
    }
    refused(&cmd.output().unwrap(), "does not exist");
    // As root, runs are a sandbox user's: an interpreter in a folder closed to others is out of its reach.
    if referee::harness::runner::sandbox::is_root() {
        let closed = tmp.path().join("closed");
        fs::create_dir_all(&closed).unwrap();
        std::os::unix::fs::symlink(python(), closed.join("python3")).unwrap();
        fs::set_permissions(&closed, fs::Permissions::from_mode(0o700)).unwrap();
        let cmd = format!("{} {{dir}}/takestones.py {{args}}", closed.join("python3").display());
        refused(&grade_one(tmp.path(), &cmd, &[]), "cannot be reached by the sandbox user");
        // Opened to others, it is reachable, and the hand-in is graded.
        fs::set_permissions(&closed, fs::Permissions::from_mode(0o755)).unwrap();
        let run = grade_one(tmp.path(), &cmd, &[]);
        assert_eq!(run.status.code(), Some(0), "{}{}", text(&run.stdout), text(&run.stderr));
    }
}

/// A class of the 2017 trace edition graded with the 2019 stats suite: correct programs of the other edition
/// fail, and the run blames the suite (exit 5, what to check), not the students, also when not every hand-in
/// fails the same way.
#[test]
fn a_suite_of_the_other_edition_is_a_suspected_grader_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    for name in ["alice", "bob", "carol"] {
        materialize(&fixture("submissions/python-trace"), &[], &class.join(name));
    }
    materialize(&fixture("submissions/python-stats"), &[], &class.join("dave"));
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let grade = |out: &str| {
        let out = tmp.path().join(out);
        let args = ["grade", "--suite", "builtin:takestones-stats-2019", "--submissions", class.to_str().unwrap()];
        let run = referee_in(tmp.path(), &[&args[..], &["--out", out.to_str().unwrap(), "--cmd", &cmd]].concat());
        (run.status.code(), text(&run.stdout), fs::read_to_string(out.join("report.html")).unwrap_or_default())
    };
    // Three of four fail alike (the other edition's output): most, not all.
    let (code, stdout, html) = grade("out-4");
    assert_eq!(code, Some(5), "{stdout}");
    let summary = stdout.find("  alice").unwrap_or_else(|| panic!("{stdout}"));
    let notices: Vec<&str> = stdout[..summary].lines().filter(|l| l.starts_with("suspected grader problem")).collect();
    assert!(notices.iter().any(|l| l.contains("3 of 4 hand-ins failed case")), "{stdout}");
    assert!(
        notices.iter().any(|l| l.contains("3 of 4 hand-ins print the other Take-Stones edition's output")),
        "{stdout}"
    );
    assert!(notices.iter().all(|l| l.contains("not final")), "{stdout}");
    assert!(html.contains("3 of 4 hand-ins print the other Take-Stones edition"), "report.html says it too");
    // Two of three: too few to be a shared failure, but most print the other edition's output.
    fs::remove_dir_all(class.join("carol")).unwrap();
    let (code, stdout, _) = grade("out-3");
    assert_eq!(code, Some(5), "{stdout}");
    assert!(stdout.contains("suspected grader problem: 2 of 3 hand-ins print the other Take-Stones edition's output"));
    assert!(stdout.contains("suite is of your assignment's edition"), "{stdout}");
}
