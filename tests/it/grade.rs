//! `referee grade` end to end with real programs: Python and Java submissions, the reference binary itself, a
//! class of zipped hand-ins, and hostile programs that must each be contained with the right status.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use referee::harness::model::{Points, RunReport, Status, SubmissionResult};

use crate::variants::{materialize, python_wrong, CLASS};

use Status::{BuildError, Failed, Passed};

pub fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(path)
}

/// A Python the sandbox user can run (pyenv shims under /root are out of its reach).
pub fn python() -> String {
    if Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3".into()
    } else {
        "python3".into()
    }
}

/// Grades the class folder `class` into `out` with the correct Python command against the official stats cases,
/// plus `extra` arguments.
pub fn grade_python_class(class: &Path, out: &Path, extra: &[&str]) -> Output {
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let (class, out) = (class.to_str().unwrap(), out.to_str().unwrap());
    let args = ["--suite", "builtin:takestones-stats-2019", "--submissions", class, "--out", out, "--cmd", &cmd];
    grade(&[&args[..], extra].concat())
}

pub fn takestones_bin() -> String {
    assert_cmd::cargo::cargo_bin("takestones").display().to_string()
}

pub fn grade(args: &[&str]) -> Output {
    Command::cargo_bin("referee").unwrap().arg("grade").args(args).output().unwrap()
}

/// Grades one submission with `--format json` and returns the exit code and the report.
pub fn grade_json(args: &[&str]) -> (i32, RunReport) {
    let out = grade(&[args, &["--format", "json", "--color", "never"]].concat());
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON report ({e}); stderr: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), report)
}

pub fn statuses(s: &SubmissionResult) -> Vec<Status> {
    s.cases.iter().map(|c| c.status).collect()
}

fn python_stats(dir: &str) -> (i32, RunReport) {
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let dir = fixture(dir);
    grade_json(&["--suite", "builtin:takestones-stats-2019", "--dir", dir.to_str().unwrap(), "--cmd", &cmd])
}

/// Grades one of the wrong Python programs of `variants::PYTHON_WRONG` against the official stats cases.
fn python_wrong_stats(name: &str) -> (i32, RunReport) {
    let dir = tempfile::tempdir().unwrap();
    python_wrong(name, dir.path());
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    grade_json(&["--suite", "builtin:takestones-stats-2019", "--dir", dir.path().to_str().unwrap(), "--cmd", &cmd])
}

#[test]
fn correct_python_stats_passes_every_official_case() {
    let (code, report) = python_stats("submissions/python-stats");
    let s = &report.submissions[0];
    assert_eq!((code, statuses(s), s.score, s.max_score), (0, vec![Passed; 3], Points::whole(3), Points::whole(3)));
}

#[test]
fn correct_python_trace_passes_the_trace_cases() {
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let dir = fixture("submissions/python-trace");
    let (code, report) =
        grade_json(&["--suite", "builtin:takestones-trace-2017", "--dir", dir.to_str().unwrap(), "--cmd", &cmd]);
    assert_eq!((code, statuses(&report.submissions[0])), (0, vec![Passed; 5]));
}

#[test]
fn the_reference_binary_passes_the_course_folders_it_ships() {
    let bin = takestones_bin();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones");
    let empty = tempfile::tempdir().unwrap();
    for (suite, flags, n) in [("stats-2019", "", 3), ("trace-2017", "--edition trace", 5)] {
        let cmd = format!("{bin} {flags} {{args}}");
        let dir = empty.path().to_str().unwrap();
        let (code, report) = grade_json(&["--suite", root.join(suite).to_str().unwrap(), "--dir", dir, "--cmd", &cmd]);
        assert_eq!((code, statuses(&report.submissions[0])), (0, vec![Passed; n]), "{suite}");
    }
}

#[test]
fn correct_java_builds_and_passes() {
    let dir = fixture("submissions/java-stats");
    let (code, report) = grade_json(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--dir",
        dir.to_str().unwrap(),
        "--shell",
        "--build",
        "javac -d {dir} {dir}/*.java",
        "--cmd",
        "java -cp {dir} TakeStones {args}",
    ]);
    let s = &report.submissions[0];
    assert!(s.build.as_ref().is_some_and(|b| b.ok), "{:?}", s.build);
    assert_eq!((code, statuses(s)), (0, vec![Passed; 3]));
}

