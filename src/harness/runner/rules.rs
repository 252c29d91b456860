//! The kernel's access rules a run starts under: Landlock (files, TCP, signals, abstract sockets) and a seccomp
//! filter (keyrings, netlink user sockets, io_uring, a terminal's input).
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
/// EPERM (runs sharing the grader's network namespace could talk over them), io_uring with EPERM (it can make
/// sockets without the `socket` call), and `ioctl` `TIOCSTI` and `TIOCLINUX` with EPERM (they push bytes into a
/// terminal's input, or a console's selection, as if the person at it had typed them). With `no_ipc_namespace` (the run shares the machine's IPC namespace), System V
/// IPC and POSIX message queues fail with ENOSYS too: their objects outlive the run and reach every neighbour.
/// Needs no privilege (it sets `no_new_privs`, as Landlock does).
///
/// # Errors
/// When the kernel refuses the filter (no seccomp), or on an architecture without a filter.
pub fn seccomp(no_ipc_namespace: bool) -> Result<(), String> {
    let program = filter::program(no_ipc_namespace).ok_or("seccomp: no filter for this architecture")?;
    seccompiler::apply_filter(&program).map_err(|e| format!("seccomp: {e}"))
}

/// The seccomp program, written out rather than built by `seccompiler`'s compiler: one filter with both answers
/// (ENOSYS, EPERM) instead of two, and consecutive numbers checked as one range. The kernel runs the program over
/// every system call number once when it is loaded (to learn which calls it may allow without running it), on
/// every run: the two compiled filters cost about 0.3 ms of each run's CPU time, this one a fraction of that.
mod filter {
    use seccompiler::sock_filter;

    const LD_W_ABS: u16 = 0x20;
    const JEQ: u16 = 0x15;
    const JGT: u16 = 0x25;
    const JGE: u16 = 0x35;
    const RET: u16 = 0x06;
    /// Offsets in `struct seccomp_data`: the call's number, the architecture, the low words of arguments 0, 1 and 2
    /// (every architecture with a filter here is little-endian).
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    const ARG0: u32 = 16;
    const ARG1: u32 = 24;
    const ARG2: u32 = 32;
    pub(super) const ALLOW: u32 = 0x7fff_0000;
    pub(super) const KILL_PROCESS: u32 = 0x8000_0000;
    const ERRNO: u32 = 0x0005_0000;
    pub(super) const ENOSYS: u32 = ERRNO | 38;
    pub(super) const EPERM: u32 = ERRNO | 1;
    const AF_NETLINK: u32 = 16;
    const NETLINK_USERSOCK: u32 = 2;
    /// The `ioctl` requests refused (the kernel takes the request as a 32-bit number, so its low word is all of
    /// it): `TIOCSTI` pushes a byte into a terminal's input; `TIOCLINUX` (subcodes 2 and 3) sets and pastes a
    /// console's selection, which types it just the same.
    pub(super) const TIOCSTI: u32 = 0x5412;
    pub(super) const TIOCLINUX: u32 = 0x541c;
    /// x86_64's x32 calls carry this bit in their number; none is allowed (each would be a second number for a
    /// refused call).
    const X32_BIT: u32 = 0x4000_0000;

    fn stmt(code: u16, k: u32) -> sock_filter {
        sock_filter { code, jt: 0, jf: 0, k }
    }

    fn jump(code: u16, k: u32, jt: u8, jf: u8) -> sock_filter {
        sock_filter { code, jt, jf, k }
    }

    /// The audit architecture this build's system call numbers belong to.
    pub(super) fn audit_arch() -> Option<u32> {
        if cfg!(target_arch = "x86_64") {
            Some(0xc000_003e)
        } else if cfg!(target_arch = "aarch64") {
            Some(0xc000_00b7)
        } else if cfg!(target_arch = "riscv64") {
            Some(0xc000_00f3)
        } else {
            None
        }
    }

