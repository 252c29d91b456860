//! `referee sandbox`: each layer untrusted code runs under on this machine, in force or not and why; and the gate
//! every command that runs untrusted code passes first (`--sandbox require` refuses to start without every layer,
//! best effort warns once).

use std::ffi::OsString;
use std::io::Write;

use crate::cli::{exit, SandboxArgs};
use crate::harness::runner::layers::Layers;
use crate::harness::runner::probe;
use crate::harness::runner::sandbox::{is_root, UID_BASE};
use crate::harness::runner::shared_ns;
use crate::harness::runner::{Sandbox, SandboxOptions, Template};

/// Runs `referee sandbox`; returns the exit code (0: the report was printed, whatever it says).
pub fn run(out: &mut dyn Write) -> u8 {
    let probe = probe::probe();
    let _ = writeln!(out, "referee sandbox: how untrusted code runs on this machine");
    let user = if is_root() {
        (true, format!("each submission as an unprivileged uid of its own (from {UID_BASE}), group nogroup"))
    } else {
        (false, "the grader is not root: runs use the grader's own user".to_string())
    };
    let mut rows = vec![("user", user.0, user.1)];
    rows.extend(probe.states.iter().map(|s| (s.name, s.in_force, s.detail.clone())));
    // As root, runs join namespaces the grader makes once instead of making their own (see `shared_ns`).
    if let Some(shared) = shared_ns::shared() {
        for (name, in_force, detail) in &mut rows {
            match *name {
                "network" if *in_force => {
                    *detail = "one empty network namespace per grader, joined by each run: no interface, not even \
                               the machine's loopback (abstract sockets are kept to each run by Landlock)"
                        .into();
                }
                "pid" if *in_force && probe.layers.cgroup && shared.proc().is_some() => {
                    *detail = "a run with a uid of its own joins the grader's /proc mounted hidepid=2, where it sees \
                               only its own processes, and what it leaves running is killed through its cgroup; \
                               runs that share a uid get a PID namespace each"
                        .into();
                }
                _ => {}
            }
        }
    }
    rows.push(("limits", true, crate::harness::runner::platform::limits().into()));
    for (name, in_force, detail) in rows {
        let state = if in_force { "in force" } else { "NOT in force" };
        let _ = writeln!(out, "  {name:<9} {state:<13} {detail}");
    }
    exit::SUCCESS
}

/// The library's view of the command line's sandbox options, with `run_as_self`.
///
/// # Errors
/// An unknown name in `--sandbox-layers`.
pub fn options(args: &SandboxArgs, run_as_self: bool) -> Result<SandboxOptions, String> {
    Ok(SandboxOptions {
        policy: args.policy,
        only: args.layers.as_deref().map(Layers::parse_list).transpose()?,
        run_as_self,
        allow_read: args.allow_read.clone(),
        env: args.env.clone(),
        programs: Vec::new(),
    })
}

/// The sandbox for untrusted runs as the command line asks, for commands whose programs are not known (the usual
/// interpreters' toolchains are found).
///
/// # Errors
/// A one-line message: a missing layer under `--sandbox require`, a bad `--sandbox-layers`, `--env` or
/// `--allow-read` entry, `--run-as-self` as root.
pub fn untrusted(args: &SandboxArgs, run_as_self: bool) -> Result<Sandbox, String> {
    untrusted_for(args, run_as_self, &[])
}

/// The sandbox for untrusted runs of `programs` (the first words of `--cmd` and `--build`), whose toolchains the
/// grader finds once.
///
/// # Errors
/// As [`untrusted`].
pub fn untrusted_for(args: &SandboxArgs, run_as_self: bool, programs: &[OsString]) -> Result<Sandbox, String> {
    Sandbox::for_untrusted(&SandboxOptions { programs: programs.to_vec(), ..options(args, run_as_self)? })
}

/// One line per toolchain whose `sys.path` reaches folders runs are not granted (see
/// [`crate::harness::runner::toolchain::Toolchain::note`]).
pub fn toolchain_notes(sandbox: &Sandbox) -> Vec<String> {
    sandbox.grants.toolchains.iter().filter_map(|t| t.note()).collect()
}

/// The programs `templates` start (their first words, with `{dir}` a relative folder, so a student's own program is
/// never taken for a toolchain).
pub fn programs_of(templates: &[&Template]) -> Vec<OsString> {
    templates.iter().map(|t| t.expand(std::path::Path::new("."), &[]).0).collect()
}

/// Starts the toolchains of `programs` once inside `sandbox` before `command` runs any student (see
/// `runner::preflight`): a toolchain the sandbox keeps from starting is the grader's problem, said once (exit 3).
///
/// # Errors
/// The exit code to return, after the message is printed.
pub fn preflight(sandbox: &Sandbox, programs: &[OsString], command: &str, err: &mut dyn Write) -> Result<(), u8> {
    crate::harness::runner::preflight::preflight(sandbox, programs).map_err(|message| {
        let _ = writeln!(err, "{command}: {message}");
        exit::INTERNAL
    })
}

/// Checks the layers as `args` ask before `command` runs anything untrusted: under `require` a missing layer is
/// an error (exit 3), as is a `--sandbox-layers` layer this machine lacks; under best effort a missing layer is
/// one warning line (none when `--sandbox-layers` chose the layers).
///
/// # Errors
/// The exit code to return, after the message is printed.
pub fn gate(args: &SandboxArgs, command: &str, err: &mut dyn Write) -> Result<(), u8> {
    let only = match args.layers.as_deref().map(Layers::parse_list).transpose() {
        Ok(only) => only,
        Err(message) => {
            let _ = writeln!(err, "{command}: {message}");
            return Err(exit::USAGE);
        }
    };
    if let Err(message) = probe::select(args.policy, only.as_ref()) {
        let _ = writeln!(err, "{command}: {message}");
        return Err(exit::INTERNAL);
    }
    if only.is_none() {
        if let Some(warning) = probe::warning() {
            let _ = writeln!(err, "{command}: {warning}");
        }
    }
    Ok(())
}