#[test]
fn wrong_submissions_get_exact_statuses_and_scores() {
    let table = [
        ("python-depth-off-by-one", vec![Passed, Failed, Failed], 1.0),
        ("python-wrong-format", vec![Failed, Failed, Failed], 0.0),
        ("python-crlf", vec![Failed, Failed, Failed], 0.0),
        ("python-no-final-newline", vec![Passed, Passed, Passed], 3.0),
    ];
    for (dir, expected, score) in table {
        let (code, report) = python_wrong_stats(dir);
        let s = &report.submissions[0];
        assert_eq!((statuses(s), s.score), (expected.clone(), Points::from_f64(score)), "{dir}");
        assert_eq!(code, if score == 3.0 { 0 } else { 1 }, "{dir}");
    }
    // The diagnosis names the bug in the report.
    let (_, report) = python_wrong_stats("python-depth-off-by-one");
    let causes = &report.submissions[0].cases[1].causes;
    assert!(causes.iter().any(|c| c.name == "depth-limit-off-by-one"), "{causes:?}");
    // The failed ones say where the output first differs.
    let (_, report) = python_wrong_stats("python-wrong-format");
    let d = report.submissions[0].cases[0].difference.clone().unwrap();
    assert_eq!((d.line, d.expected.as_deref()), (3, Some("Number of Nodes Visited: 4")));
}

/// A native suite: references computed at grade time, a normalized policy that forgives CRLF, line credit.
#[test]
fn native_suites_normalize_give_line_credit_and_name_accepted_readings() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.toml");
    fs::write(
        &suite,
        "name = \"demo\"\n[reference]\ngame = \"takestones\"\nedition = \"stats\"\n[compare]\nmode = \"normalized\"\n\
         line-credit = true\n[[case]]\nname = \"spec\"\nargs = \"7 3 1 4 2 3\"\nreference = true\npoints = 6\n\
         [[case]]\nname = \"deep\"\nargs = \"12 2 5 10 3\"\nreference = true\npoints = 6\n",
    )
    .unwrap();
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let run = |name: &str| {
        let d = tempfile::tempdir().unwrap();
        python_wrong(name, d.path());
        grade_json(&["--suite", suite.to_str().unwrap(), "--dir", d.path().to_str().unwrap(), "--cmd", &cmd])
    };
    let (code, report) = run("python-crlf");
    assert_eq!((code, statuses(&report.submissions[0])), (0, vec![Passed, Passed]));
    // One wrong label out of six lines: five sixths of each case.
    let (_, report) = run("python-wrong-format");
    let s = &report.submissions[0];
    assert_eq!(statuses(s), vec![Failed, Failed]);
    assert_eq!(s.cases[0].lines_matched, Some((5, 6)));
    assert_eq!(s.score, Points::whole(10), "{:?}", s.score);

    // The legal-moves reading of the composite rule: rejected by default, accepted and named with --accept.
    let bin = takestones_bin();
    let legal = format!("{bin} --composite legal-moves {{args}}");
    fs::write(
        &suite,
        "[reference]\ngame = \"takestones\"\n[[case]]\nname = \"composite\"\nargs = \"14 4 1 8 4 2 1\"\nreference = true\n",
    )
    .unwrap();
    let empty = tempfile::tempdir().unwrap();
    let e = empty.path().to_str().unwrap();
    let (code, report) = grade_json(&["--suite", suite.to_str().unwrap(), "--dir", e, "--cmd", &legal]);
    assert_eq!((code, statuses(&report.submissions[0])), (1, vec![Failed]));
    let (code, report) =
        grade_json(&["--suite", suite.to_str().unwrap(), "--dir", e, "--cmd", &legal, "--accept", "composite"]);
    let case = &report.submissions[0].cases[0];
    assert_eq!((code, case.status, case.reading.as_deref()), (0, Passed, Some("composite=legal-moves")));
}

