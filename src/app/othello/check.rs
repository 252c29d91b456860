//! `referee check othello --agent FILE`: a student's Othello search functions against the reference (the logic is
//! [`crate::referee::othello::conformance`]).

use std::io::Write;

use crate::app::{parse_seconds, seed_or_now};
use crate::cli::{exit, CheckArgs};
use crate::referee::othello::conformance::{self, render, HarnessError, Options};

/// Random boards when `--cases` is not given.
pub const DEFAULT_CASES: usize = 60;

/// Runs the check; returns the exit code (0 all agree, 1 something does not, 2 usage, 3 Python or I/O trouble).
pub fn run(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if let Err(code) = crate::app::sandbox::gate(&args.sandbox, "referee check othello", err) {
        return code;
    }
    let mut fail = |code: u8, message: String| {
        let _ = writeln!(err, "referee check othello: {message}");
        code
    };
    if args.cmd.is_some() || args.shell || args.suite.is_some() || args.build.is_some() || args.build_timeout.is_some()
    {
        return fail(
            exit::USAGE,
            "--cmd, --shell, --suite, --build and --build-timeout are for `check takestones`; give --agent FILE".into(),
        );
    }
    let Some(agent) = &args.agent else {
        return fail(exit::USAGE, "--agent FILE is required (your module, e.g. --agent hy2574_ai.py)".into());
    };
    let timeout = match parse_seconds(&args.timeout, "--timeout", false) {
        Ok(t) => t,
        Err(message) => return fail(exit::USAGE, message),
    };
    // The Python named is a toolchain like a `--cmd`'s: its installation is granted, its other sys.path is not.
    let programs = [std::ffi::OsString::from(&args.python)];
    let sandbox = match crate::app::sandbox::untrusted_for(&args.sandbox, args.run_as_self, &programs) {
        Ok(sandbox) => sandbox,
        Err(message) => return fail(exit::INTERNAL, message),
    };
    for note in crate::app::sandbox::toolchain_notes(&sandbox) {
        // Said on stderr like the command's other lines; the code is not returned.
        let _ = fail(exit::SUCCESS, note);
    }
    let options = Options {
        python: args.python.clone().into(),
        seed: seed_or_now(args.seed),
        cases: args.cases.unwrap_or(DEFAULT_CASES),
        timeout,
        sandbox,
        work: None,
    };
    let report = match conformance::run(agent, &options) {
        Ok(report) => report,
        Err(HarnessError::Input(message)) => return fail(exit::USAGE, message),
        Err(HarnessError::Setup(message)) => return fail(exit::INTERNAL, message),
    };
    let _ = out.write_all(render::render_with(&report, args.explain).as_bytes());
    let _ = out.flush();
    if let Some(path) = &args.json {
        let written = crate::harness::render::json_text::to_vec_pretty(&report).and_then(|mut bytes| {
            bytes.push(b'\n');
            std::fs::write(path, bytes)
        });
        if let Err(e) = written {
            return fail(exit::INTERNAL, format!("--json {}: {e}", path.display()));
        }
    }
    if report.passed() {
        exit::SUCCESS
    } else {
        exit::FAILED
    }
}