    /// The refused calls but `socket`, each with its answer, as ranges of consecutive numbers with one answer.
    pub(super) fn refused(no_ipc_namespace: bool) -> Vec<(u32, u32, u32)> {
        use super::libc_call as call;
        let mut calls: Vec<(i64, u32)> = [call::KEYCTL, call::ADD_KEY, call::REQUEST_KEY].map(|c| (c, ENOSYS)).to_vec();
        if no_ipc_namespace {
            calls.extend(call::IPC.map(|c| (c, ENOSYS)));
        }
        calls.extend([call::IO_URING_SETUP, call::IO_URING_ENTER, call::IO_URING_REGISTER].map(|c| (c, EPERM)));
        calls.sort_unstable();
        let mut ranges: Vec<(u32, u32, u32)> = Vec::new();
        for (nr, answer) in calls {
            let Ok(nr) = u32::try_from(nr) else { continue };
            match ranges.last_mut() {
                Some((_, hi, same)) if *same == answer && *hi + 1 == nr => *hi = nr,
                _ => ranges.push((nr, nr, answer)),
            }
        }
        ranges
    }

    /// The program: a foreign architecture kills the process (as `seccompiler` did); x32 numbers get ENOSYS; the
    /// refused ranges their answer; `ioctl(_, TIOCSTI | TIOCLINUX, _)` and `socket(AF_NETLINK, _,
    /// NETLINK_USERSOCK)` EPERM; everything else is allowed.
    pub fn program(no_ipc_namespace: bool) -> Option<Vec<sock_filter>> {
        let arch = audit_arch()?;
        let mut p = vec![stmt(LD_W_ABS, ARCH), jump(JEQ, arch, 1, 0), stmt(RET, KILL_PROCESS), stmt(LD_W_ABS, NR)];
        if cfg!(target_arch = "x86_64") {
            p.extend([jump(JGE, X32_BIT, 0, 1), stmt(RET, ENOSYS)]);
        }
        for (lo, hi, answer) in refused(no_ipc_namespace) {
            if lo == hi {
                p.extend([jump(JEQ, lo, 0, 1), stmt(RET, answer)]);
            } else {
                // Below `lo`: skip the next two; above `hi`: skip the next one; else answer.
                p.extend([jump(JGE, lo, 0, 2), jump(JGT, hi, 1, 0), stmt(RET, answer)]);
            }
        }
        let ioctl = u32::try_from(super::libc_call::IOCTL).ok()?;
        // Not `ioctl`: on to `socket`, five instructions down.
        p.extend([
            jump(JEQ, ioctl, 0, 5),
            stmt(LD_W_ABS, ARG1),
            jump(JEQ, TIOCSTI, 1, 0),
            jump(JEQ, TIOCLINUX, 0, 1),
            stmt(RET, EPERM),
            stmt(RET, ALLOW),
        ]);
        let socket = u32::try_from(super::libc_call::SOCKET).ok()?;
        p.extend([
            jump(JEQ, socket, 1, 0),
            stmt(RET, ALLOW),
            stmt(LD_W_ABS, ARG0),
            jump(JEQ, AF_NETLINK, 1, 0),
            stmt(RET, ALLOW),
            stmt(LD_W_ABS, ARG2),
            jump(JEQ, NETLINK_USERSOCK, 1, 0),
            stmt(RET, ALLOW),
            stmt(RET, EPERM),
        ]);
        Some(p)
    }
}

/// System call numbers of this architecture.
mod libc_call {
    #[cfg(target_arch = "x86_64")]
    mod numbers {
        pub const KEYCTL: i64 = 250;
        pub const ADD_KEY: i64 = 248;
        pub const REQUEST_KEY: i64 = 249;
        pub const SOCKET: i64 = 41;
        pub const IOCTL: i64 = 16;
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
        pub const IOCTL: i64 = 29;
        /// The same calls as on x86_64, by the generic table's numbers.
        pub const IPC: [i64; 18] =
            [194, 196, 195, 197, 190, 193, 191, 192, 186, 189, 188, 187, 180, 181, 182, 183, 184, 185];
    }
    pub use numbers::*;
    pub const IO_URING_SETUP: i64 = 425;
    pub const IO_URING_ENTER: i64 = 426;
    pub const IO_URING_REGISTER: i64 = 427;
}

#[cfg(test)]
mod tests {
    use super::filter::{self, ALLOW, ENOSYS, EPERM, KILL_PROCESS, TIOCLINUX, TIOCSTI};
    use super::libc_call as call;

