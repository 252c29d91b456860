//! `referee prairielearn` end to end: a PrairieLearn job laid out under a temp root (`PRAIRIELEARN_ROOT` moves
//! `/grade`), the suite in `tests/` or `serverFilesCourse/`, a real Python or Java hand-in in `student/`, and
//! `results/results.json` checked against PrairieLearn's documented results format ("External Grading", *Grading
//! results*): `score` in [0, 1], `tests[]` with `points` and `max_points`, `gradable: false` with
//! `format_errors` when nothing could be graded, under 1 MB.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::{json, Value};

use crate::grade::{fixture, python};
use crate::variants::{materialize, python_wrong};

/// A course-layout suite (the Fall 2019 official files) written into `dir`.
fn stats_suite(dir: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones/stats-2019");
    fs::create_dir_all(dir).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
}

/// A job root: `data/data.json` (as PrairieLearn writes it), the suite under `suite_in`, `student/` from `hand_in`.
fn job(suite_in: &str, hand_in: &dyn Fn(&Path)) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("data")).unwrap();
    let data = json!({
        "params": {}, "correct_answers": {}, "submitted_answers": {"_files": []}, "format_errors": {},
        "partial_scores": {}, "score": 0, "feedback": {}, "variant_seed": 1, "options": {},
        "raw_submitted_answers": {}, "gradable": true,
    });
    fs::write(root.path().join("data/data.json"), data.to_string()).unwrap();
    stats_suite(&root.path().join(suite_in));
    fs::create_dir_all(root.path().join("student")).unwrap();
    hand_in(&root.path().join("student"));
    root
}

/// Runs the entrypoint as info.json would (`referee prairielearn GRADE-ARGS`) with the root moved, and returns
/// results.json after checking it against the documented format.
fn grade(root: &Path, args: &[&str]) -> Value {
    let out = Command::cargo_bin("referee")
        .unwrap()
        .arg("prairielearn")
        .args(args)
        .env("PRAIRIELEARN_ROOT", root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = fs::read(root.join("results/results.json")).unwrap();
    assert!(bytes.len() < 1_000_000, "results.json is {} bytes", bytes.len());
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    validate(&value);
    value
}

/// The documented fields, each of its documented type.
fn validate(v: &Value) {
    let top = v.as_object().expect("an object");
    for key in top.keys() {
        assert!(
            ["gradable", "score", "message", "output", "images", "tests", "format_errors"].contains(&key.as_str()),
            "undocumented key {key}"
        );
    }
    let gradable = v.get("gradable").map_or(true, |g| g.as_bool().expect("gradable is a boolean"));
    if gradable {
        let score = v["score"].as_f64().expect("a gradable result has a score");
        assert!((0.0..=1.0).contains(&score), "score {score}");
    } else {
        let errors = &v["format_errors"];
        assert!(errors.is_string() || errors.as_array().is_some_and(|a| a.iter().all(Value::is_string)), "{v:#}");
    }
    for t in v["tests"].as_array().expect("tests is an array") {
        assert!(t["name"].is_string(), "{t:#}");
        let (points, max) = (t["points"].as_f64().unwrap(), t["max_points"].as_f64().unwrap());
        assert!(points >= 0.0 && points <= max, "{t:#}");
        for key in ["message", "output", "description"] {
            assert!(t.get(key).map_or(true, Value::is_string), "{t:#}");
        }
    }
}

fn python_args() -> Vec<String> {
    vec!["--cmd".into(), format!("{} {{dir}}/takestones.py {{args}}", python())]
}

fn args(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

#[test]
fn a_correct_python_hand_in_scores_one() {
    let root = job("tests", &|s| materialize(&fixture("submissions/python-stats"), &[], s));
    let v = grade(root.path(), &args(&python_args()));
    assert_eq!(v["gradable"], true);
    assert_eq!(v["score"], 1.0);
    let tests = v["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3);
    assert!(tests.iter().all(|t| t["points"] == t["max_points"] && t["max_points"] == 1.0));
}

#[test]
fn a_wrong_python_hand_in_scores_its_share_and_actual_only_keeps_the_key() {
    let root = job("serverFilesCourse", &|s| python_wrong("python-wrong-format", s));
    let full = grade(root.path(), &args(&python_args()));
    assert_eq!(full["score"], 0.0, "{full:#}");
    assert!(full.to_string().contains("Number of Nodes Visited"), "full hides the expected lines");
    let mut hidden = python_args();
    hidden.extend(["--show".into(), "actual-only".into()]);
    let v = grade(root.path(), &args(&hidden));
    let text = v.to_string();
    assert!(!text.contains("Number of Nodes Visited"), "actual-only leaks the expected lines: {v:#}");
    assert!(text.contains("Number of nodes visited"), "actual-only hides the student's own line: {v:#}");
}

#[test]
fn a_java_hand_in_builds_and_a_broken_one_costs_no_attempt() {
    let java = ["--shell", "--build", "javac -d {dir} {dir}/*.java", "--cmd", "java -cp {dir} TakeStones {args}"];
    let root = job("tests", &|s| materialize(&fixture("submissions/java-stats"), &[], s));
    let v = grade(root.path(), &java);
    assert_eq!((v["gradable"].clone(), v["score"].clone()), (json!(true), json!(1.0)), "{v:#}");

    let broken = job("tests", &|s| {
        materialize(&fixture("submissions/java-stats"), &[], s);
        fs::write(s.join("Broken.java"), "class Broken { int x = ; }\n").unwrap();
    });
    let v = grade(broken.path(), &java);
    assert_eq!(v["gradable"], false, "{v:#}");
    let errors = v["format_errors"].to_string();
    assert!(errors.contains("Broken.java:1"), "{errors}");
    assert!(!errors.contains(broken.path().to_str().unwrap()) && !errors.contains("/submission/"), "{errors}");
}

#[test]
fn what_the_grader_cannot_do_is_not_gradable_and_says_whose_fault() {
    // No suite anywhere.
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("data")).unwrap();
    fs::write(root.path().join("data/data.json"), "{}").unwrap();
    fs::create_dir_all(root.path().join("student")).unwrap();
    let v = grade(root.path(), &args(&python_args()));
    assert_eq!(v["gradable"], false);
    assert!(v["format_errors"][0].as_str().unwrap().contains("not a fault in your submission"), "{v:#}");
    // A missing interpreter: the grader's, not the student's.
    let root = job("tests", &|s| materialize(&fixture("submissions/python-stats"), &[], s));
    let v = grade(root.path(), &["--cmd", "/nonexistent/python3 {dir}/takestones.py {args}"]);
    assert_eq!(v["gradable"], false, "{v:#}");
    assert!(v["format_errors"][0].as_str().unwrap().contains("not a fault in your submission"), "{v:#}");
    // PrairieLearn already found the answer malformed.
    let data = json!({"format_errors": {"takestones.py": "No file was submitted"}});
    fs::write(root.path().join("data/data.json"), data.to_string()).unwrap();
    let v = grade(root.path(), &args(&python_args()));
    assert_eq!(v["gradable"], false);
    assert!(v["format_errors"][0].as_str().unwrap().contains("No file was submitted"), "{v:#}");
}
