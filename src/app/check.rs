//! `referee check takestones`: a student's self-check against the reference.

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;

use crate::cli::{exit, CheckArgs, CheckTarget};
use crate::diagnose::takestones::check::{check, CheckConfig, CheckReport, Divergence, Ran};
use crate::diagnose::takestones::generate::Shape;
use crate::diagnose::takestones::Diagnosis;
use crate::game::takestones::Position;
use crate::harness::grade::{signal_name, tail};
use crate::harness::render::visible::show_invisible;
use crate::harness::runner::{self, Exit, Limits, RunSpec, Sandbox, Template};
use crate::reference::takestones::Edition;

/// Runs the check (`check othello` goes to [`super::othello::check`]); returns the exit code.
pub fn run(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if args.game == CheckTarget::Othello {
        return super::othello::check::run(args, out, err);
    }
    if args.agent.is_some() || args.json.is_some() {
        let _ = writeln!(err, "referee check takestones: --agent and --json are for `referee check othello`");
        return exit::USAGE;
    }
    let Some(cmd) = &args.cmd else {
        let _ = writeln!(
            err,
            "referee check takestones: --cmd is required (e.g. --cmd 'java -cp {{dir}} TakeStones {{args}}')"
        );
        return exit::USAGE;
    };
    let template = match Template::parse(cmd, args.shell) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(err, "referee check: --cmd: {e}");
            return exit::USAGE;
        }
    };
    let Some(timeout) = humantime::parse_duration(&args.timeout).ok().filter(|d| !d.is_zero()) else {
        let _ = writeln!(err, "referee check: --timeout: '{}' is not a duration like 10s", args.timeout);
        return exit::USAGE;
    };
    // Absolute, because it is both the working directory and part of the command.
    let Ok(dir) = args.dir.canonicalize().map_err(|_| ()).and_then(|d| if d.is_dir() { Ok(d) } else { Err(()) }) else {
        let _ = writeln!(err, "referee check: --dir: {} is not a folder", args.dir.display());
        return exit::USAGE;
    };
    if !(3..=127).contains(&args.max_stones) {
        let _ = writeln!(err, "referee check: --max-stones must be between 3 and 127");
        return exit::USAGE;
    }
    let seed = super::seed_or_now(args.seed);
    let config = CheckConfig {
        edition: args.edition,
        seed,
        cases: args.cases.unwrap_or(200),
        shape: Shape::for_edition(args.edition, args.max_stones),
        shrink_runs: 300,
    };
    if let Err(code) = super::sandbox::gate(args.sandbox.policy, "referee check takestones", err) {
        return code;
    }
    // The student's own program in the student's own folder: their own user, every sandbox layer on.
    let sandbox = match Sandbox::for_untrusted(true, args.sandbox.policy) {
        Ok(sandbox) => sandbox,
        Err(message) => {
            let _ = writeln!(err, "referee check takestones: {message}");
            return exit::INTERNAL;
        }
    };
    let harness_error = RefCell::new(None);
    let submission = |p: &Position, depth: u32| {
        let case_args = case_args(p, depth);
        let (program, argv) = template.expand(&dir, &case_args);
        let spec = RunSpec {
            program,
            args: argv,
            cwd: dir.clone(),
            stdin: None,
            env: Vec::new(),
            limits: Limits::default().with_timeout(timeout),
            sandbox,
            cancel: None,
        };
        match runner::run(&spec) {
            Err(e) => {
                harness_error.borrow_mut().get_or_insert(e.to_string());
                Ran::Failed(e.to_string())
            }
            Ok(o) if o.timed_out => Ran::Failed(format!("no answer within {}", args.timeout)),
            Ok(o) if o.output_limited => Ran::Failed("printed more than the output limit".into()),
            Ok(o) => match o.exit {
                Exit::Signal(s) => Ran::Failed(with_stderr(format!("killed by {}", signal_name(s)), &o.stderr)),
                Exit::Code(c) if c != 0 => Ran::Failed(with_stderr(format!("exit code {c}"), &o.stderr)),
                Exit::Code(_) => Ran::Printed(String::from_utf8_lossy(&o.stdout).into_owned()),
            },
        }
    };
    let edition = match args.edition {
        Edition::Stats => "stats",
        Edition::Trace => "trace",
    };
    let _ = writeln!(out, "referee check takestones ({edition} edition), seed {seed} (replay with --seed {seed})");
    let report = check(&config, submission);
    if let Some(e) = harness_error.into_inner() {
        let _ = writeln!(err, "referee check: cannot run your program: {e}");
        return exit::INTERNAL;
    }
    print_report(&report, &config, &template, &dir, out);
    if report.divergence.is_some() {
        exit::FAILED
    } else {
        exit::SUCCESS
    }
}

/// A failure's one-line reason followed by the last lines the program wrote on stderr.
fn with_stderr(why: String, stderr: &[u8]) -> String {
    let tail = tail(&String::from_utf8_lossy(stderr), 5);
    if tail.trim().is_empty() {
        why
    } else {
        format!("{why}; its stderr ends:\n{tail}")
    }
}

fn case_args(p: &Position, depth: u32) -> Vec<String> {
    let mut a = p.to_args();
    a.push(depth.to_string());
    a
}

fn print_report(report: &CheckReport, config: &CheckConfig, template: &Template, dir: &Path, out: &mut dyn Write) {
    let _ = writeln!(out, "official cases: {} matched", report.official);
    let _ = writeln!(out, "random positions: {} of {} matched", report.random_passed, config.cases);
    if !report.readings.is_empty() {
        let _ = writeln!(out, "accepted readings seen: {}", report.readings.join("; "));
    }
    let Some(d) = &report.divergence else {
        let _ = writeln!(out, "no divergence from the reference");
        return;
    };
    print_divergence(d, template, dir, out);
}

fn print_divergence(d: &Divergence, template: &Template, dir: &Path, out: &mut dyn Write) {
    let show = |(p, depth): &(Position, u32)| case_args(p, *depth).join(" ");
    let _ = writeln!(out, "\nDIVERGENCE at {}: {}", d.found_at, show(&d.original));
    let _ = writeln!(out, "smallest position that still diverges: {}", show(&d.shrunk));
    let (program, argv) = template.expand(dir, &case_args(&d.shrunk.0, d.shrunk.1));
    let words: Vec<String> = std::iter::once(program).chain(argv).map(|w| w.to_string_lossy().into_owned()).collect();
    let _ = writeln!(
        out,
        "reproduce: {}",
        shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
    );
    let actual = match &d.actual {
        Ran::Printed(text) => text.clone(),
        Ran::Failed(why) => format!("({why})\n").replace("\n", "\n  ").trim_end().to_string() + "\n",
    };
    let _ = writeln!(out);
    for line in side_by_side(&d.expected, &actual) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out);
    let label = match &d.diagnosis {
        Diagnosis::Explained(_) if d.diagnosis.only_readings() => "diagnosis (accepted reading)",
        Diagnosis::Explained(_) | Diagnosis::Labels { .. } | Diagnosis::Unknown => "diagnosis",
    };
    for (i, line) in d.diagnosis.describe().lines().enumerate() {
        let _ = writeln!(out, "{}{line}", if i == 0 { format!("{label}: ") } else { " ".repeat(label.len() + 2) });
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
