//! Grading one submission: lay it out, build it, run every case, judge each output.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::parallel::for_each_parallel;
use super::prepared::PreparedSuite;
use super::python_syntax;
use super::siblings::Siblings;
use super::workspace::{copy_folder, discard, lay_out, WorkspaceError, MAX_BYTES, MAX_FILES};
use crate::harness::compare::judge;
use crate::harness::model::{
    relative_to_hand_in, BuildResult, Captured, CaseResult, Cause, FirstDifference, Keep, Points, Status,
    SubmissionResult, EXCERPT_BYTES,
};
use crate::harness::runner::phases::{self, Phase};
use crate::harness::runner::{self, own_disk, Exit, Limits, RunSpec, Sandbox, Template};
use crate::harness::suite::{Expected, SuiteCase};

/// How to grade: the commands, limits and containment shared by every submission of a run.
#[derive(Clone, Debug)]
pub struct GradeConfig {
    /// The command run per case.
    pub command: Template,
    /// The build step run once per submission.
    pub build: Option<Template>,
    /// Limits of each case run (the timeout is replaced by the case's).
    pub limits: Limits,
    /// Wall-clock limit of the build step.
    pub build_timeout: Duration,
    /// Containment.
    pub sandbox: Sandbox,
    /// Cases run at once within one submission.
    pub case_jobs: usize,
    /// Set to stop everything (Ctrl-C).
    pub cancel: Arc<AtomicBool>,
    /// Identifies this grading run in the results.
    pub run_id: String,
    /// After this many timeouts, a submission's remaining cases are not run (`--max-timeouts`).
    pub max_timeouts: Option<u32>,
}

/// Grading stopped because it was cancelled; nothing partial is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("grading cancelled")]
pub struct Cancelled;

