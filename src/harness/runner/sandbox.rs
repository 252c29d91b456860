//! The grader's side of controlling runs: their resource limits when no launcher sets them, signals to their
//! process groups, finding and killing processes that escaped the group, and handing a folder over to the sandbox
//! user. (Who runs as whom, with what, is [`super::policy`].)
//!
//! Every run's environment carries `REFEREE_RUN=<grader pid>-<pid namespace>-<start>-<n>`. A process that leaves
//! the group (`setsid`) still carries it, so it can be found in `/proc` and killed; the same marker lets a later
//! grader of the same PID namespace clean up runs left behind by one that was itself killed, and only those.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

pub use super::lease::{Lease, UID_BASE};
pub use super::policy::{is_root, path_program, resolution_note, resolve_program, Identity, Sandbox, SandboxOptions};
use super::Limits;

/// The environment variable that marks a run's processes.
pub const MARKER_VAR: &str = "REFEREE_RUN";

/// A fresh marker value for one run: `<grader pid>-<pid namespace inode>-<grader start time>-<n>`, so that a
/// later sweep can prove whose run a process is: a grader in another PID namespace (a container, or the host seen
/// from one) has another inode and is never touched, and a reused pid has another start time.
pub fn next_marker() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let (namespace, pid, start) = grader_identity();
    // The grader's pid comes first: older graders on the same machine take the first field for the pid of a
    // grader that must be alive, and would kill every run whose marker starts with anything else.
    format!("{pid}-{namespace}-{start}-{}", COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// This grader as markers name it: its PID namespace's inode, its pid, its start time.
fn grader_identity() -> (u64, u32, u64) {
    static ME: OnceLock<(u64, u32, u64)> = OnceLock::new();
    *ME.get_or_init(|| {
        let pid = std::process::id();
        (pid_namespace("self").unwrap_or(0), pid, start_time(pid).unwrap_or(0))
    })
}

/// The inode of the PID namespace of process `who` (`self` or a pid).
fn pid_namespace(who: &str) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(format!("/proc/{who}/ns/pid")).ok().map(|m| m.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = who;
        None
    }
}

/// The start time of `pid` in clock ticks since boot (field 22 of `/proc/<pid>/stat`), `None` if there is no such
/// process. The command name (field 2) may hold spaces and parentheses, so fields are counted after its last `)`.
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(19)?.parse().ok()
}

/// Whether `value`, a marker, names a run of a grader of this PID namespace that is no longer running (its pid
/// gone, or taken by a process with another start time).
pub fn abandoned(value: &str) -> bool {
    let mut fields = value.split('-').map(str::parse::<u64>);
    let (Some(Ok(pid)), Some(Ok(namespace)), Some(Ok(start)), Some(Ok(_)), None) =
        (fields.next(), fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return false;
    };
    let ours = namespace == grader_identity().0;
    let running = u32::try_from(pid).ok().and_then(start_time) == Some(start);
    ours && !running
}

/// Pids of children spawned by the runner and not yet waited for: the orphan reaper must never touch them.
fn managed() -> &'static Mutex<HashSet<u32>> {
    static MANAGED: OnceLock<Mutex<HashSet<u32>>> = OnceLock::new();
    MANAGED.get_or_init(|| Mutex::new(HashSet::new()))
}

/// Runs `spawn` with the managed set locked and records the child's pid, so no orphan sweep can mistake a
/// brand-new child for an orphan.
pub(crate) fn spawn_managed<T>(spawn: impl FnOnce() -> std::io::Result<(T, u32)>) -> std::io::Result<T> {
    let mut set = managed().lock().unwrap_or_else(|p| p.into_inner());
    let (child, pid) = spawn()?;
    set.insert(pid);
    Ok(child)
}

/// Forgets a child once it has been waited for.
pub(crate) fn release(pid: u32) {
    managed().lock().unwrap_or_else(|p| p.into_inner()).remove(&pid);
}

