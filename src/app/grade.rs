//! `referee grade`: one submission or a class folder against a suite.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::{exit, ColorChoice, GradeArgs};
use crate::harness::grade::class::{discover, make_traversable, safe_name, write_atomic, Store};
use crate::harness::grade::{self, grade_submission, Cancelled, GradeConfig, PreparedSuite};
use crate::harness::model::{RunReport, SubmissionResult, SCHEMA_VERSION};
use crate::harness::render::{self, format_points, Format, RenderOptions};
use crate::harness::runner::{sandbox, Limits, Sandbox, Template};
use crate::harness::suite;

/// Exit code after Ctrl-C (128 + SIGINT), as shells report it.
pub const CANCELLED: u8 = 130;

/// One student's line in a class run's summary: id, points, and `note`.
pub fn student_line(r: &SubmissionResult, note: &str) -> String {
    format!("  {:<24} {:>7} / {:<7} {note}", r.id, format_points(r.score), format_points(r.max_score))
}

/// Runs `referee grade`; returns the exit code (see `cli::exit`).
pub fn run(args: &GradeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match &args.game {
        Some(crate::cli::GradeGame::Mancala(game)) => return super::mancala::grade::run(game, out, err),
        Some(crate::cli::GradeGame::Othello(game)) => return super::othello::grade::run(game, out, err),
        None => {}
    }
    match Setup::new(args) {
        Ok(setup) => match &args.submissions {
            Some(dir) => grade_class(args, &setup, dir, out, err),
            None => grade_one(args, &setup, out, err),
        },
        Err(message) => {
            let _ = writeln!(err, "referee grade: {message}");
            exit::USAGE
        }
    }
}

/// Everything decided before the first submission runs.
struct Setup {
    suite: PreparedSuite,
    config: GradeConfig,
    color: bool,
    _scratch: tempfile::TempDir,
    scratch_root: PathBuf,
}

impl Setup {
    fn new(args: &GradeArgs) -> Result<Setup, String> {
        let suite_name = args.suite.as_deref().ok_or("--suite is required")?;
        let mut loaded = suite::load(suite_name).map_err(|e| e.to_string())?;
        for reading in &args.accept {
            if !loaded.accept.contains(reading) {
                loaded.accept.push(*reading);
            }
        }
        if !args.accept.is_empty() && loaded.reference.is_none() {
            return Err(
                "--accept needs a suite with a reference (course layouts and [reference] suites have one)".into()
            );
        }
        if let Some(t) = &args.timeout {
            loaded.timeout = parse_duration(t, "--timeout")?;
        }
        let command_text = args
            .cmd
            .clone()
            .or(loaded.command.clone())
            .ok_or("no command: give --cmd (e.g. --cmd 'java -cp {dir} TakeStones {args}')")?;
        let command = Template::parse(&command_text, args.shell).map_err(|e| format!("--cmd: {e}"))?;
        let build = match args.build.clone().or(loaded.build.clone()) {
            Some(b) => Some(Template::parse(&b, args.shell).map_err(|e| format!("--build: {e}"))?),
            None => None,
        };
        let prepared = PreparedSuite::new(loaded);
        if let Some((case, problem)) = prepared.first_problem() {
            return Err(format!("{}: case '{case}': {problem}", prepared.suite.source));
        }
        let mut limits = Limits::default();
        if let Some(m) = &args.memory {
            limits.memory_bytes = parse_bytes(m).ok_or(format!("--memory: '{m}' is not a size like 2GiB or 512MiB"))?;
        }
        if let Some(o) = &args.output_limit {
            limits.output_bytes = parse_bytes(o)
                .and_then(|b| usize::try_from(b).ok())
                .ok_or(format!("--output-limit: '{o}' is not a size like 8MiB"))?;
        }
        let build_timeout = args
            .build_timeout
            .as_deref()
            .map(|t| parse_duration(t, "--build-timeout"))
            .transpose()?
            .unwrap_or(Duration::from_secs(120));
        let sandbox = if args.run_as_self { Sandbox::default() } else { Sandbox::default_for_this_process() };
        let scratch = tempfile::Builder::new()
            .prefix("referee-")
            .tempdir_in(args.work.clone().unwrap_or_else(std::env::temp_dir))
            .map_err(|e| format!("cannot create a scratch folder: {e}"))?;
        let scratch_root = scratch.path().to_path_buf();
        make_traversable(&scratch_root).map_err(|e| format!("cannot prepare the scratch folder: {e}"))?;
        let cancel = super::cancel_on_signals();
        // Runs of earlier graders that were killed outright may still be running: end them before starting.
        sandbox::kill_marked(None);
        let jobs = super::jobs_or_cores(args.jobs);
        let config = GradeConfig {
            command,
            build,
            limits,
            build_timeout,
            sandbox,
            case_jobs: if args.submissions.is_some() { 1 } else { jobs },
            cancel,
            run_id: format!("{}-{}", std::process::id(), unix_seconds()),
        };
        let color = match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        };
        Ok(Setup { suite: prepared, config, color, _scratch: scratch, scratch_root })
    }

    fn report(&self, submissions: Vec<SubmissionResult>) -> RunReport {
        RunReport { schema: SCHEMA_VERSION, suite: self.suite.suite.name.clone(), submissions }
    }
}

