//! Where a run's processes go in the cgroups: a cgroup of the run's own that its launcher joins, or, under cgroup
//! v1, the cgroup of the grading thread that starts it.
//!
//! Moving a process into a cgroup (a write to `cgroup.procs`) takes a lock that waits for an RCU grace period
//! when no other move happened just before: measured on this project's 2-core VM, 11 ms per move (0.2 ms with
//! expedited RCU), three moves per run under v1, on a 10 ms Python run. A process instead starts in the cgroups
//! of the thread that creates it, and v1 lets one thread sit in cgroups of its own. So each grading thread moves
//! itself once into a cgroup set with the run's limits (its slot) and every run it starts is born there, with no
//! move at all. A thread runs one program at a time, so the slot holds one run's processes as the run's own cgroup
//! did: the same CPU share, memory limit (v1 charges memory to a process's own memory, not to the grader thread
//! sitting beside it) and pids limit (less the grader's few threads). After each run whatever is left in it is
//! killed; a slot that had anything left is retired, never reused, so a fork bomb's dying processes cannot count
//! against the next student's pids limit. A memory cgroup's OOM killer weighs every task in it by its process's
//! whole size, so it would weigh the grader too; every run's OOM score is raised to the maximum by its launcher, so
//! a run's process always goes first (even a bomb of processes smaller than the grader filling the limit with
//! kernel memory, which no process's size counts). Under cgroup v2 a thread cannot leave its process's cgroup, and
//! every run gets a cgroup of its own, joined by its launcher.
//!
//! Agents (`referee::process`), which live beside their match's thread, always get cgroups of their own. Their
//! launcher is born in the thread's slot and leaves it before it execs the agent; the thread waits for the agent's
//! first line before it does anything else, so no run of that thread can end (and empty the slot) in between.

use std::cell::RefCell;
use std::path::PathBuf;

use super::cgroup::{kill_all_in, v1_parent_dirs, RunCgroup};
use super::Limits;

/// The most tasks of the grader in a slot at once: the grading thread and the runner's threads of one run.
const GRADER_TASKS: u64 = 8;

/// A run's cgroups.
#[derive(Debug)]
pub enum Placement {
    /// Cgroups of its own, which the launcher joins; removed (or pooled) when dropped.
    Own(RunCgroup),
    /// The starting thread's slot: the run is born in these folders.
    Thread(Vec<PathBuf>),
}

impl Placement {
    /// The cgroups for a run started from this thread with `limits` (`name` names new folders): this thread's
    /// slot under cgroup v1, else cgroups of the run's own.
    ///
    /// # Errors
    /// A message naming the folder or file that could not be made or written.
    pub fn for_run(name: &str, limits: &Limits) -> Result<Placement, String> {
        let Some(parents) = v1_parent_dirs() else { return RunCgroup::create(name, limits).map(Placement::Own) };
        // The grading thread and the runner's threads for the run (its pipes, its wait) count against the slot's
        // pids limit: room for them on top (the run's own processes are also bound by RLIMIT_NPROC).
        let limits = &Limits { processes: limits.processes + GRADER_TASKS, ..*limits };
        let key = (limits.memory_bytes, limits.processes);
        let taken = SLOT.try_with(|slot| {
            let mut slot = slot.borrow_mut();
            if let Some(current) = slot.as_ref().filter(|s| s.cgroup.key() == key) {
                return Ok(Placement::Thread(current.cgroup.dirs().to_vec()));
            }
            // Other limits: leave the old slot (moving back) before taking a new one.
            *slot = None;
            let cgroup = RunCgroup::create(name, limits)?;
            let tid = thread_id();
            for (i, dir) in cgroup.dirs().iter().enumerate() {
                if std::fs::write(dir.join("tasks"), &tid).is_err() {
                    // Not movable here: back out and let the launcher join the run's own cgroups.
                    for parent in &parents[..i.min(parents.len())] {
                        let _ = std::fs::write(parent.join("tasks"), &tid);
                    }
                    return Ok(Placement::Own(cgroup));
                }
            }
            let dirs = cgroup.dirs().to_vec();
            *slot = Some(Slot { cgroup, parents: parents.clone() });
            Ok(Placement::Thread(dirs))
        });
        // Asked while the thread is being torn down: a cgroup of the run's own.
        taken.unwrap_or_else(|_| RunCgroup::create(name, limits).map(Placement::Own))
    }