/// Applies `limits` to the running process `pid` (right after spawn, before it can do much).
pub(crate) fn apply_limits(pid: u32, limits: &Limits, sandbox: &Sandbox) {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{prlimit, Pid, Resource, Rlimit};
        let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else { return };
        let set = |resource, value: u64| {
            // A child that has already exited cannot be limited, and needs no limit.
            let _ = prlimit(Some(pid), resource, Rlimit { current: Some(value), maximum: Some(value) });
        };
        set(Resource::Cpu, limits.effective_cpu_seconds());
        set(Resource::Data, limits.memory_bytes);
        set(Resource::Fsize, limits.file_bytes);
        set(Resource::Core, 0);
        if sandbox.identity.is_some() {
            set(Resource::Nproc, limits.processes);
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pid, limits, sandbox);
    }
}

/// Sends `signal` to the process group `pgid` (on Windows: ends the Job Object of the run whose program is `pgid`);
/// `true` if the group still had a member.
pub(crate) fn signal_group(pgid: u32, signal: GroupSignal) -> bool {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process_group, Pid, Signal};
        let Some(pid) = i32::try_from(pgid).ok().and_then(Pid::from_raw) else { return false };
        let sig = match signal {
            GroupSignal::Terminate => Signal::TERM,
            GroupSignal::Kill => Signal::KILL,
            GroupSignal::Stop => Signal::STOP,
            GroupSignal::Continue => Signal::CONT,
        };
        kill_process_group(pid, sig).is_ok()
    }
    // A Job Object has no polite request and no pause: the deadline and a kill both end the whole tree.
    #[cfg(windows)]
    {
        matches!(signal, GroupSignal::Terminate | GroupSignal::Kill) && super::tree::kill(pgid)
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (pgid, signal);
        false
    }
}

/// The signals the runner and the referee send to a process group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupSignal {
    /// SIGTERM: the polite request at the deadline.
    Terminate,
    /// SIGKILL.
    Kill,
    /// SIGSTOP: an agent waiting for its turn may not think.
    Stop,
    /// SIGCONT: its turn again.
    Continue,
}

/// Kills every process whose environment carries `MARKER_VAR=<marker>` (with `marker = None`, every marked process
/// of a grader of this PID namespace that is no longer running: never another namespace's, never a live grader's). Returns how many were killed. Linux only; elsewhere 0.
pub fn kill_marked(marker: Option<&str>) -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut killed = 0;
        // A process can fork between the scan and the kill: scan again until a pass finds nothing.
        for _ in 0..20 {
            let found = marked_processes(marker);
            if found.is_empty() {
                break;
            }
            for pid in found {
                if let Some(p) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
                    if rustix::process::kill_process(p, rustix::process::Signal::KILL).is_ok() {
                        killed += 1;
                    }
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        killed
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = marker;
        0
    }
}

#[cfg(target_os = "linux")]
pub(super) fn marked_processes(marker: Option<&str>) -> Vec<i32> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let prefix = format!("{MARKER_VAR}=");
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid as u32 != me)
        .filter(|&pid| {
            let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { return false };
            env.split(|&b| b == 0).filter_map(|var| var.strip_prefix(prefix.as_bytes())).any(|value| {
                let value = String::from_utf8_lossy(value);
                match marker {
                    Some(m) => value == m,
                    None => abandoned(&value),
                }
            })
        })
        .collect()
}

/// The uids a process runs as, from the `Uid:` line of `/proc/<pid>/status` (real, effective, saved, file
/// system), and whether it is a zombie (already dead, waiting to be reaped). `None` when the process is gone.
///
/// (`/proc/<pid>` itself is owned by the process's effective uid even when it made itself non-dumpable, which
/// turns only the files inside it root's: the kernel keeps world-readable folders so for `ps`.)
#[cfg(target_os = "linux")]
fn process_uids(pid: &str) -> Option<([u32; 4], bool)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let mut uids = None;
    let mut zombie = false;
    for line in status.lines() {
        if let Some(state) = line.strip_prefix("State:") {
            zombie = state.trim_start().starts_with('Z');
        } else if let Some(ids) = line.strip_prefix("Uid:") {
            let mut all = [0u32; 4];
            for (slot, word) in all.iter_mut().zip(ids.split_whitespace()) {
                *slot = word.parse().ok()?;
            }
            uids = Some(all);
            break;
        }
    }
    Some((uids?, zombie))
}

