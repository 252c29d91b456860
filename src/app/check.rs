//! `referee check takestones`: a student's self-check against the reference, judged as the TA's suite judges.

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::cli::{exit, CheckArgs, CheckTarget};
use crate::diagnose::startup::{hint, telling_line};
use crate::diagnose::takestones::check::{check, CheckConfig, CheckReport, Divergence, Failure, NeverRan, Ran};
use crate::diagnose::takestones::generate::Shape;
use crate::game::takestones::Position;
use crate::harness::grade::scratch::run_copy;
use crate::harness::grade::workspace::WorkspaceError;
use crate::harness::grade::{build_step, signal_name, tail, CaseCopy, GradeConfig};
use crate::harness::render::visible::show_invisible;
use crate::harness::runner::{self, Exit, Limits, RunSpec, Template};
use crate::harness::suite::{self, builtin, EditionName, Reading, ReferenceGame, ReferenceSpec, Suite};
use crate::reference::takestones::Edition;

/// Runs the check (`check othello` goes to [`super::othello::check`]); returns the exit code.
pub fn run(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if args.game == CheckTarget::Othello {
        return super::othello::check::run(args, out, err);
    }
    let usage = |err: &mut dyn Write, message: String| {
        let _ = writeln!(err, "referee check takestones: {message}");
        exit::USAGE
    };
    if args.agent.is_some() || args.json.is_some() {
        return usage(err, "--agent and --json are for `referee check othello`".into());
    }
    let Some(cmd) = &args.cmd else {
        return usage(err, "--cmd is required (e.g. --cmd 'java -cp {dir} TakeStones {args}')".into());
    };
    let template = match Template::parse(cmd, args.shell) {
        Ok(t) => t,
        Err(e) => return usage(err, format!("--cmd: {e}")),
    };
    let build = match args.build.as_deref().map(|b| Template::parse(b, args.shell)).transpose() {
        Ok(b) => b,
        Err(e) => return usage(err, format!("--build: {e}")),
    };
    let Some(timeout) = humantime::parse_duration(&args.timeout).ok().filter(|d| !d.is_zero()) else {
        return usage(err, format!("--timeout: '{}' is not a duration like 10s", args.timeout));
    };
    let build_timeout = match args.build_timeout.as_deref() {
        None => Duration::from_secs(120),
        Some(t) => match humantime::parse_duration(t).ok().filter(|d| !d.is_zero()) {
            Some(d) => d,
            None => return usage(err, format!("--build-timeout: '{t}' is not a duration like 120s")),
        },
    };
    // Absolute, because it is both the working directory and part of the command.
    let Ok(dir) = args.dir.canonicalize().map_err(|_| ()).and_then(|d| if d.is_dir() { Ok(d) } else { Err(()) }) else {
        return usage(err, format!("--dir: {} is not a folder", args.dir.display()));
    };
    if !(3..=127).contains(&args.max_stones) {
        return usage(err, "--max-stones must be between 3 and 127".into());
    }
    let (suite, edition) = match policy_suite(args) {
        Ok(found) => found,
        Err(message) => return usage(err, message),
    };
    let seed = super::seed_or_now(args.seed);
    let config = CheckConfig {
        edition,
        seed,
        cases: args.cases.unwrap_or(200),
        shape: Shape::for_edition(edition, args.max_stones),
        shrink_runs: 300,
        fixed: if args.suite.is_some() { "suite" } else { "official" },
        suite,
    };
    if let Err(code) = super::sandbox::gate(&args.sandbox, "referee check takestones", err) {
        return code;
    }
    // As a normal user, the student's own program runs under their own user; as root, under a uid of its own (like
    // `grade`). Either way in copies of the folder (below), never in the folder itself.
    let templates: Vec<&Template> = [Some(&template), build.as_ref()].into_iter().flatten().collect();
    let programs = super::sandbox::programs_of(&templates);
    let sandbox = match super::sandbox::untrusted_for(&args.sandbox, args.run_as_self, &programs) {
        Ok(sandbox) => sandbox,
        Err(message) => {
            let _ = writeln!(err, "referee check takestones: {message}");
            return exit::INTERNAL;
        }
    };
    if let Err(code) = super::sandbox::preflight(&sandbox, &programs, "referee check takestones", err) {
        return code;
    }
    // Declared before the lease, so dropped after it: the lease's end kills whatever of the uid still runs (a
    // build's daemon, without the cgroup and PID layers) before the copy is removed.
    let work;
    let (sandbox, _lease) = sandbox.lease();
    // The student's folder is copied once and built there; every run then starts from a fresh copy of that built
    // tree, with its own HOME and TMPDIR, removed after it (as `grade`'s cases): no run sees what an earlier one
    // left, and nothing is written in the student's own folder.
    work = match run_copy(&dir, &sandbox) {
        Ok(copy) => copy,
        Err(message) => return usage(err, format!("--dir: {message}")),
    };
    if let Some(problem) = config.problem() {
        return usage(err, format!("--suite {}: {problem}", config.suite.source));
    }
    let edition_name = match edition {
        Edition::Stats => "stats",
        Edition::Trace => "trace",
    };
    let _ = writeln!(out, "referee check takestones ({edition_name} edition), seed {seed} (replay with --seed {seed})");
    // Ctrl-C stops the run in progress (its process tree killed) and says how far the check got.
    let cancel = super::cancel_on_signals();
    let interrupted = |runs: usize| {
        let _ = writeln!(
            std::io::stderr(),
            "referee check takestones: interrupted after {runs} run(s) of your program; seed {seed} (replay with \
             --seed {seed})"
        );
        std::process::exit(i32::from(super::class_report::CANCELLED))
    };
    let ticker = super::progress::Ticker::on_stderr();
    let runs = std::cell::Cell::new(0usize);
    if let Some(build) = &build {
        let grading = GradeConfig {
            command: template.clone(),
            build: Some(build.clone()),
            limits: Limits::default(),
            build_timeout,
            sandbox: sandbox.clone(),
            case_jobs: 1,
            cancel: cancel.clone(),
            run_id: "check".into(),
            max_timeouts: None,
        };
        ticker.say(format!("building: {}", build.text()));
        let Ok(result) = build_step(build, work.dir(), &grading) else { interrupted(0) };
        if !result.ok {
            let _ = writeln!(out, "build failed: {}", result.command);
            for line in result.message.lines().take(30) {
                let _ = writeln!(out, "    | {}", show_invisible(line));
            }
            return exit::FAILED;
        }
        let _ = writeln!(out, "build: {} (ok, {} ms)", result.command, result.elapsed_ms);
    }
    // What every run starts from: taken back from the runs' uid, so no run (nor what it leaves running) changes it.
    if let Err(e) = crate::harness::runner::sandbox::take_back(work.dir(), &sandbox) {
        // A built tree the walk refuses (nested too deep) is the program's failure, not the grader's.
        if let Some(why) = crate::harness::runner::walk::refusal(&e) {
            let _ = writeln!(out, "build: the built folder was refused: it {why}");
            return exit::FAILED;
        }
        let _ = writeln!(err, "referee check takestones: the grader could not take the built folder back: {e}");
        return exit::INTERNAL;
    }
    let harness_error = RefCell::new(None);
    let submission = |p: &Position, depth: u32| {
        let case_args = case_args(p, depth);
        runs.set(runs.get() + 1);
        ticker.say(format!("run {}: {}   seed {seed}", runs.get(), case_args.join(" ")));
        let fresh = match CaseCopy::new(work.dir(), &work.case_dir(runs.get()), &sandbox) {
            Ok(fresh) => fresh,
            // The built tree is the student's (too large to copy); a copy the grader cannot write is not.
            Err(e @ WorkspaceError::TooLarge { .. }) => {
                let how = "could not be copied for this run (the built folder is too large)".to_string();
                return Ran::Failed(Failure { how, stderr: e.to_string() });
            }
            Err(e) => {
                let why = format!("the grader could not copy the built folder: {e}");
                harness_error.borrow_mut().get_or_insert(why.clone());
                return Ran::Failed(Failure { how: "could not be started".into(), stderr: why });
            }
        };
        let (program, argv) = template.expand(fresh.dir(), &case_args);
        let spec = RunSpec {
            program,
            args: argv,
            cwd: fresh.dir().to_path_buf(),
            stdin: None,
            env: Vec::new(),
            limits: Limits::default().with_timeout(timeout),
            sandbox: sandbox.clone(),
            cancel: Some(cancel.clone()),
        };
        let failed = |how: String, stderr: &[u8]| {
            Ran::Failed(Failure { how, stderr: String::from_utf8_lossy(stderr).into_owned() })
        };
        let ran = runner::run(&spec);
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            ticker.close();
            interrupted(runs.get() - 1);
        }
        match ran {
            Err(e) => {
                harness_error.borrow_mut().get_or_insert(e.to_string());
                Ran::Failed(Failure { how: "could not be started".into(), stderr: e.to_string() })
            }
            Ok(o) if o.timed_out => failed(format!("gave no answer within {}", args.timeout), &o.stderr),
            Ok(o) if o.output_limited => failed("printed more than the output limit".into(), &o.stderr),
            Ok(o) => match o.exit {
                Exit::Signal(s) => failed(format!("was killed by {}", signal_name(s)), &o.stderr),
                Exit::Code(c) if c != 0 => failed(format!("exited {c}"), &o.stderr),
                Exit::Code(_) => Ran::Printed(String::from_utf8_lossy(&o.stdout).into_owned()),
            },
        }
    };
    let report = check(&config, submission);
    ticker.close();
    if let Some(e) = harness_error.into_inner() {
        let _ = writeln!(err, "referee check: cannot run your program: {e}");
        return exit::INTERNAL;
    }
    let shown = Shown {
        template: &template,
        dir: &dir,
        built: build.is_some(),
        policy: policy_words(args, &config),
        explain: args.explain,
    };
    print_report(&report, &config, &shown, out);
    if report.divergence.is_some() || report.never_ran.is_some() {
        exit::FAILED
    } else {
        exit::SUCCESS
    }
}

