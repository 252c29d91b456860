//! The kernel's access rules a run starts under: Landlock (files, TCP, signals, abstract sockets) and a seccomp
//! filter (keyrings, netlink user sockets, io_uring).
//!
//! Landlock grants read/execute on the system folders and on the folders the grader's policy names (the toolchains
//! it found, `--allow-read`: never anything derived from a student's file), read/write on the run's own folder (and
//! its private temporary folders with the mount layer), and nothing else: not the host's `/tmp`, not the suite,
//! not another student's copy. In its own folder a run may not make symbolic links (nothing a run does needs one,
//! and a link is how a hand-in points the grader at someone else's files) nor socket files (a neighbour could
//! connect to one by path: Landlock does not mediate `connect`). It also refuses TCP connect/bind (ABI 4) and
//! signals and abstract sockets reaching outside the run (ABI 6).

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
    ABI,
};

/// Folders every program may read and execute from: the system's programs, libraries and configuration.
pub const SYSTEM: [&str; 9] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"];

/// Device files a program may read (and `/dev/null`, which it may also write).
const DEVICES: [&str; 5] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"];

/// `/proc` files a runtime reads when the run has no private `/proc` (besides its own `/proc/<pid>`).
const PROC_FILES: [&str; 5] = ["/proc/meminfo", "/proc/cpuinfo", "/proc/stat", "/proc/filesystems", "/proc/sys"];

use super::layers::LANDLOCK_FULL;

/// Restricts this process (and everything it starts) to the run's folder `cwd` and `writable` (read/write, no
/// links or sockets made), `readable` and the system (read/execute), with no TCP and no signals outside.
/// `private_proc`: `/proc` shows only the run's own processes (a PID namespace, or the grader's `hidepid` `/proc`
/// under a uid of the run's own), so all of it may be read; otherwise only this process's entry. Returns a
/// one-line description.
///
/// # Errors
/// When the kernel has no Landlock, or a rule cannot be made.
pub fn landlock(cwd: &Path, writable: &[PathBuf], readable: &[PathBuf], private_proc: bool) -> Result<String, String> {
    let abi = ABI::V6;
    let fail = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut read: Vec<PathBuf> = SYSTEM.iter().map(PathBuf::from).collect();
    read.extend(readable.iter().cloned());
    if private_proc {
        read.push("/proc".into());
    } else {
        read.push(PathBuf::from(format!("/proc/{}", std::process::id())));
        read.extend(PROC_FILES.iter().map(PathBuf::from));
    }
    let devices_read = DEVICES.iter().filter(|d| **d != "/dev/null");
    let own = AccessFs::from_all(abi) & !(AccessFs::MakeSym | AccessFs::MakeSock);
    let mut own_folders = vec![cwd.to_path_buf()];
    own_folders.extend(writable.iter().cloned());
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
        .add_rules(path_beneath_rules(&own_folders, own))
        .map_err(fail)?
        .restrict_self()
        .map_err(fail)?;
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok(LANDLOCK_FULL.into()),
        RulesetStatus::PartiallyEnforced => {
            Ok("files (TCP or signal rules need a newer kernel: Landlock ABI 4 and 6)".into())
        }
        RulesetStatus::NotEnforced => {
            Err("this kernel has no Landlock (Linux 5.13 or later, enabled in the LSM list)".into())
        }
    }
}