/// Kills every live process of this PID namespace that runs as `uid` in any of its uids (see [`process_uids`]),
/// scanning again until a pass finds none (a process can fork between a scan and its kill), and reaps those that
/// were this process's children and that the runner does not manage. Returns how many are still alive after the
/// last pass (0: the uid is free). Linux only; elsewhere 0.
///
/// Only for a uid this grader holds the lease of, once none of its runs is meant to be running: whatever is still
/// alive then was left by them (a daemon that left its process group and cleared its marker, where neither a
/// cgroup nor a PID namespace of the run's own holds it). Never another PID namespace's processes (a grader in a
/// container, seen from the host).
pub fn kill_uid(uid: u32) -> usize {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{kill_process, waitpid, Pid, Signal, WaitOptions};
        let found = || uid_processes(uid);
        let mut killed = Vec::new();
        let mut left = found();
        for _ in 0..50 {
            if left.is_empty() {
                break;
            }
            for &pid in &left {
                if let Some(p) = Pid::from_raw(pid) {
                    let _ = kill_process(p, Signal::KILL);
                    killed.push(pid);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
            left = found();
        }
        // A killed orphan that came back to this process (a subreaper) is reaped; a run's own child is the
        // runner's to wait for.
        let managed = managed().lock().unwrap_or_else(|p| p.into_inner());
        for pid in killed {
            let mine = u32::try_from(pid).is_ok_and(|p| !managed.contains(&p));
            if let (true, Some(p)) = (mine, Pid::from_raw(pid)) {
                let _ = waitpid(Some(p), WaitOptions::NOHANG);
            }
        }
        left.len()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = uid;
        0
    }
}

/// The live processes of this PID namespace that run as `uid` in any of their uids (see [`process_uids`]).
#[cfg(target_os = "linux")]
pub(super) fn uid_processes(uid: u32) -> Vec<i32> {
    use std::os::unix::fs::MetadataExt;
    let ours = pid_namespace("self");
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        // `/proc/<pid>` is owned by its effective uid, non-dumpable or not (see `process_uids`).
        .filter(|e| e.metadata().is_ok_and(|m| m.uid() == uid))
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let pid = pid.to_string();
            process_uids(&pid).is_some_and(|(ids, zombie)| !zombie && ids.contains(&uid)) && pid_namespace(&pid) == ours
        })
        .collect()
}

/// Makes this process the reaper of its orphaned descendants, so a daemonizing submission's processes come back
/// to it instead of to init. Only for a process whose children are all spawned by the runner (the CLI), because
/// [`reap_orphans`] waits for every child it does not manage.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::set_child_subreaper(rustix::process::Pid::from_raw(1));
        SUBREAPER.store(true, Ordering::Relaxed);
    }
}

#[cfg(target_os = "linux")]
static SUBREAPER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// In a subreaper: kills this run's orphans and reaps every unmanaged child (orphans that have exited).
/// Returns how many of this run's processes (by its marker) were found still running.
pub(super) fn reap_orphans(marker: &str) -> usize {
    #[cfg(target_os = "linux")]
    {
        if !SUBREAPER.load(Ordering::Relaxed) {
            return 0;
        }
        let set = managed().lock().unwrap_or_else(|p| p.into_inner());
        let orphans: Vec<u32> = children().into_iter().filter(|pid| !set.contains(pid)).collect();
        if orphans.is_empty() {
            return 0;
        }
        drop(set);
        // Only this run's marked processes are its leftovers: an orphan that came back to this process may be
        // another run's (a classmate's namespace init, orphaned when its launcher was killed at -j 2), which that
        // run answers for, never this one.
        let killed = kill_marked(Some(marker));
        for &pid in &orphans {
            if let Some(p) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) {
                let _ = rustix::process::waitpid(Some(p), rustix::process::WaitOptions::NOHANG);
            }
        }
        killed
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = marker;
        0
    }
}

/// This process's children, from `/proc/self/task/*/children`.
#[cfg(target_os = "linux")]
fn children() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|s| s.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<u32>>())
        .collect()
}

