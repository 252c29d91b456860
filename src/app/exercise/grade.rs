//! `referee exercise grade`: answer files against each student's own variants, through the class machinery of
//! `referee grade` (hand-in discovery and ids, stored results and resume, shards, the per-student and class
//! files, `report.html`), one case per part. No student code runs, so there is no sandbox and no scratch copy:
//! a hand-in is only read ([`crate::exercise::handin`]).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::kinds;
use crate::app::class_report::{student_line, write_report_files, write_student_files, CANCELLED};
use crate::app::grade::verdict;
use crate::app::progress::Progress;
use crate::app::shard::{self, Manifest, Shard};
use crate::cli::{exit, ColorChoice, ExerciseGradeArgs};
use crate::exercise::grade::{foreign_variant, grade, total_points, PROBLEM_POINTS};
use crate::exercise::{handin, owner, roster, Kind, GENERATOR_VERSION};
use crate::harness::grade::class::{Entry, Store};
use crate::harness::grade::for_each_parallel;
use crate::harness::grade::resume::plan;
use crate::harness::model::{Points, RunReport, SubmissionResult, SCHEMA_VERSION};
use crate::harness::render::view::StudentView;
use crate::harness::render::{self, Format, RenderOptions};

/// The report's suite name, and the manifest's command.
const SUITE: &str = "exercise";
const COMMAND: &str = "exercise grade";

/// How long the class files may lag behind the stored results while a class is graded.
const REWRITE_EVERY: Duration = Duration::from_secs(2);

/// Everything that decides a grade.
struct Settings {
    seed: u64,
    kinds: Vec<Kind>,
    /// Points per problem (exact).
    points: Points,
    fingerprint: String,
    /// No progress on stderr.
    quiet: bool,
    /// The roster `--ids` names (empty without it).
    roster: Vec<String>,
}

impl Settings {
    /// Grades the hand-in of `entry` against the sheet of the first of `ids` its answer file fits (see
    /// [`owner`]); `handin` is its fingerprint (empty for one hand-in). Not graded (no score, the reason kept): an
    /// answer file made for another variant, a loose file in the class folder that is no answer file (empty,
    /// unreadable, too large, or without a section), and a folder or zip without an answer file or a zip that
    /// cannot be read (the reason says what it holds and what was looked for).
    fn grade(&self, entry: &Entry, handin: &str, ids: &[String]) -> SubmissionResult {
        let read = handin::answers(&entry.path);
        let (_, variants) = owner::choose(self.seed, &self.kinds, ids, read.as_ref().ok());
        let (build, cases, not_graded) = match read {
            Ok(file) => match foreign_variant(&variants, &file) {
                Some(why) => (None, Vec::new(), Some(why)),
                None => (None, grade(&variants, &file, self.points), None),
            },
            // No answer to grade: never a 0 (the student may have handed in the wrong file; the TA decides).
            Err(why) => (None, Vec::new(), Some(why)),
        };
        SubmissionResult {
            id: entry.id.clone(),
            source: entry.path.display().to_string(),
            build,
            score: cases.iter().map(|c| c.score).sum(),
            max_score: total_points(&variants, self.points),
            cases,
            run: format!("exercise-{}", self.seed),
            fingerprint: self.fingerprint.clone(),
            handin: handin.to_string(),
            sandbox: Vec::new(),
            not_graded,
        }
    }
}

/// Runs `referee exercise grade`; returns the exit code.
pub fn run(args: &ExerciseGradeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    run_with(args, false, out, err)
}

/// [`run`] without the progress lines on stderr (for benchmarks).
pub fn run_quietly(args: &ExerciseGradeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    run_with(args, true, out, err)
}

fn run_with(args: &ExerciseGradeArgs, quiet: bool, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let points = args.points.unwrap_or(Points::whole(i64::from(PROBLEM_POINTS)));
    if !points.is_positive() {
        let _ = writeln!(err, "referee exercise grade: --points {points}: expected a number above 0");
        return exit::USAGE;
    }
    let kinds = kinds(&args.kind);
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    let roster = match &args.ids {
        Some(ids) => match roster::read(ids, args.id_column.as_deref()) {
            Ok(ids) => ids,
            Err(e) => {
                let _ = writeln!(err, "referee exercise grade: {e}");
                return exit::USAGE;
            }
        },
        None => Vec::new(),
    };
    let fingerprint =
        format!("exercise seed={} kinds={} generator={GENERATOR_VERSION} points={points}", args.seed, names.join(","));
    // A roster changes whose sheet a hand-in may be graded against: results stored without it are graded again.
    let fingerprint = if roster.is_empty() {
        fingerprint
    } else {
        format!("{fingerprint} roster={}", &crate::harness::grade::ids::hex_digest(&roster.join("\n"))[..12])
    };
    let settings = Settings { seed: args.seed, kinds, points, fingerprint, quiet, roster };
    match (&args.submissions, &args.dir) {
        (Some(dir), _) => class(args, &settings, dir, out, err),
        (None, Some(path)) => one(args, &settings, path, out, err),
        (None, None) => {
            let _ = writeln!(err, "referee exercise grade: give --submissions CLASS or --dir HAND-IN");
            exit::USAGE
        }
    }
}

