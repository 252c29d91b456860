//! `referee gradescope run`: what a bundle's `run_autograder` calls for each submission. It grades
//! `ROOT/submission` with the arguments in `ROOT/source/config.json` through the ordinary `grade` code (so the
//! submission runs in its sandbox exactly as in a class run) and writes `ROOT/results/results.json` in
//! Gradescope's format. A build error is the student's result with the compiler's message. A submission without a
//! score ([`crate::harness::outcome::Outcome`]: the grader failed, or it was not graded, such as an answer file for
//! another variant) gets no `results.json` at all, so Gradescope records no score (its "the autograder failed"
//! state, which tells the student to contact the course staff), never a 0: why is printed on stdout (the
//! autograder output the staff see) and the exit code is nonzero (3 for the grader's failure, 1 for not graded).
//!
//! # Format
//!
//! The harness's Gradescope rendering (`harness::render::gradescope`) plus what only the autograder knows:
//! `number` on every test ("1", "2", ... in suite order), `stdout_visibility`, the optional submission-wide
//! `visibility`, `execution_time` (whole seconds of this run), scores scaled to `--points` when the bundle
//! says so, and for game assignments a `leaderboard` (score and games won).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;
use serde_json::{json, Value};

use super::bundle::{Config, Kind, CONFIG, SOURCE};
use crate::cli::{exit, Command, ExerciseCommand, RefereeCli, RunArgs};
use crate::harness::grade::class::write_atomic;
use crate::harness::grade::solution::full_marks;
use crate::harness::model::{Outcome, RunReport, Status, SubmissionResult};
use crate::harness::render::view::{Reveal, StudentView};
use crate::harness::render::{self, RenderOptions};

/// The id a game assignment's single student gets inside the class folder the autograder makes.
const STUDENT: &str = "student";

/// Why a submission got no score: the exit code and the line for the staff.
struct NoScore {
    code: u8,
    why: String,
}

impl NoScore {
    /// The grader's own failure (exit 3).
    fn grader(why: String) -> NoScore {
        NoScore { code: exit::INTERNAL, why: format!("the autograder could not grade this submission: {why}") }
    }
}

impl From<String> for NoScore {
    fn from(why: String) -> NoScore {
        NoScore::grader(why)
    }
}

/// Runs `referee gradescope run`; returns 0 when results.json was written, 3 when the grader failed or it could
/// not be written, 1 when the submission was not graded (no results.json either way).
pub fn run(args: &RunArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let root = args
        .root
        .clone()
        .or_else(|| std::env::var_os("AUTOGRADER_ROOT").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("/autograder"));
    let started = Instant::now();
    let config = read_config(&root);
    let graded = config.as_ref().map_err(|e| NoScore::grader(e.clone())).and_then(|c| grade(&root, c, err));
    let mut results = match graded {
        Ok(results) => results,
        Err(stop) => {
            // No results.json: Gradescope records no score rather than the 0 a file would have to hold.
            let line = format!(
                "referee gradescope run: no score recorded: {}; this is not a fault in the submission, and no \
                 results.json was written",
                stop.why
            );
            let _ = writeln!(out, "{line}");
            let _ = writeln!(err, "{line}");
            return stop.code;
        }
    };
    let stdout_visibility = config.as_ref().map_or("hidden", |c| c.stdout_visibility.as_str());
    results["stdout_visibility"] = json!(stdout_visibility);
    if let Some(visibility) = config.as_ref().ok().and_then(|c| c.visibility.clone()) {
        results["visibility"] = json!(visibility);
    }
    results["execution_time"] = json!(started.elapsed().as_secs_f64().round() as u64);
    let path = root.join("results").join("results.json");
    let written = crate::harness::render::json_text::to_vec_pretty(&results).and_then(|mut bytes| {
        bytes.push(b'\n');
        write_atomic(&path, &bytes)
    });
    match written {
        Ok(()) => {
            let _ = writeln!(out, "score {} written to {}", results["score"], path.display());
            exit::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(err, "referee gradescope run: {}: {e}", path.display());
            exit::INTERNAL
        }
    }
}