#[test]
fn usage_and_suite_errors_exit_2_with_one_line() {
    let cases: [(&[&str], &str); 5] = [
        (&["--suite", "/nonexistent/suite", "--cmd", "true"], "/nonexistent/suite"),
        (&["--suite", "builtin:chess", "--cmd", "true"], "no built-in suite 'chess'"),
        (&["--suite", "builtin:takestones-stats-2019"], "no command"),
        (&["--suite", "builtin:takestones-stats-2019", "--cmd", "x 'y"], "unclosed quote"),
        (&["--suite", "builtin:takestones-stats-2019", "--cmd", "true", "--timeout", "soon"], "--timeout"),
    ];
    for (args, message) in cases {
        let out = grade(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// A missing interpreter is the TA's mistake: refused before anything runs (issue 33, item 4), never a student's
/// result.
#[test]
fn a_missing_interpreter_is_refused_not_the_students() {
    let empty = tempfile::tempdir().unwrap();
    let dir = empty.path().to_str().unwrap();
    let out = grade(&["--suite", "builtin:takestones-stats-2019", "--dir", dir, "--cmd", "/nonexistent/java {args}"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("--cmd: '/nonexistent/java' does not exist"), "{stderr}");
    assert!(out.stdout.is_empty());
}

/// The class of `variants::CLASS` in a temp folder, some hand-ins zipped the way students upload them.
fn class_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let staging = tempfile::tempdir().unwrap();
    for (name, changes) in CLASS {
        let folder = staging.path().join(name);
        materialize(&fixture("submissions/java-stats"), changes, &folder);
        match *name {
            // A zip holding the hand-in folder, and one holding the files at its root.
            "alice-HW2-P3" => zip_folder(&folder, &dir.path().join("alice-HW2-P3.zip"), Some(name)),
            "bobHW2P3" => zip_folder(&folder, &dir.path().join("bobHW2P3.zip"), None),
            _ => materialize(&folder, &[], &dir.path().join(name)),
        }
    }
    dir
}

fn zip_folder(from: &Path, to: &Path, inside: Option<&str>) {
    let mut zip = zip::ZipWriter::new(fs::File::create(to).unwrap());
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let name = inside.map_or(name.clone(), |d| format!("{d}/{name}"));
        zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut zip, &fs::read(e.path()).unwrap()).unwrap();
    }
    zip.finish().unwrap();
}

#[test]
fn a_class_of_java_hand_ins_writes_every_report() {
    let class = class_folder();
    let out = tempfile::tempdir().unwrap();
    let class_args = [
        "--suite",
        "builtin:takestones-stats-2019",
        "--submissions",
        class.path().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
        "--shell",
        "--build",
        "javac -d {dir} {dir}/*.java",
        "--cmd",
        "java -cp {dir} TakeStones {args}",
    ];
    let result = grade(&[&class_args[..], &["-j", "2"]].concat());
    assert_eq!(result.status.code(), Some(1), "{}", String::from_utf8_lossy(&result.stderr));
    let expected = [
        ("alice", vec![Passed, Passed, Passed]),
        ("bob", vec![Passed, Failed, Failed]),
        ("carol", vec![Failed, Failed, Failed]),
        ("dave", vec![BuildError, BuildError, BuildError]),
        ("erin", vec![Passed, Passed, Passed]),
        ("frank", vec![Passed, Passed, Failed]),
    ];
    for (id, want) in &expected {
        let json = fs::read(out.path().join(format!("results/{id}.json"))).unwrap();
        let s: SubmissionResult = serde_json::from_slice(&json).unwrap();
        assert_eq!(&statuses(&s), want, "{id}");
        let gs: serde_json::Value =
            serde_json::from_slice(&fs::read(out.path().join(format!("gradescope/{id}/results.json"))).unwrap())
                .unwrap();
        assert_eq!(gs["tests"].as_array().map(Vec::len), Some(3), "{id}");
        assert_eq!(gs["score"].as_f64(), Some(s.score.json()), "{id}");
        assert!(out.path().join(format!("feedback/{id}.md")).is_file());
    }
    let dave: SubmissionResult =
        serde_json::from_slice(&fs::read(out.path().join("results/dave.json")).unwrap()).unwrap();
    assert!(dave.build.unwrap().message.contains("';' expected"));
    let csv = fs::read_to_string(out.path().join("gradebook.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("alice,3,3")), "{csv}");
    let junit = fs::read_to_string(out.path().join("junit.xml")).unwrap();
    assert_eq!(junit.matches("<testsuite ").count(), 6);
    // A second run finds everyone graded and grades no one again.
    let again = grade(&class_args);
    assert!(String::from_utf8_lossy(&again.stdout).contains("graded 0 student(s), 6 already graded earlier"));
}

/// A class run over an `--out` that already holds results grades again exactly the students whose hand-in changed
/// (and says so, by name), and leaves everyone else's stored result as it was, byte for byte (timings included):
/// an unchanged hand-in is not run again.
#[test]
fn a_resubmission_is_graded_again_and_an_unchanged_hand_in_is_not() {
    let class = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    materialize(&fixture("submissions/python-stats"), &[], &class.path().join("alice-HW2-P3"));
    python_wrong("python-wrong-format", &class.path().join("bob-HW2-P3"));
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let (class_dir, out_dir) = (class.path().to_str().unwrap(), out.path().to_str().unwrap());
    let args =
        ["--suite", "builtin:takestones-stats-2019", "--submissions", class_dir, "--out", out_dir, "--cmd", &cmd];
    let record = |id: &str| fs::read(out.path().join(format!("results/{id}.json"))).unwrap();
    let parsed = |bytes: &[u8]| -> SubmissionResult { serde_json::from_slice(bytes).unwrap() };
    assert_eq!(grade(&args).status.code(), Some(1));
    let (alice, bob) = (record("alice"), parsed(&record("bob")));
    assert_eq!(bob.score, 0.0);

    // Bob hands in the correct program; the same command runs again.
    materialize(&fixture("submissions/python-stats"), &[], &class.path().join("bob-HW2-P3"));
    let again = grade(&args);
    let text = String::from_utf8_lossy(&again.stdout).into_owned();
    assert_eq!(again.status.code(), Some(0), "{text}");
    assert!(text.contains("graded 1 student(s), 1 already graded earlier"), "{text}");
    assert!(text.contains("re-graded 1 student whose hand-in changed since the last run: bob\n"), "{text}");
    let regraded = parsed(&record("bob"));
    assert_eq!((regraded.score, regraded.max_score), (Points::whole(3), Points::whole(3)));
    assert_ne!(regraded.run, bob.run, "bob's result comes from the new run");
    assert_eq!(record("alice"), alice, "alice's result was not touched");

    // Nothing changed since: nobody is graded, nobody is named.
    let third = grade(&args);
    let text = String::from_utf8_lossy(&third.stdout).into_owned();
    assert!(text.contains("graded 0 student(s), 2 already graded earlier") && !text.contains("re-graded"), "{text}");
}

/// Hand-ins that are not what they claim: a corrupt zip is the student's build error; a zip whose entries try to
/// climb out (`../`) is unpacked without them; two hand-ins for one id are both graded.
#[test]
fn broken_and_malicious_hand_ins() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    fs::write(class.join("mallory-HW2-P3.zip"), b"PK\x03\x04 this is not really a zip").unwrap();
    let mut zip = zip::ZipWriter::new(fs::File::create(class.join("slip-HW2-P3.zip")).unwrap());
    for (name, body) in [("../escaped.txt", "x"), ("slip/takestones.py", "print('Move: 1')\n")] {
        zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut zip, body.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    let out = work.path().join("out");
    let result = grade_python_class(&class, &out, &[]);
    assert_eq!(result.status.code(), Some(1), "{}", String::from_utf8_lossy(&result.stderr));
    let read = |id: &str| -> SubmissionResult {
        serde_json::from_slice(&fs::read(out.join(format!("results/{id}.json"))).unwrap()).unwrap()
    };
    let mallory = read("mallory");
    assert_eq!(statuses(&mallory), vec![BuildError; 3]);
    assert!(mallory.build.unwrap().message.contains("not a readable zip"));
    // The climbing entry was dropped; the real file was found inside the zip's folder and ran.
    assert_eq!(statuses(&read("slip")), vec![Failed; 3]);
    assert!(!work.path().join("escaped.txt").exists() && !class.join("escaped.txt").exists());

    // A second hand-in with the same id does not stop the class (issue 22, item 8): both are graded, each under
    // an id of its own, and the TA is told which is which.
    fs::create_dir_all(class.join("mallory")).unwrap();
    let out2 = work.path().join("out2");
    let dup = grade_python_class(&class, &out2, &[]);
    let stderr = String::from_utf8_lossy(&dup.stderr);
    assert_eq!(dup.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("2 hand-ins give the student id 'mallory', so each keeps a row of its own"), "{stderr}");
    assert_eq!(stored(&out2).len(), 3);
}

/// A case's stdin reaches the program; without one, stdin is closed (never an open pipe a program could wait on).
#[test]
fn stdin_is_the_cases_or_closed() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.toml");
    fs::write(
        &suite,
        "[[case]]\nname = \"fed\"\nstdin = \"hello\"\nexpected = \"read 5 bytes\\n\"\n\
         [[case]]\nname = \"closed\"\nexpected = \"read 0 bytes\\n\"\n",
    )
    .unwrap();
    let sub = tempfile::tempdir().unwrap();
    fs::copy(fixture("hostile/stdin_wait.py"), sub.path().join("takestones.py")).unwrap();
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let (code, report) =
        grade_json(&["--suite", suite.to_str().unwrap(), "--dir", sub.path().to_str().unwrap(), "--cmd", &cmd]);
    assert_eq!((code, statuses(&report.submissions[0])), (0, vec![Passed, Passed]));
}

/// The results a class run stored, by id.
fn stored(out: &Path) -> std::collections::BTreeMap<String, SubmissionResult> {
    fs::read_dir(out.join("results"))
        .unwrap()
        .map(|e| serde_json::from_slice::<SubmissionResult>(&fs::read(e.unwrap().path()).unwrap()).unwrap())
        .map(|r| (r.id.clone(), r))
        .collect()
}

/// Runs a class of the correct Python program under `names` (each a folder, or a zip when it ends in `.zip`).
fn python_class(names: &[&str]) -> (tempfile::TempDir, Output) {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(&class).unwrap();
    let staging = work.path().join("staging");
    materialize(&fixture("submissions/python-stats"), &[], &staging);
    for name in names {
        if name.ends_with(".zip") {
            zip_folder(&staging, &class.join(name), None);
        } else {
            materialize(&staging, &[], &class.join(name));
        }
    }
    let output = grade_python_class(&class, &work.path().join("out"), &["-j", "2"]);
    (work, output)
}

/// Issue 23, item 1: names beyond ASCII crashed the whole class run (a byte offset inside `é`); issue 22, item 8:
/// ids that clean up to the same id (`pat lee`, `pat_lee`) shared one scratch folder and one row, and control
/// characters reached the terminal raw. Now every hand-in keeps a row of its own, named after its letters.
#[test]
fn hand_in_names_in_any_script_each_keep_a_row_of_their_own() {
    let long = format!("{}-HW2-P3", "x".repeat(200));
    let names = [
        "José-HW2-P3",
        "zoë_12345_67890_zoë-HW2-P3.zip",
        "李雷-HW2-P3",
        "pat lee-HW2-P3",
        "pat_lee-HW2-P3",
        "eve\n\u{1b}[2Jmallory-HW2-P3",
        "-rf",
        long.as_str(),
    ];
    let (work, output) = python_class(&names);
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let results = stored(&work.path().join("out"));
    assert_eq!(results.len(), names.len(), "{:?}", results.keys());
    for id in ["José", "zoë", "李雷", "pat_lee", "_rf"] {
        assert!(results.get(id).is_some_and(|r| r.score == 3.0), "{id}: {:?}", results.keys());
    }
    // `pat_lee` keeps its id; `pat lee` gets a suffix from its own name, and the TA is told.
    let suffixed: Vec<&String> = results.keys().filter(|id| id.starts_with("pat_lee-")).collect();
    assert_eq!(suffixed.len(), 1, "{:?}", results.keys());
    assert!(stderr.contains(&format!("pat lee-HW2-P3 as {}", suffixed[0])), "{stderr}");
    assert!(results.keys().all(|id| id.chars().count() <= 48), "{:?}", results.keys());
    // The gradebook keeps every hand-in's name as it was.
    let gradebook = fs::read_to_string(work.path().join("out/gradebook.csv")).unwrap();
    for name in ["José-HW2-P3", "zoë_12345_67890_zoë-HW2-P3.zip", "李雷-HW2-P3", "pat lee-HW2-P3", long.as_str()] {
        assert!(gradebook.contains(name), "{name}: {gradebook}");
    }
    // No control character of a name reaches the terminal: one line per student, none broken or recolored.
    for text in [&stdout, &stderr] {
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
        assert!(!text.lines().any(|l| l.starts_with("\u{1b}") || l.starts_with("mallory")), "{text}");
    }
}

/// `--dir` names the one submission after its folder, in any script.
#[test]
fn a_single_hand_in_named_beyond_ascii_is_graded() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("José-HW2-P3");
    materialize(&fixture("submissions/python-stats"), &[], &dir);
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let (code, report) =
        grade_json(&["--suite", "builtin:takestones-stats-2019", "--dir", dir.to_str().unwrap(), "--cmd", &cmd]);
    assert_eq!((code, report.submissions[0].id.as_str(), report.submissions[0].score), (0, "José", Points::whole(3)));
}

/// Issue 23, item 5: with `--submissions .`, the results folder of the last run (and a scratch folder) sat among
/// the hand-ins and was graded as a student.
#[test]
fn the_output_folder_is_never_graded_as_a_student() {
    let work = tempfile::tempdir().unwrap();
    materialize(&fixture("submissions/python-stats"), &[], &work.path().join("alice-HW2-P3"));
    materialize(&fixture("submissions/python-stats"), &[], &work.path().join("bob-HW2-P3"));
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let run = |out: &str| {
        Command::cargo_bin("referee")
            .unwrap()
            .current_dir(work.path())
            .args(["grade", "--suite", "builtin:takestones-stats-2019", "--submissions", ".", "--cmd", &cmd])
            .args(["--out", out])
            .output()
            .unwrap()
    };
    for (n, out) in ["referee-results", "referee-results", "mine"].into_iter().enumerate() {
        // The last --out is an empty folder the TA made beforehand, the earlier runs' output moved away: an --out
        // is known by where it is, so an earlier run's left in the class folder would be graded as a hand-in.
        if out == "mine" {
            fs::remove_dir_all(work.path().join("referee-results")).unwrap();
            fs::create_dir_all(work.path().join("mine")).unwrap();
        }
        let output = run(out);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        let ids: Vec<String> = stored(&work.path().join(out)).into_keys().collect();
        assert_eq!(ids, ["alice", "bob"], "--out {out}: {stdout}");
        // Once the --out folder exists inside the class folder before the run, the TA is told it was skipped.
        assert_eq!(String::from_utf8_lossy(&output.stderr).contains("not graded as student"), n > 0);
    }
}

/// Issue 23, item 1: any name at all (any script, spaces, newlines, leading dashes): no panic, every hand-in keeps
/// its row, and nothing of a name reaches the terminal raw.
mod any_names {
    use proptest::prelude::*;

    use super::*;

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            "[^/\\x00.][^/\\x00]{0,24}",
            "-{1,3}[a-zé李 \\n\\t]{1,10}(-HW2-P3)?(\\.zip)?",
            "[\\p{L}\\p{M}]{1,12}[ _]?(HW2P3|-hw2-p3)?",
        ]
        .prop_filter("a name the file system takes", |n| {
            !n.is_empty() && n.len() <= 200 && n != "__MACOSX" && !n.starts_with('.')
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 5, ..ProptestConfig::default() })]
        #[test]
        fn any_hand_in_names_keep_their_rows(names in prop::collection::btree_set(name(), 1..5)) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let (work, output) = python_class(&names);
            let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
            prop_assert_eq!(output.status.code(), Some(0), "{}\n{}", stdout, stderr);
            let results = stored(&work.path().join("out"));
            prop_assert_eq!(results.len(), names.len(), "{:?}", results.keys());
            let sources: Vec<String> = results
                .values()
                .map(|r| Path::new(&r.source).file_name().unwrap().to_string_lossy().into_owned())
                .collect();
            for name in &names {
                prop_assert!(sources.iter().any(|s| s == name), "{:?} not among {:?}", name, sources);
            }
            for text in [&stdout, &stderr] {
                prop_assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{:?}", text);
            }
        }
    }
}

