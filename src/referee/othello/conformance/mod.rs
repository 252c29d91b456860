//! Conformance of a student's Othello search functions (`referee check othello`, and `grade othello` through
//! [`run`]): the student's module is imported by a Python helper shipped with the project (its `run_ai` is never
//! run), its `compute_utility`, `select_move_minimax`, `select_move_alphabeta` and node functions are called on
//! fixed and random small boards, and every answer is compared with the reference under the semantics of
//! `othello-ground-truth.md` ([`reference`]).
//!
//! - [`function`]: the template's functions and the two signatures in circulation (with and without `limit`).
//! - [`cases`]: the boards asked about. [`plan`]: the calls and their right answers. [`judge`]: verdicts.
//! - [`helper`]: the Python process, one call at a time under a wall clock, started again after a timeout.
//! - [`folder`]: the fresh copy of the module's folder every Python process starts in, and the check that ends a
//!   process whose call changed its folder.
//! - [`causes`], [`variant`] and [`cache`]: the catalog of known bugs; [`locate`], [`isolate`] and [`inside`]:
//!   which function is wrong on its own and which part of it, run only after a disagreement; [`proof`]: a function
//!   is named only when the reference with it replaced by the student's reproduces every answer; [`oracle`]: the
//!   reference's stand-ins of an isolated call, answered in this process (the helper holds no reference).
//! - [`report`] and [`render`]: the result, as JSON and as text.

pub mod cache;
pub mod cases;
pub mod causes;
pub mod folder;
pub mod function;
pub mod helper;
pub mod inside;
pub mod isolate;
pub mod judge;
pub mod locate;
pub mod oracle;
pub mod plan;
pub mod proof;
pub mod reference;
pub mod render;
pub mod report;
pub mod variant;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::game::othello::literal::format_board;
use crate::harness::cause as report_cause;
use crate::harness::grade::class::make_traversable;
use crate::harness::grade::scratch::Scratch;
use crate::harness::runner::sandbox::Sandbox;
use crate::harness::runner::Limits;
use crate::referee::process::Launch;
use causes::Answers;
use function::{Form, Function};
use helper::{FunctionInfo, Helper, Reply, StartError};
use plan::Call;
use report::{Failure, FailureKind, FunctionReport, Report};
use serde_json::Value;

/// The helper, written next to the student's file's copy at run time.
pub const HELPER_PY: &str = include_str!("../python/conformance.py");

/// The project's `othello_shared.py`, which students' modules import.
pub const SHARED_PY: &str = include_str!("../python/othello_shared.py");

/// After this many timeouts of one function its remaining calls are not made (each would cost the timeout).
pub const MAX_TIMEOUTS: usize = 3;

/// How to run the check.
#[derive(Clone, Debug)]
pub struct Options {
    /// The Python 3 to run the helper with.
    pub python: OsString,
    /// Seed of the random cases.
    pub seed: u64,
    /// Number of random cases (on top of the fixed ones).
    pub cases: usize,
    /// Wall-clock limit of each call (and of the import).
    pub timeout: Duration,
    /// Who the student's code runs as (the default runs it as the caller; a grader running as root should pass
    /// [`Sandbox::default_for_this_process`], as `check othello` does).
    pub sandbox: Sandbox,
    /// Where the scratch folder goes (default: the system temp folder). Nothing of the check is left there once
    /// [`run`] returns.
    pub work: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            python: "/usr/bin/python3".into(),
            seed: 1,
            cases: 60,
            timeout: Duration::from_secs(10),
            sandbox: Sandbox::default(),
            work: None,
        }
    }
}

/// Why the check could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// The agent file is missing or unusable: the user's input.
    #[error("{0}")]
    Input(String),
    /// Python or the scratch folder could not be set up: the environment, never the student.
    #[error("{0}")]
    Setup(String),
}