/// Gives `path` (recursively) to the sandbox user and closes it to everyone else: folders `0700`, files `0600`
/// (`0700` when any execute bit was set), owned by the run's uid, so a neighbour running under another uid can
/// neither read nor enter it whatever Landlock does. Links are neither followed nor changed.
///
/// The walk goes by descriptors (each entry opened with `O_NOFOLLOW` relative to its folder's descriptor, owner and
/// mode changed through its own descriptor), never by a path looked up again: a process of the run's uid that
/// swapped a folder in the tree for a link while the walk ran (the uid owns the folders it was given) would only
/// make that entry be skipped, never make the grader change a file outside.
///
/// # Errors
/// When ownership or modes cannot be changed.
pub fn hand_over(path: &Path, sandbox: &Sandbox) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::fs::{open, Mode, OFlags};
        let owner = sandbox.identity.map(|id| (rustix::fs::Uid::from_raw(id.uid), rustix::fs::Gid::from_raw(id.gid)));
        if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
            return Ok(());
        }
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
        let top = match open(path, flags, Mode::empty()) {
            // As in the walk: only a grader that is not root, on its own file.
            Err(rustix::io::Errno::ACCESS) => {
                rustix::fs::chmod(path, Mode::from_raw_mode(0o700))?;
                open(path, flags, Mode::empty())?
            }
            other => other?,
        };
        hand_over_fd(top, owner)
    }
    #[cfg(not(unix))]
    {
        let _ = (path, sandbox);
        Ok(())
    }
}

/// [`hand_over`] of the open entry `fd`: a folder is walked through its descriptor ([`super::walk::walk`], at most
/// [`super::walk::MAX_DEPTH`] levels: a deeper tree is refused as the tree's own failure, see
/// [`super::walk::refusal`]).
#[cfg(unix)]
fn hand_over_fd(fd: rustix::fd::OwnedFd, owner: Option<(rustix::fs::Uid, rustix::fs::Gid)>) -> std::io::Result<()> {
    use super::walk::{walk, Step, MAX_DEPTH};
    use rustix::fs::{fstat, openat, AtFlags, FileType, Mode, OFlags};
    if settle(&fd, owner)? != Some(FileType::Directory) {
        return Ok(());
    }
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
    walk(fd, MAX_DEPTH, |step| match step {
        Step::Enter(_, dir) => settle(&dir, owner).map(drop),
        Step::Other(entry) if entry.kind() == FileType::RegularFile => {
            let opened = match openat(entry.parent, entry.name, flags, Mode::empty()) {
                // Only a grader that is not root meets a file it may not open (its own, copied with mode 000); its
                // runs are then its own uid, so nobody else can swap the entry between the check and the change.
                Err(rustix::io::Errno::ACCESS) => {
                    rustix::fs::chmodat(entry.parent, entry.name, Mode::from_raw_mode(0o600), AtFlags::empty())?;
                    openat(entry.parent, entry.name, flags, Mode::empty())
                }
                other => other,
            };
            match opened {
                // Still the regular file it was listed as: a FIFO swapped in is not waited for (non-blocking).
                Ok(file) if fstat(&file).is_ok_and(|s| FileType::from_raw_mode(s.st_mode).is_file()) => {
                    settle(&file, owner).map(drop)
                }
                // A link (ELOOP) is neither followed nor changed; an entry gone since the listing is nothing to change.
                Ok(_) | Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOENT) => Ok(()),
                Err(e) => Err(e.into()),
            }
        }
        // A link, fifo, socket or device is left as it is (no run can make a device).
        Step::Other(_) | Step::Leave(_) => Ok(()),
    })
    .map_err(super::walk::WalkError::into_io)
}

/// Gives the open entry `fd` to `owner` (when given) with [`hand_over`]'s mode; its kind, `None` (and nothing
/// changed) for anything but a folder or a regular file.
#[cfg(unix)]
fn settle(
    fd: &impl rustix::fd::AsFd,
    owner: Option<(rustix::fs::Uid, rustix::fs::Gid)>,
) -> std::io::Result<Option<rustix::fs::FileType>> {
    use rustix::fs::{fchmod, fchown, fstat, FileType, Mode};
    let stat = fstat(fd)?;
    let kind = FileType::from_raw_mode(stat.st_mode);
    let mode = match kind {
        FileType::Directory => 0o700,
        FileType::RegularFile if stat.st_mode & 0o111 != 0 => 0o700,
        FileType::RegularFile => 0o600,
        _ => return Ok(None),
    };
    if let Some((uid, gid)) = owner {
        fchown(fd, Some(uid), Some(gid))?;
    }
    fchmod(fd, Mode::from_raw_mode(mode))?;
    Ok(Some(kind))
}