/// Grades the submission at `source` (a folder or a zip) as student `id`, using `scratch` as its work folder.
///
/// # Errors
/// [`Cancelled`] when the run was cancelled; every other problem is recorded in the result.
pub fn grade_submission(
    id: &str,
    source: &Path,
    scratch: &Path,
    suite: &PreparedSuite,
    config: &GradeConfig,
) -> Result<SubmissionResult, Cancelled> {
    let fingerprint = fingerprint(suite, config);
    // A uid of its own while it is graded (with dedicated users), released when this function returns.
    let (sandbox, lease) = phases::time(Phase::Lease, || config.sandbox.lease());
    let config = &GradeConfig { sandbox, ..config.clone() };
    let finish = |build: Option<BuildResult>, cases: Vec<CaseResult>| SubmissionResult {
        id: id.to_string(),
        source: source.display().to_string(),
        build,
        score: cases.iter().map(|c| c.score).sum(),
        max_score: cases.iter().map(|c| c.max_score).sum(),
        cases,
        run: config.run_id.clone(),
        fingerprint: fingerprint.clone(),
        handin: String::new(),
        sandbox: config.sandbox.layers.names(),
        not_graded: None,
    };
    if let Some(why) = super::roster::loose_file(source) {
        // Nothing to lay out or run: not graded, never a 0, with what to hand in instead.
        let max_score = not_run(suite, Status::BuildError, &why).iter().map(|c| c.max_score).sum();
        return Ok(SubmissionResult { max_score, not_graded: Some(why), ..finish(None, Vec::new()) });
    }
    if let Some(message) = disk_shortage(scratch, config.limits.disk_bytes, &config.sandbox) {
        return Ok(finish(None, not_run(suite, Status::HarnessError, &message)));
    }
    let dir = match phases::time(Phase::LayOut, || lay_out(source, &scratch.join("submission"), &config.sandbox)) {
        Ok(dir) => dir,
        Err(e) => {
            // A broken or oversized archive is the student's; a hand-in the grader cannot read is not.
            let status = if e.is_graders() { Status::HarnessError } else { Status::BuildError };
            let message = e.explained();
            let build = BuildResult { ok: false, command: String::new(), message: message.clone(), elapsed_ms: 0 };
            return Ok(finish(Some(build), not_run(suite, status, &message)));
        }
    };
    let build = match &config.build {
        Some(template) => {
            let result = build_step(template, &dir, config)?;
            if !result.ok {
                let cases = not_run(suite, Status::BuildError, &result.message);
                return Ok(finish(Some(result), cases));
            }
            Some(result)
        }
        None => None,
    };
    // The built tree is what every case starts from, each in a fresh copy of its own: taken back from the run's
    // uid first, so nothing a case does (or leaves running) changes what the next case gets.
    let taken =
        phases::time(Phase::TakeBack, || runner::sandbox::take_back(&scratch.join("submission"), &config.sandbox));
    if let Err(e) = taken {
        // A built tree the walk refuses (nested too deep) is the student's build's doing, not the grader's.
        let (status, message) = match runner::walk::refusal(&e) {
            Some(why) => (Status::BuildError, format!("the built folder was refused: it {why}")),
            None => (Status::HarnessError, format!("the grader could not take the built folder back: {e}")),
        };
        return Ok(finish(build, not_run(suite, status, &message)));
    }
    // Cases at once only where they cannot see each other, each with a uid of its own (see `siblings`).
    let siblings = phases::time(Phase::Lease, || {
        // Without a filesystem of their own, runs go one at a time (see `one_at_a_time_without_own_disks`).
        let jobs = one_at_a_time_without_own_disks(config.case_jobs, &config.sandbox);
        Siblings::new(&config.sandbox, lease.uid().is_some(), jobs.min(suite.suite.cases.len()))
    });
    let indices: Vec<usize> = (0..suite.suite.cases.len()).collect();
    let mut results: Vec<Option<CaseResult>> = vec![None; indices.len()];
    let mut cancelled = false;
    let timeouts = std::sync::atomic::AtomicU32::new(0);
    for_each_parallel(
        &indices,
        siblings.jobs(),
        |&i| match config.max_timeouts.filter(|&k| timeouts.load(Ordering::Relaxed) >= k) {
            // A program that hangs costs K timeouts, not one per case.
            Some(k) => Ok(blank(&suite.suite.cases[i], &suite.candidates[i], Status::Timeout, timed_out(k))),
            None => siblings
                .with(|sandbox| {
                    let config = &GradeConfig { sandbox: sandbox.clone(), ..config.clone() };
                    run_case(i, &dir, &scratch.join(format!("case-{i}")), suite, config)
                })
                .inspect(|r| {
                    if r.status == Status::Timeout {
                        timeouts.fetch_add(1, Ordering::Relaxed);
                    }
                }),
        },
        |i, r| match r {
            Ok(r) => results[i] = Some(r),
            Err(Cancelled) => cancelled = true,
        },
    );
    if cancelled || config.cancel.load(Ordering::Relaxed) {
        return Err(Cancelled);
    }
    let cases: Vec<CaseResult> = results.into_iter().flatten().collect();
    // A Python file that does not parse ends every case with a nonzero exit before running a line, so the parser
    // is asked only then: a hand-in whose cases all ran cleanly parses, and is not charged a second interpreter
    // start (on a 10 ms program that was a third of the grading time).
    if cases.iter().any(|c| matches!(c.status, Status::NonzeroExit)) {
        if let Some(failed) = phases::time(Phase::Syntax, || syntax_step(&dir, &scratch.join("syntax"), config))? {
            let cases = not_run(suite, Status::BuildError, &failed.message);
            return Ok(finish(Some(failed), cases));
        }
    }
    Ok(finish(build, cases))
}

/// Where runs' folders cannot have filesystems of their own ([`own_disk::for_runs`]), they all write in the
/// `--work` filesystem, where one run that fills it would fail the runs beside it: there, one run at a time
/// (`jobs` becomes 1).
pub fn one_at_a_time_without_own_disks(jobs: usize, sandbox: &Sandbox) -> usize {
    if own_disk::for_runs(sandbox) {
        jobs
    } else {
        1
    }
}