fn read_config(root: &Path) -> Result<Config, String> {
    let path = root.join("source").join(CONFIG);
    let bytes = std::fs::read(&path).map_err(|e| format!("the autograder's {} cannot be read: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("the autograder's {} is not valid: {e}", path.display()))
}

/// The student's id for an exercise: `field` of the first user in `ROOT/submission_metadata.json`
/// (`email-login` is the email's part before the `@`).
fn student_id(root: &Path, field: &str) -> Result<String, String> {
    let path = root.join("submission_metadata.json");
    let bytes = std::fs::read(&path).map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    let metadata: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let user = &metadata["users"][0];
    let key = if field == "email-login" { "email" } else { field };
    let value = match &user[key] {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let value = if field == "email-login" { value.split('@').next().unwrap_or_default().to_string() } else { value };
    if value.is_empty() {
        return Err(format!(
            "cannot tell which student this is: submission_metadata.json has no users[0].{key} (the bundle's \
             --id-field is {field})"
        ));
    }
    Ok(value)
}

/// Grades an exercise submission against the variants of the student `submission_metadata.json` names.
fn grade_exercise(root: &Path, config: &Config, err: &mut dyn Write) -> Result<SubmissionResult, String> {
    let submission = root.join("submission");
    let id = student_id(root, config.id_field.as_deref().unwrap_or("email"))?;
    let mut argv: Vec<String> = vec!["referee".into(), "exercise".into(), "grade".into()];
    argv.extend(config.grade.iter().skip(1).cloned());
    argv.extend(["--dir".into(), submission.display().to_string(), "--id".into(), id]);
    argv.extend(["--format".into(), "json".into(), "--color".into(), "never".into()]);
    let cli = RefereeCli::try_parse_from(&argv).map_err(|e| {
        format!("the autograder's grade arguments are invalid: {}", crate::app::clap_failure("exercise grade", &e).0)
    })?;
    let Command::Exercise(ExerciseCommand::Grade(args)) = &cli.command else {
        return Err("invariant: the arguments parse as `exercise grade`".into());
    };
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = crate::app::exercise::grade::run(args, &mut stdout, &mut stderr);
    let _ = err.write_all(&stderr);
    let report: Option<RunReport> = serde_json::from_slice(&stdout).ok();
    report.and_then(|r| r.submissions.into_iter().next()).ok_or_else(|| {
        let text = String::from_utf8_lossy(&stderr);
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message").to_string();
        format!("`referee exercise grade` ended with exit code {code}: {first}")
    })
}

/// Grades the submission; `Err` says why it gets no score. A submission short of full marks in a bundle that
/// ships the course's solution is checked against it: when the solution, which had full marks where the bundle
/// was made, is short of them here too, the autograder is broken, and the submission gets no score.
fn grade(root: &Path, config: &Config, err: &mut dyn Write) -> Result<Value, NoScore> {
    let submission = root.join("submission");
    if !submission.is_dir() {
        return Err(format!("there is no submission folder at {}", submission.display()).into());
    }
    if config.kind == Kind::Exercise {
        let result = grade_exercise(root, config, err)?;
        scored(&result)?;
        return Ok(results_json(&result, config)?);
    }
    let source = root.join("source");
    let args: Vec<String> = config.grade.iter().map(|a| a.replace(SOURCE, &source.display().to_string())).collect();
    let result = grade_as_student(config.kind, &args, &submission, err)?;
    scored(&result)?;
    if let Some(solution) = &config.solution {
        if full_marks(&result).is_err() {
            let _ = writeln!(err, "checking the course's solution in this container, as the submission lost points");
            let theirs = grade_as_student(config.kind, &args, &source.join(solution), err)?;
            if let Err(why) = full_marks(&theirs) {
                return Err(NoScore::grader(format!(
                    "the autograder itself is broken: the course's solution, which got full marks when this \
                     autograder was made, does not here: {why}"
                )));
            }
        }
    }
    Ok(results_json(&result, config)?)
}

/// `Ok` when `result` has a score; otherwise why not ([`crate::harness::outcome::Outcome`]).
fn scored(result: &SubmissionResult) -> Result<(), NoScore> {
    match result.outcome() {
        Outcome::Graded { .. } => Ok(()),
        Outcome::GraderFailure(detail) => {
            Err(NoScore::grader(format!("harness error: {}", crate::visible::visible(detail))))
        }
        Outcome::NotGraded(reason) => {
            Err(NoScore { code: exit::FAILED, why: format!("not graded: {}", crate::visible::visible(reason)) })
        }
    }
}

/// Grades the hand-in at `submission` with the `referee grade` arguments `args` (paths already resolved) through
/// the ordinary `grade` code, as the one student of its run; `Err` is a message for the staff. The grader's own
/// log goes to `err`.
///
/// # Errors
/// When grading itself fails (the arguments, a missing toolchain, an unwritable folder).
pub fn grade_as_student(
    kind: Kind,
    args: &[String],
    submission: &Path,
    err: &mut dyn Write,
) -> Result<SubmissionResult, String> {
    let mut argv: Vec<String> = vec!["referee".into(), "grade".into()];
    argv.extend(args.iter().cloned());
    let scratch = tempfile::Builder::new()
        .prefix("referee-gradescope-")
        .tempdir()
        .map_err(|e| format!("cannot make a scratch folder: {e}"))?;
    let class_out = scratch.path().join("out");
    match kind {
        Kind::Suite => {
            argv.extend(["--dir".into(), submission.display().to_string(), "--format".into(), "json".into()]);
            argv.extend(["--color".into(), "never".into()]);
        }
        Kind::Mancala | Kind::Othello | Kind::Exercise => {
            let class = scratch.path().join("class");
            std::fs::create_dir_all(&class).map_err(|e| format!("{}: {e}", class.display()))?;
            crate::harness::runner::platform::symlink(submission, &class.join(STUDENT))
                .map_err(|e| format!("{}: {e}", class.display()))?;
            argv.extend(["--submissions".into(), class.display().to_string()]);
            argv.extend(["--out".into(), class_out.display().to_string()]);
        }
    }
    let (code, stdout, stderr) = run_grade(&argv, "the autograder's grade arguments", err)?;
    let problem = || problem_line(code, &String::from_utf8_lossy(&stderr));
    let result: SubmissionResult = match kind {
        Kind::Suite | Kind::Exercise => {
            let report: RunReport = serde_json::from_slice(&stdout).map_err(|_| problem())?;
            report.submissions.into_iter().next().ok_or_else(problem)?
        }
        Kind::Mancala | Kind::Othello => {
            let path = class_out.join("results").join(format!("{STUDENT}.json"));
            let bytes = std::fs::read(&path).map_err(|_| problem())?;
            serde_json::from_slice(&bytes).map_err(|_| problem())?
        }
    };
    let _ = writeln!(err, "{}", String::from_utf8_lossy(&stdout).lines().next().unwrap_or_default());
    Ok(result)
}

/// Runs `argv` (`referee grade ...`, from a platform's configuration, named `what` in errors) in this process,
/// its log copied to `err` (the staff's view); returns its exit code, stdout and stderr.
///
/// # Errors
/// The arguments do not parse as `grade`.
pub fn run_grade(argv: &[String], what: &str, err: &mut dyn Write) -> Result<(u8, Vec<u8>, Vec<u8>), String> {
    let cli = RefereeCli::try_parse_from(argv)
        .map_err(|e| format!("{what} are invalid: {}", crate::app::clap_failure("grade", &e).0))?;
    let Command::Grade(args) = &cli.command else {
        return Err("invariant: the arguments parse as `grade`".into());
    };
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let code = crate::app::grade::run(args, &mut stdout, &mut stderr);
    let _ = err.write_all(&stderr);
    Ok((code, stdout, stderr))
}

/// What a student is told when `referee grade` (exit `code`, its stderr `log`) produced no result: the line that
/// says what went wrong. Warnings and notes come first in the log (a missing sandbox layer is a warning on every
/// run of a machine without it) and say nothing about this failure, so they are passed over; only a log of nothing
/// else falls back to its first line.
pub fn problem_line(code: u8, log: &str) -> String {
    let lines: Vec<&str> = log.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let is_aside = |line: &str| {
        let said = line.split_once(": ").map_or(line, |(_, rest)| rest);
        said.starts_with("warning:") || said.starts_with("note:")
    };
    let line = lines.iter().find(|l| !is_aside(l)).or(lines.first()).copied().unwrap_or("no message");
    format!("`referee grade` ended with exit code {code}: {line}")
}

/// The Gradescope object of `result`, completed as the module docs say.
fn results_json(result: &SubmissionResult, config: &Config) -> Result<Value, String> {
    // Scaled before it is rendered, exactly, so the summary's "Score: x / y" is the score Gradescope records.
    let scaled = match config.points {
        Some(points) => result.scaled_to(points),
        None => result.clone(),
    };
    let result = &scaled;
    // The bundle's submission-wide visibility is the floor of every test's (a test's own overrides it on Gradescope).
    let floor = config.visibility.as_deref().and_then(Reveal::from_gradescope).unwrap_or_default();
    let view = StudentView { floor, show_later: false };
    let mut bytes = Vec::new();
    render::gradescope::render_submission(result, &RenderOptions { color: false, redact: true, view }, &mut bytes)
        .map_err(|e| format!("cannot render the result: {e}"))?;
    let mut value: Value = serde_json::from_slice(&bytes).map_err(|e| format!("cannot render the result: {e}"))?;
    if let Some(tests) = value["tests"].as_array_mut() {
        for (i, test) in tests.iter_mut().enumerate() {
            test["number"] = json!((i + 1).to_string());
        }
    }
    if matches!(config.kind, Kind::Mancala | Kind::Othello) {
        let won = result
            .cases
            .iter()
            .filter(|c| c.max_score.is_zero() && c.status == Status::Passed && c.name.starts_with("vs "))
            .count();
        value["leaderboard"] = json!([
            {"name": "Score", "value": result.score},
            {"name": "Games won", "value": won},
        ]);
    }
    Ok(value)
}
