//! A run's process tree as the runner starts, waits for and kills it. On Unix the run leads a process group of its
//! own and the whole group is signalled (see `sandbox::signal_group`): the launcher makes it, with a session of its
//! own (see `session`); a run without the launcher is started in a new group (`Command::process_group(0)`). On Windows
//! it is born inside a Job Object (started suspended, assigned, then resumed, so not even its first child can be
//! started outside it), and the job is terminated as a whole: at the deadline, on an output flood, on Ctrl-C, and
//! as soon as the program itself has ended (whatever it left running goes with it).

use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};

/// A started run: its pipes (for the runner's threads to take), its pid, and how to wait for it.
pub(crate) struct Started {
    /// Its standard input, when piped.
    pub stdin: Option<ChildStdin>,
    /// Its standard output, when piped.
    pub stdout: Option<ChildStdout>,
    /// Its standard error, when piped.
    pub stderr: Option<ChildStderr>,
    /// The program's process id (the group's id on Unix, the job's key on Windows).
    pub pid: u32,
    waiter: Waiter,
}

#[cfg(unix)]
type Waiter = std::process::Child;

#[cfg(windows)]
type Waiter = std::sync::mpsc::Receiver<std::io::Result<ExitStatus>>;

#[cfg(not(any(unix, windows)))]
type Waiter = ();

impl Started {
    /// Blocks until the program (the tree's first process) has ended.
    ///
    /// # Errors
    /// When it can no longer be waited for.
    pub fn wait(self) -> std::io::Result<ExitStatus> {
        #[cfg(unix)]
        {
            let mut child = self.waiter;
            child.wait()
        }
        #[cfg(windows)]
        {
            self.waiter.recv().unwrap_or_else(|_| Err(std::io::Error::other("the job's watcher ended")))
        }
        #[cfg(not(any(unix, windows)))]
        {
            Err(std::io::Error::new(std::io::ErrorKind::Unsupported, super::platform::NO_LAUNCHER))
        }
    }
}

/// Starts `command` as a tree of its own; `launcher`: the command is the launcher, which makes its own session
/// (and so its group) first thing, and must not lead a group when it does.
///
/// # Errors
/// When it cannot be started (or, on Windows, put in its job).
pub(crate) fn spawn(command: Command, launcher: bool) -> std::io::Result<Started> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let mut command = command;
        if !launcher {
            command.process_group(0);
        }
        let mut child = command.spawn()?;
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        Ok(Started { stdin, stdout, stderr, pid: child.id(), waiter: child })
    }
    #[cfg(windows)]
    {
        let _ = launcher;
        windows::spawn(command)
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (command, launcher);
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, super::platform::NO_LAUNCHER))
    }
}

/// Ends the tree whose program is `pid` (Windows; on Unix the group is signalled): `true` if it was still there.
#[cfg(windows)]
pub(crate) fn kill(pid: u32) -> bool {
    windows::kill(pid)
}

#[cfg(windows)]
mod windows {
    use std::collections::HashMap;
    use std::process::{Command, ExitStatus};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc, Mutex, OnceLock};
    use std::time::Duration;

    use process_wrap::std::{JobObject, StdCommandWrap};

    use super::Started;

    /// How often a job's watcher looks whether its program ended or its tree must be killed.
    const TICK: Duration = Duration::from_millis(10);

    /// The kill switch of every live tree, by its program's pid.
    fn live() -> &'static Mutex<HashMap<u32, Arc<AtomicBool>>> {
        static LIVE: OnceLock<Mutex<HashMap<u32, Arc<AtomicBool>>>> = OnceLock::new();
        LIVE.get_or_init(|| Mutex::new(HashMap::new()))
    }

    pub(super) fn kill(pid: u32) -> bool {
        let live = live().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        live.get(&pid).map(|flag| flag.store(true, Ordering::Relaxed)).is_some()
    }

    /// The job's child is not `Send`, so one thread starts it and watches it: it sends back the pipes, then the
    /// exit status once the program has ended (after terminating the job, so nothing it started outlives it).
    pub(super) fn spawn(command: Command) -> std::io::Result<Started> {
        let (started_tx, started_rx) = mpsc::channel();
        let (exit_tx, exit_rx) = mpsc::channel::<std::io::Result<ExitStatus>>();
        std::thread::spawn(move || {
            let mut wrap = StdCommandWrap::from(command);
            wrap.wrap(JobObject);
            let mut child = match wrap.spawn() {
                Ok(child) => child,
                Err(e) => {
                    let _ = started_tx.send(Err(e));
                    return;
                }
            };
            let pid = child.id();
            let flag = Arc::new(AtomicBool::new(false));
            live().lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(pid, Arc::clone(&flag));
            let inner = child.inner_mut();
            let pipes = (inner.stdin.take(), inner.stdout.take(), inner.stderr.take());
            if started_tx.send(Ok((pid, pipes))).is_err() {
                let _ = child.start_kill();
                return;
            }
            let status = loop {
                if flag.swap(false, Ordering::Relaxed) {
                    let _ = child.start_kill();
                }
                match child.try_wait() {
                    Ok(Some(status)) => break Ok(status),
                    Ok(None) => std::thread::sleep(TICK),
                    Err(e) => break Err(e),
                }
            };
            // Whatever the program left running in its job ends with it.
            let _ = child.start_kill();
            live().lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&pid);
            let _ = exit_tx.send(status);
        });
        let (pid, (stdin, stdout, stderr)) =
            started_rx.recv().unwrap_or_else(|_| Err(std::io::Error::other("the job's watcher ended")))?;
        Ok(Started { stdin, stdout, stderr, pid, waiter: exit_rx })
    }
}
