//! The report as text: a line per function, then its first mismatches with their boards drawn.

use std::fmt::Write;

use super::function::Form;
use super::report::{FailureKind, FunctionReport, Report};

/// Mismatches shown per function (`--json` has them all).
pub const SHOWN: usize = 5;

/// The whole report as the terminal shows it.
pub fn render(report: &Report) -> String {
    render_with(report, false)
}

/// The whole report; with `explain`, every located function's proof function by function.
pub fn render_with(report: &Report, explain: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "referee check othello: {} (module {}, Python {}), seed {} (replay with --seed {}), {} fixed + {} random \
         cases, timeout {}s per call",
        report.file,
        report.module,
        report.python,
        report.seed,
        report.seed,
        report.fixed_cases,
        report.random_cases,
        report.timeout_seconds
    );
    if let Some(problem) = &report.import_problem {
        let _ = writeln!(out, "import: {problem}");
        if report.import_fatal {
            let _ = writeln!(out, "no function could be checked");
        } else if problem.starts_with("EOFError") || problem.starts_with("SystemExit") {
            let _ = writeln!(
                out,
                "  (importing must not run anything: put the game loop under `if __name__ == \"__main__\":`)"
            );
        }
    }
    if report.functions.iter().any(|f| !f.failures.is_empty()) {
        let _ = writeln!(out, "boards below: X dark (color 1), O light (color 2); columns i across, rows j down");
    }
    for f in &report.functions {
        function(&mut out, f, true);
        if let Some(proof) = f.proof.as_ref().filter(|_| explain) {
            for line in proof.detail() {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
    let names = |missing: bool| -> Vec<&str> {
        let failing = report.functions.iter().filter(|f| f.failed() && (f.form == Form::Missing) == missing);
        failing.map(|f| f.function.name()).collect()
    };
    let mut verdict = Vec::new();
    if report.import_problem.is_some() {
        verdict.push("the import must be fixed".to_string());
    }
    for (list, what) in [(names(false), "disagree"), (names(true), "missing")] {
        if !list.is_empty() {
            verdict.push(format!("{} {what}", list.join(", ")));
        }
    }
    if verdict.is_empty() {
        verdict.push("every call agrees with the reference".into());
    }
    let _ = writeln!(out, "result: {} ({:.1}s)", verdict.join("; "), report.seconds);
    out
}

/// One function's line, its causes (unless `with_causes` is false: a report that shows them itself) and its first
/// [`SHOWN`] failures.
pub fn function(out: &mut String, f: &FunctionReport, with_causes: bool) {
    let name = f.function.name();
    let signature = f.signature.as_deref().unwrap_or("");
    match f.form {
        Form::Missing => {
            let why = f.signature.as_deref().map_or(String::new(), |s| format!(" ({s})"));
            let _ = writeln!(out, "{name}: missing{why}");
            return;
        }
        Form::Unsupported => {
            let _ = writeln!(out, "{name}{signature}: not checked (a signature this check cannot call)");
            return;
        }
        Form::WithLimit | Form::WithoutLimit => {}
    }
    let form = match (f.form, f.function.searches()) {
        (Form::WithLimit, _) => " [with limit]",
        (_, true) => " [without limit: searched to the end, small boards only]",
        _ => "",
    };
    let mut counts = Vec::new();
    for (n, what) in [(f.mismatches, "mismatch"), (f.errors, "error"), (f.timeouts, "timeout")] {
        if n > 0 {
            counts.push(format!(
                "{n} {what}{}",
                if n == 1 {
                    ""
                } else if what == "mismatch" {
                    "es"
                } else {
                    "s"
                }
            ));
        }
    }
    if f.skipped > 0 {
        counts.push(format!("{} not run after repeated timeouts", f.skipped));
    }
    let counts = if counts.is_empty() { String::new() } else { format!(" ({})", counts.join(", ")) };
    let _ = writeln!(out, "{name}{signature}{form}: {}/{} agree{counts}", f.agreed, f.total);
    if with_causes {
        for cause in &f.causes {
            let _ = writeln!(out, "  cause: {}", cause.headline());
            for line in &cause.evidence {
                let _ = writeln!(out, "    {line}");
            }
        }
        for symptom in &f.symptoms {
            let _ = writeln!(out, "  symptom: {symptom}");
        }
    }
    for failure in f.failures.iter().take(SHOWN) {
        let got = match failure.kind {
            FailureKind::Mismatch => format!("got {}", failure.got),
            FailureKind::Error => format!("it raised {}", failure.got),
            FailureKind::Timeout => failure.got.clone(),
        };
        let _ = writeln!(out, "  {} [{}]: expected {}, {got}", failure.call, failure.case, failure.expected);
        let _ = writeln!(out, "    board = {}", failure.board);
        for line in failure.drawing.lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
    if f.failures.len() > SHOWN {
        let _ = writeln!(out, "  ... and {} more (--json FILE lists them all)", f.failures.len() - SHOWN);
    }
}