/// The suite whose cases run first and whose policy judges, and the edition: `--suite` as given (a suite without
/// a `[reference]` gets --edition's), or else the official cases of --edition with every reading accepted (the
/// default of a suite made by `referee gen`).
fn policy_suite(args: &CheckArgs) -> Result<(Suite, Edition), String> {
    let Some(source) = &args.suite else {
        let name = match args.edition {
            Edition::Stats => "takestones-stats-2019",
            Edition::Trace => "takestones-trace-2017",
        };
        let mut suite = builtin::suite(name).map_err(|e| e.to_string())?;
        suite.accept = Reading::ALL.to_vec();
        return Ok((suite, args.edition));
    };
    let mut suite = suite::load(source).map_err(|e| format!("--suite: {e}"))?;
    let reference = *suite.reference.get_or_insert(ReferenceSpec {
        game: ReferenceGame::Takestones,
        edition: match args.edition {
            Edition::Stats => EditionName::Stats,
            Edition::Trace => EditionName::Trace,
        },
    });
    Ok((suite, reference.edition.into()))
}

/// How the report names the policy it judged by.
fn policy_words(args: &CheckArgs, config: &CheckConfig) -> (String, &'static str) {
    if args.suite.is_some() {
        (format!("as the suite {} judges them", config.suite.source), "this suite")
    } else {
        (
            "no --suite: all accepted, as `referee gen` suites accept them by default; the course's own folders \
             accept none; give --suite for your TA's verdict"
                .into(),
            "the default policy",
        )
    }
}

