//! `referee grade --format classroom50` end to end with real Python programs, the way Classroom 50's runner calls
//! an autograder (identity in the environment, result.json read from stdout by the recipe's autograder.py), each
//! result validated against Classroom 50's published result schema (`tests/fixtures/schemas/`, checked with
//! Python's `jsonschema`) and the rules its runner enforces in code (a score never above its maximum).

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

use crate::grade::{fixture, grade_json, python};
use crate::variants::python_wrong;

/// The variables Classroom 50's runner sets for an autograder.
pub const RUNNER_ENV: [(&str, &str); 7] = [
    ("CLASSROOM", "cs540"),
    ("ASSIGNMENT", "takestones"),
    ("OWNER", "alice"),
    ("ASSIGNMENT_TYPE", "individual"),
    ("SUBMISSION_TAG", "submit/2026-09-01T10-00-00Z-abc1234"),
    ("COMMIT_URL", "https://github.com/cs540/cs540-takestones-alice/commit/abc1234"),
    ("RELEASE_URL", "https://github.com/cs540/cs540-takestones-alice/releases/tag/submit%2F2026"),
];

fn command() -> String {
    format!("{} {{dir}}/takestones.py {{args}}", python())
}

/// `referee grade --format classroom50` of `dir` with the runner's environment and `extra` arguments.
fn classroom50(dir: &Path, suite: &str, extra: &[&str]) -> Output {
    let mut cmd = Command::cargo_bin("referee").unwrap();
    cmd.args(["grade", "--suite", suite, "--dir", dir.to_str().unwrap(), "--cmd", &command()]);
    cmd.args(["--format", "classroom50"]).args(extra);
    for (k, v) in RUNNER_ENV {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// `out`'s result.json, validated against the published schema and the runner's cross-field rules.
fn result_of(out: &Output) -> Value {
    let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no result.json ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    validate(&value);
    value
}

/// Validates against `tests/fixtures/schemas/classroom50-result-v1.schema.json` with Python's jsonschema (the
/// reference validator; CI installs python3-jsonschema), then the rules the runner enforces in code.
pub fn validate(value: &Value) {
    let schema = fixture("schemas/classroom50-result-v1.schema.json");
    let script = "import json, sys, jsonschema\n\
                  schema = json.load(open(sys.argv[1]))\n\
                  jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())\
                  .validate(json.load(sys.stdin))\n";
    // The system python3 (where CI installs python3-jsonschema), else the first python3 on PATH that has it.
    let validator = [python(), "python3".to_string()]
        .into_iter()
        .find(|p| {
            std::process::Command::new(p).args(["-c", "import jsonschema"]).output().is_ok_and(|o| o.status.success())
        })
        .expect("install python3-jsonschema to run this test");
    let mut child = std::process::Command::new(validator)
        .args(["-c", script, schema.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs the schema validator");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), value.to_string().as_bytes()).unwrap();
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "result.json does not follow the published schema: {stderr}\n{value:#}");
    let (score, max) = (value["score"].as_u64().unwrap(), value["max-score"].as_u64().unwrap());
    assert!(score <= max, "{value:#}");
    let tests = value["tests"].as_array().unwrap();
    for t in tests {
        assert!(t["score"].as_u64().unwrap() <= t["max-score"].as_u64().unwrap(), "{t:#}");
    }
    assert_eq!(tests.iter().map(|t| t["score"].as_u64().unwrap()).sum::<u64>(), score);
    let names: std::collections::HashSet<&str> = tests.iter().map(|t| t["test-name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), tests.len(), "test names repeat: {value:#}");
}

#[test]
fn a_correct_program_gets_every_point_with_the_runners_identity() {
    let out = classroom50(&fixture("submissions/python-stats"), "builtin:takestones-stats-2019", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let result = result_of(&out);
    assert_eq!((result["score"].as_u64(), result["max-score"].as_u64()), (Some(3), Some(3)));
    assert_eq!(result["owner"], "alice");
    assert_eq!(result["submission"], "submit/2026-09-01T10-00-00Z-abc1234");
    assert_eq!(result["review"], result["commit"]);
    assert!(result["tests"].as_array().unwrap().iter().all(|t| t["passed"] == true));
}

#[test]
fn every_assignment_type_the_runner_passes_is_accepted_and_written_as_the_schema_names_it() {
    // Classroom 50's runner passes `team` for a team assignment; the published schema's word for it is `group`.
    for (given, written) in [("individual", "individual"), ("group", "group"), ("team", "group"), ("Team", "group")] {
        let mut cmd = Command::cargo_bin("referee").unwrap();
        let dir = fixture("submissions/python-stats");
        cmd.args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir", dir.to_str().unwrap()]);
        cmd.args(["--cmd", &command(), "--format", "classroom50"]);
        for (k, v) in RUNNER_ENV {
            cmd.env(k, if k == "ASSIGNMENT_TYPE" { given } else { v });
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{given}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(result_of(&out)["assignment_type"], written, "{given}");
    }
    let mut cmd = Command::cargo_bin("referee").unwrap();
    let dir = fixture("submissions/python-stats");
    cmd.args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir", dir.to_str().unwrap()]);
    cmd.args(["--cmd", &command(), "--format", "classroom50", "--assignment-type", "squad"]);
    for (k, v) in RUNNER_ENV {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'squad' is none of individual, group or team"));
}

#[test]
fn a_failing_student_is_a_score_not_an_error_and_actual_only_keeps_the_answer_key() {
    let dir = tempfile::tempdir().unwrap();
    python_wrong("python-wrong-format", dir.path());
    // What the TA's report says the expected line is, to look for in what the student gets.
    let cmd = command();
    let (code, report) =
        grade_json(&["--suite", "builtin:takestones-stats-2019", "--dir", dir.path().to_str().unwrap(), "--cmd", &cmd]);
    assert_eq!(code, 1);
    let expected_line = report.submissions[0]
        .cases
        .iter()
        .find_map(|c| c.difference.as_ref().and_then(|d| d.expected.clone()))
        .unwrap();
    assert!(expected_line.contains("Number of Nodes Visited"), "{expected_line}");

    let full = classroom50(dir.path(), "builtin:takestones-stats-2019", &[]);
    assert_eq!(full.status.code(), Some(0), "a failing student made the autograder fail");
    let full = result_of(&full);
    assert!(full["score"].as_u64().unwrap() < 3);
    assert!(full.to_string().contains(&expected_line), "full hides the expected line");

    let body = dir.path().join("release-body.md");
    let hidden = classroom50(
        dir.path(),
        "builtin:takestones-stats-2019",
        &["--show", "actual-only", "--release-body", body.to_str().unwrap()],
    );
    assert_eq!(hidden.status.code(), Some(0));
    let hidden_result = result_of(&hidden);
    let text = hidden_result.to_string();
    assert!(!text.contains(&expected_line), "actual-only shows the expected line: {hidden_result:#}");
    assert!(text.contains("Number of nodes visited"), "actual-only hides the student's own line");
    let body = std::fs::read_to_string(body).unwrap();
    assert!(body.starts_with("# ") && !body.contains(&expected_line), "{body}");
}

#[test]
fn fractional_points_become_whole_ones_that_keep_their_value() {
    let dir = tempfile::tempdir().unwrap();
    python_wrong("python-wrong-format", dir.path());
    let suite = dir.path().join("suite.toml");
    std::fs::write(
        &suite,
        "[reference]\ngame = \"takestones\"\n[compare]\nline-credit = true\n\
         [[case]]\nname = \"a\"\nargs = \"3 0 0\"\nreference = true\npoints = 0.5\n\
         [[case]]\nname = \"b\"\nargs = \"7 1 1 2\"\nreference = true\npoints = 1.5\n",
    )
    .unwrap();
    let out = classroom50(dir.path(), suite.to_str().unwrap(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let result = result_of(&out);
    assert_eq!(result["max-score"], 20_000, "{result:#}");
    let tests = result["tests"].as_array().unwrap();
    // Five of six lines right on a 0.5-point case is 0.41666 points: 4166 of 5000 whole points, never 5000.
    for t in tests {
        assert!(t["output"].as_str().unwrap().starts_with("points: "), "{t:#}");
        assert!(t["passed"] == false && t["score"].as_u64().unwrap() < t["max-score"].as_u64().unwrap(), "{t:#}");
    }
}

#[test]
fn missing_identity_is_a_usage_error_naming_flag_and_variable() {
    let mut cmd = Command::cargo_bin("referee").unwrap();
    let dir = fixture("submissions/python-stats");
    let out = cmd
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir", dir.to_str().unwrap()])
        .args(["--cmd", &command(), "--format", "classroom50"])
        .env_remove("CLASSROOM")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--classroom") && stderr.contains("$CLASSROOM"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_grader_fault_is_the_only_nonzero_exit() {
    let empty = tempfile::tempdir().unwrap();
    let mut cmd = Command::cargo_bin("referee").unwrap();
    cmd.args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir", empty.path().to_str().unwrap()]);
    cmd.args(["--cmd", "/nonexistent/java {args}", "--format", "classroom50"]);
    for (k, v) in RUNNER_ENV {
        cmd.env(k, v);
    }
    // A missing interpreter is the TA's mistake, refused before anything runs (issue 33, item 4).
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cmd: '/nonexistent/java' does not exist"));
    // Issue 33, item 2: nothing final is written (main wrote a result.json with a 0).
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
}