/// Issue 23, item 4: a TA's typo in `--cmd` fails every student the same way; the run says so above the summary
/// and in report.html, naming the line, and exits 5 rather than 1 ("some students failed").
#[test]
fn a_failure_every_hand_in_shares_is_named_as_the_graders() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for name in ["alice-HW2-P3", "bob-HW2-P3", "carol-HW2-P3"] {
        materialize(&fixture("submissions/python-stats"), &[], &class.join(name));
    }
    let out = work.path().join("out");
    let typo = format!("{} {{dir}}/takestone.py {{args}}", python());
    let run = |cmd: &str| {
        grade(&[
            "--suite",
            "builtin:takestones-stats-2019",
            "--submissions",
            class.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--cmd",
            cmd,
            "--fresh",
        ])
    };
    let output = run(&typo);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(5), "{stdout}");
    let notice =
        stdout.lines().find(|l| l.starts_with("suspected grader problem")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(notice.contains("all 3 hand-ins failed case") && notice.contains("takestone.py"), "{notice}");
    let summary = stdout.find("  alice").unwrap();
    assert!(stdout.find("suspected grader problem").unwrap() < summary, "above the summary: {stdout}");
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("suspected grader problem: all 3 hand-ins failed case"), "report.html names it");
    // Issue 33, item 2: no grade of that run is final: every file lists each hand-in as not graded, never the 0
    // it got (main wrote 0 for everyone in the gradebook and the platform files).
    let book = referee::harness::render::csv::read(fs::File::open(out.join("gradebook.csv")).unwrap()).unwrap();
    assert_eq!(book.rows.len(), 3);
    for row in &book.rows {
        assert_eq!(row.score, None, "{}: an empty score cell", row.id);
        assert!(row.outcome.starts_with("not graded: not final: suspected grader problem"), "{}", row.outcome);
        assert!(!out.join("gradescope").join(&row.id).join("results.json").exists(), "{}", row.id);
        let feedback = fs::read_to_string(out.join("feedback").join(format!("{}.md", row.id))).unwrap();
        assert!(feedback.starts_with(&format!("# {}: not graded\n", row.id)), "{feedback}");
        let line = stdout.lines().find(|l| l.trim_start().starts_with(row.id.as_str())).unwrap();
        assert!(line.contains("not graded: not final") && !line.contains(" 0 / "), "{line}");
    }
    let report: serde_json::Value = serde_json::from_slice(&fs::read(out.join("report.json")).unwrap()).unwrap();
    assert!(report["submissions"].as_array().unwrap().iter().all(|s| s["score"].is_null()), "{report}");
    // Fixed, the same class passes; a wrong program among right ones is only that student's failure.
    python_wrong("python-wrong-format", &class.join("carol-HW2-P3"));
    let fixed = run(&format!("{} {{dir}}/takestones.py {{args}}", python()));
    let stdout = String::from_utf8_lossy(&fixed.stdout);
    assert_eq!(fixed.status.code(), Some(1), "{stdout}");
    assert!(
        !stdout.contains("suspected") && !fs::read_to_string(out.join("report.html")).unwrap().contains("suspected")
    );
    // And the grades are final again, in every file.
    let book = referee::harness::render::csv::read(fs::File::open(out.join("gradebook.csv")).unwrap()).unwrap();
    assert!(book.rows.iter().all(|r| r.score.is_some() && r.outcome.is_empty()), "{book:?}");
    for row in &book.rows {
        assert!(out.join("gradescope").join(&row.id).join("results.json").exists(), "{}", row.id);
    }
}

