//! Pausing an agent with signals, where its cgroup cannot freeze it (no cgroup of its own, or no freezer): SIGSTOP
//! to its process group, and also to every process of its leased uid (only while no other agent of this grader runs
//! as that uid: stopping one would stop a thinking opponent) and to every process carrying its run's marker; the same
//! processes get SIGCONT when it resumes. A helper that left the group (`setsid`) is still reached through its uid
//! or its marker; one that also cleared its environment and shares its uid with another agent is not.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Mutex, OnceLock};

use super::sandbox::{signal_group, GroupSignal};

/// Agents of this grader running now, per uid.
fn agents_per_uid() -> &'static Mutex<HashMap<u32, usize>> {
    static COUNTS: OnceLock<Mutex<HashMap<u32, usize>>> = OnceLock::new();
    COUNTS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// One running agent's hold on its uid: while it is the only one, pausing it may stop every process of the uid.
#[derive(Debug)]
pub struct UidClaim(Option<u32>);

impl UidClaim {
    /// Counts an agent running as `uid` (`None`: the grader's own user, never swept) until dropped.
    pub fn new(uid: Option<u32>) -> UidClaim {
        if let Some(uid) = uid {
            *agents_per_uid().lock().unwrap_or_else(|p| p.into_inner()).entry(uid).or_insert(0) += 1;
        }
        UidClaim(uid)
    }

    /// The uid, when this agent is the only one of this grader running as it.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    fn exclusive(&self) -> Option<u32> {
        let uid = self.0?;
        let counts = agents_per_uid().lock().unwrap_or_else(|p| p.into_inner());
        (counts.get(&uid) == Some(&1)).then_some(uid)
    }
}

impl Drop for UidClaim {
    fn drop(&mut self) {
        if let Some(uid) = self.0 {
            let mut counts = agents_per_uid().lock().unwrap_or_else(|p| p.into_inner());
            if let Some(n) = counts.get_mut(&uid) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    counts.remove(&uid);
                }
            }
        }
    }
}

/// The processes one pause stopped (besides the group), to be continued.
#[derive(Debug, Default)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub struct Stopped(BTreeSet<i32>);

/// Stops the process group `pgid`, then every process of `claim`'s uid (when exclusive) and every process carrying
/// `marker`, scanning again until a pass finds none not yet stopped (a process may fork between a scan and its
/// stop). `None` when the group had no member left.
pub fn stop(pgid: u32, claim: &UidClaim, marker: &str) -> Option<Stopped> {
    if !signal_group(pgid, GroupSignal::Stop) {
        return None;
    }
    #[cfg_attr(not(target_os = "linux"), allow(unused_mut))]
    let mut stopped = Stopped::default();
    #[cfg(target_os = "linux")]
    {
        let uid = claim.exclusive();
        for _ in 0..20 {
            let mut found = super::sandbox::marked_processes(Some(marker));
            if let Some(uid) = uid {
                found.extend(super::sandbox::uid_processes(uid));
            }
            let me = i32::try_from(std::process::id()).unwrap_or(0);
            let fresh: Vec<i32> = found.into_iter().filter(|p| *p != me && !stopped.0.contains(p)).collect();
            if fresh.is_empty() {
                break;
            }
            for pid in fresh {
                if let Some(p) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(p, rustix::process::Signal::STOP);
                }
                stopped.0.insert(pid);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (claim, marker);
    }
    Some(stopped)
}

/// Continues what [`stop`] stopped: the group `pgid` and the processes it found.
pub fn resume(pgid: u32, stopped: Stopped) {
    #[cfg(unix)]
    for pid in stopped.0 {
        if let Some(p) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(p, rustix::process::Signal::CONT);
        }
    }
    #[cfg(not(unix))]
    let _ = stopped;
    signal_group(pgid, GroupSignal::Continue);
}
