//! `referee gradescope bundle` end to end: each zip is unpacked into a fake autograder root (a temp folder, through
//! `AUTOGRADER_ROOT`) the way Gradescope lays it out, the real `run_autograder` grades a real submission there, and
//! `results.json` is checked field by field against Gradescope's documented format
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>, "Output format").

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Map, Value};

use crate::grade::{fixture, python};
use crate::variants::{materialize, python_wrong, CLASS};

/// Writes a bundle made from `grade` (the `referee grade` arguments) and returns the zip.
fn bundle(dir: &Path, name: &str, grade: &[&str]) -> PathBuf {
    bundle_with(dir, name, &[], grade)
}

/// [`bundle`] with bundle `options` (`--points`, `--visibility`, ...).
pub fn bundle_with(dir: &Path, name: &str, options: &[&str], grade: &[&str]) -> PathBuf {
    let zip = dir.join(format!("{name}.zip"));
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["gradescope", "bundle", "--out", zip.to_str().unwrap()])
        .args(options)
        .arg("--")
        .args(grade)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    zip
}

/// Lays the bundle out under a fresh root as Gradescope does: the zip in `source/`, `run_autograder` copied up.
pub fn install(zip: &Path, root: &Path) {
    let mut archive = zip::ZipArchive::new(fs::File::open(zip).unwrap()).unwrap();
    archive.extract(root.join("source")).unwrap();
    fs::copy(root.join("source/run_autograder"), root.join("run_autograder")).unwrap();
    fs::create_dir_all(root.join("submission")).unwrap();
}

/// Runs the real run_autograder against `root` with `submission` copied in, and returns results.json.
fn autograde(zip: &Path, submission: &dyn Fn(&Path)) -> Value {
    let root = tempfile::tempdir().unwrap();
    install(zip, root.path());
    submission(&root.path().join("submission"));
    run_autograder(root.path())
}

pub fn run_autograder(root: &Path) -> Value {
    let out = std::process::Command::new("bash")
        .arg(root.join("run_autograder"))
        .env("AUTOGRADER_ROOT", root)
        .output()
        .unwrap();
    assert!(out.status.success(), "run_autograder: {}", String::from_utf8_lossy(&out.stderr));
    let bytes = fs::read(root.join("results/results.json")).unwrap();
    let value: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!("results.json is not JSON ({e}): {}\n{}", String::from_utf8_lossy(&bytes), stderr_of(&out))
    });
    validate(&value);
    value
}

/// Runs the real run_autograder against `root` for a submission that gets no score (issue 33, item 2: the grader
/// failed, or it was not graded): no results.json is left (so Gradescope records no score, never a 0) and the exit
/// code is nonzero; returns the exit code and what it printed (the autograder output the staff see).
pub fn run_autograder_unscored(root: &Path) -> (Option<i32>, String) {
    let out = std::process::Command::new("bash")
        .arg(root.join("run_autograder"))
        .env("AUTOGRADER_ROOT", root)
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr_of(&out));
    let results = root.join("results/results.json");
    assert!(
        !results.exists(),
        "a results.json for a submission without a score: {}",
        fs::read_to_string(&results).unwrap_or_default()
    );
    assert!(!out.status.success(), "{said}");
    (out.status.code(), said)
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const VISIBILITIES: [&str; 4] = ["visible", "hidden", "after_due_date", "after_published"];