/// Issue 23, item 9: a hand-in removed from the class folder stayed in gradebook.csv and report.html but not in
/// the terminal summary. Now one list everywhere, and the removed one is named as left out.
#[test]
fn a_removed_hand_in_is_left_out_everywhere_and_said() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for name in ["alice-HW2-P3", "bob-HW2-P3", "carol-HW2-P3"] {
        materialize(&fixture("submissions/python-stats"), &[], &class.join(name));
    }
    let out = work.path().join("out");
    assert_eq!(grade_python_class(&class, &out, &[]).status.code(), Some(0));
    fs::remove_dir_all(class.join("bob-HW2-P3")).unwrap();
    let again = grade_python_class(&class, &out, &[]);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(0), "{stdout}");
    let listed: Vec<&str> =
        stdout.lines().filter(|l| l.starts_with("  ")).map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(listed, ["alice", "carol"], "{stdout}");
    assert!(
        stdout.contains("left out: 1 stored result of hand-in no longer in the class folder (kept in results/): bob"),
        "{stdout}"
    );
    let gradebook = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    let rows: Vec<&str> = gradebook.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(rows, listed, "{gradebook}");
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("left out: 1 stored result") && !html.contains("feedback/bob.md"), "report.html");
    assert!(out.join("results/bob.json").is_file(), "nothing is deleted");
}

