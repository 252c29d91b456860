//! Resource limits of one run of untrusted code.

use std::time::Duration;

/// What one run may use. The defaults fit the course: 10 s wall clock, room for a JVM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock limit; at it the whole process tree gets SIGTERM, then SIGKILL after `grace`.
    pub timeout: Duration,
    /// Time between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// CPU seconds (RLIMIT_CPU); it also ends a runaway left behind if the grader itself is killed.
    pub cpu_seconds: u64,
    /// Data-segment bytes (RLIMIT_DATA: heap and private writable mappings). Unlike an address-space limit it
    /// lets a JVM reserve its heap and start.
    pub memory_bytes: u64,
    /// Bytes kept of stdout and of stderr each; beyond it the run is killed and marked `output limit`.
    pub output_bytes: usize,
    /// Processes and threads (RLIMIT_NPROC), applied only when runs use a dedicated user (see `Sandbox`).
    pub processes: u64,
    /// Largest file the run may write (RLIMIT_FSIZE).
    pub file_bytes: u64,
    /// What a run may write (`--disk-limit`): how much its own folder may grow (see [`super::disk`]), and the
    /// size of its private temporary folders with the mount layer. 0: not watched.
    pub disk_bytes: u64,
}

/// The default of [`Limits::disk_bytes`]: 256 MiB, as much as a hand-in may unpack to.
pub const DEFAULT_DISK_BYTES: u64 = 256 << 20;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: Duration::from_secs(10),
            grace: Duration::from_millis(500),
            cpu_seconds: 0,
            memory_bytes: 2 << 30,
            output_bytes: 8 << 20,
            processes: 512,
            file_bytes: 64 << 20,
            disk_bytes: DEFAULT_DISK_BYTES,
        }
    }
}

impl Limits {
    /// The CPU limit in force: `cpu_seconds`, or when 0, twice the wall clock plus 5 s (a JVM's JIT and GC
    /// threads use more CPU than wall time; the wall clock is the real limit).
    pub fn effective_cpu_seconds(&self) -> u64 {
        if self.cpu_seconds > 0 {
            self.cpu_seconds
        } else {
            self.timeout.as_secs() * 2 + 5
        }
    }

    /// These limits with another wall-clock limit.
    pub fn with_timeout(self, timeout: Duration) -> Limits {
        Limits { timeout, ..self }
    }
}
