//! Grading a class by games, whatever the game: students graded in parallel (each game on a CPU slot of its own),
//! each result saved as it is finished (a re-run with the same settings resumes, grading again only new students,
//! resubmissions and results of other settings), then the harness's class files
//! (gradebook CSV, Gradescope JSON, markdown, JUnit) and one line per student.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::app::shard::{self, Manifest, Shard};
use crate::cli::{exit, ClassArgs};
use crate::harness::grade::class::{discover, safe_name, write_atomic, Entry, Store};
use crate::harness::grade::for_each_parallel;
use crate::harness::grade::resume::plan;
use crate::harness::model::{BuildResult, RunReport, SubmissionResult};
use crate::harness::render::format_points;
use crate::harness::runner::sandbox;
use crate::referee::record::GameRecord;
use crate::referee::slots::CpuSlots;
use crate::referee::spec::{prepare, AgentSpec, PrepareError, Prepared, Setup};

/// A class to grade and where the results go.
#[derive(Clone, Debug)]
pub struct ClassRun<'a> {
    /// The game (`mancala`), for messages and the report.
    pub game: &'static str,
    /// The class, the results folder, `--fresh` and `-j`, as given.
    pub class: &'a ClassArgs,
    /// Every setting that changes a grade; a saved result counts only under the same fingerprint.
    pub fingerprint: String,
    /// The seed used, printed.
    pub seed: u64,
}

/// What grading one student may use.
pub struct Grader<'a> {
    /// One CPU slot per game.
    pub slots: &'a CpuSlots,
    /// Set on Ctrl-C: stop between games.
    pub cancel: &'a AtomicBool,
    /// The run's id (the seed).
    pub run: String,
    /// See [`ClassRun::fingerprint`].
    pub fingerprint: String,
    /// The sandbox layers agents run under (recorded in each result).
    pub sandbox: Vec<String>,
}

impl Grader<'_> {
    /// Whether grading was cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// An empty result for `entry` worth `points`.
    pub fn result(&self, entry: &Entry, points: f64) -> SubmissionResult {
        SubmissionResult {
            id: entry.id.clone(),
            source: entry.path.display().to_string(),
            build: None,
            cases: Vec::new(),
            score: 0.0,
            max_score: points,
            run: self.run.clone(),
            fingerprint: self.fingerprint.clone(),
            handin: String::new(),
            sandbox: self.sandbox.clone(),
        }
    }
}

/// Prepares a student's agent, recording the build (`tool` names the compiler) in `result`. `Err(harness)` when it
/// cannot play: `harness` says whether that is the grader's fault rather than the student's.
pub fn prepare_student(
    spec: &AgentSpec,
    setup: &Setup,
    id: &str,
    tool: &str,
    result: &mut SubmissionResult,
) -> Result<Prepared, (bool, String)> {
    let started = std::time::Instant::now();
    let prepared = prepare(spec, &setup.for_student(id));
    let (ok, message) = match &prepared {
        Ok(_) => (true, String::new()),
        Err(e) => (false, e.to_string()),
    };
    result.build = Some(BuildResult {
        ok,
        command: tool.into(),
        message: message.clone(),
        elapsed_ms: started.elapsed().as_millis() as u64,
    });
    prepared.map_err(|e| (matches!(e, PrepareError::Setup(_)), message))
}

/// One student's grade and the games behind it; `None` when cancelled.
pub type Graded = Option<(SubmissionResult, Vec<GameRecord>)>;

