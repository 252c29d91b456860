//! Uids on loan to submissions: each submission graded at the same time as others gets a uid of its own, so
//! RLIMIT_NPROC (counted per user) bounds each one separately, file modes keep each one's copy from the others, and
//! cleanup after it can tell its processes from everyone else's.

/// The first uid leased to submissions. No passwd entry is needed for a uid to run a process.
pub const UID_BASE: u32 = 600_000;

/// How many uids there are to lease.
pub const UIDS: u32 = 4096;

/// A uid on loan to one submission, across every grader process on the machine: each uid is backed by an
/// exclusively locked file, which the kernel unlocks when the grader exits or dies. The uid returns to the pool when
/// the lease is dropped.
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

/// Leases the first free uid from [`UID_BASE`]; `None` when no lock folder can be made.
pub fn lease() -> Option<Lease> {
    let dir = std::env::temp_dir().join("referee-uid-locks");
    std::fs::create_dir_all(&dir).ok()?;
    (UID_BASE..UID_BASE + UIDS).find_map(|uid| {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(uid.to_string()))
            .ok()?;
        #[cfg(unix)]
        {
            use rustix::fs::{flock, FlockOperation};
            flock(&file, FlockOperation::NonBlockingLockExclusive).ok()?;
        }
        Some(Lease { uid: Some(uid), _lock: Some(file) })
    })
}