    /// Runs `program` as the kernel does over one call (`nr`, `arch`, the low words of arguments 0 to 2), returning
    /// its answer.
    fn run(program: &[seccompiler::sock_filter], arch: u32, nr: u32, args: [u32; 3]) -> u32 {
        let (mut pc, mut acc) = (0usize, 0u32);
        loop {
            let i = &program[pc];
            let skip = |taken: bool| 1 + usize::from(if taken { i.jt } else { i.jf });
            match i.code {
                0x20 => {
                    acc = match i.k {
                        0 => nr,
                        4 => arch,
                        16 => args[0],
                        24 => args[1],
                        32 => args[2],
                        other => panic!("load of offset {other}"),
                    };
                    pc += 1;
                }
                0x15 => pc += skip(acc == i.k),
                0x25 => pc += skip(acc > i.k),
                0x35 => pc += skip(acc >= i.k),
                0x06 => return i.k,
                other => panic!("instruction {other:#x}"),
            }
        }
    }

    /// What the filter must answer to call `nr` whatever its arguments (`ioctl` and `socket` aside).
    fn expected_for(nr: u32, no_ipc: bool) -> u32 {
        let n = i64::from(nr);
        if [call::KEYCTL, call::ADD_KEY, call::REQUEST_KEY].contains(&n) || (no_ipc && call::IPC.contains(&n)) {
            ENOSYS
        } else if [call::IO_URING_SETUP, call::IO_URING_ENTER, call::IO_URING_REGISTER].contains(&n) {
            EPERM
        } else {
            ALLOW
        }
    }

    #[test]
    fn the_filter_refuses_exactly_the_calls_it_names_with_their_answers() {
        let arch = filter::audit_arch().unwrap();
        let ioctl = u32::try_from(call::IOCTL).unwrap();
        for no_ipc in [false, true] {
            let program = filter::program(no_ipc).unwrap();
            let mut refused = 0;
            for nr in 0..1024u32 {
                let expected = expected_for(nr, no_ipc);
                refused += usize::from(expected != ALLOW);
                // The terminal requests as the second argument refuse only `ioctl`.
                for arg1 in [0, TIOCSTI, TIOCLINUX] {
                    let expected = if nr == ioctl && arg1 != 0 { EPERM } else { expected };
                    assert_eq!(
                        run(&program, arch, nr, [0, arg1, 0]),
                        expected,
                        "call {nr} ({arg1:#x}), no ipc {no_ipc}"
                    );
                }
            }
            assert_eq!(refused, if no_ipc { 24 } else { 6 });
            // Every request of the low 17 bits and a few with high bits: exactly the two are refused.
            for request in (0..=0x1_ffffu32).chain([0xffff_5412, 0x8000_541c, 0x1_5412, u32::MAX]) {
                let expected = if [TIOCSTI, TIOCLINUX].contains(&request) { EPERM } else { ALLOW };
                assert_eq!(run(&program, arch, ioctl, [1, request, 0]), expected, "ioctl {request:#x}");
            }
            let socket = u32::try_from(call::SOCKET).unwrap();
            assert_eq!(run(&program, arch, socket, [16, 0, 2]), EPERM, "netlink user socket");
            assert_eq!(run(&program, arch, socket, [16, 0, 0]), ALLOW, "netlink route socket");
            assert_eq!(run(&program, arch, socket, [2, 0, 2]), ALLOW, "an IPv4 socket");
            assert_eq!(run(&program, arch, socket, [16, TIOCSTI, 2]), EPERM, "a netlink user socket, whatever arg 1");
            assert_eq!(run(&program, arch ^ 1, 39, [0; 3]), KILL_PROCESS, "a foreign architecture");
            assert_eq!(run(&program, arch ^ 1, ioctl, [0, TIOCSTI, 0]), KILL_PROCESS, "a foreign TIOCSTI");
            if cfg!(target_arch = "x86_64") {
                let keyctl = u32::try_from(call::KEYCTL).unwrap();
                assert_eq!(run(&program, arch, 0x4000_0000 | keyctl, [0; 3]), ENOSYS, "keyctl by its x32 number");
                assert_eq!(run(&program, arch, 0x4000_0000 | 39, [0; 3]), ENOSYS, "any x32 call");
                assert_eq!(run(&program, arch, 0x4000_0000 | ioctl, [0, TIOCSTI, 0]), ENOSYS, "TIOCSTI by x32");
            }
        }
    }
}
