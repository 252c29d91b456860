//! `referee grade`: one submission or a class folder against a suite.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::class_report::{write_student_files, ClassResults};
use super::progress::Progress;
use crate::cli::{exit, ColorChoice, GradeArgs};
use crate::harness::grade::class::{discover, make_traversable, Store};
use crate::harness::grade::roster;
use crate::harness::grade::{self, grade_submission, Cancelled, GradeConfig, PreparedSuite};
use crate::harness::model::{RunReport, SubmissionResult, SCHEMA_VERSION};
use crate::harness::render::view::StudentView;
use crate::harness::render::{self, format_points, Format, RenderOptions};
use crate::harness::runner::{sandbox, Limits, Template};
use crate::harness::suite;

use super::shard::{self, Manifest, Shard};

pub use super::class_report::{student_line, CANCELLED};

/// Runs `referee grade`; returns the exit code (see `cli::exit`).
pub fn run(args: &GradeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    // Where hand-ins would run without sandbox or limits (Windows), no one is graded: the grader's side (exit 3).
    if let Some(why) = crate::harness::runner::platform::grading_refused() {
        let _ = writeln!(err, "referee grade: {why}");
        return exit::INTERNAL;
    }
    crate::diagnose::register();
    match &args.game {
        Some(crate::cli::GradeGame::Mancala(game)) => return super::mancala::grade::run(game, out, err),
        Some(crate::cli::GradeGame::Othello(game)) => return super::othello::grade::run(game, out, err),
        None => {}
    }
    if let Err(code) = super::sandbox::gate(&args.sandbox, "referee grade", err) {
        return code;
    }
    match Setup::new(args) {
        Ok(setup) => {
            for note in &setup.notes {
                let _ = writeln!(err, "referee grade: {note}");
            }
            let templates: Vec<&Template> =
                [Some(&setup.config.command), setup.config.build.as_ref()].into_iter().flatten().collect();
            let programs = super::sandbox::programs_of(&templates);
            if let Err(code) = super::sandbox::preflight(&setup.config.sandbox, &programs, "referee grade", err) {
                return code;
            }
            if let Some(solution) = &args.solution {
                if let Err(code) = check_solution(&setup, solution, err) {
                    return code;
                }
            }
            match &args.submissions {
                Some(dir) => grade_class(args, &setup, dir, out, err),
                None => grade_one(args, &setup, out, err),
            }
        }
        Err(message) => {
            let _ = writeln!(err, "referee grade: {message}");
            exit::USAGE
        }
    }
}

/// Grades the TA's `--solution` first, with the same command, suite and sandbox as the students: `Err` (the exit
/// code, the reason written to `err`) unless it gets full marks, so a setup that fails a correct program grades
/// no one.
fn check_solution(setup: &Setup, solution: &Path, err: &mut dyn Write) -> Result<(), u8> {
    if !solution.exists() {
        let _ = writeln!(err, "referee grade: --solution {}: no such folder or zip", solution.display());
        return Err(exit::USAGE);
    }
    let scratch = setup.scratch_root.join("solution");
    let _ = make_traversable(&scratch);
    let graded = grade_submission("solution", solution, &scratch, &setup.suite, &setup.config);
    let _ = crate::harness::grade::workspace::remove_tree(&scratch);
    let result = match graded {
        Ok(result) => result,
        Err(Cancelled) => {
            let _ = writeln!(err, "referee grade: cancelled");
            return Err(CANCELLED);
        }
    };
    match grade::solution::full_marks(&result) {
        Ok(()) => {
            let _ = writeln!(
                err,
                "referee grade: --solution {}: full marks ({} / {}), so the set-up grades a correct program right",
                solution.display(),
                format_points(result.score),
                format_points(result.max_score)
            );
            Ok(())
        }
        Err(why) => {
            let _ = writeln!(
                err,
                "referee grade: --solution {}: {why}; no student was graded (fix the command, the build step, the suite \
                 or the limits until the solution gets full marks)",
                solution.display()
            );
            Err(exit::INTERNAL)
        }
    }
}

