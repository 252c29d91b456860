//! One run of an untrusted command: spawn, limit, feed, capture, time out, kill the whole tree.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cgroup_slot::Placement;
use super::disk::DiskWatch;
use super::phases::{self, Phase};
use super::plan::{self, Extras};
use super::report::ReportPipe;
use super::sandbox::{self, GroupSignal, Sandbox, MARKER_VAR};
use super::Limits;

/// After the main process exits, how long its pipes may stay open before the runner hunts for whoever holds them.
const LINGER: Duration = Duration::from_millis(100);

/// How a run is started.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The program (a path, or a name looked up on `PATH`).
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its working directory.
    pub cwd: PathBuf,
    /// Standard input; closed when `None`.
    pub stdin: Option<Vec<u8>>,
    /// Extra environment variables.
    pub env: Vec<(OsString, OsString)>,
    /// Its limits.
    pub limits: Limits,
    /// Its containment.
    pub sandbox: Sandbox,
    /// Set from outside (Ctrl-C) to kill the run and return at once.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How the main process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// How the main process ended.
    pub exit: Exit,
    /// It was still running at the wall-clock limit.
    pub timed_out: bool,
    /// It printed more than the output cap and was killed for it.
    pub output_limited: bool,
    /// The run was cancelled from outside.
    pub cancelled: bool,
    /// Standard output, up to the cap.
    pub stdout: Vec<u8>,
    /// Whether stdout was cut.
    pub stdout_truncated: bool,
    /// Standard error, up to the cap.
    pub stderr: Vec<u8>,
    /// Whether stderr was cut.
    pub stderr_truncated: bool,
    /// Wall-clock time from spawn to the main process's exit.
    pub elapsed: Duration,
    /// Processes it left running after the main process exited (all killed).
    pub leftovers: bool,
    /// Its folder grew past the disk budget (`Limits::disk_bytes`); killed there.
    pub disk_limited: bool,
    /// The program inside the run's folder could not be started, and why (a link, a missing file, no execute
    /// bit, not a program): the submission's doing, reported by the launcher out of band.
    pub refused: Option<String>,
}

/// Why a command could not be run at all (never the submission's fault).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program could not be started.
    #[error("cannot start '{program}': {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Waiting for it failed.
    #[error("lost track of '{program}': {message}")]
    Lost {
        /// The program.
        program: String,
        /// Why.
        message: String,
    },
}

enum Event {
    Exited(std::io::Result<ExitStatus>),
    Stream { stdout: bool, bytes: Vec<u8>, truncated: bool },
    OverCap,
}