/// Grades every student of `class` with `grade` (which returns `None` when cancelled) and writes the class files.
/// Returns the exit code.
pub fn run(
    class: &ClassRun<'_>,
    grade: &(dyn Fn(&Entry, &Grader<'_>) -> Graded + Sync),
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let name = class.game;
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee grade {name}: {message}");
        code
    };
    let shard = match Shard::parse_option(class.class.shard.as_deref()) {
        Ok(s) => s,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    let everyone = match discover(&class.class.submissions) {
        Ok(e) => e,
        Err(e) => return fail(err, exit::USAGE, e.to_string()),
    };
    let entries = shard::select(&everyone, shard);
    let out_dir = class.class.out.clone().unwrap_or_else(|| PathBuf::from("referee-results"));
    let store = match Store::open(&out_dir) {
        Ok(s) => s,
        Err(e) => return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display())),
    };
    if class.class.fresh {
        let _ = std::fs::remove_dir_all(out_dir.join("results"));
        let _ = std::fs::create_dir_all(out_dir.join("results"));
    }
    let recorded = Manifest::record(shard, &out_dir, |s| Manifest {
        schema: shard::MANIFEST_SCHEMA,
        command: format!("grade {name}"),
        fingerprint: class.fingerprint.clone(),
        shard: s.index,
        of: s.count,
        suite: name.into(),
        units: everyone.iter().map(|e| e.id.clone()).collect(),
        tournament: None,
    });
    if let Err(e) = recorded {
        return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display()));
    }
    let plan = plan(&entries, &store, &class.fingerprint);
    sandbox::become_subreaper();
    let cancel = crate::app::cancel_on_signals();
    let jobs = crate::app::jobs_or_cores(class.class.jobs);
    let slots = CpuSlots::new(jobs);
    let progress = crate::app::progress::Progress::on_stderr(plan.todo.len(), "grading", "students");
    let mut failures = Vec::new();
    let grader = Grader {
        slots: &slots,
        cancel: &cancel,
        run: class.seed.to_string(),
        fingerprint: class.fingerprint.clone(),
        // Agents run with every layer the machine offers (the gate has already refused a missing one if required).
        sandbox: crate::harness::runner::probe::probe().layers.names(),
    };
    for_each_parallel(
        &plan.todo,
        jobs,
        |todo| {
            progress.start(&todo.entry.id);
            grade(todo.entry, &grader).map(|(r, games)| (SubmissionResult { handin: todo.handin.clone(), ..r }, games))
        },
        |_, result| {
            let Some((result, records)) = result else { return };
            let saved = serde_json::to_vec_pretty(&records)
                .map_err(std::io::Error::other)
                .and_then(|json| write_atomic(&games_file(&out_dir, &result.id), &json))
                .and_then(|()| store.save(&result))
                .and_then(|()| crate::app::class_report::write_student_files(&out_dir, &result))
                .and_then(|()| write_class_files(&out_dir, name, &store, entries.len()));
            if let Err(e) = saved {
                failures.push(format!("{}: {e}", result.id));
            }
            progress
                .finish(&result.id, &format!("{} / {}", format_points(result.score), format_points(result.max_score)));
        },
    );
    progress.close();
    let all: Vec<SubmissionResult> =
        store.load_all().into_iter().filter(|r| entries.iter().any(|e| e.id == r.id)).collect();
    let report = RunReport { schema: crate::harness::model::SCHEMA_VERSION, suite: name.into(), submissions: all };
    if let Err(e) = crate::app::class_report::write_report_files(&out_dir, &report, entries.len()) {
        failures.push(format!("class files: {e}"));
    }
    for f in &failures {
        let _ = writeln!(err, "referee grade {name}: cannot write results for {f}");
    }
    if cancel.load(Ordering::Relaxed) {
        let _ = writeln!(err, "referee grade {name}: cancelled; a re-run grades the students not yet saved");
        return crate::app::class_report::CANCELLED;
    }
    let _ = writeln!(
        out,
        "graded {} student(s), {} already graded earlier, seed {}; results in {}",
        plan.todo.len(),
        plan.kept,
        class.seed,
        out_dir.display()
    );
    for line in plan.regrade_lines() {
        let _ = writeln!(out, "{line}");
    }
    for r in &report.submissions {
        let note = r.cases.iter().filter(|c| c.max_score > 0.0).map(|c| format!("{}: {}", c.name, c.status.label()));
        let _ = writeln!(out, "{}", crate::app::class_report::student_line(r, &note.collect::<Vec<_>>().join(", ")));
    }
    if !failures.is_empty() || report.submissions.iter().any(SubmissionResult::has_harness_error) {
        exit::INTERNAL
    } else {
        exit::SUCCESS
    }
}

/// The class files from every stored result, rewritten after each student so `report.html` follows the run.
fn write_class_files(out_dir: &Path, name: &str, store: &Store, expected: usize) -> std::io::Result<()> {
    let report =
        RunReport { schema: crate::harness::model::SCHEMA_VERSION, suite: name.into(), submissions: store.load_all() };
    crate::app::class_report::write_report_files(out_dir, &report, expected)
}

/// Where a grading run writes one student's game records.
pub fn games_file(out: &Path, id: &str) -> PathBuf {
    out.join("games").join(format!("{}.json", safe_name(id)))
}
