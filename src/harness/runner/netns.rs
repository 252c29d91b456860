//! One empty network namespace per grader, shared by its runs: creating a namespace costs about 1.3 ms of CPU per
//! run, joining one (`setns`) almost nothing. A namespace with no interface up (its loopback is down, and a run has
//! no capability to bring it up) offers no network at all, so sharing it isolates each run from the network as
//! well as a fresh one does. What runs in one namespace could share is abstract unix sockets: the namespace is only
//! shared when Landlock scopes those to each run (ABI 6), otherwise every run gets a namespace of its own.
//!
//! The namespace is made by a short-lived launcher (`+hold`) and kept alive by a descriptor the grader holds; the
//! launcher of a run opens it through `/proc/<grader>/fd/<n>` and checks its inode before joining, so a reused pid
//! can never lead a run into another namespace. Only as root: joining a namespace needs `CAP_SYS_ADMIN` over it.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A namespace the grader holds: what the launcher opens and the inode it must find there.
#[derive(Debug)]
pub struct Shared {
    _file: std::fs::File,
    path: PathBuf,
    inode: u64,
}

impl Shared {
    /// The launcher's options to join it: `+netns PATH INODE`.
    pub fn options(&self) -> [OsString; 3] {
        ["+netns".into(), self.path.clone().into_os_string(), self.inode.to_string().into()]
    }
}

/// This grader's shared namespace, made on first use; `None` where runs get one each (not root, Landlock without
/// abstract-socket scoping, or the namespace could not be made).
pub fn shared() -> Option<&'static Shared> {
    static SHARED: OnceLock<Option<Shared>> = OnceLock::new();
    SHARED.get_or_init(make).as_ref()
}

#[cfg(target_os = "linux")]
fn make() -> Option<Shared> {
    use std::io::BufRead;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    use std::process::{Command, Stdio};
    if !super::sandbox::is_root() || !super::layers::scopes_abstract_sockets() {
        return None;
    }
    let exe = super::launcher::launcher_path()?;
    let mut command = Command::new(exe);
    command
        .args([super::launcher::SUBCOMMAND, "0", "0", "0", "0", "-", "-", "+hold", "--", "true"])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = super::sandbox::spawn_managed(|| {
        let child = command.spawn()?;
        let pid = child.id();
        Ok((child, pid))
    })
    .ok()?;
    let pid = child.id();
    let mut line = String::new();
    let ready = child.stdout.take().map(|out| std::io::BufReader::new(out).read_line(&mut line));
    let file = (matches!(ready, Some(Ok(_))) && line.trim() == "ready")
        .then(|| std::fs::File::open(format!("/proc/{pid}/ns/net")).ok())
        .flatten();
    // Closing its input ends the holder; the descriptor keeps the namespace.
    drop(child.stdin.take());
    let _ = child.wait();
    super::sandbox::release(pid);
    let file = file?;
    let inode = file.metadata().ok()?.ino();
    let path = PathBuf::from(format!("/proc/{}/fd/{}", std::process::id(), file.as_raw_fd()));
    Some(Shared { _file: file, path, inode })
}

#[cfg(not(target_os = "linux"))]
fn make() -> Option<Shared> {
    None
}