/// Checks the student's module `file`.
///
/// # Errors
/// [`HarnessError::Input`] for a missing or unreadable file, [`HarnessError::Setup`] when Python cannot run the
/// helper. Everything the student's code does wrong is in the [`Report`] instead.
pub fn run(file: &Path, options: &Options) -> Result<Report, HarnessError> {
    let began = Instant::now();
    let source = read_agent(file)?;
    check_python(&options.python)?;
    let (sandbox, _lease) = options.sandbox.lease();
    let work = scratch(options)?;
    let file_name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // The module's folder as the grader writes it stays the grader's: every process gets a fresh copy of it (issue
    // 22, item 6; see `folder`).
    let module_dir = work.path().join("module");
    let helper_dir = work.path().join("helper");
    let setup = |what: &Path, e: std::io::Error| HarnessError::Setup(format!("{}: {e}", what.display()));
    make_traversable(&helper_dir).map_err(|e| setup(&helper_dir, e))?;
    std::fs::create_dir(&module_dir).map_err(|e| setup(&module_dir, e))?;
    let writes = [
        (module_dir.join(&file_name), source.as_slice()),
        (module_dir.join("othello_shared.py"), SHARED_PY.as_bytes()),
        (helper_dir.join("conformance.py"), HELPER_PY.as_bytes()),
    ];
    for (path, bytes) in &writes {
        std::fs::write(path, bytes).map_err(|e| setup(path, e))?;
    }
    let copies = folder::Copies::new(&module_dir, work.path(), &sandbox);
    let launch = Launch {
        program: options.python.clone(),
        args: vec!["-B".into(), "-u".into(), helper_dir.join("conformance.py").into(), file_name.clone().into()],
        cwd: module_dir.clone(),
        env: [("PYTHONDONTWRITEBYTECODE", "1"), ("PYTHONIOENCODING", "utf-8"), ("PYTHONHASHSEED", "0")]
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .to_vec(),
        limits: Limits { cpu_seconds: 3600, ..Limits::default() },
        sandbox,
        pin: None,
        readable: vec![helper_dir.clone()],
    };
    let fixed = cases::fixed();
    let random = cases::random(options.seed, options.cases);
    let mut report = Report {
        file: file.display().to_string(),
        module: file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        python: String::new(),
        seed: options.seed,
        fixed_cases: fixed.len(),
        random_cases: random.len(),
        timeout_seconds: options.timeout.as_secs_f64(),
        import_problem: None,
        import_fatal: false,
        functions: Vec::new(),
        seconds: 0.0,
    };
    let (mut helper, hello) = match Helper::start(launch, copies, options.timeout) {
        Ok(started) => started,
        Err(StartError::Python(why)) => return Err(HarnessError::Setup(why)),
        Err(StartError::Import(python, why)) => {
            report.python = python;
            report.import_problem = Some(why);
            report.import_fatal = true;
            report.seconds = began.elapsed().as_secs_f64();
            return Ok(report);
        }
    };
    report.python = helper.python.clone();
    report.module = hello.module.clone();
    report.import_problem = hello.import_error.clone();
    let fixed_count = fixed.len();
    let twins = cases::twins(&fixed);
    let asked = fixed_count + random.len();
    let twin_of: Vec<(usize, usize)> = twins.iter().enumerate().map(|(k, (of, _))| (*of, asked + k)).collect();
    let all: Vec<cases::Case> =
        fixed.into_iter().chain(random).chain(twins.into_iter().map(|(_, twin)| twin)).collect();
    let plan = Plan { all: &all, asked, fixed: fixed_count, twins: &twin_of };
    let replay = format!("referee check othello --agent {} --seed {}", file.display(), options.seed);
    let mut checked = Vec::new();
    for function in Function::ALL {
        let info = hello.functions.get(function.name());
        let (f, c) = check_function(&mut helper, function, info, &plan, options.timeout)?;
        report.functions.push(f);
        checked.push(c);
    }
    locate::locate(&mut helper, &mut report.functions, &checked, &all);
    for cause in report.functions.iter_mut().flat_map(|f| f.causes.iter_mut()) {
        cause.evidence.push(format!("replay: {replay}"));
    }
    helper.kill();
    if let Some(why) = helper.harness_error() {
        return Err(HarnessError::Setup(why.to_string()));
    }
    report.seconds = began.elapsed().as_secs_f64();
    Ok(report)
}

/// The cases of one check: `all[..asked]` are asked of every function (the first `fixed` of them the fixed cases),
/// and the rest are the other-color twins `twins` pairs with their case, asked with `caching` on.
struct Plan<'a> {
    all: &'a [cases::Case],
    asked: usize,
    fixed: usize,
    twins: &'a [(usize, usize)],
}