/// Installs the seccomp filter: `keyctl`, `add_key` and `request_key` fail with ENOSYS (the uid's kernel keyrings
/// outlive a run and are shared by every run of the uid: a channel to the next student), netlink user sockets with
/// EPERM (runs sharing the grader's network namespace could talk over them), and io_uring with EPERM (it can make
/// sockets without the `socket` call). With `no_ipc_namespace` (the run shares the machine's IPC namespace), System V
/// IPC and POSIX message queues fail with ENOSYS too: their objects outlive the run and reach every neighbour.
/// Needs no privilege (it sets `no_new_privs`, as Landlock does).
///
/// # Errors
/// When the kernel refuses the filter (no seccomp).
pub fn seccomp(no_ipc_namespace: bool) -> Result<(), String> {
    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
        TargetArch,
    };
    use std::collections::BTreeMap;
    const AF_NETLINK: u64 = 16;
    const NETLINK_USERSOCK: u64 = 2;
    const EPERM: u32 = 1;
    const ENOSYS: u32 = 38;
    let fail = |e: &dyn std::fmt::Display| format!("seccomp: {e}");
    let arch = if cfg!(target_arch = "x86_64") {
        TargetArch::x86_64
    } else if cfg!(target_arch = "aarch64") {
        TargetArch::aarch64
    } else if cfg!(target_arch = "riscv64") {
        TargetArch::riscv64
    } else {
        return Err("seccomp: no filter for this architecture".into());
    };
    let build = |rules: BTreeMap<i64, Vec<SeccompRule>>, errno: u32| -> Result<BpfProgram, String> {
        let filter =
            SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(errno), arch).map_err(|e| fail(&e))?;
        BpfProgram::try_from(filter).map_err(|e| fail(&e))
    };
    let mut keys: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for call in [libc_call::KEYCTL, libc_call::ADD_KEY, libc_call::REQUEST_KEY] {
        keys.insert(call, Vec::new());
    }
    if no_ipc_namespace {
        for call in libc_call::IPC {
            keys.insert(call, Vec::new());
        }
    }
    let mut sockets: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let condition = |index: u8, value: u64| {
        SeccompCondition::new(index, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value).map_err(|e| fail(&e))
    };
    let netlink_user =
        SeccompRule::new(vec![condition(0, AF_NETLINK)?, condition(2, NETLINK_USERSOCK)?]).map_err(|e| fail(&e))?;
    sockets.insert(libc_call::SOCKET, vec![netlink_user]);
    for call in [libc_call::IO_URING_SETUP, libc_call::IO_URING_ENTER, libc_call::IO_URING_REGISTER] {
        sockets.insert(call, Vec::new());
    }
    seccompiler::apply_filter(&build(keys, ENOSYS)?).map_err(|e| fail(&e))?;
    seccompiler::apply_filter(&build(sockets, EPERM)?).map_err(|e| fail(&e))
}

/// System call numbers of this architecture.
mod libc_call {
    #[cfg(target_arch = "x86_64")]
    mod numbers {
        pub const KEYCTL: i64 = 250;
        pub const ADD_KEY: i64 = 248;
        pub const REQUEST_KEY: i64 = 249;
        pub const SOCKET: i64 = 41;
        /// shmget, shmat, shmctl, shmdt, semget, semop, semctl, semtimedop, msgget, msgsnd, msgrcv, msgctl,
        /// mq_open, mq_unlink, mq_timedsend, mq_timedreceive, mq_notify, mq_getsetattr.
        pub const IPC: [i64; 18] = [29, 30, 31, 67, 64, 65, 66, 220, 68, 69, 70, 71, 240, 241, 242, 243, 244, 245];
    }
    #[cfg(not(target_arch = "x86_64"))]
    mod numbers {
        // The generic table (aarch64, riscv64).
        pub const KEYCTL: i64 = 219;
        pub const ADD_KEY: i64 = 217;
        pub const REQUEST_KEY: i64 = 218;
        pub const SOCKET: i64 = 198;
        /// The same calls as on x86_64, by the generic table's numbers.
        pub const IPC: [i64; 18] =
            [194, 196, 195, 197, 190, 193, 191, 192, 186, 189, 188, 187, 180, 181, 182, 183, 184, 185];
    }
    pub use numbers::*;
    pub const IO_URING_SETUP: i64 = 425;
    pub const IO_URING_ENTER: i64 = 426;
    pub const IO_URING_REGISTER: i64 = 427;
}
