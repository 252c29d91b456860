//! The launcher: `referee __exec ...` (see [`super::wire`] for its options), the step between the runner and the
//! program that applies one run's launch plan to itself and then becomes the program: it makes itself a session of
//! its own without a controlling terminal (see `session`), reports to the grader that it started (out of band, see
//! [`super::report`]), joins the run's cgroup, joins the grader's shared namespaces or enters new ones (network,
//! PID, IPC, mount with private temporary folders), takes the sandbox identity, sets the resource limits, takes a
//! session keyring of its own (emptying a leased uid's keyrings, see `keyrings`), optionally pins itself to one
//! CPU, restricts itself with Landlock and seccomp, marks every inherited descriptor close-on-exec, and starts the
//! program (see [`super::exec`]).
//!
//! With a PID namespace the program cannot simply be exec'd: the namespace's first process is its init, which
//! ignores signals it has no handler for and takes every other process down when it exits. So the launcher starts
//! itself again (`+inner`, through `/proc/self/exe`, which still names this binary after a namespace change) as
//! that init, which mounts the private `/proc`, applies the rest, starts the program as its child and says how it
//! ended through a pipe (`+status PATH`: the outer's `/proc/<pid>/fd/<n>` of a close-on-exec pipe, so the program
//! never holds it); the outer launcher, leader of the process group the grader signals, then ends the same way (same exit
//! code, or the same signal), so the grader's timeout, group kill, SIGSTOP between turns and exit status all work
//! as without the namespace. That second process costs about 2 ms a run, so where each run has a uid of its own
//! and a cgroup, the run joins the grader's mount namespace with a `hidepid` `/proc` instead and the program is
//! exec'd directly (see `shared_ns`).
//!
//! Why not set the limits from the grader after spawning: changing the limits of a process owned by another user
//! needs CAP_SYS_RESOURCE, which a container's root often lacks, and there would be a moment before they apply.
//! Why switch users here rather than through `Command::uid`: std then has to `fork` the whole grader, while a
//! plain spawn uses the much cheaper `posix_spawn`; that alone cost about 1.5 ms per run. The launcher is
//! single-threaded, so the per-thread identity calls change the whole process.

use std::ffi::OsString;
use std::io::Write;

use super::report;
use super::wire::Request;

pub use super::wire::SUBCOMMAND;

/// Exit code of a launcher that could not start the program (the reason is in its report, never in the code).
pub const FAILED_EXIT: i32 = 127;

/// Exit code when the student's own program could not be started (as a shell's 126).
pub const REFUSED_EXIT: i32 = 126;

/// Where the launcher's own words go: the grader's report pipe, the outer launcher's status pipe (in the PID
/// namespace's init), or stderr (a trial or the namespace holder, which run nothing untrusted).
enum Channel {
    Report(std::fs::File, String),
    Status(std::fs::File),
    Stderr,
}

impl Channel {
    fn say(&mut self, word: &str, detail: &str) {
        match self {
            Channel::Report(file, nonce) => {
                let _ = file.write_all(report::line(nonce, word, detail).as_bytes());
            }
            Channel::Status(file) => {
                let code = if word == "refused" { "r" } else { "f" };
                let _ = file.write_all(format!("{code} {}", detail.replace('\n', "\\n")).as_bytes());
            }
            Channel::Stderr if !detail.is_empty() => eprintln!("{detail}"),
            Channel::Stderr => {}
        }
    }
}

/// Opens the channel the request names, and says the launcher started.
fn channel(request: &Request) -> Result<Channel, String> {
    if let (true, Some(path)) = (request.inner, &request.status) {
        // The status pipe is the outer launcher's, close-on-exec: opened here through the outer's
        // `/proc/<pid>/fd`, while `/proc` is still the grader's, and held by this process alone.
        let file = std::fs::OpenOptions::new().write(true).open(path);
        return Ok(Channel::Status(file.map_err(|e| format!("launcher: cannot open the status pipe: {e}"))?));
    }
    let Some((fd, nonce)) = &request.report else { return Ok(Channel::Stderr) };
    let file = take_report(*fd).map_err(|e| format!("launcher: cannot take the report pipe (descriptor {fd}): {e}"))?;
    let mut channel = Channel::Report(file, nonce.clone());
    channel.say("started", "");
    Ok(channel)
}

/// The report pipe's write end, inherited as descriptor `fd`.
fn take_report(fd: i32) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        report::take_inherited(fd)
    }
    #[cfg(not(unix))]
    {
        let _ = fd;
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, super::platform::NO_LAUNCHER))
    }
}

