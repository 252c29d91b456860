//! CPU slots for games played side by side: each running game holds one CPU of the referee's allowed set and its
//! agents are pinned to it, so with one game per core (and the waiting agent frozen) one agent thinks per core.

use std::sync::{Condvar, Mutex};

/// A pool of CPU ids.
#[derive(Debug)]
pub struct CpuSlots {
    free: Mutex<Vec<usize>>,
    ready: Condvar,
    pin: bool,
}

/// A CPU held for one game; returned to the pool when dropped.
#[derive(Debug)]
pub struct Slot<'a> {
    pool: &'a CpuSlots,
    cpu: usize,
}

impl Slot<'_> {
    /// The CPU to pin the game's agents to (`None` when pinning is off).
    pub fn pin(&self) -> Option<usize> {
        self.pool.pin.then_some(self.cpu)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut free = self.pool.free.lock().unwrap_or_else(|p| p.into_inner());
        free.push(self.cpu);
        self.pool.ready.notify_one();
    }
}

/// The CPUs this process may run on (all of `0..available_parallelism` when the set cannot be read).
pub fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        if let Ok(set) = rustix::thread::sched_getaffinity(None) {
            let cpus: Vec<usize> = (0..rustix::thread::CpuSet::MAX_CPU).filter(|&c| set.is_set(c)).collect();
            if !cpus.is_empty() {
                return cpus;
            }
        }
    }
    (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect()
}

impl CpuSlots {
    /// `jobs` slots. Pinning is on when there are at least as many allowed CPUs as jobs (more jobs than cores
    /// share cores, and pinning would only pile them up).
    pub fn new(jobs: usize) -> CpuSlots {
        let cpus = allowed_cpus();
        let pin = jobs <= cpus.len();
        let free = if pin { cpus.into_iter().take(jobs).rev().collect() } else { (0..jobs).rev().collect() };
        CpuSlots { free: Mutex::new(free), ready: Condvar::new(), pin }
    }

    /// Waits for a free CPU and holds it.
    pub fn take(&self) -> Slot<'_> {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(cpu) = free.pop() {
                return Slot { pool: self, cpu };
            }
            free = self.ready.wait(free).unwrap_or_else(|p| p.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_exclusive_and_return() {
        let pool = CpuSlots::new(1);
        let a = pool.take();
        let cpu = a.cpu;
        drop(a);
        assert_eq!(pool.take().cpu, cpu);
        assert!(!allowed_cpus().is_empty());
    }
}
