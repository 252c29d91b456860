//! The launcher: `referee __exec CPU DATA FSIZE NPROC UID GID [PIN] [OPTION..] -- PROGRAM ARGS..`, a step between
//! the runner and the submission that joins the run's cgroup (`+cgroup DIR`), joins the grader's shared namespaces
//! (`+netns PATH INODE`, `+procns PATH INODE`, see `shared_ns`) or enters new ones (`+net`, `+pid`), takes the
//! sandbox identity (no supplementary groups, then GID, then UID; `-` keeps the grader's), sets the resource limits
//! on itself, optionally pins itself to one CPU (`PIN`, the referee's agents), restricts itself with Landlock
//! (`+landlock`, `+ro PATH` for more readable folders), and then becomes the program (`exec`).
//!
//! With a PID namespace the program cannot simply be exec'd: the namespace's first process is its init, which
//! ignores signals it has no handler for and takes every other process down when it exits. So the launcher starts
//! itself again (`+inner`) as that init, which mounts the private `/proc`, applies the rest, starts the program as
//! its child and reports how it ended through a pipe (`+status PATH`: the outer's `/proc/<pid>/fd/<n>` of a
//! close-on-exec pipe, so the program never holds it and cannot forge the report); the outer launcher, still in
//! the grader's process group, then ends the same way (same exit code, or the same signal), so the grader's
//! timeout, group kill, SIGSTOP between turns and exit status all work as without the namespace. That second
//! process costs about 2 ms a run, so where each run has a uid of its own and a cgroup, the run joins the grader's
//! mount namespace with a `hidepid` `/proc` instead and the program is exec'd directly (see `shared_ns`).
//!
//! Why not set the limits from the grader after spawning: changing the limits of a process owned by another user
//! needs CAP_SYS_RESOURCE, which a container's root often lacks, and there would be a moment before they apply.
//! Why switch users here rather than through `Command::uid`: std then has to `fork` the whole grader, while a
//! plain spawn uses the much cheaper `posix_spawn`; that alone cost about 1.5 ms per run. The launcher is
//! single-threaded, so the per-thread identity calls change the whole process.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use super::layers::Layers;
use super::sandbox::{Identity, Sandbox};
use super::Limits;

/// The hidden subcommand that marks a launcher invocation.
pub const SUBCOMMAND: &str = "__exec";

/// Exit code of a launcher that could not start the program; its stderr then starts with [`FAILED_TAG`].
pub const FAILED_EXIT: i32 = 127;

/// What a launcher prints first on stderr when it cannot start the program (a NUL no real program starts with).
pub const FAILED_TAG: &str = "\0referee-exec-failed: ";

/// What a launcher in a PID namespace prints last on stderr when the program left processes running (all killed
/// with the namespace); the runner strips it and records the leftovers.
pub const LEFTOVERS_TAG: &str = "\0referee-exec-leftovers\n";

/// The `referee` binary that can act as launcher: this executable when it is `referee`, `$REFEREE_EXE`, or a
/// `referee` beside this executable or one folder up (`target/debug/deps/..` in tests).
pub fn launcher_path() -> Option<PathBuf> {
    let me = std::env::current_exe().ok()?;
    if me.file_stem().is_some_and(|s| s == "referee") {
        return Some(me);
    }
    if let Some(p) = std::env::var_os("REFEREE_EXE").map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(p);
    }
    let dir = me.parent()?;
    [dir.join("referee"), dir.parent()?.join("referee")].into_iter().find(|p| p.is_file())
}

/// What a run needs beyond limits and identity: the layers, more readable folders, its cgroups, a CPU pin.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Pin the program (and every thread and child it starts) to this CPU.
    pub pin: Option<usize>,
    /// Folders the program may read besides its working folder and the system (a compiled agent's classes).
    pub readable: Vec<PathBuf>,
    /// cgroup folders to join.
    pub cgroups: Vec<PathBuf>,
}

/// A launcher invocation for one run.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// Everything after the launcher's path.
    pub args: Vec<OsString>,
    /// The program runs as the first process of a PID namespace of its own, whose init reports (and kills) what
    /// it leaves running; otherwise the runner finds leftovers in the run's cgroup and process group.
    pub own_pid_namespace: bool,
}

