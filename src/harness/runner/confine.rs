//! The launcher's namespaces, mounts, identity and limits, applied to itself just before it starts the program:
//! the grader's shared namespaces or new ones (network, PID with a private `/proc`, IPC, mount with private
//! temporary folders), then the sandbox user and the rlimits. Landlock and seccomp are in [`super::rules`], the
//! program's start in [`super::exec`].

#![cfg(target_os = "linux")]

use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use super::wire::{HeldNamespace, Request};

/// Folders every run sees empty and of its own with the mount layer: the temporary ones (one size-limited tmpfs,
/// writable) and `/run`, where the machine's sockets live (read-only and empty).
pub const PRIVATE_TEMP: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// Hidden behind an empty read-only tmpfs with the mount layer: the host's sockets (`/run/user/<uid>/bus`, a
/// gpg-agent, `docker.sock`) can no longer be reached by path.
pub const HIDDEN: [&str; 1] = ["/run"];

/// Size of the private temporary folders when the request gives none.
const DEFAULT_TEMP_BYTES: u64 = 256 << 20;

/// Moves this process into the namespace `held` of type `kind` (the grader's shared one, see `shared_ns`), after
/// checking that it is the namespace with the inode the grader recorded (a reused pid cannot lead elsewhere).
///
/// # Errors
/// When it cannot be opened, is another namespace, or the kernel refuses.
fn join(held: &HeldNamespace, kind: rustix::thread::LinkNameSpaceType, name: &str) -> Result<(), String> {
    let path = &held.path;
    let fail = |e: &dyn std::fmt::Display| format!("cannot join the {name} namespace {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
    let found = rustix::fs::fstat(&file).map_err(|e| fail(&e))?.st_ino;
    if found != held.inode {
        return Err(fail(&format!("inode {found}, not {}", held.inode)));
    }
    rustix::thread::move_into_link_name_space(file.as_fd(), Some(kind)).map_err(|e| fail(&e))
}

/// Joins the grader's shared namespaces the request names: the empty network namespace, and the mount namespace
/// with the `hidepid` `/proc` (then back into the working folder `cwd`: joining a mount namespace moves a process
/// to its root).
///
/// # Errors
/// When a namespace cannot be joined or `cwd` is not there.
pub fn join_shared(request: &Request, cwd: &Path) -> Result<(), String> {
    use rustix::thread::LinkNameSpaceType;
    if let Some(held) = &request.netns {
        join(held, LinkNameSpaceType::Network, "network")?;
    }
    if let Some(held) = &request.procns {
        join(held, LinkNameSpaceType::Mount, "mount")?;
        std::env::set_current_dir(cwd)
            .map_err(|e| format!("cannot return to {} in the shared mount namespace: {e}", cwd.display()))?;
    }
    Ok(())
}

/// The new namespaces this launch makes for itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fresh {
    /// A network namespace.
    pub network: bool,
    /// A PID namespace (for the next child).
    pub pid: bool,
    /// An IPC namespace.
    pub ipc: bool,
    /// A mount namespace.
    pub mount: bool,
}

impl Fresh {
    /// Whether any namespace is asked for.
    pub fn any(&self) -> bool {
        self.network || self.pid || self.ipc || self.mount
    }
}

/// Moves this process into the new namespaces `fresh` asks for (a PID namespace applies to its next child, and
/// always comes with a mount namespace for its private `/proc`); as a user other than root, inside a user
/// namespace of its own that maps only its own ids.
///
/// # Errors
/// When the kernel refuses (no privilege and no user namespaces).
pub fn unshare(fresh: Fresh) -> Result<(), String> {
    use rustix::thread::UnshareFlags;
    let root = rustix::process::geteuid().is_root();
    let (uid, gid) = (rustix::process::geteuid().as_raw(), rustix::process::getegid().as_raw());
    let mut flags = UnshareFlags::empty();
    for (on, flag) in [
        (fresh.network, UnshareFlags::NEWNET),
        (fresh.pid, UnshareFlags::NEWPID | UnshareFlags::NEWNS),
        (fresh.ipc, UnshareFlags::NEWIPC),
        (fresh.mount, UnshareFlags::NEWNS),
    ] {
        if on {
            flags |= flag;
        }
    }
    if !root {
        flags |= UnshareFlags::NEWUSER;
    }
    #[expect(
        deprecated,
        reason = "the flags exclude CLONE_FILES, the one case rustix calls unsafe; unsafe_unshare would need an unsafe block"
    )]
    rustix::thread::unshare(flags).map_err(|e| {
        let who = if root { "root" } else { "this user (no user namespaces?)" };
        format!("namespaces not available to {who}: {e}")
    })?;
    if !root {
        let write = |file: &str, text: String| {
            std::fs::write(file, text).map_err(|e| format!("user namespace: cannot write {file}: {e}"))
        };
        write("/proc/self/setgroups", "deny".into())?;
        // Root inside (so the namespace's init keeps the right to mount its /proc across exec); the program loses
        // every capability before it starts (see `drop_capabilities`), and is the grader's user outside.
        write("/proc/self/uid_map", format!("0 {uid} 1"))?;
        write("/proc/self/gid_map", format!("0 {gid} 1"))?;
    }
    Ok(())
}