/// Every field against the specification: only documented keys, each of its documented type and values.
fn validate(results: &Value) {
    let top = results.as_object().expect("results.json is an object");
    let known = [
        "score",
        "execution_time",
        "output",
        "output_format",
        "test_output_format",
        "test_name_format",
        "visibility",
        "stdout_visibility",
        "extra_data",
        "tests",
        "leaderboard",
    ];
    keys(top, &known, "results.json");
    let tests = top["tests"].as_array().expect("tests is an array");
    let score = top.get("score").map(|s| s.as_f64().expect("score is a number"));
    assert!(score.is_some() || tests.iter().all(|t| t.get("score").is_some()), "a score somewhere");
    if let Some(t) = top.get("execution_time") {
        assert!(t.as_u64().is_some(), "execution_time is whole seconds: {t}");
    }
    assert!(top["output"].as_str().is_some_and(|o| !o.is_empty()), "output is text");
    for key in ["visibility", "stdout_visibility"] {
        if let Some(v) = top.get(key) {
            assert!(VISIBILITIES.contains(&v.as_str().unwrap()), "{key}: {v}");
        }
    }
    let mut sum = 0.0;
    for (i, test) in tests.iter().enumerate() {
        let test = test.as_object().expect("a test is an object");
        let what = format!("tests[{i}]");
        keys(
            test,
            &[
                "score",
                "max_score",
                "status",
                "name",
                "name_format",
                "number",
                "output",
                "output_format",
                "tags",
                "visibility",
                "extra_data",
            ],
            &what,
        );
        let s = test["score"].as_f64().expect("score");
        let max = test["max_score"].as_f64().expect("max_score");
        assert!(s >= 0.0 && s <= max + 1e-9, "{what}: {s} of {max}");
        sum += s;
        assert!(["passed", "failed"].contains(&test["status"].as_str().unwrap()), "{what}: status");
        assert!(test["name"].as_str().is_some_and(|n| !n.is_empty()), "{what}: name");
        assert_eq!(test["number"].as_str(), Some((i + 1).to_string().as_str()), "{what}: number");
        assert!(test["output"].as_str().is_some(), "{what}: output");
        if let Some(tags) = test.get("tags") {
            assert!(tags.as_array().unwrap().iter().all(Value::is_string), "{what}: tags");
        }
        assert!(VISIBILITIES.contains(&test["visibility"].as_str().unwrap()), "{what}: visibility");
    }
    if let Some(score) = score {
        assert!((score - sum).abs() < 1e-6, "score {score} is the sum of the tests' {sum}");
    }
    if let Some(board) = top.get("leaderboard") {
        for entry in board.as_array().expect("leaderboard is an array") {
            let entry = entry.as_object().unwrap();
            keys(entry, &["name", "value", "order"], "leaderboard entry");
            assert!(entry["name"].is_string());
            assert!(entry["value"].is_number() || entry["value"].is_string());
            if let Some(order) = entry.get("order") {
                assert!(["asc", "desc"].contains(&order.as_str().unwrap()));
            }
        }
    }
}

fn keys(object: &Map<String, Value>, known: &[&str], what: &str) {
    for key in object.keys() {
        assert!(known.contains(&key.as_str()), "{what}: '{key}' is not in Gradescope's format");
    }
}

fn statuses(results: &Value) -> Vec<&str> {
    results["tests"].as_array().unwrap().iter().map(|t| t["status"].as_str().unwrap()).collect()
}

fn java_class_student(name: &str) -> impl Fn(&Path) {
    let changes = CLASS.iter().find(|(n, _)| n.starts_with(name)).unwrap().1;
    move |dir: &Path| materialize(&fixture("submissions/java-stats"), changes, dir)
}

#[test]
fn a_java_bundle_grades_correct_buggy_and_broken_submissions() {
    let tmp = tempfile::tempdir().unwrap();
    let zip = bundle(
        tmp.path(),
        "java",
        &[
            "--suite",
            "builtin:takestones-stats-2019",
            "--shell",
            "--build",
            "javac -d {dir} {dir}/*.java",
            "--cmd",
            "java -cp {dir} TakeStones {args}",
        ],
    );
    let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
    for name in ["setup.sh", "run_autograder", "config.json", "referee"] {
        let file = archive.by_name(name).unwrap();
        if name != "config.json" {
            assert_eq!(file.unix_mode().map(|m| m & 0o111), Some(0o111), "{name} is executable");
        }
    }
    let mut setup = String::new();
    std::io::Read::read_to_string(&mut archive.by_name("setup.sh").unwrap(), &mut setup).unwrap();
    assert!(setup.contains("PACKAGES=\"openjdk-17-jdk-headless\""), "{setup}");
    assert!(!setup.contains("python3"), "{setup}");

    let correct = autograde(&zip, &java_class_student("alice"));
    assert_eq!(statuses(&correct), ["passed"; 3]);
    assert_eq!(correct["score"], 3.0);
    assert_eq!(correct["stdout_visibility"], "hidden");
    let buggy = autograde(&zip, &java_class_student("bob"));
    assert_eq!(statuses(&buggy), ["passed", "failed", "failed"]);
    assert!(buggy["tests"][1]["output"].as_str().unwrap().contains("first difference"), "{buggy}");
    let broken = autograde(&zip, &java_class_student("dave"));
    assert_eq!(broken["score"], 0.0);
    let output = broken["output"].as_str().unwrap();
    assert!(output.contains("The build failed") && output.contains("';' expected"), "{output}");
}

