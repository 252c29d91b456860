//! Grading a class by games, whatever the game: students graded in parallel (each game on a CPU slot of its own),
//! each result saved as it is finished (a re-run with the same settings resumes, grading again only new students,
//! resubmissions and results of other settings), then the harness's class files
//! (gradebook CSV, Gradescope JSON, markdown, JUnit) and one line per student.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::app::class_report::ClassResults;
use crate::app::shard::{self, Manifest, Shard};
use crate::cli::{exit, ClassArgs};
use crate::harness::grade::class::{safe_name, write_atomic, Entry, Store};
use crate::harness::grade::for_each_parallel;
use crate::harness::grade::resume::plan;
use crate::harness::grade::roster;
use crate::harness::model::{BuildResult, Points, SubmissionResult};
use crate::harness::render::view::StudentView;
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
    /// Lines for the summary about how the run was set up (the seed reused from an earlier run).
    pub notes: Vec<String>,
    /// What the assignment is worth (a hand-in that is not graded still shows its maximum).
    pub points: Points,
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
    pub fn result(&self, entry: &Entry, points: Points) -> SubmissionResult {
        SubmissionResult {
            id: entry.id.clone(),
            source: entry.path.display().to_string(),
            build: None,
            cases: Vec::new(),
            score: Points::ZERO,
            max_score: points,
            run: self.run.clone(),
            fingerprint: self.fingerprint.clone(),
            handin: String::new(),
            sandbox: self.sandbox.clone(),
            not_graded: None,
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
    let out_dir = class.class.out.clone().unwrap_or_else(|| PathBuf::from("referee-results"));
    let skip: Vec<&Path> = [Some(out_dir.as_path()), class.class.solution.as_deref()].into_iter().flatten().collect();
    let roster = match roster::read_all(&class.class.submissions, &skip) {
        Ok(r) => r,
        Err(e) => return fail(err, exit::USAGE, e.to_string()),
    };
    for note in roster.notes.iter().chain(&class.notes) {
        let _ = writeln!(err, "referee grade {name}: note: {note}");
    }
    let everyone = roster.entries;
    let entries = shard::select(&everyone, shard);
    let store = match Store::open(&out_dir) {
        Ok(s) => s,
        Err(e) => return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display())),
    };
    if let Err(e) = write_atomic(&out_dir.join(SEED_FILE), format!("{}\n", class.seed).as_bytes()) {
        return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display()));
    }
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
    let standing = || ClassResults::load(&store, name, &everyone, &entries);
    let mut failures = Vec::new();
    let grader = Grader {
        slots: &slots,
        cancel: &cancel,
        run: class.seed.to_string(),
        fingerprint: class.fingerprint.clone(),
        // Agents run with every layer the machine offers (the gate has already refused a missing one if required).
        sandbox: crate::harness::runner::probe::probe().layers.names(),
    };
    if let Some(solution) = &class.class.solution {
        if let Err((code, message)) = check_solution(solution, grade, &grader) {
            return fail(err, code, message);
        }
        let _ =
            writeln!(err, "referee grade {name}: --solution {}: full marks; grading the students", solution.display());
    }
    for_each_parallel(
        &plan.todo,
        jobs,
        |todo| {
            progress.start(&todo.entry.id);
            if let Some(why) = crate::harness::grade::roster::loose_file(&todo.entry.path) {
                // A loose file in the class folder: a row, not graded, saying what to hand in instead.
                let result = SubmissionResult { not_graded: Some(why), ..grader.result(todo.entry, class.points) };
                return Some((SubmissionResult { handin: todo.handin.clone(), ..result }, Vec::new()));
            }
            grade(todo.entry, &grader).map(|(r, games)| (SubmissionResult { handin: todo.handin.clone(), ..r }, games))
        },
        |_, result| {
            let Some((result, records)) = result else { return };
            let saved = crate::harness::render::json_text::to_vec_pretty(&records)
                .and_then(|json| write_atomic(&games_file(&out_dir, &result.id), &json))
                .and_then(|()| store.save(&result))
                .and_then(|()| crate::app::class_report::write_student_files(&out_dir, &result, StudentView::DEFAULT))
                .and_then(|()| standing().write(&out_dir, StudentView::DEFAULT));
            if let Err(e) = saved {
                failures.push(format!("{}: {e}", result.id));
            }
            progress.finish(&result.id, &crate::app::class_report::points_text(&result));
        },
    );
    progress.close();
    let standing = standing();
    if let Err(e) = standing.write_final(&out_dir, StudentView::DEFAULT) {
        failures.push(format!("class files: {e}"));
    }
    for f in &failures {
        let _ = writeln!(err, "referee grade {name}: cannot write results for {f}");
    }
    if cancel.load(Ordering::Relaxed) {
        let _ = writeln!(
            err,
            "referee grade {name}: cancelled; a re-run grades the students not yet saved, with the same seed {}",
            class.seed
        );
        return crate::app::class_report::CANCELLED;
    }
    let _ = writeln!(
        out,
        "graded {} student(s), {} already graded earlier, seed {} (each game's built-in opponent draws from the \
         seed, the game's round and the student's seat); results in {}",
        plan.todo.len(),
        plan.kept,
        class.seed,
        out_dir.display()
    );
    for line in plan.regrade_lines().iter().chain(&standing.notices()) {
        let _ = writeln!(out, "{line}");
    }
    for r in &standing.report.submissions {
        let note =
            r.cases.iter().filter(|c| c.max_score.is_positive()).map(|c| format!("{}: {}", c.name, c.status.label()));
        let _ = writeln!(out, "{}", crate::app::class_report::student_line(r, &note.collect::<Vec<_>>().join(", ")));
    }
    // The same table as `grade`'s: 3 for the grader's failure, else 1 when a student did not pass every part of
    // the rubric (the parts that carry points; a single game lost within a part that passed is no failure).
    let parts_passed = |r: &SubmissionResult| {
        r.outcome().is_graded() && r.cases.iter().filter(|c| c.max_score.is_positive()).all(|c| c.status.is_pass())
    };
    let graded = if !failures.is_empty() || standing.report.submissions.iter().any(SubmissionResult::has_harness_error)
    {
        exit::INTERNAL
    } else if standing.report.submissions.iter().all(parts_passed) {
        exit::SUCCESS
    } else {
        exit::FAILED
    };
    standing.exit_code(graded)
}