fn one(args: &ExerciseGradeArgs, settings: &Settings, path: &Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if !path.exists() {
        let _ = writeln!(err, "referee exercise grade: {}: no such hand-in", path.display());
        return exit::USAGE;
    }
    let id = args.id.clone().unwrap_or_else(|| handin::id_of(path));
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let name = absolute.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let ids = match &args.id {
        Some(given) => vec![given.clone()],
        None => owner::candidates(&name, &id, &settings.roster),
    };
    let result = settings.grade(&Entry { id, name, path: path.to_path_buf() }, "", &ids);
    let code = verdict(std::slice::from_ref(&result));
    let report = RunReport { schema: SCHEMA_VERSION, suite: SUITE.into(), submissions: vec![result] };
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let options = RenderOptions { color, redact: false, view: crate::harness::render::view::StudentView::DEFAULT };
    match render::render(args.format.unwrap_or(Format::Terminal), &report, &options, out).and_then(|()| out.flush()) {
        Ok(()) => code,
        Err(e) => {
            let _ = writeln!(err, "referee exercise grade: cannot write the report: {e}");
            exit::INTERNAL
        }
    }
}

fn class(args: &ExerciseGradeArgs, settings: &Settings, dir: &Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee exercise grade: {message}");
        code
    };
    let out_dir = args.out.clone().unwrap_or_else(|| PathBuf::from("referee-results"));
    let found =
        Shard::parse_option(args.shard.as_deref()).and_then(|s| Ok((s, handin::discover_class(dir, &[&out_dir])?)));
    let (shard, (everyone, notes)) = match found {
        Ok(found) => found,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    for note in &notes {
        let _ = writeln!(err, "referee exercise grade: note: {note}");
    }
    let entries = shard::select(&everyone, shard);
    let store = match Store::open(&out_dir) {
        Ok(store) => store,
        Err(e) => return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display())),
    };
    if args.fresh {
        let _ = std::fs::remove_dir_all(out_dir.join("results"));
        let _ = std::fs::create_dir_all(out_dir.join("results"));
    }
    let recorded = Manifest::record(shard, &out_dir, |s| Manifest {
        schema: shard::MANIFEST_SCHEMA,
        command: COMMAND.into(),
        fingerprint: settings.fingerprint.clone(),
        shard: s.index,
        of: s.count,
        suite: SUITE.into(),
        units: everyone.iter().map(|e| e.id.clone()).collect(),
        tournament: None,
    });
    if let Err(e) = recorded {
        return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display()));
    }
    let plan = plan(&entries, &store, &settings.fingerprint);
    let todo: Vec<&str> = plan.todo.iter().map(|t| t.entry.id.as_str()).collect();
    // Results of students kept from an earlier run, so the class files can be rewritten without reading them all.
    let mut results: Vec<SubmissionResult> = store
        .load_all()
        .into_iter()
        .filter(|r| entries.iter().any(|e| e.id == r.id) && !todo.contains(&r.id.as_str()))
        .collect();
    let cancel = crate::app::cancel_on_signals();
    let progress = if settings.quiet {
        Progress::lines(plan.todo.len(), "grading", Box::new(std::io::sink()), crate::app::progress::HEARTBEAT)
    } else {
        Progress::on_stderr(plan.todo.len(), "grading", "students")
    };
    let mut failures = Vec::new();
    let mut written = Instant::now();
    let mut took = Duration::ZERO;
    for_each_parallel(
        &plan.todo,
        crate::app::jobs_or_cores(args.jobs),
        |todo| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            progress.start(&todo.entry.id);
            let ids = owner::candidates(&todo.entry.name, &todo.entry.id, &settings.roster);
            Some(settings.grade(todo.entry, &todo.handin, &ids))
        },
        |_, graded| {
            let Some(result) = graded else { return };
            let saved = store.save(&result).and_then(|()| write_student_files(&out_dir, &result, StudentView::DEFAULT));
            if let Err(e) = saved {
                failures.push(format!("{}: {e}", result.id));
            }
            progress.finish(&result.id, &crate::app::class_report::points_text(&result));
            results.push(result);
            // Rewriting a big class's files takes a while itself: never spend more than a fifth of the run on it.
            if written.elapsed() >= REWRITE_EVERY.max(took * 5) {
                let started = Instant::now();
                let _ = write_class(&out_dir, &mut results, entries.len());
                took = started.elapsed();
                written = Instant::now();
            }
        },
    );
    progress.close();
    if let Err(e) = write_class(&out_dir, &mut results, entries.len()) {
        failures.push(format!("class files: {e}"));
    }
    for failure in &failures {
        let _ = writeln!(err, "referee exercise grade: cannot write results for {failure}");
    }
    if cancel.load(Ordering::Relaxed) {
        let _ = writeln!(
            err,
            "referee exercise grade: cancelled; finished students are saved in {} and a re-run grades the rest",
            out_dir.display()
        );
        return CANCELLED;
    }
    let part = shard.map(|s| format!(" (shard {} of {} students)", s.label(), everyone.len())).unwrap_or_default();
    let _ = writeln!(
        out,
        "graded {} student(s), {} already graded earlier{part}; results in {}",
        plan.todo.len(),
        plan.kept,
        out_dir.display()
    );
    for line in plan.regrade_lines() {
        let _ = writeln!(out, "{line}");
    }
    for r in &results {
        let right = r.cases.iter().filter(|c| c.status.is_pass()).count();
        let named: usize = r.cases.iter().map(|c| c.causes.len()).sum();
        let mut note = format!("{right} of {} parts right", r.cases.len());
        if named > 0 {
            note.push_str(&format!(", {named} misconception(s) named"));
        }
        let _ = writeln!(out, "{}", student_line(r, &note));
    }
    if !failures.is_empty() {
        return exit::INTERNAL;
    }
    verdict(&results)
}

/// The class-wide files from `results` (sorted by id first), for a class of `expected` hand-ins.
fn write_class(out_dir: &Path, results: &mut [SubmissionResult], expected: usize) -> std::io::Result<()> {
    results.sort_by(|a, b| a.id.cmp(&b.id));
    let report = RunReport { schema: SCHEMA_VERSION, suite: SUITE.into(), submissions: results.to_vec() };
    write_report_files(out_dir, &report, expected, &[], StudentView::DEFAULT)
}
