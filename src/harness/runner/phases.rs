//! Where grading time goes besides the program's own: process-wide totals of wall time per step of a graded run
//! (the fresh copy, the disk budget's measuring, the launch, the cleanup...), always kept (two clock reads per
//! step, nothing next to a 10 ms program) and read by `referee bench harness`, which prints them per run.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A step of grading a submission, timed apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Leasing a uid for the submission (and checking it is clean).
    Lease,
    /// Laying the hand-in out in its scratch folder and giving it to the run's uid.
    LayOut,
    /// Taking the built tree back from the run's uid.
    TakeBack,
    /// The fresh copy of the built tree for one case, given to the run's uid.
    Copy,
    /// The runner before the spawn: the program's path, the marker, the cgroup, the launcher's request.
    Prepare,
    /// Measuring the run's folder at the start and at the end (the disk budget).
    DiskMeasure,
    /// Spawning the launcher (or the program): until `spawn` returns.
    Spawn,
    /// From the spawn to the main process's exit: the launcher's setup, then the program itself.
    Program,
    /// From the exit to the end of both output streams (and the leftovers' kill).
    Drain,
    /// After the streams: orphans, System V objects, the launcher's report, the cgroup's cleanup.
    Finish,
    /// Removing a case's copy afterwards (and the submission's scratch folder).
    Remove,
    /// Judging a case's output and building its result.
    Judge,
    /// The Python syntax check (only after a case exited nonzero).
    Syntax,
    /// Storing a submission's result.
    Store,
}

impl Phase {
    /// Every phase, in the order they happen.
    pub const ALL: [Phase; 14] = [
        Phase::Lease,
        Phase::LayOut,
        Phase::TakeBack,
        Phase::Copy,
        Phase::Prepare,
        Phase::DiskMeasure,
        Phase::Spawn,
        Phase::Program,
        Phase::Drain,
        Phase::Finish,
        Phase::Remove,
        Phase::Judge,
        Phase::Syntax,
        Phase::Store,
    ];

    /// Its name in the bench's output.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Lease => "lease",
            Phase::LayOut => "lay out",
            Phase::TakeBack => "take back",
            Phase::Copy => "copy",
            Phase::Remove => "remove",
            Phase::Prepare => "prepare",
            Phase::DiskMeasure => "disk measure",
            Phase::Spawn => "spawn",
            Phase::Program => "launch+program",
            Phase::Drain => "drain",
            Phase::Finish => "finish",
            Phase::Judge => "judge",
            Phase::Syntax => "syntax",
            Phase::Store => "store",
        }
    }
}

static TOTALS: [AtomicU64; Phase::ALL.len()] = [const { AtomicU64::new(0) }; Phase::ALL.len()];

/// Adds the time since `since` to `phase`; returns now, so consecutive steps chain.
pub fn add(phase: Phase, since: Instant) -> Instant {
    let now = Instant::now();
    let nanos = u64::try_from(now.saturating_duration_since(since).as_nanos()).unwrap_or(u64::MAX);
    TOTALS[phase as usize].fetch_add(nanos, Ordering::Relaxed);
    now
}

/// Runs `f`, adding its time to `phase`.
pub fn time<T>(phase: Phase, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    add(phase, start);
    value
}

/// The totals so far, in the order of [`Phase::ALL`] (subtract two readings to time a stretch).
pub fn totals() -> Vec<(Phase, Duration)> {
    Phase::ALL.iter().map(|&p| (p, Duration::from_nanos(TOTALS[p as usize].load(Ordering::Relaxed)))).collect()
}