/// Grades the TA's `--solution` agent first, as a student would be: `Err` with the exit code and the reason unless
/// it gets full marks, so a set-up that fails a correct agent grades no one.
fn check_solution(
    solution: &Path,
    grade: &(dyn Fn(&Entry, &Grader<'_>) -> Graded + Sync),
    grader: &Grader<'_>,
) -> Result<(), (u8, String)> {
    if !solution.exists() {
        return Err((exit::USAGE, format!("--solution {}: no such folder or zip", solution.display())));
    }
    let name = solution.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let entry = Entry { id: "solution".into(), name, path: solution.to_path_buf() };
    let Some((result, _)) = grade(&entry, grader) else {
        return Err((crate::app::class_report::CANCELLED, "cancelled".into()));
    };
    crate::harness::grade::solution::full_marks(&result).map_err(|why| {
        (
            exit::INTERNAL,
            format!(
                "--solution {}: {why}; no student was graded (fix the options, the clock or the machine until the \
                 solution gets full marks)",
                solution.display()
            ),
        )
    })
}

/// The file in a class run's `--out` that keeps the run's seed, so a re-run plays the same games and resumes.
pub const SEED_FILE: &str = "seed.txt";

/// The seed of a class run by games, and what to tell the TA about it: `--seed` when given; else the seed an
/// earlier run stored in `--out` (reused, so the run resumes rather than playing every game again); else a new one
/// from the clock. [`run`] stores it.
pub fn class_seed(class: &ClassArgs, given: Option<u64>) -> (u64, Vec<String>) {
    let out_dir = class.out.clone().unwrap_or_else(|| PathBuf::from("referee-results"));
    let stored = std::fs::read_to_string(out_dir.join(SEED_FILE)).ok().and_then(|t| t.trim().parse::<u64>().ok());
    match (given, stored) {
        (Some(seed), _) => (seed, Vec::new()),
        (None, Some(seed)) => (
            seed,
            vec![format!(
                "seed {seed} reused from the earlier run in {} (games replay and finished students resume; --seed N \
                 plays other games)",
                out_dir.display()
            )],
        ),
        (None, None) => (crate::app::seed_or_now(None), Vec::new()),
    }
}

/// Where a grading run writes one student's game records.
pub fn games_file(out: &Path, id: &str) -> PathBuf {
    out.join("games").join(format!("{}.json", safe_name(id)))
}