/// What the report needs besides the results.
struct Shown<'a> {
    template: &'a Template,
    dir: &'a Path,
    built: bool,
    /// The policy in words, and what a reading is "accepted by".
    policy: (String, &'static str),
    /// Whether each proof lists the cases it reproduced (`--explain`).
    explain: bool,
}

fn case_args(p: &Position, depth: u32) -> Vec<String> {
    let mut a = p.to_args();
    a.push(depth.to_string());
    a
}

fn reproduce(shown: &Shown<'_>, case: &(Position, u32)) -> String {
    let (program, argv) = shown.template.expand(shown.dir, &case_args(&case.0, case.1));
    let words: Vec<String> = std::iter::once(program).chain(argv).map(|w| w.to_string_lossy().into_owned()).collect();
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

fn print_report(report: &CheckReport, config: &CheckConfig, shown: &Shown<'_>, out: &mut dyn Write) {
    let _ = writeln!(out, "{} cases: {} of {} matched", config.fixed, report.fixed_passed, report.fixed_run);
    if let Some(never) = &report.never_ran {
        let _ = writeln!(out, "random positions: not run (your program never printed an answer)");
        print_never_ran(never, report.fixed_run, config.fixed, shown, out);
        return;
    }
    match (&report.divergence, report.random_run) {
        (Some(_), 0) => {
            let article = if config.fixed.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            let _ = writeln!(out, "random positions: not run ({article} {} case diverges)", config.fixed);
        }
        (Some(_), run) => {
            let _ = writeln!(
                out,
                "random positions: {} of {run} matched (stopped at the first divergence; {} not run)",
                report.random_passed,
                config.cases.saturating_sub(run)
            );
        }
        (None, run) => {
            let _ = writeln!(out, "random positions: {} of {run} matched", report.random_passed);
        }
    }
    let matched = report.fixed_passed + report.random_passed;
    let (policy, by) = &shown.policy;
    let _ = writeln!(out, "readings the spec leaves open ({policy}):");
    for (reading, seen) in &report.readings {
        let line = if config.suite.accept.contains(reading) {
            let seen =
                if *seen == 0 { "not seen".to_string() } else { format!("seen in {seen} of {matched} matched cases") };
            format!("accepted by {by}, {seen}")
        } else {
            format!("not accepted by {by}")
        };
        let _ = writeln!(out, "  {:<22} {line}", reading.label());
    }
    let Some(d) = &report.divergence else {
        let _ = writeln!(out, "no divergence from the reference");
        return;
    };
    print_divergence(d, &config.suite.accept, shown, out);
}

fn print_never_ran(never: &NeverRan, cases: usize, fixed: &str, shown: &Shown<'_>, out: &mut dyn Write) {
    let Failure { how, stderr } = &never.failure;
    let every = if cases == 1 { format!("on the only {fixed} case") } else { format!("on all {cases} {fixed} cases") };
    let mut line = format!("\nyour program {how} {every}");
    if let Some(telling) = telling_line(stderr) {
        line.push_str(&format!(" ({})", show_invisible(&telling)));
    }
    let files: Vec<String> = std::fs::read_dir(shown.dir)
        .map(|entries| {
            let mut names: Vec<String> =
                entries.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            names.sort();
            names
        })
        .unwrap_or_default();
    let slow = how.starts_with("gave no answer");
    let missing_class =
        stderr.contains("ClassNotFoundException") || stderr.contains("Could not find or load main class");
    let package = if missing_class { java_package(shown.dir) } else { None };
    match (hint(stderr, shown.built, &files), package) {
        (_, Some((file, package))) => line.push_str(&format!(
            ": {file} declares `package {package};`, so its class is {package}.<Name> in {{dir}}/{}: remove the \
             package line, or name the class with its package in --cmd (java -cp {{dir}} {package}.<Name>)",
            package.replace('.', "/")
        )),
        (Some(h), None) => line.push_str(&format!(": {h}")),
        (None, None) if slow => line.push_str(
            ": is it waiting for input (the position comes as arguments, stdin is closed) or searching far too long?",
        ),
        (None, None) => line.push_str(": it stops before printing an answer; run the command below to see why"),
    }
    let _ = writeln!(out, "{line}");
    let _ = writeln!(out, "reproduce: {}", reproduce(shown, &never.first));
    let stderr_tail = tail(stderr, 5);
    if !stderr_tail.trim().is_empty() {
        let _ = writeln!(out, "its stderr ends:");
        for l in stderr_tail.lines() {
            let _ = writeln!(out, "  {}", show_invisible(l));
        }
    }
}

/// The first `.java` file in `dir` (sorted by name) that declares a package, and the package: its class is then
/// not found by the bare name a `--cmd` usually gives.
fn java_package(dir: &Path) -> Option<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(dir).ok()?.filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    files.iter().filter(|p| p.extension().is_some_and(|x| x == "java")).find_map(|path| {
        let text = std::fs::read_to_string(path).ok()?;
        let package = text.lines().map(str::trim).find_map(|l| l.strip_prefix("package "))?;
        let package = package.trim_end_matches(';').trim();
        let valid = !package.is_empty() && package.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        let name = path.file_name()?.to_string_lossy().into_owned();
        valid.then(|| (name, package.to_string()))
    })
}