/// Runs the launcher given everything after [`SUBCOMMAND`]: sets the limits and becomes the program. Returns only
/// when that fails, with the exit code to use after it has reported why (or, with a PID namespace, with the
/// program's own exit code once it has ended).
pub fn exec(args: &[OsString]) -> i32 {
    let request = match Request::parse(args) {
        Ok(r) => r,
        Err(message) => {
            eprintln!("{message}");
            return FAILED_EXIT;
        }
    };
    // First of all, so that nothing of the run ever has the grader's terminal: a session of its own. Not for the PID
    // namespace's init (already in the outer launcher's session, whose group the grader signals) nor the namespace
    // holder (which runs nothing).
    #[cfg(unix)]
    {
        let own_session = !request.inner && !request.hold;
        if let Err(message) = if own_session { super::session::leave_the_graders() } else { Ok(()) } {
            eprintln!("{message}");
            return FAILED_EXIT;
        }
    }
    let mut channel = match channel(&request) {
        Ok(channel) => channel,
        Err(message) => {
            // Without its channel the grader hears nothing, and so counts the launcher as never started.
            eprintln!("{message}");
            return FAILED_EXIT;
        }
    };
    #[cfg(unix)]
    {
        use super::exec::StartError;
        // `+portable` (from tests) runs the macOS launcher's steps on Linux.
        #[cfg(target_os = "linux")]
        let launched =
            if request.portable { super::launch_unix::launch(&request) } else { linux::launch(&request, &mut channel) };
        #[cfg(not(target_os = "linux"))]
        let launched = super::launch_unix::launch(&request);
        match launched {
            Ok(code) => code,
            Err(StartError::Grader(message)) => {
                channel.say("failed", &message);
                FAILED_EXIT
            }
            Err(StartError::Program(message)) => {
                channel.say("refused", &message);
                REFUSED_EXIT
            }
        }
    }
    #[cfg(not(unix))]
    {
        channel.say("failed", super::platform::NO_LAUNCHER);
        FAILED_EXIT
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io::{Read, Write};
    use std::os::unix::process::ExitStatusExt;
    use std::path::PathBuf;

    use super::super::confine::{self, Fresh};
    use super::super::exec::{self, Start, StartError};
    use super::super::rules;
    use super::super::wire::Request;
    use super::Channel;

    /// Applies the request to this process and starts the program. `Ok(code)` is an exit code to return (the
    /// program's, relayed); `Err` why it could not start.
    pub(super) fn launch(request: &Request, channel: &mut Channel) -> Result<i32, StartError> {
        let grader = StartError::Grader;
        if request.hold {
            return hold().map_err(grader);
        }
        let cwd = std::env::current_dir().map_err(|e| grader(format!("launcher: no working folder: {e}")))?;
        // The launcher's own namespaces; the program's mount namespace (private temporary folders) is made last,
        // after the shared one is joined, or by the PID namespace's init.
        let own_pid = request.layers.pid && request.procns.is_none();
        let fresh = Fresh {
            network: request.layers.network && request.netns.is_none(),
            pid: own_pid,
            ipc: request.layers.ipc,
            mount: request.layers.mount,
        };
        if !request.inner {
            let pid = std::process::id().to_string();
            for dir in &request.cgroups {
                let procs = dir.join("cgroup.procs");
                std::fs::write(&procs, &pid)
                    .map_err(|e| grader(format!("cannot join cgroup {}: {e}", dir.display())))?;
            }
            confine::join_shared(request, &cwd).map_err(grader)?;
            if fresh.any() {
                confine::unshare(fresh).map_err(grader)?;
            }
            if own_pid {
                return outer(request, channel).map_err(grader);
            }
        }
        if request.inner {
            confine::private_proc().map_err(grader)?;
        }
        let mut writable = Vec::new();
        if request.layers.mount {
            let mut keep: Vec<PathBuf> = vec![cwd.clone()];
            keep.extend(request.dir.iter().cloned());
            keep.extend(request.readable.iter().cloned());
            keep.sort();
            keep.dedup();
            // Under the grader's own uid and without Landlock, only the mount layer keeps the grader's other files away.
            let hide_rest = request.identity.is_none() && !request.layers.landlock;
            confine::private_temp(request.disk, &keep, hide_rest).map_err(grader)?;
            std::env::set_current_dir(&cwd).map_err(|e| grader(format!("cannot return to {}: {e}", cwd.display())))?;
            writable.extend(confine::PRIVATE_TEMP.iter().map(PathBuf::from));
        }
        // Root of a user namespace (or of the machine) keeps no capability into the program.
        if request.identity.is_none() && rustix::process::geteuid().is_root() {
            confine::drop_capabilities().map_err(grader)?;
        }
        confine::identity_and_limits(request).map_err(grader)?;
        if !request.probe {
            super::super::keyrings::fresh(request.identity.is_some()).map_err(grader)?;
        }
        if request.layers.landlock {
            let private_proc = request.layers.pid;
            let detail = rules::landlock(&cwd, &writable, &request.readable, private_proc).map_err(grader)?;
            if request.probe && !request.inner {
                println!("{detail}");
            }
        }
        if request.layers.seccomp {
            rules::seccomp(!request.layers.ipc).map_err(grader)?;
        }
        if request.probe {
            if let Channel::Status(file) = channel {
                let _ = file.write_all(b"c 0");
            }
            return Ok(0);
        }
        let start = exec::locate(request.dir.as_deref(), &request.program, false)?;
        let Channel::Status(file) = channel else { return Err(exec::exec(&start, &request.args)) };
        init(&start, request, file)
    }

    /// As the PID namespace's first process: starts the program as its child, waits for it, and tells the outer
    /// launcher how it ended (`c CODE` or `s SIGNAL`, then ` left` when other processes were still running).
    fn init(start: &Start, request: &Request, file: &mut std::fs::File) -> Result<i32, StartError> {
        exec::close_inherited();
        let mut child = start.command(&request.args).spawn().map_err(|e| start.error(&e))?;
        let ended = child.wait().map_err(|e| StartError::Grader(format!("launcher: lost the program: {e}")))?;
        let (mut text, code) = match (ended.code(), ended.signal()) {
            (Some(code), _) => (format!("c {code}"), code),
            (None, Some(signal)) => (format!("s {signal}"), 128 + signal),
            (None, None) => ("c 1".to_string(), 1),
        };
        // Anyone else still in the namespace was left behind (the kernel kills them all when this init exits).
        let others = std::fs::read_dir("/proc")
            .map(|entries| {
                entries.flatten().filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok()).any(|pid| {
                    // Orphans that already exited wait as zombies for this init: not left running.
                    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
                    let state = stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next());
                    pid != 1 && state.is_some_and(|s| s != 'Z')
                })
            })
            .unwrap_or(false);
        if others {
            text.push_str(" left");
        }
        let _ = file.write_all(text.as_bytes());
        Ok(code)
    }

    /// `+hold`: makes new network and mount namespaces for the grader to keep (see `shared_ns`), mounts the
    /// `hidepid` `/proc` in the second, says `ready proc` (or `ready` when only the network namespace could be
    /// made) and waits for the end of its input.
    fn hold() -> Result<i32, String> {
        confine::unshare(Fresh { network: true, mount: true, ..Fresh::default() })?;
        let proc = confine::hidden_proc().is_ok();
        println!("{}", if proc { super::super::wire::READY_WITH_PROC } else { "ready" });
        let _ = std::io::stdout().flush();
        let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
        Ok(0)
    }

    /// In a new PID namespace: starts the launcher again as the namespace's init and ends as the program ended.
    fn outer(request: &Request, channel: &mut Channel) -> Result<i32, String> {
        use rustix::process::{Resource, Rlimit};
        // The outer launcher leads the process group the grader signals, so it gets the deadline's SIGTERM too; it must
        // outlive the program to pass on how it ended (the grace period's SIGKILL still ends it).
        let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, std::sync::Arc::default());
        // It may end by re-raising the program's SIGSEGV: no core file for it either.
        let _ = rustix::process::setrlimit(Resource::Core, Rlimit { current: Some(0), maximum: Some(0) });
        let (reader, writer) =
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(|e| format!("launcher: no pipe: {e}"))?;
        let fd = format!("/proc/{}/fd/{}", std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&writer));
        let inner = Request {
            inner: true,
            status: Some(fd.into()),
            report: None,
            cgroups: Vec::new(),
            netns: None,
            procns: None,
            ..request.clone()
        };
        let args = inner.to_args();
        // This binary, whatever became of the path it was started from.
        let mut child = std::process::Command::new("/proc/self/exe")
            .args(&args)
            .spawn()
            .map_err(|e| format!("launcher: cannot start the namespace's first process: {e}"))?;
        let ended = loop {
            match child.wait() {
                Ok(status) => break status,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("launcher: lost the namespace's first process: {e}")),
            }
        };
        // Held until the first process has ended: it opens the pipe through this process's `/proc/<pid>/fd`, so
        // the write end must still be here when it looks (the few bytes it writes fit in the pipe's buffer).
        drop(writer);
        let mut text = String::new();
        let _ = std::fs::File::from(reader).read_to_string(&mut text);
        relay(&text, ended, channel)
    }

    /// Ends the outer launcher as the program ended, from the init's status `text`.
    fn relay(text: &str, ended: std::process::ExitStatus, channel: &mut Channel) -> Result<i32, String> {
        if let Some(why) = text.strip_prefix("f ") {
            return Err(why.replace("\\n", "\n"));
        }
        if let Some(why) = text.strip_prefix("r ") {
            channel.say("refused", &why.replace("\\n", "\n"));
            return Ok(super::REFUSED_EXIT);
        }
        if text.ends_with(" left") {
            channel.say("leftovers", "");
        }
        let mut words = text.split_whitespace();
        let relayed = match (words.next(), words.next().and_then(|n| n.parse::<i32>().ok())) {
            (Some("c"), Some(code)) => Err(code),
            (Some("s"), Some(signal)) => Ok(signal),
            _ => match (ended.code(), ended.signal()) {
                (Some(code), _) => Err(code),
                (None, Some(signal)) => Ok(signal),
                (None, None) => Err(1),
            },
        };
        match relayed {
            Err(code) => Ok(code),
            Ok(signal) => {
                if let Some(sig) = rustix::process::Signal::from_named_raw(signal) {
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    let _ = rustix::process::kill_process(rustix::process::getpid(), sig);
                }
                Ok(128 + signal)
            }
        }
    }
}