/// Empties the capability bounding set, so a program started next as root of a user namespace gets no capability
/// from `exec`: it cannot unmount the private `/proc` or temporary folders to see the grader's.
///
/// # Errors
/// When a capability cannot be dropped.
pub fn drop_capabilities() -> Result<(), String> {
    use rustix::thread::{capability_is_in_bounding_set, remove_capability_from_bounding_set, CapabilitySet};
    for cap in CapabilitySet::all().iter() {
        if capability_is_in_bounding_set(cap).unwrap_or(false) {
            remove_capability_from_bounding_set(cap).map_err(|e| format!("cannot drop capabilities: {e}"))?;
        }
    }
    Ok(())
}

/// In the first process of a new PID namespace: keeps mounts from leaking out and mounts a `/proc` that shows only
/// this namespace's processes.
///
/// # Errors
/// When the mounts are refused.
pub fn private_proc() -> Result<(), String> {
    use rustix::mount::{mount, mount_change, MountFlags, MountPropagationFlags};
    mount_change("/", MountPropagationFlags::PRIVATE | MountPropagationFlags::REC)
        .map_err(|e| format!("cannot make the mounts private: {e}"))?;
    mount("proc", "/proc", "proc", MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC, None)
        .map_err(|e| format!("cannot mount a private /proc: {e}"))
}

/// In the grader's namespace holder, already in a mount namespace of its own: mounts a `/proc` with `hidepid=2`, on
/// which a process sees only the processes of its own user. The host's later mounts still reach the namespace
/// (`slave` propagation); nothing mounted here reaches the host.
///
/// # Errors
/// When the mounts are refused.
pub fn hidden_proc() -> Result<(), String> {
    use rustix::mount::{mount, mount_change, MountFlags, MountPropagationFlags};
    mount_change("/", MountPropagationFlags::DOWNSTREAM | MountPropagationFlags::REC)
        .map_err(|e| format!("cannot make the mounts one-way: {e}"))?;
    let flags = MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC;
    mount("proc", "/proc", "proc", flags, c"hidepid=2").map_err(|e| format!("cannot mount /proc with hidepid: {e}"))
}

/// Top-level folders besides the system's ([`super::rules::SYSTEM`], those Landlock grants) that a run without
/// Landlock still sees when the rest is hidden (see [`private_temp`]): the kernel's, and `/tmp`, made private.
const SEEN_WITHOUT_LANDLOCK: [&str; 3] = ["/proc", "/dev", "/tmp"];

/// In a mount namespace of this run's own: one fresh tmpfs of `bytes` (writable by everyone, sticky, as `/tmp`
/// is) on `/tmp`, and its subfolders on `/var/tmp` and `/dev/shm`, so the three share one size limit; an empty
/// read-only tmpfs on `/run`; terminals of its own on `/dev/pts` (see [`fresh_terminals`]). With `hide_rest` (a run
/// under the grader's own uid and without Landlock, where file modes keep nothing from it), every other top-level
/// folder but the system's (`/home`, `/root`, `/var`, `/opt`, a data disk: the TA's files, the class, the suite, the
/// grader's scratch wherever `TMPDIR` points) is covered by an empty read-only tmpfs too, so the run sees what
/// Landlock would let it read and no more. Whatever of `keep` (the
/// run's folder, the folders it may read) lay under a covered folder is bound back at the same path. Nothing
/// mounted here reaches the host (`slave` propagation), and it all ends with the run.
///
/// # Errors
/// When a mount is refused.
pub fn private_temp(bytes: u64, keep: &[PathBuf], hide_rest: bool) -> Result<(), String> {
    use rustix::fs::{Mode, OFlags};
    use rustix::mount::{mount, mount_bind, mount_change, MountFlags, MountPropagationFlags};
    mount_change("/", MountPropagationFlags::DOWNSTREAM | MountPropagationFlags::REC)
        .map_err(|e| format!("cannot make the mounts one-way: {e}"))?;
    let mut hidden: Vec<String> = HIDDEN.iter().map(|d| (*d).to_string()).collect();
    if hide_rest {
        hidden.extend(top_level_beyond_the_system());
    }
    let hidden: Vec<String> = hidden.into_iter().filter(|d| is_real_dir(d)).collect();
    let temp: Vec<&str> = PRIVATE_TEMP.iter().copied().filter(|d| is_real_dir(d)).collect();
    let covered: Vec<&str> = temp.iter().copied().chain(hidden.iter().map(String::as_str)).collect();
    // What must stay visible, held open before it is covered.
    let mut held: Vec<(PathBuf, OwnedFd, bool)> = Vec::new();
    for path in keep {
        if covered.iter().any(|c| path.starts_with(c)) {
            let fd = rustix::fs::open(path, OFlags::PATH | OFlags::CLOEXEC, Mode::empty())
                .map_err(|e| format!("cannot hold {} open: {e}", path.display()))?;
            let dir = rustix::fs::fstat(&fd).is_ok_and(|s| rustix::fs::FileType::from_raw_mode(s.st_mode).is_dir());
            held.push((path.clone(), fd, dir));
        }
    }
    let flags = MountFlags::NOSUID | MountFlags::NODEV;
    let bytes = if bytes == 0 { DEFAULT_TEMP_BYTES } else { bytes };
    let size = std::ffi::CString::new(format!("size={bytes},mode=1777")).map_err(|e| e.to_string())?;
    let mounted = |what: &str, e: rustix::io::Errno| format!("cannot mount a private {what}: {e}");
    mount("tmpfs", "/tmp", "tmpfs", flags, size.as_c_str()).map_err(|e| mounted("/tmp", e))?;
    // Covered first: `/var/tmp` is then made again inside `/var`'s empty tmpfs before it is bound.
    for dir in &hidden {
        mount("tmpfs", dir.as_str(), "tmpfs", flags | MountFlags::NOEXEC, c"size=64k,mode=755")
            .map_err(|e| mounted(dir, e))?;
    }
    for (dir, under) in [("/var/tmp", "/tmp/.var-tmp"), ("/dev/shm", "/tmp/.dev-shm")] {
        if temp.contains(&dir) {
            make_dirs(Path::new(under), 0o1777)?;
            make_dirs(Path::new(dir), 0o755)?;
            mount_bind(under, dir).map_err(|e| mounted(dir, e))?;
        }
    }
    for (path, fd, dir) in &held {
        if *dir {
            make_dirs(path, 0o755)?;
        } else {
            if let Some(parent) = path.parent() {
                make_dirs(parent, 0o755)?;
            }
            std::fs::File::create(path).map_err(|e| format!("cannot make {}: {e}", path.display()))?;
        }
        let source = format!("/proc/self/fd/{}", fd.as_raw_fd());
        mount_bind(source.as_str(), path).map_err(|e| format!("cannot bind {} back: {e}", path.display()))?;
    }
    for dir in &hidden {
        // Read-only once the binds beneath it are made.
        let _ = rustix::mount::mount_remount(dir.as_str(), MountFlags::RDONLY | flags | MountFlags::NOEXEC, c"");
    }
    if is_real_dir(TERMINALS) {
        fresh_terminals()?;
    }
    Ok(())
}