/// Takes `path` (recursively) back from the sandbox user after a build: owned by the grader, closed to everyone
/// else, so no later run of that user (a case, or something a case left running) can change the built tree the
/// next case is copied from. Links are neither followed nor changed. When runs are the grader's own user the owner
/// stays, but the modes are still made [`hand_over`]'s: a build that closed a folder or file to itself (mode 000,
/// which root reads through) must not make the grader unable to copy the tree for each case.
///
/// # Errors
/// When ownership or modes cannot be changed.
pub fn take_back(path: &Path, sandbox: &Sandbox) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        if sandbox.identity.is_none() {
            return hand_over(path, sandbox);
        }
        let me = Identity { uid: rustix::process::geteuid().as_raw(), gid: rustix::process::getegid().as_raw() };
        hand_over(path, &Sandbox { identity: Some(me), ..sandbox.clone() })
    }
    #[cfg(not(unix))]
    {
        let _ = (path, sandbox);
        Ok(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    fn mode(p: &Path) -> u32 {
        std::fs::symlink_metadata(p).map_or(0, |m| m.permissions().mode() & 0o7777)
    }

    /// A leftover of a leased uid is killed when the lease ends, even one that made itself non-dumpable (the lease
    /// still sees it); another uid's process is left alone.
    #[cfg(target_os = "linux")]
    #[test]
    fn kill_uid_ends_a_non_dumpable_leftover_and_no_other_uids_process() {
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        if !is_root() || !Path::new("/usr/bin/python3").exists() {
            eprintln!("SKIPPED kill_uid: needs root and /usr/bin/python3");
            return;
        }
        let hidden = "import ctypes, time; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); print(flush=True); time.sleep(30)";
        let mut leftover = std::process::Command::new("/usr/bin/python3")
            .args(["-c", hidden])
            .uid(UID_BASE + 4001)
            .gid(65_534)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Once it printed, it is non-dumpable.
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(leftover.stdout.take().unwrap()), &mut line).unwrap();
        let mut other = std::process::Command::new("sleep").arg("30").uid(UID_BASE + 4002).gid(65_534).spawn().unwrap();
        assert!(super::super::lease::uid_in_use(UID_BASE + 4001), "the lease must still see it");
        assert_eq!(kill_uid(UID_BASE + 4001), 0);
        // Reaped by kill_uid (it was this process's child) or dead of SIGKILL.
        assert!(leftover.wait().map_or(true, |s| s.signal() == Some(9)));
        assert!(other.try_wait().unwrap().is_none(), "another uid's process was killed");
        other.kill().unwrap();
        other.wait().unwrap();
    }

    /// Files and folders are closed to others; links are skipped, so what they name outside keeps its mode; a file
    /// the grader cannot open (mode 000) is still handed over.
    #[test]
    fn hand_over_closes_the_tree_and_never_follows_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside.txt");
        std::fs::write(&outside, "x").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
        let tree = tmp.path().join("tree");
        std::fs::create_dir_all(tree.join("sub")).unwrap();
        std::fs::write(tree.join("sub/run.sh"), "exit 0").unwrap();
        std::fs::set_permissions(tree.join("sub/run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(tree.join("locked.txt"), "y").unwrap();
        std::fs::set_permissions(tree.join("locked.txt"), std::fs::Permissions::from_mode(0o000)).unwrap();
        symlink(&outside, tree.join("sub/link")).unwrap();
        symlink(tmp.path(), tree.join("up")).unwrap();
        let above = mode(tmp.path());
        hand_over(&tree, &Sandbox::default()).unwrap();
        assert_eq!(mode(&tree), 0o700);
        assert_eq!(mode(&tree.join("sub")), 0o700);
        assert_eq!(mode(&tree.join("sub/run.sh")), 0o700);
        assert_eq!(mode(&tree.join("locked.txt")), 0o600);
        assert_eq!(mode(&outside), 0o644, "a link was followed");
        assert_eq!(mode(tmp.path()), above, "the folder a link names is untouched");
        // A link given as the top is not followed either.
        hand_over(&tree.join("up"), &Sandbox::default()).unwrap();
        assert_eq!(mode(&outside), 0o644);
    }
}
