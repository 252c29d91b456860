//! The launcher's side of the sandbox layers, applied to itself just before it starts the program: namespaces
//! (network, PID with a private `/proc`, or the grader's shared ones), and Landlock rules built from the run's folder
//! and the toolchain.
//!
//! Landlock grants read/execute on the system folders and on the toolchain the command uses (found by following the
//! program's symlinks: `/usr/bin/java` leads to the JDK's home, a `python3` under a home folder to its install),
//! read/write on the run's working folder only, and nothing else: not `/tmp`, not `/dev/shm`, not the suite, not
//! another student's copy. It also refuses TCP connect/bind (ABI 4) and signals and abstract sockets reaching
//! outside the run (ABI 6).

#![cfg(target_os = "linux")]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
    ABI,
};

/// Folders every program may read and execute from: the system's programs, libraries and configuration.
const SYSTEM: [&str; 9] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"];

/// Device files a program may read (and `/dev/null`, which it may also write).
const DEVICES: [&str; 5] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"];

/// `/proc` files a runtime reads when the run has no private `/proc` (besides its own `/proc/<pid>`).
const PROC_FILES: [&str; 5] = ["/proc/meminfo", "/proc/cpuinfo", "/proc/stat", "/proc/filesystems", "/proc/sys"];

/// Restricts this process (and everything it starts) to the run's folder `cwd` (read/write), `readable` and the
/// system (read/execute), with no TCP and no signals outside. `private_proc`: `/proc` shows only the run's own
/// processes (a PID namespace, or the grader's `hidepid` `/proc` under a uid of the run's own), so all of it may be
/// read; otherwise only this process's entry. Returns a one-line description.
///
/// # Errors
/// When the kernel has no Landlock, or a rule cannot be made.
pub fn landlock(cwd: &Path, readable: &[PathBuf], program: &OsStr, private_proc: bool) -> Result<String, String> {
    let abi = ABI::V6;
    let fail = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut read: Vec<PathBuf> = SYSTEM.iter().map(PathBuf::from).collect();
    read.extend(readable.iter().cloned());
    read.extend(toolchain_home(program));
    if let Some(home) = std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        read.push(PathBuf::from(home));
    }
    if private_proc {
        read.push("/proc".into());
    } else {
        read.push(PathBuf::from(format!("/proc/{}", std::process::id())));
        read.extend(PROC_FILES.iter().map(PathBuf::from));
    }
    let devices_read = DEVICES.iter().filter(|d| **d != "/dev/null");
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .map_err(fail)?
        .handle_access(AccessNet::from_all(abi))
        .map_err(fail)?
        .scope(Scope::from_all(abi))
        .map_err(fail)?
        .create()
        .map_err(fail)?
        .add_rules(path_beneath_rules(&read, AccessFs::from_read(abi)))
        .map_err(fail)?
        .add_rules(path_beneath_rules(devices_read, AccessFs::from_read(abi)))
        .map_err(fail)?
        .add_rules(path_beneath_rules(["/dev/null"], AccessFs::from_read(abi) | AccessFs::WriteFile))
        .map_err(fail)?
        .add_rules(path_beneath_rules([cwd], AccessFs::from_all(abi)))
        .map_err(fail)?
        .restrict_self()
        .map_err(fail)?;
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok(super::layers::LANDLOCK_FULL.into()),
        RulesetStatus::PartiallyEnforced => {
            Ok("files (TCP or signal rules need a newer kernel: Landlock ABI 4 and 6)".into())
        }
        RulesetStatus::NotEnforced => {
            Err("this kernel has no Landlock (Linux 5.13 or later, enabled in the LSM list)".into())
        }
    }
}

/// The install folder of the program's toolchain when it lies outside the system folders: the folder above the
/// `bin` that holds the program once its symlinks are followed.
fn toolchain_home(program: &OsStr) -> Option<PathBuf> {
    let path = Path::new(program);
    let found = if path.components().count() > 1 {
        Some(path.to_path_buf())
    } else {
        let dirs = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&dirs).map(|d| d.join(program)).find(|p| p.is_file())
    }?;
    let real = std::fs::canonicalize(found).ok()?;
    if SYSTEM.iter().any(|s| real.starts_with(s)) {
        return None;
    }
    let bin = real.parent()?;
    Some(if bin.file_name().is_some_and(|n| n == "bin") { bin.parent()?.to_path_buf() } else { bin.to_path_buf() })
}

/// Moves this process into the network namespace at `path` (the grader's shared one, see `shared_ns`), after
/// checking that it is the namespace with `inode` (a reused pid cannot lead elsewhere).
///
/// # Errors
/// When it cannot be opened, is another namespace, or the kernel refuses.
pub fn join_network(path: &Path, inode: u64) -> Result<(), String> {
    join(path, inode, rustix::thread::LinkNameSpaceType::Network, "network")
}

/// Moves this process into the mount namespace at `path` (the grader's shared one whose `/proc` hides other
/// users' processes, see `shared_ns`) after the same inode check, and back into its working folder `cwd` (joining
/// a mount namespace moves a process to its root).
///
/// # Errors
/// When it cannot be opened, is another namespace, the kernel refuses, or `cwd` is not there.
pub fn join_mount(path: &Path, inode: u64, cwd: &Path) -> Result<(), String> {
    join(path, inode, rustix::thread::LinkNameSpaceType::Mount, "mount")?;
    std::env::set_current_dir(cwd)
        .map_err(|e| format!("cannot return to {} in the shared mount namespace: {e}", cwd.display()))
}

fn join(path: &Path, inode: u64, kind: rustix::thread::LinkNameSpaceType, name: &str) -> Result<(), String> {
    use std::os::fd::AsFd;
    let fail = |e: &dyn std::fmt::Display| format!("cannot join the {name} namespace {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
    let found = rustix::fs::fstat(&file).map_err(|e| fail(&e))?.st_ino;
    if found != inode {
        return Err(fail(&format!("inode {found}, not {inode}")));
    }
    rustix::thread::move_into_link_name_space(file.as_fd(), Some(kind)).map_err(|e| fail(&e))
}

/// Moves this process into new network, mount and (for its next child) PID namespaces; as a user other than root,
/// inside a user namespace of its own that maps only its own ids.
///
/// # Errors
/// When the kernel refuses (no privilege and no user namespaces).
pub fn unshare(network: bool, pid: bool) -> Result<(), String> {
    use rustix::thread::UnshareFlags;
    let root = rustix::process::geteuid().is_root();
    let (uid, gid) = (rustix::process::geteuid().as_raw(), rustix::process::getegid().as_raw());
    let mut flags = UnshareFlags::NEWNS;
    if network {
        flags |= UnshareFlags::NEWNET;
    }
    if pid {
        flags |= UnshareFlags::NEWPID;
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

/// Empties the capability bounding set, so a program started next as root of a user namespace (or as the real root
/// with `--run-as-self`) gets no capability from `exec`: it cannot unmount the private `/proc` to see the grader's.
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
