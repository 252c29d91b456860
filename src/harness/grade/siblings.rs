//! Cases of one hand-in are as isolated as two classmates. Two runs at once can read each other's
//! `/proc/<pid>/cmdline` (a hidden case's arguments: it is readable by every user) unless something stands between
//! them: a PID namespace of the run's own, the grader's `hidepid` `/proc` (which hides only other users' processes),
//! or Landlock (which grants a run no `/proc/<pid>` but its own). So the cases of one hand-in run at once only where
//! one of those is in force, each under a uid of its own where runs have leased uids (one per case running at once,
//! leased with the hand-in's and given back when it is graded), and one at a time everywhere else.

use std::sync::Mutex;

use crate::harness::runner::sandbox::{Lease, Sandbox};

/// The sandboxes the cases of one hand-in run in: as many as may run at once.
pub(super) struct Siblings {
    free: Mutex<Vec<Sandbox>>,
    jobs: usize,
    /// The hand-in's own sandbox.
    base: Sandbox,
    _leases: Vec<Lease>,
}

impl Siblings {
    /// For a hand-in graded in `sandbox` (its uid leased when `leased`) with up to `jobs` cases at once.
    pub(super) fn new(sandbox: &Sandbox, leased: bool, jobs: usize) -> Siblings {
        let same = |jobs: usize| Siblings {
            free: Mutex::new(vec![sandbox.clone(); jobs]),
            jobs,
            base: sandbox.clone(),
            _leases: Vec::new(),
        };
        let layers = sandbox.layers;
        // Nothing hides one run's `/proc` from another's, or runs share one uid they did not lease.
        if jobs <= 1 || (!layers.pid && !layers.landlock) || (sandbox.identity.is_some() && !leased) {
            return same(1);
        }
        if sandbox.identity.is_none() {
            // The grader's own uid: a PID namespace of each run's own (the `hidepid` one needs a leased uid), or
            // Landlock's own `/proc/<pid>` only.
            return same(jobs);
        }
        let mut free = vec![sandbox.clone()];
        let mut leases = Vec::new();
        while free.len() < jobs {
            let (other, lease) = sandbox.lease();
            if lease.uid().is_none() {
                break;
            }
            free.push(other);
            leases.push(lease);
        }
        Siblings { jobs: free.len(), free: Mutex::new(free), base: sandbox.clone(), _leases: leases }
    }

    /// How many cases may run at once.
    pub(super) fn jobs(&self) -> usize {
        self.jobs
    }

    /// Runs `case` in a sandbox no other case holds meanwhile.
    pub(super) fn with<R>(&self, case: impl FnOnce(&Sandbox) -> R) -> R {
        // Never empty (at most `jobs` cases run at once, and each gives its sandbox back); were it ever, the case
        // would run in the hand-in's own.
        let taken = self.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
        let sandbox = taken.unwrap_or_else(|| self.base.clone());
        let result = case(&sandbox);
        self.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(sandbox);
        result
    }
}
