//! What `referee grade` says along the way and about its inputs: a line per finished student when stderr is not
//! a terminal, a Python syntax error reported once with its line, student ids from hand-in names (a single zip,
//! Canvas bulk downloads), a folder that is plainly not one submission refused as a usage error, and Gradescope's
//! `execution_time` in seconds that is never 0 for a run.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use referee::harness::model::{RunReport, Status, SubmissionResult};

use crate::grade::{fixture, grade, python};

fn python_cmd() -> String {
    format!("{} {{dir}}/takestones.py {{args}}", python())
}

fn copy_python_stats(into: &Path) {
    fs::create_dir_all(into).unwrap();
    for entry in fs::read_dir(fixture("submissions/python-stats")).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), into.join(entry.file_name())).unwrap();
    }
}

/// The correct Python program with a syntax error on line `line` (a `def` missing its closing parenthesis).
fn broken_python(into: &Path) -> usize {
    copy_python_stats(into);
    let path = into.join("takestones.py");
    let text = fs::read_to_string(&path).unwrap();
    let broken = format!("{text}\n\ndef broken(:\n    pass\n");
    fs::write(&path, &broken).unwrap();
    broken.lines().position(|l| l == "def broken(:").unwrap() + 1
}

fn read_result(out: &Path, id: &str) -> SubmissionResult {
    serde_json::from_slice(&fs::read(out.join(format!("results/{id}.json"))).unwrap()).unwrap()
}

#[test]
fn a_class_run_without_a_terminal_prints_a_line_per_student() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    copy_python_stats(&class.join("alice-HW2-P3"));
    copy_python_stats(&class.join("smithgina_LATE_12345_67890_gina-HW2-P3"));
    let broken_line = broken_python(&class.join("bob"));
    let out = work.path().join("out");
    let cmd = python_cmd();
    let run = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--submissions",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--cmd",
        &cmd,
        "-j",
        "2",
    ]);
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    // stderr is a pipe here: one line per student as each finishes, with its score, status and time.
    let finished: Vec<&str> = stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(finished.len(), 3, "{stderr}");
    for (id, outcome) in
        [("alice", "3 / 3  all passed"), ("smithgina", "3 / 3  all passed"), ("bob", "0 / 3  build error")]
    {
        let line = finished.iter().find(|l| l.contains(&format!("] {id}  "))).unwrap_or_else(|| panic!("{stderr}"));
        assert!(line.contains(&format!("{id}  {outcome}  (")) && line.ends_with(" s)"), "{line}");
    }
    for n in 1..=3 {
        assert!(finished.iter().any(|l| l.starts_with(&format!("[{n}/3] "))), "{stderr}");
    }

    // The syntax error is one build error with its file and line, not a nonzero exit on every case.
    let bob = read_result(&out, "bob");
    assert_eq!(bob.cases.iter().map(|c| c.status).collect::<Vec<_>>(), vec![Status::BuildError; 3]);
    let build = bob.build.unwrap();
    assert!(!build.ok);
    let head = format!("takestones.py does not parse: line {broken_line}: SyntaxError: ");
    assert!(build.message.starts_with(&head), "{}", build.message);
    assert!(build.message.contains("def broken(:"), "{}", build.message);
    assert!(bob.cases.iter().all(|c| c.detail.starts_with(&head)));

    // The Canvas name became the login; Gradescope's seconds are never 0 for a run of a fraction of a second.
    let gina = read_result(&out, "smithgina");
    assert_eq!(gina.score, 3.0);
    let gs: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("gradescope/smithgina/results.json")).unwrap()).unwrap();
    let seconds = gs["execution_time"].as_f64().unwrap();
    let measured: u64 = gina.cases.iter().map(|c| c.elapsed_ms).sum();
    assert!(seconds > 0.0 && seconds == measured.max(1) as f64 / 1000.0, "{seconds} for {measured} ms");
}