/// Everything decided before the first submission runs.
struct Setup {
    suite: PreparedSuite,
    config: GradeConfig,
    color: bool,
    _scratch: grade::scratch::Scratch,
    scratch_root: PathBuf,
    /// Notes for the TA before grading (the sandbox user runs another interpreter than the TA's).
    notes: Vec<String>,
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
        if let Some(show) = args.show {
            loaded.show_all(show);
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
        let build_text = args.build.clone().or(loaded.build.clone());
        let mistakes = super::lint::command_mistakes(&command_text, build_text.as_deref(), args.shell, &loaded);
        // As the bundle: a mistake stops the run before anyone is graded, unless a solution shows the commands work.
        if !mistakes.is_empty() && args.solution.is_none() {
            return Err(format!(
                "{} (or give --solution DIR, a hand-in with full marks, to show the commands work)",
                mistakes.join("; ")
            ));
        }
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
        if let Some(d) = &args.disk_limit {
            limits.disk_bytes = parse_bytes(d)
                .filter(|&b| b > 0)
                .ok_or(format!("--disk-limit: '{d}' is not a size like 256MiB or 1GiB"))?;
        }
        let build_timeout = args
            .build_timeout
            .as_deref()
            .map(|t| parse_duration(t, "--build-timeout"))
            .transpose()?
            .unwrap_or(Duration::from_secs(120));
        let templates: Vec<&Template> = [Some(&command), build.as_ref()].into_iter().flatten().collect();
        let sandbox =
            super::sandbox::untrusted_for(&args.sandbox, args.run_as_self, &super::sandbox::programs_of(&templates))?;
        let mut notes: Vec<String> = mistakes.into_iter().map(|m| format!("warning: {m}")).collect();
        notes.extend(super::sandbox::toolchain_notes(&sandbox));
        for (flag, template, text) in
            [("--cmd", Some(&command), Some(&command_text)), ("--build", build.as_ref(), build_text.as_ref())]
        {
            let Some(template) = template else { continue };
            if let Some(first) = text.and_then(|t| shlex::split(t)).and_then(|w| w.into_iter().next()) {
                super::reach::tas_program(flag, &first, &sandbox)?;
            }
            let (program, _) = template.expand(Path::new("."), &[]);
            sandbox::resolve_program(&program, &sandbox).map_err(|e| format!("{flag}: {e}"))?;
            notes.extend(sandbox::resolution_note(&program, &sandbox));
        }
        // Also removes the scratch folders of earlier graders that were killed.
        let scratch = grade::scratch::Scratch::create(
            &super::reach::absolute(&args.work.clone().unwrap_or_else(std::env::temp_dir)),
            "referee-",
        )
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
            max_timeouts: args.max_timeouts,
        };
        let color = match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        };
        Ok(Setup { suite: prepared, config, color, _scratch: scratch, scratch_root, notes })
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
    if let Some(problem) = not_one_submission(&dir, args.dir.is_some()) {
        let _ = writeln!(err, "referee grade: {problem}");
        return exit::USAGE;
    }
    let classroom50 = match args.format {
        Some(Format::Classroom50) => {
            match super::classroom50::identity(&args.classroom50, &|name| std::env::var(name).ok()) {
                Ok(identity) => Some(identity),
                Err(message) => {
                    let _ = writeln!(err, "referee grade: {message}");
                    return exit::USAGE;
                }
            }
        }
        _ => None,
    };
    let scratch = setup.scratch_root.join("submission");
    let _ = make_traversable(&scratch);
    let id = grade::ids::submission_id(&dir);
    let result = match grade_submission(&id, &dir, &scratch, &setup.suite, &setup.config) {
        Ok(result) => result,
        Err(Cancelled) => {
            let _ = writeln!(err, "referee grade: cancelled");
            return CANCELLED;
        }
    };
    let code = verdict(std::slice::from_ref(&result));
    if let Some(identity) = &classroom50 {
        return super::classroom50::finish(&result, identity, &args.classroom50, code, view(args), out, err);
    }
    let report = setup.report(vec![result]);
    let options = RenderOptions { color: setup.color, redact: false, view: view(args) };
    if let Err(e) =
        render::render(args.format.unwrap_or(Format::Terminal), &report, &options, out).and_then(|_| out.flush())
    {
        let _ = writeln!(err, "referee grade: cannot write the report: {e}");
        return exit::INTERNAL;
    }
    code
}

