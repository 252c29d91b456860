//! One agent process: started like every untrusted run (own session and process group, sandbox user, limits, marker), but
//! long-lived and spoken to line by line. Its stdout arrives as lines on a channel, its stderr is kept as a tail.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::harness::runner::cgroup::RunCgroup;
use crate::harness::runner::plan::{self, Extras};
use crate::harness::runner::report::{Report, ReportPipe};
use crate::harness::runner::sandbox::{self, GroupSignal, Sandbox};
use crate::harness::runner::stop_sweep::{self, Stopped, UidClaim};
use crate::harness::runner::{Limits, RunError};

/// The longest stdout line an agent may write; longer is a protocol error.
pub const MAX_LINE: usize = 64 * 1024;

/// Bytes of stderr kept for the game record.
pub const STDERR_TAIL: usize = 4 * 1024;

/// How an agent process is started.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The program.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its working directory.
    pub cwd: PathBuf,
    /// Extra environment.
    pub env: Vec<(OsString, OsString)>,
    /// Limits (the wall-clock field is unused: the referee's clock decides).
    pub limits: Limits,
    /// Who it runs as.
    pub sandbox: Sandbox,
    /// Pin it to this CPU (one thinking agent per core): a cpuset of its cgroup where there is one, which it
    /// cannot widen; else its affinity, set before it starts.
    pub pin: Option<usize>,
    /// Folders it may read besides its working folder and the system (its compiled classes, its module).
    pub readable: Vec<PathBuf>,
}

/// What came from the agent's stdout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// One line, without its line end.
    Line(String),
    /// A line longer than [`MAX_LINE`], or not UTF-8 (the text says which).
    Bad(String),
    /// Nothing arrived before the deadline.
    Timeout,
    /// Its stdout closed: it exited (or closed it).
    Closed,
}

/// A running agent. Dropping it kills its whole process group.
///
/// Between its turns it is paused: its whole cgroup frozen where the cgroup has a freezer (every process it
/// started, in any session); elsewhere stopped with signals (`stop_sweep`).
#[derive(Debug)]
pub struct AgentProcess {
    child: Child,
    pid: u32,
    stdin: Option<ChildStdin>,
    lines: Receiver<Incoming>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Set when its stderr reached end of file (everything it wrote is in the tail).
    stderr_done: Arc<AtomicBool>,
    marker: String,
    /// How it is paused, if it is.
    paused: Option<Pause>,
    /// Its hold on its uid (whether a pause may stop every process of it).
    claim: UidClaim,
    /// Untrusted (a sandbox user or layers): a pause without a freezer also stops what left its group. A built-in
    /// agent is only ever its own process group.
    sweep: bool,
    /// The launcher's report: whether it started the agent, and if not why (out of the agent's reach).
    report: Option<ReportPipe>,
    said: Option<Report>,
    /// Removed after the process group is killed (fields drop after `Drop::drop`).
    cgroup: Option<RunCgroup>,
}