#[test]
fn a_python_bundle_ships_its_suite_folder_and_reports_a_grader_failure_as_such() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones/stats-2019");
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let options = ["--points", "30", "--visibility", "after_due_date", "--stdout-visibility", "visible"];
    let zip = bundle_with(tmp.path(), "python", &options, &["--suite", suite.to_str().unwrap(), "--cmd", &cmd]);
    let config: Value = {
        let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
        assert!(archive.by_name("suite/testcase.txt").is_ok() && archive.by_name("suite/output3.txt").is_ok());
        serde_json::from_reader(archive.by_name("config.json").unwrap()).unwrap()
    };
    assert_eq!(config["grade"][1], "{source}/suite", "{config}");
    let correct = autograde(&zip, &|dir| {
        fs::copy(fixture("submissions/python-stats/takestones.py"), dir.join("takestones.py")).unwrap();
    });
    assert_eq!(statuses(&correct), ["passed"; 3]);
    // --points 30 scales the three 1-point cases to 10 points each; the visibilities are the bundle's.
    assert_eq!((correct["score"].as_f64(), correct["tests"][0]["max_score"].as_f64()), (Some(30.0), Some(10.0)));
    assert_eq!(correct["visibility"], "after_due_date");
    assert_eq!(correct["stdout_visibility"], "visible");
    // Issue 33: a test's visibility overrides the top level on Gradescope, so none may be sooner than the bundle's;
    // the summary states the score Gradescope records (not "3 / 3" beside 30), as declared plain text.
    let tests = correct["tests"].as_array().unwrap();
    assert!(tests.iter().all(|t| t["visibility"] == "after_due_date"), "{correct}");
    assert_eq!(correct["output_format"], "text");
    assert!(correct["output"].as_str().unwrap().starts_with("Score: 30 / 30."), "{correct}");
    let buggy = autograde(&zip, &|dir| python_wrong("python-depth-off-by-one", dir));
    assert!(statuses(&buggy).contains(&"failed"), "{buggy}");
    assert!(buggy["score"].as_f64().unwrap() < 30.0);

    // The grader's own failure (here: an interpreter that is not installed) is never the student's.
    let root = tempfile::tempdir().unwrap();
    install(&zip, root.path());
    let path = root.path().join("source/config.json");
    fs::write(&path, fs::read_to_string(&path).unwrap().replace(&python(), "/nonexistent/python3")).unwrap();
    // Refused before anything runs (issue 33, item 4): the TA's command, never the student's fault; and (item 2)
    // no results.json, so Gradescope records no score (main wrote "score": 0.0); exit 3.
    let (code, said) = run_autograder_unscored(root.path());
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("/nonexistent/python3") && said.contains("not a fault in the submission"), "{said}");
    // A grader that cannot even start leaves none either.
    fs::remove_file(root.path().join("source/referee")).unwrap();
    let (code, said) = run_autograder_unscored(root.path());
    assert_ne!(code, Some(0), "{said}");
    // Nor does a broken configuration.
    let root2 = tempfile::tempdir().unwrap();
    install(&zip, root2.path());
    fs::write(root2.path().join("source/config.json"), "{").unwrap();
    let (code, said) = run_autograder_unscored(root2.path());
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("config.json is not valid"), "{said}");
}