/// Where runs' folders cannot have filesystems of their own: why the `--work` filesystem holding `scratch` cannot
/// take a run writing its whole disk budget `budget` (the grader's shortage, never the student's), or `None`.
fn disk_shortage(scratch: &Path, budget: u64, sandbox: &Sandbox) -> Option<String> {
    if own_disk::for_runs(sandbox) || budget == 0 {
        return None;
    }
    // The copies of the run before are still being removed in the background: what they held is not a shortage.
    super::workspace::settle();
    #[cfg(unix)]
    {
        let folder = scratch.ancestors().find(|p| p.is_dir())?;
        let free = rustix::fs::statvfs(folder).ok()?;
        let bytes = free.f_bavail.saturating_mul(free.f_frsize);
        (bytes < budget).then(|| {
            format!(
                "not graded: the grader's work folder {} has {} MiB free, less than a run's disk budget of {} MiB \
                 (--disk-limit); free space there (or give --work another folder) and grade again",
                folder.display(),
                bytes >> 20,
                budget >> 20
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = (scratch, sandbox);
        None
    }
}

/// What identifies "graded the same way": the suite, the commands and the limits.
pub fn fingerprint(suite: &PreparedSuite, config: &GradeConfig) -> String {
    let mut extra =
        format!("{}|{:?}|{:?}", config.command.text(), config.build.as_ref().map(Template::text), config.limits);
    if let Some(k) = config.max_timeouts {
        extra.push_str(&format!("|max-timeouts={k}"));
    }
    suite.suite.fingerprint(&extra)
}

/// The detail of a case not run after `k` timeouts.
fn timed_out(k: u32) -> String {
    format!("not run: timed out {k} time{}", if k == 1 { "" } else { "s" })
}

fn not_run(suite: &PreparedSuite, status: Status, message: &str) -> Vec<CaseResult> {
    // The header `the build failed (exit code 1):` says nothing on its own: the line after it is the compiler's.
    let mut lines = message.lines().filter(|l| !l.trim().is_empty());
    let first_line = match (lines.next(), lines.next()) {
        (Some(head), Some(next)) if head.ends_with(':') => format!("{head} {}", next.trim()),
        (Some(head), _) => head.to_string(),
        (None, _) => message.to_string(),
    };
    suite
        .suite
        .cases
        .iter()
        .zip(&suite.candidates)
        .map(|(case, c)| blank(case, c, status, first_line.clone()))
        .collect()
}

fn blank(
    case: &SuiteCase,
    candidates: &Result<Vec<crate::harness::compare::Candidate>, String>,
    status: Status,
    detail: String,
) -> CaseResult {
    let expected = match (candidates, &case.expected) {
        (Ok(c), _) if !c.is_empty() => c[0].text.clone(),
        (_, Expected::Text(t)) => t.clone(),
        _ => String::new(),
    };
    CaseResult {
        args: case.args.clone(),
        visibility: case.visibility,
        show: case.show,
        tags: case.tags.clone(),
        detail,
        expected,
        ..CaseResult::new(case.name.clone(), status, case.points)
    }
}

fn spec(
    program: std::ffi::OsString,
    args: Vec<std::ffi::OsString>,
    cwd: &Path,
    stdin: Option<Vec<u8>>,
    limits: Limits,
    config: &GradeConfig,
) -> RunSpec {
    RunSpec {
        program,
        args,
        cwd: cwd.to_path_buf(),
        stdin,
        env: Vec::new(),
        limits,
        sandbox: config.sandbox.clone(),
        cancel: Some(config.cancel.clone()),
    }
}

/// Runs the build step `template` in `dir` under `config`'s limits, sandbox and build timeout; a failure is
/// recorded in the result (`ok: false`, the compiler's last lines in `message`).
///
/// # Errors
/// [`Cancelled`] when the run was cancelled.
pub fn build_step(template: &Template, dir: &Path, config: &GradeConfig) -> Result<BuildResult, Cancelled> {
    let (program, args) = template.expand(dir, &[]);
    let limits = Limits { output_bytes: 1 << 20, ..config.limits.with_timeout(config.build_timeout) };
    let start = Instant::now();
    let outcome = runner::run(&spec(program, args, dir, None, limits, config));
    let elapsed_ms = start.elapsed().as_millis() as u64;
    // As the student reads it: their folder is `.`, never the unsubstituted `{dir}` of the template.
    let command = template.text().replace("{dir}", ".");
    let outcome = match outcome {
        Ok(o) if o.cancelled => return Err(Cancelled),
        Ok(o) => o,
        Err(e) => {
            return Ok(BuildResult {
                ok: false,
                command,
                message: format!("the build step could not run: {e}"),
                elapsed_ms,
            })
        }
    };
    let why = if let Some(why) = &outcome.refused {
        Some(format!("the build could not be started: {why}"))
    } else if outcome.disk_limited {
        Some(format!("the build wrote more than its disk budget of {} MiB (--disk-limit)", limits.disk_bytes >> 20))
    } else if outcome.timed_out {
        Some(format!("the build timed out after {} s", config.build_timeout.as_secs()))
    } else {
        match outcome.exit {
            Exit::Code(0) => None,
            Exit::Code(c) => Some(format!("the build failed (exit code {c})")),
            Exit::Signal(s) => Some(format!("the build was killed by {}", signal_name(s))),
        }
    };
    let message = match why {
        None => String::new(),
        Some(why) => {
            let mut text = String::from_utf8_lossy(&outcome.stderr).into_owned();
            text.push_str(&String::from_utf8_lossy(&outcome.stdout));
            if text.trim().is_empty() {
                format!("{why}, printing nothing on stdout or stderr")
            } else {
                format!("{why}:\n{}", relative_to_hand_in(&tail(&text, 40), dir))
            }
        }
    };
    Ok(BuildResult { ok: message.is_empty(), command, message, elapsed_ms })
}

/// When the command runs a Python file and a case exited nonzero: Python's parser on it (in a fresh copy `copy` of
/// the built tree `built`), so a syntax error is one build error with its line rather than a nonzero exit on every
/// case. `Some` only for a file that does not parse.
fn syntax_step(built: &Path, copy: &Path, config: &GradeConfig) -> Result<Option<BuildResult>, Cancelled> {
    let Ok(case) = CaseCopy::within(built, copy, &config.sandbox, config.limits.disk_bytes) else { return Ok(None) };
    let dir = case.dir();
    let (program, args) = config.command.expand(dir, &[]);
    let Some((python, file)) = python_syntax::python_entry(&program, &args, dir) else { return Ok(None) };
    let start = Instant::now();
    let checked = python_syntax::check(&python, &file, dir, config.sandbox.clone(), Some(config.cancel.clone()));
    let name = file.strip_prefix(dir).unwrap_or(&file).display().to_string();
    let message = match checked {
        Ok(()) => return Ok(None),
        Err(python_syntax::SyntaxCheckError::Cancelled) => return Err(Cancelled),
        // Nothing is known about the file; the cases will say what happens when it runs.
        Err(python_syntax::SyntaxCheckError::NotRun(_)) => return Ok(None),
        Err(python_syntax::SyntaxCheckError::Invalid(why)) => {
            format!("{name} does not parse: {}", relative_to_hand_in(&why, dir))
        }
    };
    Ok(Some(BuildResult {
        ok: false,
        command: format!("{} (syntax check of {name})", python.to_string_lossy()),
        message,
        elapsed_ms: start.elapsed().as_millis() as u64,
    }))
}

/// A fresh copy of the built tree for one case (of `grade` or `check`, or the syntax check), given to the run's
/// uid, with the run's `HOME` and `TMPDIR` inside it (the runner points both at the run's folder); removed when
/// dropped, after every process of the run is gone. The built tree itself must have been taken back from the run's
/// uid first ([`runner::sandbox::take_back`]), so no run can change what the next one starts from. Where the grader
/// has a mount namespace of its own ([`own_disk::available`]), the copy is made on a tmpfs of its own holding
/// the copy and the disk budget and no more ([`own_disk::OwnDisk`]), which the kernel keeps it to.
#[derive(Debug)]
pub struct CaseCopy {
    dir: std::path::PathBuf,
    sandbox: Sandbox,
    disk: Option<own_disk::OwnDisk>,
}

/// The folder of a case's copy inside its own filesystem (whose top only the grader writes).
const ON_OWN_DISK: &str = "run";

impl CaseCopy {
    /// Copies the built tree `built` to `dir` (links kept as links, never followed) and gives it to `sandbox`'s
    /// uid; on a filesystem of its own with room for the default disk budget.
    ///
    /// # Errors
    /// [`WorkspaceError::TooLarge`] when the built tree is past a submission's limits (the student's), any other
    /// when the grader cannot read it or write the copy.
    pub fn new(built: &Path, dir: &Path, sandbox: &Sandbox) -> Result<CaseCopy, WorkspaceError> {
        CaseCopy::within(built, dir, sandbox, Limits::default().disk_bytes)
    }

    /// [`CaseCopy::new`] with room for `budget` bytes written (`--disk-limit`): on a filesystem of its own at
    /// `dir` (the copy in its subfolder `run`) where the grader has a mount namespace of its own, at `dir` itself
    /// elsewhere.
    ///
    /// # Errors
    /// As [`CaseCopy::new`]; a filesystem the kernel refuses to make is the grader's.
    pub fn within(built: &Path, dir: &Path, sandbox: &Sandbox, budget: u64) -> Result<CaseCopy, WorkspaceError> {
        let io_at = |source| WorkspaceError::Io { path: dir.to_path_buf(), source };
        if !own_disk::for_runs(sandbox) || budget == 0 {
            let copy = CaseCopy { dir: dir.to_path_buf(), sandbox: sandbox.clone(), disk: None };
            phases::time(Phase::Copy, || copy_folder(built, dir, sandbox))?;
            return Ok(copy);
        }
        // Room for the largest copy (each file at least a page) until it is made, then only what it holds.
        let room = MAX_BYTES.saturating_mul(2).saturating_add(MAX_FILES as u64 * 4096);
        let disk = own_disk::OwnDisk::mount(dir, room, 1 << 20).map_err(io_at)?;
        let copy = CaseCopy { dir: dir.join(ON_OWN_DISK), sandbox: sandbox.clone(), disk: Some(disk) };
        phases::time(Phase::Copy, || copy_folder(built, &copy.dir, sandbox))?;
        if let Some(disk) = &copy.disk {
            disk.seal(budget).map_err(io_at)?;
        }
        Ok(copy)
    }

    /// The copy: the run's working folder, `{dir}`, `HOME` and `TMPDIR`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for CaseCopy {
    fn drop(&mut self) {
        phases::time(Phase::Remove, || match self.disk.take() {
            // Unmounted whole, in the background: nothing to walk.
            Some(disk) => super::workspace::discard_disk(disk),
            None => discard(&self.dir, &self.sandbox),
        });
    }
}

/// Runs case `index` in a fresh copy (at `copy`) of the built tree `built`.
fn run_case(
    index: usize,
    built: &Path,
    copy: &Path,
    suite: &PreparedSuite,
    config: &GradeConfig,
) -> Result<CaseResult, Cancelled> {
    let case = &suite.suite.cases[index];
    let candidates = &suite.candidates[index];
    let candidates = match candidates {
        Ok(c) => c,
        Err(e) => return Ok(blank(case, candidates, Status::HarnessError, format!("no expected output: {e}"))),
    };
    let fresh = match CaseCopy::within(built, copy, &config.sandbox, config.limits.disk_bytes) {
        Ok(fresh) => fresh,
        Err(e) => {
            // The built tree is the student's (too large or too deep to copy); a copy the grader cannot write is not.
            let (status, why) = match e {
                WorkspaceError::TooLarge { .. } => (Status::BuildError, "the built folder was refused"),
                _ => (Status::HarnessError, "the grader could not copy the built folder"),
            };
            return Ok(blank(case, &Ok(candidates.clone()), status, format!("{why} for this case: {e}")));
        }
    };
    let dir = fresh.dir();
    let timeout = case.timeout.unwrap_or(suite.suite.timeout);
    let (program, args) = config.command.expand(dir, &case.args);
    let outcome =
        runner::run(&spec(program, args, dir, case.stdin.clone(), config.limits.with_timeout(timeout), config));
    let outcome = match outcome {
        Ok(o) if o.cancelled => return Err(Cancelled),
        Ok(o) => o,
        Err(e) => return Ok(blank(case, &Ok(candidates.clone()), Status::HarnessError, e.to_string())),
    };
    let judging = Instant::now();
    let mut result = blank(case, &Ok(candidates.clone()), Status::Failed, String::new());
    result.stdout = captured(&outcome.stdout, outcome.stdout_truncated, Keep::Head, dir);
    result.stderr = captured(&outcome.stderr, outcome.stderr_truncated, Keep::Tail, dir);
    result.elapsed_ms = outcome.elapsed.as_millis() as u64;
    let (status, detail) = if let Some(why) = &outcome.refused {
        (Status::NonzeroExit, format!("the program could not be started: {why}"))
    } else if outcome.output_limited {
        (Status::OutputLimit, format!("printed more than {} bytes; stopped there", config.limits.output_bytes))
    } else if outcome.disk_limited {
        (
            Status::Crashed,
            format!(
                "wrote more than its disk budget of {} MiB into its folder (--disk-limit); stopped there",
                config.limits.disk_bytes >> 20
            ),
        )
    } else if outcome.timed_out {
        (
            Status::Timeout,
            format!("still running after {}; the whole process tree was killed", humantime::format_duration(timeout)),
        )
    } else {
        match outcome.exit {
            Exit::Signal(s) => (Status::Crashed, format!("killed by {}", signal_name(s))),
            Exit::Code(c) if c != 0 => (Status::NonzeroExit, format!("exit code {c}")),
            Exit::Code(_) => {
                let policy = case.compare.unwrap_or(suite.suite.compare);
                let verdict = judge(candidates, &outcome.stdout, &policy);
                result.reading = verdict.reading.clone();
                // The diff is against the reading the output came closest to.
                if let Some(closest) = candidates.get(verdict.candidate) {
                    result.expected = closest.text.clone();
                }
                result.lines_matched = verdict.lines_matched;
                result.difference = verdict.difference.clone().map(FirstDifference::excerpt);
                // Exact: all the case's points when it passed, matched/total of them with line credit (short of
                // all of them when it did not pass), otherwise none.
                result.score = match verdict.lines_matched {
                    _ if verdict.passed => result.max_score,
                    Some((matched, total)) if verdict.credit > 0.0 => {
                        result.max_score.share(matched.min(total.saturating_sub(1)) as u64, total as u64)
                    }
                    _ => Points::ZERO,
                };
                if verdict.passed {
                    (Status::Passed, "output matches".to_string())
                } else {
                    result.causes = diagnose_case(suite, case, &outcome.stdout);
                    let line = verdict.difference.as_ref().map_or(0, |d| d.line);
                    (Status::Failed, format!("output differs from line {line}"))
                }
            }
        }
    };
    result.status = status;
    result.detail = if outcome.leftovers { format!("{detail}; it left processes running (killed)") } else { detail };
    phases::add(Phase::Judge, judging);
    Ok(result)
}

/// For a suite with a reference: which known bug reproduces this wrong output, asked of the registered diagnosis
/// ([`crate::harness::cause::Diagnose`]).
fn diagnose_case(suite: &PreparedSuite, case: &SuiteCase, stdout: &[u8]) -> Vec<Cause> {
    let (Some(reference), Some(diagnosis)) = (suite.suite.reference, crate::harness::cause::registered()) else {
        return Vec::new();
    };
    diagnosis.causes(&reference, &case.args, stdout, &suite.suite.accept)
}

/// What a result keeps of a stream: an excerpt ([`Captured::excerpt`]) with scratch paths made relative to the
/// hand-in.
fn captured(bytes: &[u8], truncated: bool, keep: Keep, dir: &Path) -> Captured {
    let mut c = Captured::excerpt(bytes, truncated, keep, EXCERPT_BYTES);
    c.text = relative_to_hand_in(&c.text, dir);
    c
}

/// The last `n` lines of `text`.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A signal's conventional name, with what it usually means for a submission.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        4 => "SIGILL",
        6 => "SIGABRT (abort)",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL (killed; out of memory?)",
        11 => "SIGSEGV (segmentation fault)",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        24 => "SIGXCPU (CPU time limit)",
        25 => "SIGXFSZ (file size limit)",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}