impl AgentProcess {
    /// Starts `launch` in its own session and process group, through the launcher (limits, user, CPU pin).
    ///
    /// # Errors
    /// When it cannot be started (a missing program, an unreachable interpreter).
    pub fn spawn(launch: &Launch) -> Result<AgentProcess, RunError> {
        let name = launch.program.to_string_lossy().into_owned();
        let spawn_error =
            |message: String| RunError::Spawn { program: name.clone(), source: std::io::Error::other(message) };
        let resolved = sandbox::resolve_program(&launch.program, &launch.sandbox).map_err(spawn_error)?;
        let exe = plan::launcher_path().ok_or_else(|| spawn_error("the referee launcher was not found".into()))?;
        let marker = sandbox::next_marker();
        let cgroup = if launch.sandbox.layers.cgroup {
            Some(RunCgroup::for_agent(&marker, &launch.limits, launch.pin).map_err(spawn_error)?)
        } else {
            None
        };
        let extras = Extras {
            pin: launch.pin,
            readable: launch.readable.clone(),
            cgroups: cgroup.as_ref().map(|c| c.dirs().to_vec()).unwrap_or_default(),
        };
        let mut request = plan::request(&launch.limits, &launch.sandbox, &extras, &resolved, &launch.args);
        let mut report =
            ReportPipe::new().map_err(|e| spawn_error(format!("no pipe for the launcher's report: {e}")))?;
        request.report = Some(report.launcher_end());
        let mut command = Command::new(exe);
        command
            .args(request.to_args())
            .current_dir(&launch.cwd)
            .env_clear()
            .envs(crate::harness::runner::process::run_environment(&launch.sandbox, &launch.cwd, &marker, &launch.env))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // No `process_group(0)`: the launcher makes a session of its own first thing, and with it the group the
        // referee signals (a group's leader cannot).
        // Only this launcher inherits its report channel (see `runner::report`).
        let mut child = report
            .spawn(|| {
                sandbox::spawn_managed(|| {
                    let child = command.spawn()?;
                    let pid = child.id();
                    Ok((child, pid))
                })
            })
            .map_err(|source| RunError::Spawn { program: name.clone(), source })?;
        let pid = child.id();
        let (tx, lines) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || read_lines(out, &tx));
        }
        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let stderr_done = Arc::new(AtomicBool::new(false));
        if let Some(err) = child.stderr.take() {
            let (tail, done) = (Arc::clone(&stderr), Arc::clone(&stderr_done));
            std::thread::spawn(move || keep_tail(err, &tail, &done));
        }
        let stdin = child.stdin.take();
        Ok(AgentProcess {
            child,
            pid,
            stdin,
            lines,
            stderr,
            stderr_done,
            marker,
            paused: None,
            claim: UidClaim::new(launch.sandbox.identity.map(|id| id.uid)),
            sweep: launch.sandbox.identity.is_some() || launch.sandbox.layers.any(),
            report: Some(report),
            said: None,
            cgroup,
        })
    }

    /// Writes one line (a newline is added) and flushes. A dead agent is noticed on the read side, so a failed
    /// write is only reported, never fatal.
    pub fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = self.stdin.as_mut() else { return false };
        stdin.write_all(format!("{line}\n").as_bytes()).and_then(|()| stdin.flush()).is_ok()
    }

    /// Closes its stdin (it reads end of input), after everything sent has been flushed.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next stdout line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Incoming {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(incoming) => incoming,
            Err(RecvTimeoutError::Timeout) => Incoming::Timeout,
            Err(RecvTimeoutError::Disconnected) => Incoming::Closed,
        }
    }

    /// Freezes every process it started until [`Self::resume`]: it may not think on others' time. Its cgroup is
    /// frozen where it can be; else its process group, its uid's processes and its marked ones are stopped.
    pub fn pause(&mut self) {
        if self.paused.is_some() {
            return;
        }
        if self.cgroup.as_ref().is_some_and(RunCgroup::freeze) {
            self.paused = Some(Pause::Frozen);
            return;
        }
        // No freezer, or it did not confirm: a half-frozen cgroup is thawed and signals do the job.
        if let Some(cgroup) = &self.cgroup {
            cgroup.thaw();
        }
        self.paused = if self.sweep {
            stop_sweep::stop(self.pid, &self.claim, &self.marker).map(Pause::Stopped)
        } else {
            sandbox::signal_group(self.pid, GroupSignal::Stop).then(|| Pause::Stopped(Stopped::default()))
        };
    }

    /// Lets a paused agent run again.
    pub fn resume(&mut self) {
        match self.paused.take() {
            Some(Pause::Frozen) => {
                if let Some(cgroup) = &self.cgroup {
                    cgroup.thaw();
                }
            }
            Some(Pause::Stopped(stopped)) => stop_sweep::resume(self.pid, stopped),
            None => {}
        }
    }

    /// Whether its CPU pin is a cpuset it cannot widen (else only its affinity, which it may change).
    pub fn pin_is_enforced(&self) -> bool {
        self.cgroup.as_ref().is_some_and(RunCgroup::is_pinned)
    }

    /// How it ended, if it has ("exit code 1", "killed by signal 9", or why the launcher could not start it).
    pub fn exit_description(&mut self) -> Option<String> {
        let status = self.child.try_wait().ok()??;
        if let Some(why) = self.launcher_failure() {
            return Some(why);
        }
        Some(describe_exit(status))
    }

    /// Once it has ended: why the launcher could not start it, as the launcher reported it (never from anything
    /// the agent printed): a setup failure (`cannot start ...`), or its own program refused.
    pub fn launcher_failure(&mut self) -> Option<String> {
        self.child.try_wait().ok()??;
        if let Some(pipe) = self.report.take() {
            self.said = Some(pipe.finish());
        }
        let said = self.said.as_ref()?;
        if !said.started {
            return Some("the sandbox launcher did not start".into());
        }
        said.failure.clone().or_else(|| said.refused.clone().map(|why| format!("could not be started: {why}")))
    }

    /// Waits up to `grace` for it to exit by itself; its description when it did. After an exit it also waits
    /// (briefly) for the last of its stderr, so a traceback written just before dying is in the tail.
    pub fn wait_exit(&mut self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            if let Some(d) = self.exit_description() {
                // The pipe's end of file follows the exit at once unless the reader thread is not scheduled (a
                // loaded machine) or a descendant still holds it: a second is only ever waited in those cases.
                let drained = Instant::now() + Duration::from_secs(1);
                while !self.stderr_done.load(Ordering::Acquire) && Instant::now() < drained {
                    std::thread::sleep(Duration::from_millis(2));
                }
                return Some(d);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The last [`STDERR_TAIL`] bytes of its stderr, as text.
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        let (a, b) = tail.as_slices();
        let mut bytes = a.to_vec();
        bytes.extend_from_slice(b);
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Kills the whole process group and every process carrying its marker, and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        sandbox::signal_group(self.pid, GroupSignal::Kill);
        // A process frozen by the v1 freezer takes its SIGKILL only once thawed.
        if let Some(cgroup) = &self.cgroup {
            cgroup.thaw();
        }
        sandbox::signal_group(self.pid, GroupSignal::Continue);
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        sandbox::release(self.pid);
        if let Some(cgroup) = &mut self.cgroup {
            cgroup.kill_all();
        }
        // What a sweep stopped outside the group stays stopped (SIGKILL reaches a stopped process): killed by its
        // marker below, or with its uid when the lease ends.
        self.paused = None;
        sandbox::kill_marked(Some(&self.marker));
    }
}