#[test]
fn game_bundles_grade_a_mancala_player_and_an_othello_agent_with_a_leaderboard() {
    let tmp = tempfile::tempdir().unwrap();
    let mancala = bundle(
        tmp.path(),
        "mancala",
        &["mancala", "--stones", "2", "--time", "0.15", "--tolerance", "0.2", "--points", "10", "--seed", "3"],
    );
    let player = autograde(&mancala, &|dir| {
        crate::variants::mancala_player("quickPlayer", dir);
    });
    assert!(player["score"].as_f64().unwrap() >= 5.0, "quickPlayer beats builtin:random: {player}");
    let names: Vec<&str> = player["tests"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"beats builtin:random") && names.iter().any(|n| n.starts_with("vs builtin:simple")));
    let board = player["leaderboard"].as_array().unwrap();
    assert_eq!(board[0]["name"], "Score");
    assert_eq!(board[0]["value"], player["score"]);

    let python = python();
    let othello = bundle(
        tmp.path(),
        "othello",
        &["othello", "--size", "4", "--time", "2", "--games", "1", "--check-cases", "5", "--python", &python],
    );
    let agent = autograde(&othello, &|dir| {
        fs::copy(fixture("othello/modules/limit_ai.py"), dir.join("ab2101_ai.py")).unwrap();
    });
    assert!(agent["score"].as_f64().unwrap() > 0.0, "{agent}");
    assert!(agent["leaderboard"][1]["value"].as_u64().is_some(), "{agent}");
    let broken = autograde(&othello, &|dir| fs::write(dir.join("xx1_ai.py"), "def run_ai(:\n").unwrap());
    assert_eq!(broken["score"], 0.0);
    assert!(broken["output"].as_str().unwrap().contains("SyntaxError"), "{broken}");
}

#[test]
fn grade_arguments_are_checked_when_bundling() {
    let tmp = tempfile::tempdir().unwrap();
    let zip = tmp.path().join("a.zip");
    for (args, message) in [
        (&["--suite", "builtin:nope", "--cmd", "x"][..], "--suite"),
        (
            &["--suite", "builtin:takestones-stats-2019", "--cmd", "x", "--dir", "d"][..],
            "--dir: the autograder supplies",
        ),
        (&["--suite", "builtin:takestones-stats-2019", "--cmd", "x", "--bogus"][..], "--bogus"),
        (&["mancala", "--stones", "x"][..], "--stones"),
    ] {
        let out = Command::cargo_bin("referee")
            .unwrap()
            .args(["gradescope", "bundle", "--out", zip.to_str().unwrap(), "--"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message) && stderr.lines().count() == 1, "{args:?}: {stderr}");
        assert!(!zip.exists());
    }
}

/// The shipped binary must run on Gradescope's images: its highest GLIBC_2.x symbol version at most Ubuntu 22.04's
/// glibc 2.35 (24.04 has 2.39).
#[test]
fn the_shipped_binary_needs_no_newer_glibc_than_ubuntu_22_04() {
    let binary = assert_cmd::cargo::cargo_bin("referee");
    let Ok(out) = std::process::Command::new("objdump").arg("-T").arg(&binary).output() else {
        panic!("objdump (binutils) is needed to read the binary's symbol versions");
    };
    let table = String::from_utf8_lossy(&out.stdout);
    let versions: Vec<(u32, u32)> = table
        .split("GLIBC_")
        .skip(1)
        .filter_map(|rest| {
            let v: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            let mut parts = v.split('.').map(|p| p.parse::<u32>().ok());
            Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
        })
        .collect();
    let highest = versions.iter().max().copied().expect("a dynamically linked binary names glibc versions");
    assert!(highest <= (2, 35), "needs GLIBC_{}.{}; Ubuntu 22.04 has 2.35", highest.0, highest.1);
    assert!(highest <= (2, 39), "Ubuntu 24.04 has 2.39");
}