    /// The cgroup folders the launcher must join (none for a run born in its thread's slot).
    pub fn launcher_dirs(&self) -> &[PathBuf] {
        match self {
            Placement::Own(cgroup) => cgroup.dirs(),
            Placement::Thread(_) => &[],
        }
    }

    /// After the run's program has ended: kills whatever it left in its cgroups and says how many there were. A
    /// slot that held any is retired: this thread leaves it and the next run gets a fresh one.
    pub fn finish(&mut self) -> usize {
        match self {
            Placement::Own(cgroup) => cgroup.kill_all(),
            Placement::Thread(dirs) => {
                let found = kill_all_in(dirs);
                if found > 0 {
                    let _ = SLOT.try_with(|slot| slot.borrow_mut().take().map(Slot::retire));
                }
                found
            }
        }
    }
}

/// This thread's slot: the cgroups it sits in, and the grader's own cgroup folders to return to.
#[derive(Debug)]
struct Slot {
    cgroup: RunCgroup,
    parents: Vec<PathBuf>,
}

impl Slot {
    /// Leaves the slot for good: its cgroups are removed once empty, never pooled (the processes just killed may
    /// still be exiting, or wait unreaped, and count against its pids limit).
    fn retire(mut self) {
        self.cgroup.spend();
    }
}

impl Drop for Slot {
    /// Moves this thread back to the grader's cgroups; the slot's own cgroups are dropped after this (pooled when
    /// empty, otherwise removed once they empty).
    fn drop(&mut self) {
        let tid = thread_id();
        for parent in &self.parents {
            let _ = std::fs::write(parent.join("tasks"), &tid);
        }
    }
}

thread_local! {
    static SLOT: RefCell<Option<Slot>> = const { RefCell::new(None) };
}

/// This thread's id as cgroup v1's `tasks` file takes it (cgroups exist only on Linux; elsewhere no slot is ever
/// made, and the empty id would be refused).
fn thread_id() -> String {
    #[cfg(target_os = "linux")]
    {
        rustix::thread::gettid().as_raw_nonzero().get().to_string()
    }
    #[cfg(not(target_os = "linux"))]
    {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cgroup_of(pid: u32) -> String {
        std::fs::read_to_string(format!("/proc/{pid}/cgroup")).unwrap_or_default()
    }

    #[test]
    fn runs_are_born_in_their_threads_slot_which_is_kept_when_clean_and_retired_when_not() {
        if v1_parent_dirs().is_none() || !super::super::sandbox::is_root() {
            eprintln!("SKIPPED thread slots: only as root under cgroup v1");
            return;
        }
        std::thread::spawn(|| {
            let limits = Limits::default();
            let mut first = Placement::for_run(&format!("{}-slot-test-1", std::process::id()), &limits).unwrap();
            let Placement::Thread(dirs) = &first else { panic!("not a thread slot: {first:?}") };
            let dirs = dirs.clone();
            assert!(first.launcher_dirs().is_empty());
            // A process started from this thread is born in every cgroup of the slot, with no move.
            let mut child = std::process::Command::new("sleep").arg("0.01").spawn().unwrap();
            let membership = cgroup_of(child.id());
            for dir in &dirs {
                let name = dir.file_name().unwrap().to_string_lossy().into_owned();
                assert!(membership.contains(&name), "{membership} lacks {name}");
            }
            child.wait().unwrap();
            // Nothing left: the slot is kept for the next run.
            assert_eq!(first.finish(), 0);
            let mut second = Placement::for_run(&format!("{}-slot-test-2", std::process::id()), &limits).unwrap();
            assert!(matches!(&second, Placement::Thread(d) if *d == dirs), "{second:?}");
            // A run that leaves a process behind: it is killed, and the slot is never used again.
            let mut left = std::process::Command::new("sleep").arg("30").spawn().unwrap();
            assert_eq!(second.finish(), 1);
            assert!(left.wait().unwrap().code().is_none(), "the leftover was killed");
            let third = Placement::for_run(&format!("{}-slot-test-3", std::process::id()), &limits).unwrap();
            assert!(matches!(&third, Placement::Thread(d) if *d != dirs), "{third:?}");
            // This thread is back in the grader's cgroups once it leaves its slot.
            drop(SLOT.with(|slot| slot.borrow_mut().take()));
            let mut after = std::process::Command::new("sleep").arg("0.01").spawn().unwrap();
            assert!(!cgroup_of(after.id()).contains("slot-test"), "{}", cgroup_of(after.id()));
            after.wait().unwrap();
        })
        .join()
        .unwrap();
    }
}
