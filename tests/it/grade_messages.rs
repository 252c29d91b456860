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