/// Issue 23, item 3: a bundle that would give every student zero was written without a word. Without
/// `--solution`, what the arguments show to be wrong is refused; with one, the solution is graded first and only a
/// bundle it gets full marks from is written.
#[test]
fn a_bundle_is_refused_when_its_arguments_cannot_grade_a_correct_program() {
    let tmp = tempfile::tempdir().unwrap();
    let zip = tmp.path().join("a.zip");
    let bundle_run = |options: &[&str], args: &[&str]| {
        let _ = fs::remove_file(&zip);
        let out = Command::cargo_bin("referee")
            .unwrap()
            .args(["gradescope", "bundle", "--out", zip.to_str().unwrap()])
            .args(options)
            .arg("--")
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), stderr_of(&out))
    };
    let suite = ["--suite", "builtin:takestones-stats-2019"];
    for (args, message) in [
        (&["--build", "javac -d {dir} {dir}/*.java", "--cmd", "java -cp {dir} TakeStones {args}"][..], "has `*`"),
        (&["--cmd", "python3 {dir}/takestones.py {args} | head"][..], "has `|`"),
        (&["--cmd", "java -cp {dir} TakeStones"][..], "has no {args}"),
    ] {
        let (code, stderr) = bundle_run(&[], &[&suite[..], args].concat());
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message) && stderr.lines().count() == 1, "{args:?}: {stderr}");
        assert!(!zip.exists());
    }
    let (code, stderr) = bundle_run(&[], &["othello", "--size", "7"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--size 7"), "{stderr}");
    assert!(!zip.exists(), "othello --size 7 is refused, not bundled");

    // A solution proves a command right or wrong: a typo inside --shell is caught by it (exit 3, no zip) ...
    let solution = tmp.path().join("solution");
    materialize(&fixture("submissions/python-stats"), &[], &solution);
    let solution_arg = ["--solution", solution.to_str().unwrap()];
    let py = python();
    let typo = format!("{py} {{dir}}/takestone.py {{args}}");
    let (code, stderr) = bundle_run(&solution_arg, &[&suite[..], &["--shell", "--cmd", &typo]].concat());
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("not full marks") && stderr.contains("takestone.py"), "{stderr}");
    assert!(stderr.contains("no bundle was written") && !zip.exists(), "{stderr}");
    // ... and a right one is bundled with the solution and its result.
    let right = format!("{py} {{dir}}/takestones.py {{args}}");
    let (code, stderr) = bundle_run(&solution_arg, &[&suite[..], &["--cmd", &right]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
    assert!(archive.by_name("solution/takestones.py").is_ok());
    let shipped: referee::harness::model::SubmissionResult =
        serde_json::from_reader(archive.by_name("solution.json").unwrap()).unwrap();
    assert_eq!(
        (shipped.score, shipped.max_score),
        (referee::harness::model::Points::whole(3), referee::harness::model::Points::whole(3))
    );
}

/// Issue 23, item 3: the bundle ships the solution so the autograder can tell a broken set-up on Gradescope from
/// a student's fault: when a submission loses points and the solution, graded again in the container, does too,
/// the student is told the autograder is broken, not given the points lost.
#[test]
fn the_autograder_says_it_is_broken_when_the_solution_fails_in_the_container() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    materialize(&Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones/stats-2019"), &[], &suite);
    let solution = tmp.path().join("solution");
    materialize(&fixture("submissions/python-stats"), &[], &solution);
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let zip = bundle_with(
        tmp.path(),
        "python",
        &["--solution", solution.to_str().unwrap()],
        &["--suite", suite.to_str().unwrap(), "--cmd", &cmd],
    );
    // In a sound container, a buggy program is the student's own result.
    let buggy = autograde(&zip, &|dir| python_wrong("python-depth-off-by-one", dir));
    assert!(statuses(&buggy).contains(&"failed") && buggy["score"].as_f64() < Some(3.0), "{buggy}");
    assert!(!buggy["output"].as_str().unwrap_or("").contains("broken"), "{buggy}");
    // A container whose suite went wrong: the correct program loses a case, and so does the solution.
    let root = tempfile::tempdir().unwrap();
    install(&zip, root.path());
    let expected = root.path().join("source/suite/output1.txt");
    fs::write(&expected, fs::read_to_string(&expected).unwrap().replacen('1', "2", 1)).unwrap();
    materialize(&fixture("submissions/python-stats"), &[], &root.path().join("submission"));
    // Issue 33, item 2: the submission gets no score at all (main wrote "score": 0.0).
    let (code, said) = run_autograder_unscored(root.path());
    assert_eq!(code, Some(3), "{said}");
    assert!(
        said.contains("the autograder itself is broken") && said.contains("not a fault in the submission"),
        "{said}"
    );
}
