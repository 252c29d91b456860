//! `referee prairielearn`: PrairieLearn's external-grader entrypoint. It grades `ROOT/student` against the
//! question's suite through the ordinary `grade` code (so the submission runs in its sandbox exactly as in a class
//! run) and writes `ROOT/results/results.json` in PrairieLearn's format
//! ([`crate::harness::render::prairielearn`]). Whatever happens, a valid file is written: a build error is the
//! student's (not gradable, no attempt charged, the compiler's message shown), and anything that stops grading
//! itself becomes a not-gradable result that says it is the grader's fault.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::app::gradescope::autograde;
use crate::cli::{exit, PrairielearnArgs};
use crate::harness::grade::class::write_atomic;
use crate::harness::model::RunReport;
use crate::harness::render::{prairielearn, RenderOptions};

/// The environment variable that moves the job's root (tests run a whole job under a temp folder).
pub const ROOT_VAR: &str = "PRAIRIELEARN_ROOT";

/// Runs `referee prairielearn`; returns 0 when results.json was written, 3 when it could not be.
pub fn run(args: &PrairielearnArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let root = args
        .root
        .clone()
        .or_else(|| std::env::var_os(ROOT_VAR).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("/grade"));
    let bytes = match grade(&root, args, err) {
        Ok(bytes) => bytes,
        Err(why) => {
            let _ = writeln!(err, "referee prairielearn: {why}");
            let mut bytes =
                crate::harness::render::json_text::to_vec_pretty(&prairielearn::grader_fault(&why)).unwrap_or_default();
            bytes.push(b'\n');
            bytes
        }
    };
    let path = root.join("results").join("results.json");
    match write_atomic(&path, &bytes) {
        Ok(()) => {
            let _ = writeln!(out, "results written to {}", path.display());
            exit::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(err, "referee prairielearn: {}: {e}", path.display());
            exit::INTERNAL
        }
    }
}

/// Grades the job under `root`; the results file's bytes, or why grading could not happen.
fn grade(root: &Path, args: &PrairielearnArgs, err: &mut dyn Write) -> Result<Vec<u8>, String> {
    let data_path = root.join("data").join("data.json");
    let data = std::fs::read(&data_path).map_err(|e| format!("{}: {e}", data_path.display()))?;
    let data: Value =
        serde_json::from_slice(&data).map_err(|e| format!("{} is not valid JSON: {e}", data_path.display()))?;
    // PrairieLearn's own parse of the answer already found it malformed: say so, without running anything.
    if let Some(errors) = data.get("format_errors").and_then(Value::as_object).filter(|e| !e.is_empty()) {
        let messages: Vec<String> = errors
            .iter()
            .map(|(k, v)| format!("{k}: {}", v.as_str().map_or_else(|| v.to_string(), str::to_string)))
            .collect();
        let value = serde_json::json!({
            "gradable": false,
            "format_errors": messages,
            "message": "not graded: the submission is not in the expected form",
            "tests": [],
        });
        let mut bytes = crate::harness::render::json_text::to_vec_pretty(&value).map_err(|e| e.to_string())?;
        bytes.push(b'\n');
        return Ok(bytes);
    }
    let student = root.join("student");
    if !student.is_dir() {
        return Err(format!("there is no submission folder at {}", student.display()));
    }
    let suite = suite(root, args.suite.as_deref())?;
    let mut argv: Vec<String> = vec!["referee".into(), "grade".into(), "--suite".into(), suite];
    argv.extend(["--dir".into(), student.display().to_string(), "--format".into(), "json".into()]);
    argv.extend(["--color".into(), "never".into()]);
    argv.extend(args.grade.iter().cloned());
    let (code, stdout, stderr) = autograde::run_grade(&argv, "the grade arguments in info.json", err)?;
    let report: RunReport = serde_json::from_slice(&stdout)
        .map_err(|_| autograde::problem_line(code, &String::from_utf8_lossy(&stderr)))?;
    let result = report.submissions.into_iter().next().ok_or("`referee grade` graded no submission")?;
    let mut bytes = Vec::new();
    prairielearn::render_submission(&result, &RenderOptions::default(), &mut bytes)
        .map_err(|e| format!("cannot render the results: {e}"))?;
    Ok(bytes)
}

/// The suite to grade with: `--suite` (relative to `root`), else `tests/` when it holds one, else
/// `serverFilesCourse/`.
fn suite(root: &Path, given: Option<&str>) -> Result<String, String> {
    if let Some(spec) = given {
        if spec.starts_with("builtin:") || Path::new(spec).is_absolute() {
            return Ok(spec.to_string());
        }
        return Ok(root.join(spec).display().to_string());
    }
    let holds_suite = |dir: &Path| dir.join("suite.toml").is_file() || dir.join("testcase.txt").is_file();
    ["tests", "serverFilesCourse"]
        .iter()
        .map(|d| root.join(d))
        .find(|d| holds_suite(d))
        .map(|d| d.display().to_string())
        .ok_or_else(|| {
            format!(
                "no suite: neither {0}/tests nor {0}/serverFilesCourse holds a suite.toml or testcase.txt (or give \
                 --suite in the entrypoint)",
                root.display()
            )
        })
}
