//! Uids on loan to submissions: each submission graded at the same time as others gets a uid of its own, so
//! RLIMIT_NPROC (counted per user) bounds each one separately, file modes keep each one's copy from the others, and
//! cleanup after it can tell its processes from everyone else's.
//!
//! Leases are machine-wide: each uid is backed by a lock file in one fixed root-owned folder, [`LOCK_DIR`], whatever
//! the grader's `TMPDIR` (two graders with different temp folders once ran their students under one uid at once),
//! and a uid is lent only when no process of it is alive (a run of a grader in another container, whose locks this
//! one cannot see, or one left behind). A uid whose leftovers could not be cleaned is retired for this grader.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

/// The first uid leased to submissions. No passwd entry is needed for a uid to run a process.
pub const UID_BASE: u32 = 600_000;

/// How many uids there are to lease.
pub const UIDS: u32 = 4096;

/// Where the locks live: root's, outside every temp folder.
pub const LOCK_DIR: &str = "/run/referee/uids";

/// A uid on loan to one submission, across every grader process on the machine: an exclusively locked file, which
/// the kernel unlocks when the grader exits or dies. The uid returns to the pool when the lease is dropped.
#[derive(Debug)]
pub struct Lease {
    uid: Option<u32>,
    _lock: Option<std::fs::File>,
}

impl Lease {
    /// A lease of nothing (runs keep the shared identity).
    pub fn none() -> Lease {
        Lease { uid: None, _lock: None }
    }

    /// The uid on loan, if any.
    pub fn uid(&self) -> Option<u32> {
        self.uid
    }
}

/// Ends the loan: whatever still runs as the uid was left by this lease's runs (a daemon that left its process
/// group and cleared its marker outlives its run where neither a cgroup nor a PID namespace of its own holds it),
/// and is killed before the uid is lent again or the grader exits; a uid with a process that could not be killed
/// is retired.
impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(uid) = self.uid {
            if super::sandbox::kill_uid(uid) > 0 {
                retire(uid);
            }
        }
    }
}

/// Uids this grader found it could not clean (see [`retire`]): never lent again by it.
fn retired() -> &'static Mutex<HashSet<u32>> {
    static RETIRED: OnceLock<Mutex<HashSet<u32>>> = OnceLock::new();
    RETIRED.get_or_init(|| Mutex::new(HashSet::new()))
}

/// Never lends `uid` again in this grader (what a run of it left behind could not be removed).
pub fn retire(uid: u32) {
    retired().lock().unwrap_or_else(|p| p.into_inner()).insert(uid);
}

/// No uid is ever leased where there are no Unix users to switch to.
#[cfg(not(unix))]
fn lock_dir() -> Option<PathBuf> {
    None
}

/// The lock folder: [`LOCK_DIR`], made root-only; where `/run` cannot be written, a folder in the temp folder.
#[cfg(unix)]
fn lock_dir() -> Option<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let fixed = std::path::Path::new(LOCK_DIR);
    let made = std::fs::DirBuilder::new().recursive(true).mode(0o700).create(fixed);
    if made.is_ok() {
        let _ = std::fs::set_permissions(fixed, std::fs::Permissions::from_mode(0o700));
        return Some(fixed.to_path_buf());
    }
    let fallback = std::env::temp_dir().join("referee-uid-locks");
    std::fs::create_dir_all(&fallback).ok()?;
    Some(fallback)
}

/// Leases the first free uid from [`UID_BASE`]: not locked by any grader, not retired, with no process alive;
/// `None` when no lock folder can be made.
pub fn lease() -> Option<Lease> {
    let dir = lock_dir()?;
    let busy = uids_in_use();
    let retired = retired().lock().unwrap_or_else(|p| p.into_inner()).clone();
    (UID_BASE..UID_BASE + UIDS).filter(|uid| !busy.contains(uid) && !retired.contains(uid)).find_map(|uid| {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(uid.to_string()))
            .ok()?;
        #[cfg(unix)]
        rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).ok()?;
        // Locked now: a process of the uid that appeared since the scan (a run of a grader whose lock this one
        // cannot see) still keeps it from being lent, and so do System V objects it cannot remove.
        if uid_in_use(uid) || (clean_ipc(uid) > 0 && !ipc_objects(uid).is_empty()) {
            return None;
        }
        Some(Lease { uid: Some(uid), _lock: Some(file) })
    })
}

/// No `/proc` to read: nobody runs as a leased uid.
#[cfg(not(unix))]
fn uids_in_use() -> HashSet<u32> {
    HashSet::new()
}

/// The leasable uids some process on this machine (as far as this `/proc` shows) runs as.
#[cfg(unix)]
fn uids_in_use() -> HashSet<u32> {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir("/proc") else { return HashSet::new() };
    entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())))
        .filter_map(|e| e.metadata().ok().map(|m| m.uid()))
        .filter(|uid| (UID_BASE..UID_BASE + UIDS).contains(uid))
        .collect()
}

/// Whether a process of `uid` is alive.
pub fn uid_in_use(uid: u32) -> bool {
    uids_in_use().contains(&uid)
}

/// The System V IPC objects (shared memory, queues, semaphores) owned or created by `uid`, as `ipcrm` options
/// (`-m ID`, `-q ID`, `-s ID`), from `/proc/sysvipc`.
fn ipc_objects(uid: u32) -> Vec<(&'static str, String)> {
    let mut found = Vec::new();
    // The columns of uid and cuid in each table.
    for (table, option, columns) in [("shm", "-m", [7, 9]), ("msg", "-q", [7, 9]), ("sem", "-s", [4, 6])] {
        let Ok(text) = std::fs::read_to_string(format!("/proc/sysvipc/{table}")) else { continue };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let owned = columns.iter().any(|&c| fields.get(c).and_then(|f| f.parse::<u32>().ok()) == Some(uid));
            if let (true, Some(id)) = (owned, fields.get(1)) {
                found.push((option, (*id).to_string()));
            }
        }
    }
    found
}

/// After a run of `uid` that shared the machine's IPC namespace: removes the System V objects it left (a segment
/// outlives its run and is charged to the slot's memory, so the next student there would be killed for it), and
/// retires the uid when any is left. Returns how many it found.
pub fn clean_ipc(uid: u32) -> usize {
    let found = ipc_objects(uid);
    for (option, id) in &found {
        let _ = std::process::Command::new("ipcrm")
            .args([*option, id.as_str()])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
    }
    if !found.is_empty() && !ipc_objects(uid).is_empty() {
        retire(uid);
    }
    found.len()
}