/// The launcher's arguments (everything after the launcher path) to run `program args` with `limits` in `sandbox`.
pub fn arguments(
    limits: &Limits,
    sandbox: &Sandbox,
    extras: &Extras,
    program: &OsStr,
    args: &[OsString],
) -> Invocation {
    let identity = sandbox.identity;
    let nproc = identity.map_or(0, |_| limits.processes);
    let id = |f: fn(&Identity) -> u32| identity.as_ref().map_or("-".to_string(), |i| f(i).to_string());
    let mut out: Vec<OsString> = vec![
        SUBCOMMAND.into(),
        limits.effective_cpu_seconds().to_string().into(),
        limits.memory_bytes.to_string().into(),
        limits.file_bytes.to_string().into(),
        nproc.to_string().into(),
        id(|i| i.uid).into(),
        id(|i| i.gid).into(),
    ];
    if let Some(cpu) = extras.pin {
        out.push(cpu.to_string().into());
    }
    let layers = sandbox.layers;
    let shared = if layers.network || layers.pid { super::shared_ns::shared() } else { None };
    let network = shared.filter(|_| layers.network).map(super::shared_ns::Shared::network_options);
    // A `hidepid` /proc hides only other users' processes: it stands for a PID namespace when this run's uid is
    // its own (leased), and the cgroup kills what the program leaves behind.
    let own_uid = identity.is_some_and(|i| i.uid >= super::sandbox::UID_BASE);
    let proc =
        shared.filter(|_| layers.pid && layers.cgroup && own_uid).and_then(super::shared_ns::Shared::proc_options);
    let own = Layers { network: layers.network && network.is_none(), pid: layers.pid && proc.is_none(), ..layers };
    out.extend(layer_options(&own));
    out.extend(network.into_iter().flatten());
    out.extend(proc.into_iter().flatten());
    if layers.landlock {
        for path in extras.readable.iter().chain(&sandbox.grants.read) {
            out.extend(["+ro".into(), path.clone().into_os_string()]);
        }
    }
    for dir in &extras.cgroups {
        out.extend(["+cgroup".into(), dir.clone().into_os_string()]);
    }
    out.extend(["--".into(), program.to_os_string()]);
    out.extend(args.iter().cloned());
    Invocation { args: out, own_pid_namespace: own.pid }
}

fn layer_options(layers: &Layers) -> Vec<OsString> {
    [(layers.landlock, "+landlock"), (layers.network, "+net"), (layers.pid, "+pid")]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, option)| option.into())
        .collect()
}

/// Starts the launcher with `layers` on and nothing to run (`+probe`): `Ok` with what the layers do, or why they
/// cannot be set up here (the launcher's own message).
pub fn trial(layers: &Layers) -> Result<String, String> {
    let exe = launcher_path().ok_or("the referee launcher was not found")?;
    let mut args: Vec<OsString> = vec![SUBCOMMAND.into(), "0".into(), "0".into(), "0".into(), "0".into()];
    args.extend(["-".into(), "-".into()]);
    args.extend(layer_options(layers));
    args.extend(["+probe".into(), "--".into(), "true".into()]);
    let output = std::process::Command::new(exe)
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot start the launcher: {e}"))?;
    let err = String::from_utf8_lossy(&output.stderr);
    let err = err.trim_start_matches(FAILED_TAG).trim();
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    } else if err.is_empty() {
        Err(format!("the trial launch ended with {}", output.status))
    } else {
        Err(err.to_string())
    }
}

/// A launcher invocation, parsed.
struct Request<'a> {
    cpu: u64,
    data: u64,
    fsize: u64,
    nproc: u64,
    identity: Option<Identity>,
    pin: Option<usize>,
    layers: Layers,
    readable: Vec<PathBuf>,
    cgroups: Vec<PathBuf>,
    netns: Option<(PathBuf, u64)>,
    procns: Option<(PathBuf, u64)>,
    inner: bool,
    status: Option<String>,
    probe: bool,
    hold: bool,
    program: &'a OsString,
    rest: &'a [OsString],
}