/// Where the machine's pseudo-terminals are, the TA's among them.
const TERMINALS: &str = "/dev/pts";

/// Covers [`TERMINALS`] with a new devpts instance of the run's own (so `/dev/ptmx` makes its terminals there, and
/// none of the machine's can be opened by path: a run under the TA's own uid could otherwise write on the TA's
/// screen), or with an empty read-only tmpfs where the kernel makes no new instance here.
///
/// # Errors
/// When neither can be mounted.
fn fresh_terminals() -> Result<(), String> {
    use rustix::mount::{mount, MountFlags};
    let flags = MountFlags::NOSUID | MountFlags::NOEXEC;
    mount("devpts", TERMINALS, "devpts", flags, c"newinstance,ptmxmode=0666,mode=0620")
        .or_else(|_| {
            mount("tmpfs", TERMINALS, "tmpfs", flags | MountFlags::NODEV | MountFlags::RDONLY, c"size=4k,mode=755")
        })
        .map_err(|e| format!("cannot cover {TERMINALS}: {e}"))
}

/// The top-level folders of `/` (not links) that are neither the system's ([`super::rules::SYSTEM`]) nor
/// [`SEEN_WITHOUT_LANDLOCK`] nor already covered.
fn top_level_beyond_the_system() -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/") else { return Vec::new() };
    let mut found: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(|name| format!("/{name}")))
        .filter(|d| {
            !super::rules::SYSTEM.contains(&d.as_str())
                && !SEEN_WITHOUT_LANDLOCK.contains(&d.as_str())
                && !HIDDEN.contains(&d.as_str())
        })
        .collect();
    found.sort();
    found
}

/// Whether `path` is a folder and not a link to one (`/var/run` is usually a link to `/run`).
fn is_real_dir(path: &str) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// `mkdir -p` with `mode` for the folders it makes.
fn make_dirs(path: &Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(mode)
        .create(path)
        .map_err(|e| format!("cannot make {}: {e}", path.display()))?;
    if mode & 0o1000 != 0 {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
    }
    Ok(())
}

/// Makes this process the OOM killer's first choice (`oom_score_adj` 1000, which any process may set for itself):
/// under memory pressure, on the machine or in a cgroup a grading thread shares (see `cgroup_slot`), a run's process
/// is killed before the grader.
fn first_for_the_oom_killer() -> Result<(), String> {
    const FILE: &str = "/proc/self/oom_score_adj";
    std::fs::write(FILE, "1000").map_err(|e| format!("launcher: cannot write {FILE}: {e}"))
}

/// Takes the request's identity (no supplementary groups, then GID, then UID), pins the CPU, and sets the
/// resource limits (not for a trial, which starts nothing).
///
/// # Errors
/// A message naming the step the kernel refused.
pub fn identity_and_limits(request: &Request) -> Result<(), String> {
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
    super::rlimits::apply(request, None)
}