/// Issue 33, item 4: a TA's command mistake stops `grade` before anyone is graded, as it stops the bundle (a
/// `--cmd` without `{args}`, a pattern with no shell to expand it); an explicit `sh -c` expands its own patterns.
#[test]
fn a_command_mistake_stops_grade_before_anyone_is_graded_and_an_explicit_shell_is_no_mistake() {
    let dir = fixture("submissions/python-stats");
    let py = python();
    let suite = ["--suite", "builtin:takestones-stats-2019", "--dir", dir.to_str().unwrap()];
    for (cmd, said) in [
        (format!("{py} {{dir}}/takestones.py"), "has no {args}"),
        (format!("{py} {{dir}}/takestones.py {{args}} | cat"), "has `|`"),
    ] {
        let out = grade(&[&suite[..], &["--cmd", &cmd]].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {stderr}");
        assert!(stderr.contains(said) && stderr.contains("--solution"), "{cmd}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing graded: {}", String::from_utf8_lossy(&out.stdout));
    }
    let cmd = format!("sh -c '{py} \"$0\"/takestones.py \"$@\"' {{dir}} {{args}}");
    let out = grade(&[&suite[..], &["--cmd", &cmd]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{cmd}: {stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// Issue 23, item 3: a TA's command mistake gave every student zero. With `--solution`, a known-correct hand-in
/// is graded first with the same command, suite and sandbox; short of full marks, no student is graded (exit 3,
/// naming its first failing case).
#[test]
fn a_solution_without_full_marks_stops_the_run_before_any_student() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for name in ["alice-HW2-P3", "bob-HW2-P3"] {
        materialize(&fixture("submissions/java-stats"), &[], &class.join(name));
    }
    let solution = work.path().join("solution");
    materialize(&fixture("submissions/java-stats"), &[], &solution);
    let out = work.path().join("out");
    let run = |build: &str, extra: &[&str]| {
        grade(
            &[
                &[
                    "--suite",
                    "builtin:takestones-stats-2019",
                    "--submissions",
                    class.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                    "--solution",
                    solution.to_str().unwrap(),
                    "--build",
                    build,
                    "--cmd",
                    "java -cp {dir} TakeStones {args}",
                ][..],
                extra,
            ]
            .concat(),
        )
    };
    // `*.java` without --shell: javac gets a file literally named `*.java`.
    let unexpanded = run("javac -d {dir} {dir}/*.java", &[]);
    let stderr = String::from_utf8_lossy(&unexpanded.stderr);
    assert_eq!(unexpanded.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("warning: --build 'javac -d {dir} {dir}/*.java' has `*`"), "{stderr}");
    let line = stderr.lines().find(|l| l.contains("--solution")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        line.contains("gets 0 / 3, not full marks; its first failing case is") && line.contains("build error"),
        "{line}"
    );
    assert!(line.contains("no student was graded"), "{line}");
    assert!(stored_count(&out) == 0, "no student ran");
    // With --shell the solution passes, and the class is graded.
    let fine = run("javac -d {dir} {dir}/*.java", &["--shell"]);
    let stderr = String::from_utf8_lossy(&fine.stderr);
    assert_eq!(fine.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("full marks (3 / 3)"), "{stderr}");
    assert_eq!(stored_count(&out), 2);
}

fn stored_count(out: &Path) -> usize {
    fs::read_dir(out.join("results")).map_or(0, |d| d.count())
}

/// Issue 23, item 1: no single hand-in may stop the class, and one the grader cannot read gets a row that says so,
/// as the grader's problem: a link into nowhere and a `.zip` that is a pipe (opening it would wait forever).
#[test]
fn a_hand_in_the_grader_cannot_read_gets_a_row_saying_so() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    materialize(&fixture("submissions/python-stats"), &[], &class.join("alice-HW2-P3"));
    std::os::unix::fs::symlink("/nonexistent/ghost", class.join("ghost-HW2-P3")).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(class.join("pipe-HW2-P3.zip")).status().unwrap();
    assert!(fifo.success());
    let out = work.path().join("out");
    let run = grade_python_class(&class, &out, &[]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(3), "the grader's problem, not the students': {stdout}");
    let results = stored(&out);
    assert_eq!(results.keys().collect::<Vec<_>>(), ["alice", "ghost", "pipe"], "{stdout}");
    assert_eq!(results["alice"].score, 3.0);
    for id in ["ghost", "pipe"] {
        let r = &results[id];
        assert!(r.cases.iter().all(|c| c.status == Status::HarnessError), "{id}: {:?}", r.cases);
        let message = &r.build.as_ref().unwrap().message;
        assert!(message.starts_with("the grader could not read the hand-in: "), "{id}: {message}");
        // Issue 33, item 2: the grader's failure writes nothing final for the student: no score in the gradebook
        // (main wrote 0) and no Gradescope file to upload.
        assert!(!out.join("gradescope").join(id).join("results.json").exists(), "{id}");
    }
    let book = referee::harness::render::csv::read(fs::File::open(out.join("gradebook.csv")).unwrap()).unwrap();
    let scores: Vec<(&str, bool)> = book.rows.iter().map(|r| (r.id.as_str(), r.score.is_some())).collect();
    assert_eq!(scores, [("alice", true), ("ghost", false), ("pipe", false)]);
    assert!(book.rows[1].outcome.starts_with("not graded: the grader failed"), "{}", book.rows[1].outcome);
}