fn grade_one(args: &GradeArgs, setup: &Setup, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    if !dir.exists() {
        let _ = writeln!(err, "referee grade: {}: no such submission folder", dir.display());
        return exit::USAGE;
    }
    let scratch = setup.scratch_root.join("submission");
    let _ = make_traversable(&scratch);
    let result = match grade_submission("submission", &dir, &scratch, &setup.suite, &setup.config) {
        Ok(result) => result,
        Err(Cancelled) => {
            let _ = writeln!(err, "referee grade: cancelled");
            return CANCELLED;
        }
    };
    let code = verdict(std::slice::from_ref(&result));
    let report = setup.report(vec![result]);
    let options = RenderOptions { color: setup.color, redact: false };
    if let Err(e) =
        render::render(args.format.unwrap_or(Format::Terminal), &report, &options, out).and_then(|_| out.flush())
    {
        let _ = writeln!(err, "referee grade: cannot write the report: {e}");
        return exit::INTERNAL;
    }
    code
}

fn grade_class(args: &GradeArgs, setup: &Setup, dir: &Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let entries = match discover(dir) {
        Ok(entries) => entries,
        Err(e) => {
            let _ = writeln!(err, "referee grade: {e}");
            return exit::USAGE;
        }
    };
    let out_dir = args.out.clone().unwrap_or_else(|| PathBuf::from("referee-results"));
    let store = match Store::open(&out_dir) {
        Ok(store) => store,
        Err(e) => {
            let _ = writeln!(err, "referee grade: {}: {e}", out_dir.display());
            return exit::INTERNAL;
        }
    };
    if args.fresh {
        let _ = std::fs::remove_dir_all(out_dir.join("results"));
        let _ = std::fs::create_dir_all(out_dir.join("results"));
    }
    sandbox::become_subreaper();
    let jobs = super::jobs_or_cores(args.jobs);
    let progress = progress_bar(entries.len());
    let mut write_failures = Vec::new();
    let outcome = grade::class::grade_class(
        &entries,
        &setup.suite,
        &setup.config,
        jobs,
        &store,
        &setup.scratch_root,
        |result, saved| {
            let written = saved
                .and_then(|_| write_student_files(&out_dir, result))
                .and_then(|_| write_class_files(&out_dir, setup, &store, entries.len()));
            if let Err(e) = written {
                write_failures.push(format!("{}: {e}", result.id));
            }
            progress.set_message(format!(
                "{} {}/{}",
                result.id,
                format_points(result.score),
                format_points(result.max_score)
            ));
            progress.inc(1);
        },
    );
    progress.finish_and_clear();
    for failure in &write_failures {
        let _ = writeln!(err, "referee grade: cannot write results for {failure}");
    }
    let summary = match outcome {
        Ok(summary) => summary,
        Err(Cancelled) => {
            let _ = writeln!(
                err,
                "referee grade: cancelled; finished students are saved in {} and a re-run grades the rest",
                out_dir.display()
            );
            return CANCELLED;
        }
    };
    // Results of students graded earlier count as much as this run's.
    let all: Vec<SubmissionResult> =
        store.load_all().into_iter().filter(|r| entries.iter().any(|e| e.id == r.id)).collect();
    let _ = write_class_files(&out_dir, setup, &store, entries.len());
    let _ = writeln!(
        out,
        "graded {} student(s), {} already graded earlier; results in {}",
        summary.graded,
        summary.skipped,
        out_dir.display()
    );
    for r in &all {
        let failed = r.cases.iter().filter(|c| !c.status.is_pass()).count();
        let note = if failed == 0 { "all passed".to_string() } else { format!("{failed} case(s) not passed") };
        let _ = writeln!(out, "{}", student_line(r, &note));
    }
    if !write_failures.is_empty() {
        return exit::INTERNAL;
    }
    verdict(&all)
}