impl<'a> Request<'a> {
    fn parse(args: &'a [OsString]) -> Result<Request<'a>, String> {
        let split = args.iter().position(|a| a == "--").ok_or("launcher: missing '--' before the program")?;
        let (head, options) = args[..split].split_at(6.min(split));
        let words: Vec<&str> = head.iter().filter_map(|a| a.to_str()).collect();
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        let (Some(cpu), Some(data), Some(fsize), Some(nproc), 6) =
            (number(0), number(1), number(2), number(3), words.len())
        else {
            return Err("launcher: expected CPU DATA FSIZE NPROC UID GID [PIN] [OPTION..] before '--'".into());
        };
        let identity = match (words[4].parse::<u32>(), words[5].parse::<u32>()) {
            (Ok(uid), Ok(gid)) => Some(Identity { uid, gid }),
            _ => None,
        };
        let (program, rest) = args[split + 1..].split_first().ok_or("launcher: no program after '--'")?;
        let mut request = Request {
            cpu,
            data,
            fsize,
            nproc,
            identity,
            pin: None,
            layers: Layers::default(),
            readable: Vec::new(),
            cgroups: Vec::new(),
            netns: None,
            procns: None,
            inner: false,
            status: None,
            probe: false,
            hold: false,
            program,
            rest,
        };
        let mut options = options.iter();
        while let Some(option) = options.next() {
            let mut value =
                || options.next().cloned().ok_or(format!("launcher: {} needs a value", option.to_string_lossy()));
            match option.to_str() {
                Some("+landlock") => request.layers.landlock = true,
                Some("+net") => request.layers.network = true,
                Some("+pid") => request.layers.pid = true,
                Some("+inner") => request.inner = true,
                Some("+probe") => request.probe = true,
                Some("+hold") => request.hold = true,
                Some(name @ ("+netns" | "+procns")) => {
                    let path = PathBuf::from(value()?);
                    let inode = value()?.to_str().and_then(|w| w.parse::<u64>().ok());
                    let held = Some((path, inode.ok_or(format!("launcher: {name} needs PATH INODE"))?));
                    if name == "+netns" {
                        request.netns = held;
                    } else {
                        request.procns = held;
                    }
                }
                Some("+ro") => request.readable.push(value()?.into()),
                Some("+cgroup") => request.cgroups.push(value()?.into()),
                Some("+status") => request.status = Some(value()?.to_string_lossy().into_owned()),
                Some(word) if request.pin.is_none() && word.parse::<usize>().is_ok() => {
                    request.pin = word.parse().ok();
                }
                _ => return Err(format!("launcher: unknown option '{}'", option.to_string_lossy())),
            }
        }
        Ok(request)
    }
}

fn fail(message: String) -> i32 {
    eprintln!("{FAILED_TAG}{message}");
    FAILED_EXIT
}

/// Runs the launcher given everything after [`SUBCOMMAND`]: sets the limits and becomes the program. Returns only
/// when that fails, with the exit code to use after it has printed why (or, with a PID namespace, with the
/// program's own exit code once it has ended).
pub fn exec(args: &[OsString]) -> i32 {
    let request = match Request::parse(args) {
        Ok(r) => r,
        Err(message) => return fail(message),
    };
    #[cfg(target_os = "linux")]
    {
        match linux::launch(&request, args) {
            Ok(code) => code,
            Err(message) => fail(message),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = request;
        fail("launcher: only on Linux".into())
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::OsString;
    use std::io::{Read, Write};
    use std::os::unix::process::{CommandExt, ExitStatusExt};

    use super::super::confine;
    use super::Request;

    /// Applies the request to this process and starts the program. `Ok(code)` is an exit code to return (the
    /// program's, relayed); `Err` why it could not start.
    pub(super) fn launch(request: &Request<'_>, args: &[OsString]) -> Result<i32, String> {
        if request.hold {
            return hold();
        }
        if !request.inner {
            let pid = std::process::id().to_string();
            for dir in &request.cgroups {
                let procs = dir.join("cgroup.procs");
                std::fs::write(&procs, &pid).map_err(|e| format!("cannot join cgroup {}: {e}", dir.display()))?;
            }
            if let Some((path, inode)) = &request.netns {
                confine::join_network(path, *inode)?;
            }
            if let Some((path, inode)) = &request.procns {
                let cwd = std::env::current_dir().map_err(|e| format!("launcher: no working folder: {e}"))?;
                confine::join_mount(path, *inode, &cwd)?;
            }
            if request.layers.network || request.layers.pid {
                confine::unshare(request.layers.network, request.layers.pid)?;
            }
            if request.layers.pid {
                return outer(args);
            }
        }
        let mut status = None;
        if request.inner {
            // The status pipe is the outer launcher's, close-on-exec, so the program never inherits it (it could
            // write a forged `c 0` into it): opened here through the outer's `/proc/<pid>/fd`, while `/proc` is
            // still the grader's, and held by this process alone (std opens files close-on-exec).
            if let Some(path) = &request.status {
                let file = std::fs::OpenOptions::new().write(true).open(path);
                status = Some(file.map_err(|e| format!("launcher: cannot open the status pipe: {e}"))?);
            }
            confine::private_proc()?;
        }
        if request.inner && request.identity.is_none() {
            confine::drop_capabilities()?;
        }
        set_identity_and_limits(request)?;
        if request.layers.landlock {
            let cwd = std::env::current_dir().map_err(|e| format!("launcher: no working folder: {e}"))?;
            let private_proc = request.layers.pid || request.procns.is_some();
            let detail = confine::landlock(&cwd, &request.readable, request.program, private_proc)?;
            if request.probe && !request.inner {
                println!("{detail}");
            }
        }
        let mut command = std::process::Command::new(request.program);
        command.args(request.rest);
        if request.probe {
            if let Some(mut file) = status {
                let _ = file.write_all(b"c 0");
            }
            return Ok(0);
        }
        let Some(mut file) = status else {
            let e = command.exec();
            return Err(format!("cannot start '{}': {e}", request.program.to_string_lossy()));
        };
        let mut child =
            command.spawn().map_err(|e| format!("cannot start '{}': {e}", request.program.to_string_lossy()))?;
        let ended = child.wait().map_err(|e| format!("launcher: lost the program: {e}"))?;
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

    /// Makes the program the OOM killer's first choice (`oom_score_adj` 1000, which any process may set for itself):
    /// under memory pressure, on the machine or in a cgroup a grading thread shares (see `cgroup_slot`), a run's
    /// process is killed before the grader.
    fn first_for_the_oom_killer() -> Result<(), String> {
        const FILE: &str = "/proc/self/oom_score_adj";
        std::fs::write(FILE, "1000").map_err(|e| format!("launcher: cannot write {FILE}: {e}"))
    }

    /// `+hold`: makes new network and mount namespaces for the grader to keep (see `shared_ns`), mounts the
    /// `hidepid` `/proc` in the second, says `ready proc` (or `ready` when only the network namespace could be
    /// made) and waits for the end of its input.
    fn hold() -> Result<i32, String> {
        confine::unshare(true, false)?;
        let proc = confine::hidden_proc().is_ok();
        println!("{}", if proc { super::super::shared_ns::READY_WITH_PROC } else { "ready" });
        let _ = std::io::stdout().flush();
        let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
        Ok(0)
    }

    /// In a new PID namespace: starts the launcher again as the namespace's init and ends as the program ended.
    fn outer(args: &[OsString]) -> Result<i32, String> {
        use rustix::process::{Resource, Rlimit};
        // The outer launcher stays in the grader's process group, so it gets the deadline's SIGTERM too; it must
        // outlive the program to pass on how it ended (the grace period's SIGKILL still ends it).
        let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, std::sync::Arc::default());
        // It may end by re-raising the program's SIGSEGV: no core file for it either.
        let _ = rustix::process::setrlimit(Resource::Core, Rlimit { current: Some(0), maximum: Some(0) });
        let (reader, writer) =
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(|e| format!("launcher: no pipe: {e}"))?;
        let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
        let fd = format!("/proc/{}/fd/{}", std::process::id(), std::os::fd::AsRawFd::as_raw_fd(&writer));
        let mut inner: Vec<OsString> = vec![super::SUBCOMMAND.into()];
        inner.extend(args[..split].iter().cloned());
        inner.extend(["+inner".into(), "+status".into(), fd.into()]);
        inner.extend(args[split..].iter().cloned());
        let exe = std::env::current_exe().map_err(|e| format!("launcher: cannot find itself: {e}"))?;
        let mut child = std::process::Command::new(exe)
            .args(inner)
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
        let mut words = text.split_whitespace();
        if text.ends_with(" left") {
            let _ = std::io::stderr().write_all(super::LEFTOVERS_TAG.as_bytes());
        }
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

    fn set_identity_and_limits(request: &Request<'_>) -> Result<(), String> {
        first_for_the_oom_killer()?;
        if let Some(id) = request.identity {
            use rustix::thread::{set_thread_groups, set_thread_res_gid, set_thread_res_uid};
            let (uid, gid) = (rustix::fs::Uid::from_raw(id.uid), rustix::fs::Gid::from_raw(id.gid));
            set_thread_groups(&[])
                .and_then(|_| set_thread_res_gid(gid, gid, gid))
                .and_then(|_| set_thread_res_uid(uid, uid, uid))
                .map_err(|e| format!("cannot switch to uid {} gid {}: {e}", id.uid, id.gid))?;
        }
        if let Some(cpu) = request.pin {
            let mut set = rustix::thread::CpuSet::new();
            set.set(cpu);
            rustix::thread::sched_setaffinity(None, &set).map_err(|e| format!("cannot pin to CPU {cpu}: {e}"))?;
        }
        if request.probe {
            return Ok(());
        }
        use rustix::process::{setrlimit, Resource, Rlimit};
        let set = |resource, value: u64| setrlimit(resource, Rlimit { current: Some(value), maximum: Some(value) });
        let mut results = vec![
            set(Resource::Cpu, request.cpu),
            set(Resource::Data, request.data),
            set(Resource::Fsize, request.fsize),
            set(Resource::Core, 0),
        ];
        if request.nproc > 0 {
            results.push(set(Resource::Nproc, request.nproc));
        }
        results.into_iter().find_map(Result::err).map_or(Ok(()), |e| Err(format!("cannot set resource limits: {e}")))
    }
}