/// Why the folder `dir` is not one submission, when it plainly is not: a folder past the size limits that was
/// never named (the current folder by default), or one that holds several students' hand-ins. An oversized
/// folder named with `--dir` that is no class folder is the student's own, graded as a build error.
fn not_one_submission(dir: &Path, named: bool) -> Option<String> {
    let too_large = match grade::workspace::measure(dir) {
        Err(grade::workspace::WorkspaceError::TooLarge { message, .. }) => Some(message),
        _ => None,
    };
    // Only what is named like a hand-in counts (a zip, `netid-HW2-P3`, a Canvas name): a submission's own
    // `src/` and `bin/` folders do not make it a class folder.
    let hand_ins = discover(dir).map_or(0, |entries| entries.iter().filter(|e| looks_handed_in(&e.path)).count());
    let class_hint = format!("a class folder (one folder or zip per student) with --submissions {}", dir.display());
    let absolute = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    match (too_large, named) {
        (Some(limit), false) => Some(format!(
            "no --dir was given, so the current folder ({}) was taken as the submission, but it is {limit}; \
             give the submission with --dir FOLDER_OR_ZIP, or {class_hint}",
            absolute.display()
        )),
        (Some(limit), true) if hand_ins >= 2 => Some(format!(
            "{} is {limit} and holds {hand_ins} hand-ins, so it is not one submission; grade it as \
             {class_hint}",
            dir.display()
        )),
        (None, false) if hand_ins >= 2 && !holds_code(dir) => Some(format!(
            "no --dir was given, so the current folder ({}) was taken as the submission, but it holds no program, \
             only {hand_ins} hand-ins; give one submission with --dir FOLDER_OR_ZIP, or {class_hint}",
            absolute.display()
        )),
        _ => None,
    }
}

/// Whether `path` is named like a hand-in: a zip, or a name the student-id rules shorten.
fn looks_handed_in(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.to_ascii_lowercase().ends_with(".zip") || grade::ids::student_id(&name) != name
}

/// Whether `dir` itself holds a program's files (sources, classes, a jar).
fn holds_code(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return true };
    entries.filter_map(Result::ok).any(|e| {
        let name = e.file_name().to_string_lossy().to_ascii_lowercase();
        [".java", ".class", ".jar", ".py"].iter().any(|x| name.ends_with(x))
    })
}