/// How a paused agent was paused.
#[derive(Debug)]
enum Pause {
    /// Its cgroup is frozen.
    Frozen,
    /// Its group and the processes listed were sent SIGSTOP.
    Stopped(Stopped),
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Splits `out` into lines for the channel; a line over [`MAX_LINE`] is reported once and the stream then ends
/// (the agent has broken the protocol).
fn read_lines(out: impl Read, tx: &mpsc::Sender<Incoming>) {
    let mut reader = BufReader::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = reader.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf);
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let ended = buf.last() == Some(&b'\n');
                if !ended && buf.len() > MAX_LINE {
                    let _ = tx.send(Incoming::Bad(format!("a line longer than {} KiB", MAX_LINE / 1024)));
                    break;
                }
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                let incoming = match String::from_utf8(buf.clone()) {
                    Ok(line) => Incoming::Line(line),
                    Err(_) => Incoming::Bad(format!("a line that is not UTF-8: {}", String::from_utf8_lossy(&buf))),
                };
                if tx.send(incoming).is_err() {
                    break;
                }
            }
        }
    }
    let _ = tx.send(Incoming::Closed);
}

/// Keeps the last [`STDERR_TAIL`] bytes of `err`, reading it to its end so the agent never blocks on it.
fn keep_tail(mut err: impl Read, tail: &Mutex<VecDeque<u8>>, done: &AtomicBool) {
    let mut buf = [0u8; 8192];
    keep_reading(&mut err, tail, &mut buf);
    done.store(true, Ordering::Release);
}

fn keep_reading(err: &mut impl Read, tail: &Mutex<VecDeque<u8>>, buf: &mut [u8; 8192]) {
    loop {
        match err.read(buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                t.extend(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..excess);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
}

/// "exit code N" or "killed by SIGNAME".
pub fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by {}", crate::harness::grade::signal_name(signal));
        }
    }
    format!("exit code {}", status.code().unwrap_or(-1))
}