fn print_divergence(d: &Divergence, accept: &[Reading], shown: &Shown<'_>, out: &mut dyn Write) {
    let show = |(p, depth): &(Position, u32)| case_args(p, *depth).join(" ");
    let _ = writeln!(out, "\nDIVERGENCE at {}: {}", d.found_at, show(&d.original));
    let _ = writeln!(out, "smallest position that still diverges: {}", show(&d.shrunk));
    let _ = writeln!(out, "reproduce: {}", reproduce(shown, &d.shrunk));
    let actual = match &d.actual {
        Ran::Printed(text) => text.clone(),
        Ran::Failed(Failure { how, stderr }) => {
            let tail = tail(stderr, 5);
            let why = if tail.trim().is_empty() { how.clone() } else { format!("{how}; its stderr ends:\n{tail}") };
            format!("({why})\n").replace("\n", "\n  ").trim_end().to_string() + "\n"
        }
    };
    let _ = writeln!(out);
    for line in side_by_side(&d.expected, &actual) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(note) = exact_branching(&d.expected, &actual) {
        let _ = writeln!(out, "{note}");
    }
    let _ = writeln!(out);
    let label = "diagnosis";
    // A component is named only with its proof; without one, what differs and where to look, and no name.
    let f = &d.findings;
    let described = if !f.located.is_empty() {
        "located and proven: the reference changed as each cause below says reproduces your output on every case \
         the check ran:"
            .to_string()
    } else if !f.symptoms.is_empty() || f.look.is_some() {
        format!(
            "no single change the tool knows reproduces your output ({} changes and pairs tried on {} cases), so no \
             part of your program is named; what differs:",
            f.tried, f.cases
        )
    } else {
        d.diagnosis.describe(accept)
    };
    for (i, line) in described.lines().enumerate() {
        let _ = writeln!(out, "{}{line}", if i == 0 { format!("{label}: ") } else { " ".repeat(label.len() + 2) });
    }
    for located in &f.located {
        let command = reproduce(shown, &(located.position.clone(), located.depth));
        let _ = writeln!(out, "cause: {}", located.cause.headline());
        for line in located.cause.evidence.iter().chain([&format!("reproduce: {command}")]) {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(proof) = &located.proof {
            let _ = writeln!(
                out,
                "  proof: the reference with {} reproduces your output on all {} cases run that printed (the \
                 smallest first; {} of them differ from the spec){}",
                proof.changes.join(" and "),
                proof.cases.len(),
                proof.differing,
                if shown.explain { "" } else { "; --explain lists them" }
            );
            if shown.explain {
                let _ = writeln!(out, "  changed: {}", proof.changes.join("; "));
                for (p, depth) in &proof.cases {
                    let _ = writeln!(out, "    reproduced: {}", case_args(p, *depth).join(" "));
                }
            }
        }
    }
    for symptom in &f.symptoms {
        let _ = writeln!(out, "symptom: {}", symptom.cause.sentence);
        let command = reproduce(shown, &(symptom.position.clone(), symptom.depth));
        for line in symptom.cause.evidence.iter().chain([&format!("reproduce: {command}")]) {
            let _ = writeln!(out, "  {line}");
        }
    }
    if let Some(look) = &f.look {
        let _ = writeln!(out, "look: {look}");
    }
}

/// When the branching-factor lines differ, the exact values behind them, so a difference that rounding hides or
/// makes (1.75 printed as 1.7 or 1.8) shows: `(visited - 1) / (visited - evaluated)` on each side.
fn exact_branching(expected: &str, actual: &str) -> Option<String> {
    let field =
        |text: &str, label: &str| text.lines().find_map(|l| l.strip_prefix(label)).map(|v| v.trim().to_string());
    let label = "Avg Effective Branching Factor:";
    let (theirs, ours) = (field(actual, label)?, field(expected, label)?);
    if theirs == ours {
        return None;
    }
    let exact = |text: &str| -> Option<(u64, u64, f64)> {
        let visited: u64 = field(text, "Number of Nodes Visited:")?.parse().ok()?;
        let evaluated: u64 = field(text, "Number of Nodes Evaluated:")?.parse().ok()?;
        let value = (visited as f64 - 1.0) / (visited as f64 - evaluated as f64);
        Some((visited, evaluated, value))
    };
    let (v, e, x) = exact(expected)?;
    // Only where one decimal is not the whole story.
    let rounded = |y: f64| y.is_finite() && ((y * 10.0).round() - y * 10.0).abs() > 1e-9;
    let same_counts = exact(actual).is_some_and(|(tv, te, _)| (tv, te) == (v, e));
    if !same_counts && !rounded(x) && !exact(actual).is_some_and(|(_, _, y)| rounded(y)) {
        return None;
    }
    let spec = format!("(visited - 1) / (visited - evaluated) = ({v} - 1) / ({v} - {e}) = {x}");
    match exact(actual) {
        Some((tv, te, _)) if (tv, te) == (v, e) => Some(format!(
            "branching factor: both counts agree, {spec} exactly; the spec prints it with %.1f as {ours}, you print {theirs}"
        )),
        Some((tv, te, y)) => Some(format!(
            "branching factor: the spec's is {spec} exactly (printed {ours}); yours is ({tv} - 1) / ({tv} - {te}) = {y} \
             (printed {theirs})"
        )),
        None => Some(format!("branching factor: the spec's is {spec} exactly (printed {ours}); you print {theirs}")),
    }
}

/// Lines shown before the first difference and in all.
const CONTEXT: usize = 3;
const WINDOW: usize = 24;

/// Two columns, expected | actual, invisible characters shown, differing lines marked `≠`: a window from a few
/// lines before the first difference, with notes for what is left out.
pub fn side_by_side(expected: &str, actual: &str) -> Vec<String> {
    let e: Vec<String> = expected.lines().map(show_invisible).collect();
    let a: Vec<String> = actual.lines().map(show_invisible).collect();
    let total = e.len().max(a.len());
    let first = (0..total).find(|&i| e.get(i) != a.get(i)).unwrap_or(0);
    let start = first.saturating_sub(CONTEXT);
    let end = (start + WINDOW).min(total);
    let width =
        e[start.min(e.len())..end.min(e.len())].iter().map(|l| l.chars().count()).max().unwrap_or(0).clamp(20, 60);
    let mut rows = vec![format!("{:<width$}   {}", "expected (reference)", "yours")];
    if start > 0 {
        rows.push(format!("... {start} equal line(s) before"));
    }
    for i in start..end {
        let (x, y) = (e.get(i).map_or("", String::as_str), a.get(i).map_or("", String::as_str));
        let mark = if e.get(i) == a.get(i) { ' ' } else { '≠' };
        rows.push(format!("{x:<width$} {mark} {y}"));
    }
    if end < total {
        rows.push(format!("... {} more line(s): expected has {}, yours has {}", total - end, e.len(), a.len()));
    }
    rows
}
