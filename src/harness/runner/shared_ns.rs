//! The namespaces a grader's runs share instead of making their own, because making them costs more than the run
//! of a small program (measured on a 10 ms Python run: a fresh network namespace 1.4 ms, a PID namespace with its
//! private `/proc` 2.1 ms, joining an existing namespace with `setns` a few microseconds):
//!
//! - an empty network namespace: no interface up (its loopback is down, and a run has no capability to bring it
//!   up), so sharing it isolates each run from the network as well as a fresh one does. What runs in one
//!   namespace could share is abstract unix sockets: it is only shared when Landlock scopes those to each run
//!   (ABI 6).
//! - a mount namespace whose `/proc` is mounted with `hidepid=2`: a process sees there only the processes of its
//!   own user. Where every run has a uid of its own (root grading with leased uids), that hides the grader and
//!   every other run as a PID namespace per run would; signals and `ptrace` outside the run are refused by the
//!   uid and by Landlock's scoping. The one thing a PID namespace did on top (killing whatever the program leaves
//!   running when it ends) is done by the run's cgroup, so this namespace is only used with the cgroup layer.
//!
//! Both are made by a short-lived launcher (`+hold`) and kept alive by descriptors the grader holds; a run's
//! launcher opens them through `/proc/<grader>/fd/<n>` and checks their inodes before joining, so a reused pid can
//! never lead a run into another namespace. Only as root: joining a namespace needs `CAP_SYS_ADMIN` over it.

use std::sync::OnceLock;

use super::wire::HeldNamespace;

/// A namespace the grader holds open: what the launcher opens and the inode it must find there.
#[derive(Debug)]
pub struct Held {
    _file: std::fs::File,
    held: HeldNamespace,
}

/// The grader's shared namespaces.
#[derive(Debug)]
pub struct Shared {
    network: Held,
    proc: Option<Held>,
}

impl Shared {
    /// The empty network namespace, for the launcher to join.
    pub fn network(&self) -> HeldNamespace {
        self.network.held.clone()
    }

    /// The mount namespace with the `hidepid` `/proc`, when the holder could make it.
    pub fn proc(&self) -> Option<HeldNamespace> {
        self.proc.as_ref().map(|held| held.held.clone())
    }
}

/// This grader's shared namespaces, made on first use; `None` where runs get their own (not root, Landlock without
/// abstract-socket and signal scoping, or the namespaces could not be made).
pub fn shared() -> Option<&'static Shared> {
    static SHARED: OnceLock<Option<Shared>> = OnceLock::new();
    SHARED.get_or_init(make).as_ref()
}

pub use super::wire::READY_WITH_PROC;

#[cfg(target_os = "linux")]
fn make() -> Option<Shared> {
    use std::io::BufRead;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    use std::process::{Command, Stdio};
    if !super::policy::is_root() || !super::probe::scopes_abstract_sockets() {
        return None;
    }
    let exe = super::plan::launcher_path()?;
    let request = super::wire::Request { hold: true, program: "true".into(), ..super::wire::Request::default() };
    let mut command = Command::new(exe);
    command
        .args(request.to_args())
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // Long-lived: it must hold no run's report channel (see `report::exclusive`).
    let mut child = super::report::exclusive(|| {
        super::sandbox::spawn_managed(|| {
            let child = command.spawn()?;
            let pid = child.id();
            Ok((child, pid))
        })
    })
    .ok()?;
    let pid = child.id();
    let mut line = String::new();
    let ready = child.stdout.take().map(|out| std::io::BufReader::new(out).read_line(&mut line));
    let line = if matches!(ready, Some(Ok(_))) { line.trim() } else { "" };
    let open = |kind: &str| -> Option<Held> {
        let file = std::fs::File::open(format!("/proc/{pid}/ns/{kind}")).ok()?;
        let inode = file.metadata().ok()?.ino();
        let path = format!("/proc/{}/fd/{}", std::process::id(), file.as_raw_fd()).into();
        Some(Held { _file: file, held: HeldNamespace { path, inode } })
    };
    let network = line.starts_with("ready").then(|| open("net")).flatten();
    let proc = (line == READY_WITH_PROC).then(|| open("mnt")).flatten();
    // Closing its input ends the holder; the descriptors keep the namespaces.
    drop(child.stdin.take());
    let _ = child.wait();
    super::sandbox::release(pid);
    Some(Shared { network: network?, proc })
}

#[cfg(not(target_os = "linux"))]
fn make() -> Option<Shared> {
    None
}