/// Makes every call of one function (and again with each switch on, on the fixed cases), tallies the verdicts,
/// and names the causes of any disagreement the catalog knows; returns the calls and answers too, for
/// [`locate::locate`].
fn check_function(
    helper: &mut Helper,
    function: Function,
    info: Option<&FunctionInfo>,
    plan: &Plan<'_>,
    timeout: Duration,
) -> Result<(FunctionReport, locate::Checked), HarnessError> {
    let form = info.map_or(Form::Missing, |i| i.form);
    let all = plan.all;
    let setup = |e: crate::game::othello::SizeError| HarnessError::Setup(e.to_string());
    let mut calls = plan::calls(function, form, &all[..plan.asked]).map_err(setup)?;
    let switches = info.map_or(&[][..], |i| &i.switches);
    calls.extend(plan::switched_on(function, form, switches, all, plan.fixed, plan.twins).map_err(setup)?);
    let mut f = FunctionReport {
        function,
        form,
        signature: info.and_then(|i| i.signature.clone()),
        total: calls.len(),
        agreed: 0,
        mismatches: 0,
        errors: 0,
        timeouts: 0,
        skipped: 0,
        failures: Vec::new(),
        causes: Vec::new(),
        proof: None,
        symptoms: Vec::new(),
    };
    let mut replies: Vec<Option<Value>> = vec![None; calls.len()];
    let mut raised: Vec<Option<String>> = vec![None; calls.len()];
    let mut counts: Vec<Option<u64>> = vec![None; calls.len()];
    let mut failed_switches: Vec<&[String]> = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        if f.timeouts >= MAX_TIMEOUTS {
            f.skipped += 1;
            continue;
        }
        let case = &all[call.case];
        let (kind, got) = match helper.call(&call.request(case)) {
            Reply::Ok(value) => {
                counts[i] = helper.last_calls;
                let right = call.expected.accepts(&value) && judge::shape_ok(form, function, &value);
                let got = judge::python_text(&value);
                replies[i] = Some(value);
                if right {
                    f.agreed += 1;
                    continue;
                }
                f.mismatches += 1;
                (FailureKind::Mismatch, got)
            }
            Reply::Raised(why) | Reply::Died(why) => {
                f.errors += 1;
                raised[i] = Some(why.clone());
                (FailureKind::Error, why)
            }
            Reply::Timeout => {
                f.timeouts += 1;
                (FailureKind::Timeout, format!("no answer within {}", helper::seconds(timeout)))
            }
        };
        failed_switches.push(&call.switches);
        f.failures.push(failure(kind, call, case, call.expected.describe(), got));
    }
    let only_with = only_with(function, &failed_switches, f.skipped);
    let answers = Answers { function, form, calls: &calls, cases: all, replies: &replies };
    if f.mismatches > 0 {
        if let Some(cause) = cache::stale(helper, &answers) {
            f.causes.push(cause);
        } else {
            let explained = causes::explain(&answers);
            if explained.accepted && f.errors + f.timeouts + f.skipped == 0 {
                f.agreed += f.mismatches;
                f.mismatches = 0;
                f.failures.clear();
            }
            f.causes = explained.causes;
        }
    } else if let Some((i, cause)) = causes::no_pruning(&answers, &counts) {
        let case = &all[calls[i].case];
        let got = format!("{} node-function calls", counts[i].unwrap_or(0));
        f.failures.push(failure(FailureKind::Mismatch, &calls[i], case, "the move, with pruning".into(), got));
        f.agreed -= 1;
        f.mismatches += 1;
        f.causes.push(cause);
    }
    f.causes.extend(causes::fail_hard(&answers));
    f.causes.extend(only_with);
    let replies = replies.into_iter().zip(raised).map(|(ok, err)| ok.map(Ok).or(err.map(Err))).collect();
    Ok((f, locate::Checked { form, calls, replies }))
}

/// When every call that failed had the same one switch on (and every call was made), a cause naming it: the
/// answers change when that switch is on.
fn only_with(function: Function, failed: &[&[String]], skipped: usize) -> Option<report_cause::Cause> {
    let [switch] = failed.first()? else { return None };
    if skipped > 0 || !failed.iter().all(|s| s.len() == 1 && s[0] == *switch) {
        return None;
    }
    Some(report_cause::Cause::new(
        format!("only-with-{switch}"),
        report_cause::CauseKind::LocatedComponent,
        format!(
            "Only calls with {switch}=1 disagree: your {} answers right with {switch}=0, so what {switch} changes is \
             wrong.",
            function.name()
        ),
    ))
}

/// A failure record of `call`.
fn failure(kind: FailureKind, call: &Call, case: &cases::Case, expected: String, got: String) -> Failure {
    Failure {
        kind,
        call: call.describe(case),
        case: case.label.clone(),
        board: format_board(&case.grid),
        drawing: case.grid.to_string(),
        expected,
        got,
    }
}

/// The agent file's bytes.
fn read_agent(file: &Path) -> Result<Vec<u8>, HarnessError> {
    let shown = file.display();
    if !file.is_file() {
        return Err(HarnessError::Input(format!("--agent {shown}: no such file")));
    }
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name == "othello_shared.py" {
        return Err(HarnessError::Input(format!(
            "--agent {shown}: that is the course's helper file; give the agent that imports it"
        )));
    }
    std::fs::read(file).map_err(|e| HarnessError::Input(format!("--agent {shown}: {e}")))
}

/// Python must exist before anything is spawned, so a missing one is named as such.
fn check_python(python: &std::ffi::OsStr) -> Result<(), HarnessError> {
    let path = Path::new(python);
    let found = if path.components().count() > 1 {
        path.is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(path).is_file()))
    };
    if found {
        Ok(())
    } else {
        Err(HarnessError::Setup(format!(
            "Python 3 was not found at {} (install python3 or give --python PATH)",
            path.display()
        )))
    }
}

/// The scratch folder (removed when dropped, once every copy discarded in it is gone).
fn scratch(options: &Options) -> Result<Scratch, HarnessError> {
    let parent = options.work.clone().unwrap_or_else(std::env::temp_dir);
    let made = Scratch::create(&parent, "referee-check-othello-");
    let dir = made.map_err(|e| HarnessError::Setup(format!("cannot make a scratch folder: {e}")))?;
    make_traversable(dir.path()).map_err(|e| HarnessError::Setup(format!("{}: {e}", dir.path().display())))?;
    Ok(dir)
}