/// Runs `spec` to completion under its limits. Every path (exit, timeout, output flood, cancel, a descendant
/// holding the pipes open) ends with the whole process group killed and every thread joined or detached.
///
/// # Errors
/// [`RunError`] when the program cannot be started or waited for.
pub fn run(spec: &RunSpec) -> Result<RunOutcome, RunError> {
    let begun = Instant::now();
    let program = spec.program.to_string_lossy().into_owned();
    let resolved = sandbox::resolve_program(&spec.program, &spec.sandbox)
        .map_err(|message| RunError::Spawn { program: program.clone(), source: std::io::Error::other(message) })?;
    let marker = sandbox::next_marker();
    // Whatever the grader inherited (a TA's `7>>notes.txt`) is never passed on, launcher or not.
    mark_inherited_close_on_exec();
    // Under the grader's own user, Linux lets the grader set the limits right after spawning (`prlimit` needs no
    // privilege on one's own processes), which saves the launcher's exec (about 0.75 ms a run); switching to a
    // sandbox user needs the launcher, and so does a grader with a controlling terminal (only the launcher takes
    // the run out of the grader's session: see `session`).
    // macOS has no prlimit: the launcher sets them there. Windows has no launcher: a Job Object holds the tree.
    let bare = spec.sandbox.identity.is_none() && !spec.sandbox.layers.any() && !super::session::grader_has_terminal();
    let launcher = if (bare && cfg!(target_os = "linux")) || !cfg!(unix) { None } else { plan::launcher_path() };
    if launcher.is_none() && spec.sandbox.layers.any() {
        let message = "the referee launcher, which sets up the sandbox, was not found".to_string();
        return Err(RunError::Spawn { program, source: std::io::Error::other(message) });
    }
    let spawn_error = |message: String| RunError::Spawn {
        program: spec.program.to_string_lossy().into_owned(),
        source: std::io::Error::other(message),
    };
    // Dropped (removed) when this function returns, after every process of the run is dead.
    let mut cgroup = if spec.sandbox.layers.cgroup {
        Some(Placement::for_run(&marker, &spec.limits).map_err(spawn_error)?)
    } else {
        None
    };
    let mut own_pid_namespace = false;
    let mut report = None;
    let mut command = match &launcher {
        Some(path) => {
            let extras = Extras {
                cgroups: cgroup.as_ref().map(|c| c.launcher_dirs().to_vec()).unwrap_or_default(),
                ..Extras::default()
            };
            let mut request = plan::request(&spec.limits, &spec.sandbox, &extras, &resolved, &spec.args);
            request.dir = Some(spec.cwd.clone());
            let pipe = ReportPipe::new().map_err(|e| spawn_error(format!("no pipe for the launcher's report: {e}")))?;
            request.report = Some(pipe.launcher_end());
            report = Some(pipe);
            own_pid_namespace = plan::own_pid_namespace(&request);
            let mut c = Command::new(path);
            c.args(request.to_args());
            c
        }
        None => {
            let mut c = Command::new(&resolved);
            c.args(&spec.args);
            c
        }
    };
    command
        .current_dir(&spec.cwd)
        .env_clear()
        .envs(run_environment(&spec.sandbox, &spec.cwd, &marker, &spec.env))
        .stdin(if spec.stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Without a launcher, std switches the user (at the price of a fork of the grader).
        if let (None, Some(id)) = (&launcher, spec.sandbox.identity) {
            command.uid(id.uid).gid(id.gid);
        }
    }
    let prepared = phases::add(Phase::Prepare, begun);
    let mut disk = DiskWatch::start(&spec.cwd, spec.limits.disk_bytes);
    let start = phases::add(Phase::DiskMeasure, prepared);
    // Its own process group (or Job Object); only the launcher of this run inherits its report channel.
    let through_launcher = launcher.is_some();
    let spawn = || {
        sandbox::spawn_managed(|| {
            let started = super::tree::spawn(command, through_launcher)?;
            let pid = started.pid;
            Ok((started, pid))
        })
    };
    let mut child = match report.as_mut() {
        Some(pipe) => pipe.spawn(spawn),
        None => super::report::exclusive(spawn),
    }
    .map_err(|source| RunError::Spawn { program: program.clone(), source })?;
    let spawned = phases::add(Phase::Spawn, start);
    let mut exited = spawned;
    let pid = child.pid;
    if launcher.is_none() {
        // No launcher to set them before exec: set them now (needs the same user or CAP_SYS_RESOURCE).
        sandbox::apply_limits(pid, &spec.limits, &spec.sandbox);
    }

    let (tx, rx) = mpsc::channel();
    let mut threads = Vec::new();
    if let (Some(input), Some(mut stdin)) = (spec.stdin.clone(), child.stdin.take()) {
        // A program that never reads its input must not block the runner: the writer is a thread of its own.
        threads.push(std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        }));
    }
    let cap = spec.limits.output_bytes;
    if let Some(out) = child.stdout.take() {
        let tx = tx.clone();
        threads.push(std::thread::spawn(move || drain(out, cap, true, &tx)));
    }
    if let Some(err) = child.stderr.take() {
        let tx = tx.clone();
        threads.push(std::thread::spawn(move || drain(err, cap, false, &tx)));
    }
    {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let status = child.wait();
            sandbox::release(pid);
            let _ = tx.send(Event::Exited(status));
        });
    }
    drop(tx);

    let deadline = start + spec.limits.timeout;
    let mut state = Watch::default();
    let mut kill_at: Option<Instant> = None;
    let mut linger_until: Option<Instant> = None;
    let mut hunts = 0;
    while !(state.exit.is_some() && state.stdout.is_some() && state.stderr.is_some()) {
        let now = Instant::now();
        let next = match (state.exit.is_some(), kill_at, linger_until) {
            (false, Some(k), _) => k,
            (false, None, _) => deadline,
            (true, _, Some(l)) => l,
            (true, _, None) => now,
        };
        let tick = next.saturating_duration_since(now).min(Duration::from_millis(50));
        match rx.recv_timeout(tick) {
            Ok(Event::Exited(status)) => {
                state.elapsed = start.elapsed();
                exited = phases::add(Phase::Program, spawned);
                state.exit =
                    Some(status.map_err(|e| RunError::Lost { program: program.clone(), message: e.to_string() })?);
                // Whatever is still in the group was left behind: kill it now, and whatever is still in the run's
                // cgroup (gone from the group by `setsid`). In a PID namespace of its own, its init already killed
                // and reported them, and those still exiting are not counted twice.
                state.leftovers |= sandbox::signal_group(pid, GroupSignal::Kill);
                if let Some(cgroup) = cgroup.as_mut() {
                    let found = cgroup.finish();
                    state.leftovers |= found > 0 && !own_pid_namespace;
                }
                linger_until = Some(Instant::now() + LINGER);
            }
            Ok(Event::Stream { stdout, bytes, truncated }) => {
                let slot = if stdout { &mut state.stdout } else { &mut state.stderr };
                *slot = Some((bytes, truncated));
            }
            Ok(Event::OverCap) => {
                state.output_limited = true;
                sandbox::signal_group(pid, GroupSignal::Kill);
            }
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                if spec.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) && !state.cancelled {
                    state.cancelled = true;
                    sandbox::signal_group(pid, GroupSignal::Kill);
                    sandbox::kill_marked(Some(&marker));
                } else if state.exit.is_none() && !state.disk_limited && disk.over(false) {
                    state.disk_limited = true;
                    sandbox::signal_group(pid, GroupSignal::Kill);
                    sandbox::kill_marked(Some(&marker));
                } else if state.exit.is_none() && kill_at.is_none() && now >= deadline {
                    state.timed_out = true;
                    sandbox::signal_group(pid, GroupSignal::Terminate);
                    kill_at = Some(now + spec.limits.grace);
                } else if state.exit.is_none() && kill_at.is_some_and(|k| now >= k) {
                    sandbox::signal_group(pid, GroupSignal::Kill);
                    sandbox::kill_marked(Some(&marker));
                    kill_at = Some(now + Duration::from_secs(1));
                } else if state.exit.is_some() && linger_until.is_some_and(|l| now >= l) {
                    // The main process is gone but a pipe is still open: a descendant left the group holding it.
                    state.leftovers |= sandbox::kill_marked(Some(&marker)) > 0;
                    hunts += 1;
                    if hunts > 20 {
                        // Unkillable holder (not ours to kill): give up on the rest of the stream.
                        state.stdout.get_or_insert_with(|| (Vec::new(), true));
                        state.stderr.get_or_insert_with(|| (Vec::new(), true));
                    }
                    linger_until = Some(now + LINGER);
                }
            }
        }
    }
    let drained = phases::add(Phase::Drain, exited);
    state.leftovers |= sandbox::reap_orphans(&marker) > 0;
    let measuring = phases::add(Phase::Finish, drained);
    // Between two looks a program may write and exit: its folder is measured once more at the end.
    state.disk_limited |= !state.cancelled && disk.over(true);
    let finishing = phases::add(Phase::DiskMeasure, measuring);
    let _finish = Deferred(move || {
        phases::add(Phase::Finish, finishing);
    });
    // Sharing the machine's IPC namespace, a run's System V objects outlive it: removed now (and the uid retired
    // when they cannot be).
    if let Some(id) = spec.sandbox.identity.filter(|i| i.uid >= super::lease::UID_BASE && !spec.sandbox.layers.ipc) {
        super::lease::clean_ipc(id.uid);
    }
    for t in threads {
        if t.is_finished() {
            let _ = t.join();
        }
    }
    let exit =
        state.exit.ok_or_else(|| RunError::Lost { program: program.clone(), message: "no exit status".into() })?;
    let (stdout, stdout_truncated) = state.stdout.unwrap_or_default();
    let (stderr, stderr_truncated) = state.stderr.unwrap_or_default();
    // What the launcher said, out of the program's reach: only it decides whether the grader failed.
    let mut refused = None;
    // A Ctrl-C at the TA's terminal also ends a launcher still in the grader's group (the moment before its
    // `setsid`): a cancelled run, not a launcher that failed.
    state.cancelled |= spec.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    if let Some(pipe) = report {
        let said = pipe.finish();
        if !said.started && !state.cancelled {
            let text = String::from_utf8_lossy(&stderr);
            let why = text.lines().next().unwrap_or("no reason given").to_string();
            let message = format!("the sandbox launcher did not start ({}): {why}", describe(exit));
            return Err(RunError::Spawn { program, source: std::io::Error::other(message) });
        }
        if let Some(message) = said.failure {
            return Err(RunError::Spawn { program, source: std::io::Error::other(message) });
        }
        state.leftovers |= said.leftovers;
        refused = said.refused;
    }
    Ok(RunOutcome {
        exit: exit_of(exit),
        timed_out: state.timed_out,
        output_limited: state.output_limited,
        cancelled: state.cancelled,
        stdout,
        stdout_truncated,
        stderr,
        stderr_truncated,
        elapsed: state.elapsed,
        leftovers: state.leftovers,
        disk_limited: state.disk_limited,
        refused,
    })
}

