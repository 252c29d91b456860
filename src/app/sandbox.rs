//! `referee sandbox`: each layer untrusted code runs under on this machine, in force or not and why; and the gate
//! every command that runs untrusted code passes first (`--sandbox require` refuses to start without every layer,
//! best effort warns once).

use std::io::Write;

use crate::cli::exit;
use crate::harness::runner::layers::{self, Policy};
use crate::harness::runner::sandbox::{is_root, UID_BASE};
use crate::harness::runner::shared_ns;

/// Runs `referee sandbox`; returns the exit code (0: the report was printed, whatever it says).
pub fn run(out: &mut dyn Write) -> u8 {
    let probe = layers::probe();
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
                "pid" if *in_force && probe.layers.cgroup && shared.proc_options().is_some() => {
                    *detail = "a run with a uid of its own joins the grader's /proc mounted hidepid=2, where it sees \
                               only its own processes, and what it leaves running is killed through its cgroup; \
                               runs that share a uid get a PID namespace each"
                        .into();
                }
                _ => {}
            }
        }
    }
    rows.push((
        "limits",
        true,
        "own process group, wall clock with TERM then KILL of the whole tree, CPU time, data segment, file size, \
         capped output"
            .into(),
    ));
    for (name, in_force, detail) in rows {
        let state = if in_force { "in force" } else { "NOT in force" };
        let _ = writeln!(out, "  {name:<9} {state:<13} {detail}");
    }
    exit::SUCCESS
}

/// Checks the layers under `policy` before `command` runs anything untrusted: under `require` a missing layer is
/// an error (exit 3); under best effort a missing layer is one warning line.
///
/// # Errors
/// The exit code to return, after the message is printed.
pub fn gate(policy: Policy, command: &str, err: &mut dyn Write) -> Result<(), u8> {
    if let Err(message) = layers::select(policy) {
        let _ = writeln!(err, "{command}: {message}");
        return Err(exit::INTERNAL);
    }
    if let Some(warning) = layers::warning() {
        let _ = writeln!(err, "{command}: {warning}");
    }
    Ok(())
}