/// Per student: Gradescope `results.json` and markdown feedback.
pub(crate) fn write_student_files(out_dir: &Path, result: &SubmissionResult) -> std::io::Result<()> {
    let name = safe_name(&result.id);
    let options = RenderOptions::default();
    let mut json = Vec::new();
    render::gradescope::render_submission(result, &options, &mut json)?;
    write_atomic(&out_dir.join("gradescope").join(&name).join("results.json"), &json)?;
    let mut md = Vec::new();
    render::markdown::render_submission(result, &options, &mut md)?;
    write_atomic(&out_dir.join("feedback").join(format!("{name}.md")), &md)
}

/// The class-wide files, rebuilt from every stored result of a class of `expected` hand-ins: gradebook CSV,
/// JUnit XML, the JSON report, the HTML report.
fn write_class_files(out_dir: &Path, setup: &Setup, store: &Store, expected: usize) -> std::io::Result<()> {
    write_report_files(out_dir, &setup.report(store.load_all()), expected)
}

/// The class-wide files of `report` (a class of `expected` hand-ins): gradebook CSV, JUnit XML, the JSON report,
/// and `report.html`, each renamed into place whole so a TA can reload the page while the run goes on.
pub(crate) fn write_report_files(out_dir: &Path, report: &RunReport, expected: usize) -> std::io::Result<()> {
    let options = RenderOptions::default();
    for (format, file) in [(Format::Csv, "gradebook.csv"), (Format::Junit, "junit.xml"), (Format::Json, "report.json")]
    {
        let mut bytes = Vec::new();
        render::render(format, report, &options, &mut bytes)?;
        write_atomic(&out_dir.join(file), &bytes)?;
    }
    let feedback = |id: &str| render::html::escape::href(&["feedback", &format!("{}.md", safe_name(id))]);
    let page = render::html::ClassPage { title: "Class report".into(), expected, feedback: &feedback };
    let mut html = Vec::new();
    render::html::render_class(report, &page, &mut html)?;
    write_atomic(&out_dir.join("report.html"), &html)
}

/// 0 when everything passed, 3 when the grader failed somewhere, otherwise 1.
fn verdict(results: &[SubmissionResult]) -> u8 {
    if results.iter().any(SubmissionResult::has_harness_error) {
        exit::INTERNAL
    } else if results.iter().all(SubmissionResult::all_passed) {
        exit::SUCCESS
    } else {
        exit::FAILED
    }
}

pub(crate) fn progress_bar(total: usize) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} students  {elapsed}  {msg}") {
        bar.set_style(style);
    }
    bar
}

fn parse_duration(text: &str, what: &str) -> Result<Duration, String> {
    humantime::parse_duration(text)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or(format!("{what}: '{text}' is not a duration like 10s or 500ms"))
}

/// `2GiB`, `512MiB`, `64KiB`, `1000000` (bytes); `G`, `M`, `K` and `GB` etc. mean the same powers of two.
pub fn parse_bytes(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: u64 = number.parse().ok()?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return None,
    };
    n.checked_mul(1 << shift).filter(|&b| b > 0)
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("2GiB"), Some(2 << 30));
        assert_eq!(parse_bytes("512M"), Some(512 << 20));
        assert_eq!(parse_bytes("1000"), Some(1000));
        assert_eq!(parse_bytes("lots"), None);
        assert_eq!(parse_bytes("0"), None);
    }
}