/// How a process ended, in words.
fn describe(status: ExitStatus) -> String {
    match exit_of(status) {
        Exit::Code(c) => format!("exit code {c}"),
        Exit::Signal(s) => format!("signal {s}"),
    }
}

/// Marks every descriptor above 2 this process holds close-on-exec, once: what the grader inherited from the
/// TA's shell or a CI runner never reaches a run, even one started without the launcher (which does the same for
/// itself before every program).
pub fn mark_inherited_close_on_exec() {
    #[cfg(unix)]
    {
        static DONE: std::sync::Once = std::sync::Once::new();
        // Under the spawn lock: another thread may be between clearing its report pipe's close-on-exec and
        // starting its launcher (`ReportPipe::spawn`); marking then would take the pipe from that launcher.
        DONE.call_once(|| super::report::exclusive(|| close_fds::set_fds_cloexec(3, &[])));
    }
}

/// The whole environment of a run: the grants' allowlist (see [`super::policy`]), `HOME` and `TMPDIR` (on Windows
/// also `USERPROFILE`, `TEMP`, `TMP`) in the run's folder, the run's marker, then the caller's own variables. Nothing else of the grader's reaches the program.
pub fn run_environment(
    sandbox: &Sandbox,
    cwd: &std::path::Path,
    marker: &str,
    extra: &[(OsString, OsString)],
) -> Vec<(OsString, OsString)> {
    let mut env = sandbox.grants.env.clone();
    super::policy::set(&mut env, "HOME".as_ref(), cwd.as_os_str().to_os_string());
    super::policy::set(&mut env, "TMPDIR".as_ref(), cwd.as_os_str().to_os_string());
    if cfg!(windows) {
        // Windows programs look for their home and temporary folder under these names.
        for name in ["USERPROFILE", "TEMP", "TMP"] {
            super::policy::set(&mut env, name.as_ref(), cwd.as_os_str().to_os_string());
        }
    }
    super::policy::set(&mut env, MARKER_VAR.as_ref(), marker.into());
    for (name, value) in extra {
        super::policy::set(&mut env, name, value.clone());
    }
    env
}

#[derive(Default)]
struct Watch {
    exit: Option<ExitStatus>,
    stdout: Option<(Vec<u8>, bool)>,
    stderr: Option<(Vec<u8>, bool)>,
    timed_out: bool,
    output_limited: bool,
    cancelled: bool,
    leftovers: bool,
    disk_limited: bool,
    elapsed: Duration,
}

/// Reads a pipe to its end, keeping at most `cap` bytes; past the cap it reports once and keeps discarding, so a
/// writer never blocks on a full pipe.
fn drain(mut pipe: impl Read, cap: usize, stdout: bool, tx: &Sender<Event>) {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                if n > room && !truncated {
                    truncated = true;
                    let _ = tx.send(Event::OverCap);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let _ = tx.send(Event::Stream { stdout, bytes: kept, truncated });
}

/// Runs its closure when dropped: a step timed until the function returns, whichever way it returns.
struct Deferred<F: FnMut()>(F);

impl<F: FnMut()> Drop for Deferred<F> {
    fn drop(&mut self) {
        (self.0)();
    }
}

fn exit_of(status: ExitStatus) -> Exit {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Exit::Signal(signal);
        }
    }
    Exit::Code(status.code().unwrap_or(-1))
}