fn grade_class(args: &GradeArgs, setup: &Setup, dir: &Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let out_dir = args.out.clone().unwrap_or_else(|| PathBuf::from("referee-results"));
    let (shard, roster) = match Shard::parse_option(args.shard.as_deref()).and_then(|s| {
        // The run's own folders, known by where they are (this run's scratch folder too, when --work is the class
        // folder itself), never by a file inside a folder.
        let skip: Vec<&Path> = [
            Some(out_dir.as_path()),
            args.solution.as_deref(),
            args.work.as_deref(),
            Some(setup.scratch_root.as_path()),
        ]
        .into_iter()
        .flatten()
        .collect();
        Ok((s, roster::read_all(dir, &skip).map_err(|e| e.to_string())?))
    }) {
        Ok(found) => found,
        Err(e) => {
            let _ = writeln!(err, "referee grade: {e}");
            return exit::USAGE;
        }
    };
    for note in &roster.notes {
        let _ = writeln!(err, "referee grade: note: {note}");
    }
    let class = roster.entries;
    let entries = shard::select(&class, shard);
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
    let recorded = Manifest::record(shard, &out_dir, |s| Manifest {
        schema: shard::MANIFEST_SCHEMA,
        command: "grade".into(),
        fingerprint: grade::fingerprint(&setup.suite, &setup.config),
        shard: s.index,
        of: s.count,
        suite: setup.suite.suite.name.clone(),
        units: class.iter().map(|e| e.id.clone()).collect(),
        tournament: None,
    });
    if let Err(e) = recorded {
        let _ = writeln!(err, "referee grade: {}: {e}", out_dir.display());
        return exit::INTERNAL;
    }
    sandbox::become_subreaper();
    let jobs = super::jobs_or_cores(args.jobs);
    let progress = Progress::on_stderr(entries.len(), "grading", "students");
    let standing = || ClassResults::load(&store, &setup.suite.suite.name, &class, &entries);
    let mut write_failures = Vec::new();
    let outcome = grade::class::grade_class(
        &entries,
        &setup.suite,
        &setup.config,
        jobs,
        &store,
        &setup.scratch_root,
        |entry| progress.start(&entry.id),
        |result, saved| {
            let written = saved
                .and_then(|_| write_student_files(&out_dir, result, view(args)))
                .and_then(|_| standing().write(&out_dir, view(args)));
            if let Err(e) = written {
                write_failures.push(format!("{}: {e}", result.id));
            }
            progress.finish(&result.id, &outcome_text(result));
        },
    );
    progress.close();
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
    let standing = standing();
    if let Err(e) = standing.write_final(&out_dir, view(args)) {
        write_failures.push(format!("the class files: {e}"));
    }
    let part = shard.map(|s| format!(" (shard {} of {} students)", s.label(), class.len())).unwrap_or_default();
    let _ = writeln!(
        out,
        "graded {} student(s), {} already graded earlier{part}; results in {}",
        summary.graded,
        summary.skipped,
        out_dir.display()
    );
    for line in &summary.regraded {
        let _ = writeln!(out, "{line}");
    }
    for line in standing.notices() {
        let _ = writeln!(out, "{line}");
    }
    for r in &standing.report.submissions {
        let _ = writeln!(out, "{}", student_line(r, &status_note(r)));
    }
    if !write_failures.is_empty() {
        return exit::INTERNAL;
    }
    standing.exit_code(verdict(&standing.report.submissions))
}

/// A student's score and status in one short phrase, as progress lines show it: `4 / 6  all passed`.
fn outcome_text(r: &SubmissionResult) -> String {
    format!("{}  {}", r.outcome().score_text(true), status_note(r))
}

/// `all passed`, `build error`, or how many cases did not pass.
fn status_note(r: &SubmissionResult) -> String {
    let failed = r.cases.iter().filter(|c| !c.status.is_pass()).count();
    if failed == 0 {
        "all passed".to_string()
    } else if r.build.as_ref().is_some_and(|b| !b.ok) {
        "build error".to_string()
    } else {
        format!("{failed} case(s) not passed")
    }
}

/// 0 when every hand-in was graded and passed, 3 when the grader failed somewhere, otherwise 1 (a hand-in short
/// of full marks, or not graded) (also `exercise grade`'s).
pub fn verdict(results: &[SubmissionResult]) -> u8 {
    if results.iter().any(SubmissionResult::has_harness_error) {
        exit::INTERNAL
    } else if results.iter().all(|r| r.outcome().is_graded() && r.all_passed()) {
        exit::SUCCESS
    } else {
        exit::FAILED
    }
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

/// The student view `grade`'s student-facing formats apply: each case as its suite says, after-due-date cases shown
/// at once on platforms without a due-date gate only with `--show-after-due-date`.
fn view(args: &GradeArgs) -> StudentView {
    StudentView { show_later: args.show_after_due_date, ..StudentView::DEFAULT }
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