#[test]
fn a_single_zip_is_graded_under_its_students_id() {
    let work = tempfile::tempdir().unwrap();
    let folder = work.path().join("carol-HW2-P3");
    copy_python_stats(&folder);
    let zip_path = work.path().join("carol-HW2-P3.zip");
    let mut zip = zip::ZipWriter::new(fs::File::create(&zip_path).unwrap());
    for entry in fs::read_dir(&folder).unwrap() {
        let entry = entry.unwrap();
        let name = format!("carol-HW2-P3/{}", entry.file_name().to_string_lossy());
        zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut zip, &fs::read(entry.path()).unwrap()).unwrap();
    }
    zip.finish().unwrap();
    let cmd = python_cmd();
    let out = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--dir",
        zip_path.to_str().unwrap(),
        "--cmd",
        &cmd,
        "--format",
        "json",
    ]);
    let report: RunReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report.submissions[0].id, "carol");
    assert_eq!(report.submissions[0].score, 3.0);
}

#[test]
fn a_folder_that_is_not_one_submission_is_a_usage_error() {
    let work = tempfile::tempdir().unwrap();
    // Past the size limit of one submission (a sparse file: nothing is written).
    fs::File::create(work.path().join("big.iso")).unwrap().set_len(300 << 20).unwrap();
    let cmd = python_cmd();
    let run = |dir: &Path, extra: &[&str]| {
        Command::cargo_bin("referee")
            .unwrap()
            .current_dir(dir)
            .args(["grade", "--suite", "builtin:takestones-stats-2019", "--cmd", &cmd])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(work.path(), &[]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("referee grade: no --dir was given, so the current folder ("), "{stderr}");
    assert!(stderr.contains("larger than the limit of 256 MiB"), "{stderr}");
    assert!(stderr.contains("--dir FOLDER_OR_ZIP") && stderr.contains("--submissions ."), "{stderr}");

    // A class folder run without --dir or --submissions: no program, several hand-ins.
    let class = tempfile::tempdir().unwrap();
    copy_python_stats(&class.path().join("alice-HW2-P3"));
    copy_python_stats(&class.path().join("bob-HW2-P3"));
    let out = run(class.path(), &[]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("it holds no program, only 2 hand-ins"), "{stderr}");

    // A submission's own folders (no code at the top) are not hand-ins: it is graded.
    let project = tempfile::tempdir().unwrap();
    copy_python_stats(&project.path().join("src"));
    fs::create_dir_all(project.path().join("bin")).unwrap();
    let nested = format!("{} {{dir}}/src/takestones.py {{args}}", python());
    let out = Command::cargo_bin("referee")
        .unwrap()
        .current_dir(project.path())
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--cmd", &nested])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));

    // Named with --dir, a big folder holding several hand-ins is a class folder.
    fs::File::create(work.path().join("alice-HW2-P3.zip")).unwrap();
    fs::create_dir_all(work.path().join("bobHW2P3")).unwrap();
    let named = work.path().to_str().unwrap();
    let out = run(class.path(), &["--dir", named]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("--submissions {named}")), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_killed_graders_scratch_folder_is_removed_by_the_next_grader() {
    let work = tempfile::tempdir().unwrap();
    let slow = tempfile::tempdir().unwrap();
    fs::write(slow.path().join("takestones.py"), "import time\ntime.sleep(60)\n").unwrap();
    let cmd = python_cmd();
    let suite = "builtin:takestones-stats-2019";
    let mut grader = std::process::Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", suite, "--cmd", &cmd, "--timeout", "60s", "--dir"])
        .arg(slow.path())
        .arg("--work")
        .arg(work.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Its scratch folder, once marked.
    let marked = || {
        fs::read_dir(work.path())
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.join(".referee-owner").is_file())
    };
    let started = std::time::Instant::now();
    let left = loop {
        if let Some(dir) = marked() {
            break dir;
        }
        assert!(started.elapsed().as_secs() < 20, "the grader made no marked scratch folder");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    grader.kill().unwrap();
    grader.wait().unwrap();
    assert!(left.exists(), "SIGKILL leaves the folder behind");

    let good = tempfile::tempdir().unwrap();
    copy_python_stats(good.path());
    let next = grade(&[
        "--suite",
        suite,
        "--cmd",
        &cmd,
        "--dir",
        good.path().to_str().unwrap(),
        "--work",
        work.path().to_str().unwrap(),
    ]);
    assert_eq!(next.status.code(), Some(0), "{}", String::from_utf8_lossy(&next.stderr));
    assert!(!left.exists(), "the next grader removed the dead grader's scratch folder");
}

/// Issue 23, item 9: a program that hangs cost the timeout once per case. With `--max-timeouts 1` it costs one:
/// the rest of its cases are not run, and say why.
#[test]
fn after_max_timeouts_the_rest_of_a_students_cases_are_not_run() {
    let work = tempfile::tempdir().unwrap();
    let sub = work.path().join("sub");
    fs::create_dir_all(&sub).unwrap();
    fs::copy(fixture("hostile/sleep.py"), sub.join("takestones.py")).unwrap();
    let out = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--dir",
        sub.to_str().unwrap(),
        "--cmd",
        &python_cmd(),
        "--timeout",
        "1s",
        "--max-timeouts",
        "1",
        "-j",
        "1",
        "--format",
        "json",
    ]);
    let report: RunReport = serde_json::from_slice(&out.stdout).unwrap();
    let cases = &report.submissions[0].cases;
    assert_eq!(cases.iter().map(|c| c.status).collect::<Vec<_>>(), [Status::Timeout; 3]);
    assert!(!cases[0].detail.starts_with("not run"), "{}", cases[0].detail);
    for case in &cases[1..] {
        assert_eq!(case.detail, "not run: timed out 1 time");
        assert_eq!(case.elapsed_ms, 0);
    }
}

/// Issue 23, item 9: a build that failed without a word left `the build failed (exit code 1):` dangling, and each
/// case's line stopped at that header, with the compiler's message missing.
#[test]
fn a_failed_builds_lines_say_what_the_compiler_said_or_that_it_said_nothing() {
    let work = tempfile::tempdir().unwrap();
    let sub = work.path().join("sub");
    copy_python_stats(&sub);
    let json = |build: &str| -> SubmissionResult {
        let out = grade(&[
            "--suite",
            "builtin:takestones-stats-2019",
            "--dir",
            sub.to_str().unwrap(),
            "--build",
            build,
            "--cmd",
            &python_cmd(),
            "--format",
            "json",
        ]);
        let report: RunReport = serde_json::from_slice(&out.stdout).unwrap();
        report.submissions.into_iter().next().unwrap()
    };
    let silent = json("false");
    let message = &silent.build.as_ref().unwrap().message;
    assert_eq!(message, "the build failed (exit code 1), printing nothing on stdout or stderr");
    assert_eq!(silent.cases[0].detail, *message);
    fs::write(sub.join("Broken.java"), "class Broken { int x }\n").unwrap();
    let javac = json("javac -d {dir} {dir}/Broken.java");
    let detail = &javac.cases[0].detail;
    assert!(detail.starts_with("the build failed (exit code 1): ") && detail.contains("error:"), "{detail}");
}

/// Issue 23, item 9: a zip hand-in lost its files' execute bits, so a program graded as `{dir}/prog` could not
/// start and was reported as a harness error. A regular file's execute bit is kept (never set-id bits).
#[test]
fn a_zipped_program_keeps_its_execute_bit() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    let source = fs::read_to_string(fixture("submissions/python-stats/takestones.py")).unwrap();
    let program = format!("#!{}\n{source}", python());
    let mut zip = zip::ZipWriter::new(fs::File::create(class.join("alice-HW2-P3.zip")).unwrap());
    for (name, mode) in [("prog", 0o104_755), ("notes.txt", 0o644)] {
        zip.start_file(name, zip::write::SimpleFileOptions::default().unix_permissions(mode)).unwrap();
        std::io::Write::write_all(&mut zip, program.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    let out = work.path().join("out");
    let run = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--submissions",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--cmd",
        "{dir}/prog {args}",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(read_result(&out, "alice").score, 3.0);
}

/// Issue 23, item 9: a `package` line was not mentioned when the class was not found, though it is the reason: the
/// class is `hw2.TakeStones` in `{dir}/hw2`.
#[test]
fn check_names_the_package_line_when_the_class_is_not_found() {
    let java = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(fixture("submissions/java-stats")).unwrap() {
        let entry = entry.unwrap();
        let text = fs::read_to_string(entry.path()).unwrap();
        fs::write(java.path().join(entry.file_name()), format!("package hw2;\n\n{text}")).unwrap();
    }
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--shell", "--build", "javac -d {dir} {dir}/*.java"])
        .args(["--cmd", "java -cp {dir} TakeStones {args}", "--seed", "1", "--dir"])
        .arg(java.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    let line = text.lines().find(|l| l.starts_with("your program exited 1")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(".java declares `package hw2;`, so its class is hw2.<Name> in {dir}/hw2"), "{line}");
}

/// Issue 23, item 9: `check` was silent while it ran and Ctrl-C printed nothing. On a terminal a line shows each
/// run as it starts, with the seed; Ctrl-C ends the run in progress and prints the seed and how far it got.
#[test]
fn check_shows_its_progress_on_a_terminal_and_says_how_far_it_got_when_interrupted() {
    let dir = fixture("submissions/python-stats");
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let referee = assert_cmd::cargo::cargo_bin("referee");
    let quoted = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let line = format!(
        "{} check takestones --cmd {} --dir {} --seed 42 --cases 3",
        quoted(&referee.display().to_string()),
        quoted(&cmd),
        quoted(&dir.display().to_string())
    );
    // `script` gives the command a terminal; everything it drew comes back on script's stdout.
    let drawn =
        std::process::Command::new("script").args(["-qec", &line, "/dev/null"]).env("TERM", "xterm").output().unwrap();
    let text = String::from_utf8_lossy(&drawn.stdout);
    assert!(drawn.status.success(), "{text}");
    assert!(text.contains("run ") && text.contains("   seed 42"), "the ticker's line: {text}");

    let child = std::process::Command::new(&referee)
        .args(["check", "takestones", "--cmd", &cmd, "--seed", "42", "--cases", "100000", "--dir"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(3));
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "it stops at once");
    let said = stderr.lines().find(|l| l.contains("interrupted after")).unwrap_or_else(|| panic!("{stderr}"));
    let runs: usize = said.split("interrupted after ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(runs >= 1, "{said}");
    assert!(said.contains("seed 42 (replay with --seed 42)"), "{said}");
}

/// Issue 23, item 9: `grade --help` and the README gave different `--build` examples; the help now gives the
/// README's, with the `--shell` its `*` needs.
#[test]
fn grade_help_gives_the_readmes_build_example() {
    let help = Command::cargo_bin("referee").unwrap().args(["grade", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    // The README and the guides under docs/ are read as one text.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut readme = fs::read_to_string(root.join("README.md")).unwrap();
    for entry in fs::read_dir(root.join("docs")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|x| x == "md") {
            readme.push_str(&fs::read_to_string(entry.path()).unwrap());
        }
    }
    let example = "--shell --build 'javac -d {dir} {dir}/*.java'";
    assert!(readme.contains(example));
    assert!(help.contains(example), "{help}");
    // Every --build example in the README is one --help gives (with --shell where it needs a shell).
    for (i, _) in readme.match_indices("--build '") {
        let quoted = readme[i + 8..].split('\'').nth(1).unwrap();
        assert!(help.contains(&format!("--build '{quoted}'")), "README's --build '{quoted}' is not in --help");
    }
}
