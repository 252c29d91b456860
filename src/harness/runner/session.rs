//! A run owns no terminal and no session of the grader's. A TA grading from a terminal shares it (its controlling
//! terminal) with every process of the grader's session: a run left in that session could open `/dev/tty` and push
//! a command into the TA's shell with `TIOCSTI`, or write over the TA's screen.
//!
//! So the launcher's first step, before anything else it does, is `setsid`: the run becomes a session of its own,
//! without a controlling terminal, and the leader of a process group whose id is its pid, which is what the grader
//! signals (the deadline, the kill, an agent's SIGSTOP between turns). `setsid` fails in a process-group leader, so
//! the runner starts the launcher in the grader's group (no `process_group(0)`) and tolerates the moment before:
//! a group signal sent then finds no group (the deadline's SIGTERM is followed by the SIGKILL after the grace period
//! and by a kill of every process carrying the run's marker, which the launcher already carries; an agent is never
//! paused before it has said its name). A launcher that cannot make the session refuses to start anything.
//!
//! A run without the launcher (the grader's own user, no layer: Linux only) stays in the grader's session, in a
//! process group of its own; the runner takes that shortcut only when the grader has no controlling terminal, so
//! there is none to reach. No run inherits a descriptor of the grader's but its pipes (see `process`).

/// In the launcher: makes this process a new session without a controlling terminal.
///
/// # Errors
/// When the kernel refuses (this process already leads a process group: it was started as one).
#[cfg(unix)]
pub(crate) fn leave_the_graders() -> Result<(), String> {
    rustix::process::setsid()
        .map(drop)
        .map_err(|e| format!("launcher: cannot start a session of its own (is it a process group's leader?): {e}"))
}

/// Whether this process (the grader) has a controlling terminal: the `tty_nr` field of `/proc/self/stat` (0 for
/// none), read once. When it cannot be read the answer is yes, so that runs go through the launcher.
#[cfg(target_os = "linux")]
pub(crate) fn grader_has_terminal() -> bool {
    static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| {
        let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return true };
        // Fields after the command name (which may hold spaces and parentheses): state, ppid, pgrp, session, tty_nr.
        let tty = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(4)?.parse::<i64>().ok());
        tty != Some(0)
    })
}

/// Off Linux every run goes through the launcher (or a Job Object): the answer does not matter.
#[cfg(not(target_os = "linux"))]
pub(crate) fn grader_has_terminal() -> bool {
    true
}
