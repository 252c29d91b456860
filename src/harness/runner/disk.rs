//! A run's disk budget in its own folder (`--disk-limit`): what the folder holds is measured when the run starts
//! and every [`PERIOD`] while it runs; a run whose folder grew by more than the budget is killed and reported as
//! over it (the student's failure, named as such). With the mount layer, the private temporary folders are one
//! tmpfs of the same size (see `confine::private_temp`); Landlock keeps every other folder read-only, so the two
//! are all a run can fill.
//!
//! Measured as the blocks files really take (a sparse file costs what it holds) plus [`ENTRY_BYTES`] per entry, so
//! a million empty files (inodes, not blocks) are over the budget too. The walk never follows a link and stops as
//! soon as the budget is passed, so a hostile tree costs the grader no more than the budget's worth of entries.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a running program's folder is measured.
pub const PERIOD: Duration = Duration::from_millis(100);

/// What each file or folder costs besides its blocks (an inode and its directory entry).
pub const ENTRY_BYTES: u64 = 512;

/// The budget of one run's folder.
#[derive(Debug)]
pub struct DiskWatch {
    dir: PathBuf,
    /// What the folder held at the start.
    baseline: u64,
    /// The growth allowed (0: none watched).
    budget: u64,
    next: Instant,
}

impl DiskWatch {
    /// Starts watching `dir` with a growth budget of `budget` bytes (0: not watched).
    pub fn start(dir: &Path, budget: u64) -> DiskWatch {
        let baseline = if budget > 0 { usage(dir, u64::MAX) } else { 0 };
        DiskWatch { dir: dir.to_path_buf(), baseline, budget, next: Instant::now() + PERIOD }
    }

    /// The budget in bytes.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Whether the folder is measured now (its period has come, or `now_anyway`): `true` when it grew past the
    /// budget.
    pub fn over(&mut self, now_anyway: bool) -> bool {
        if self.budget == 0 || (!now_anyway && Instant::now() < self.next) {
            return false;
        }
        self.next = Instant::now() + PERIOD;
        let limit = self.baseline.saturating_add(self.budget);
        usage(&self.dir, limit) > limit
    }
}

/// What `dir` holds, counted up to just past `stop` (then the walk ends).
///
/// It runs while the program does, as the grader (root), over a folder the run may change: on Unix it goes by
/// descriptors (each folder opened with `O_NOFOLLOW` relative to its parent's, each entry looked at without
/// following it), so a run that swaps one of its folders for a link between two looks never makes the grader
/// walk, and count, a folder outside. Folders more than [`MAX_DEPTH`] deep are not entered.
pub fn usage(dir: &Path, stop: u64) -> u64 {
    #[cfg(unix)]
    {
        use rustix::fs::{open, Mode};
        let Ok(top) = open(dir, FOLDER, Mode::empty()) else { return 0 };
        let mut total = 0u64;
        count_folder(&top, stop, 0, &mut total);
        total
    }
    #[cfg(not(unix))]
    {
        let mut total = 0u64;
        let mut stack = vec![dir.to_path_buf()];
        while let Some(folder) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else { continue };
            for entry in entries.flatten() {
                let Ok(meta) = entry.path().symlink_metadata() else { continue };
                total = total.saturating_add(ENTRY_BYTES).saturating_add(held(&meta));
                if total > stop {
                    return total;
                }
                if meta.is_dir() {
                    stack.push(entry.path());
                }
            }
        }
        total
    }
}

/// How deep [`usage`] goes: one descriptor is open per level.
pub const MAX_DEPTH: usize = 256;

/// How [`usage`] opens a folder: never through a link.
#[cfg(unix)]
const FOLDER: rustix::fs::OFlags = rustix::fs::OFlags::RDONLY
    .union(rustix::fs::OFlags::DIRECTORY)
    .union(rustix::fs::OFlags::NOFOLLOW)
    .union(rustix::fs::OFlags::CLOEXEC);

/// Adds what the open folder `folder` (`depth` levels down) holds to `total`; `true` once `total` passed `stop`.
#[cfg(unix)]
fn count_folder(folder: &rustix::fd::OwnedFd, stop: u64, depth: usize, total: &mut u64) -> bool {
    use rustix::fs::{openat, statat, AtFlags, Dir, FileType, Mode};
    let Ok(entries) = Dir::read_from(folder) else { return false };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name.to_bytes() == b"." || name.to_bytes() == b".." {
            continue;
        }
        let Ok(stat) = statat(folder, name, AtFlags::SYMLINK_NOFOLLOW) else { continue };
        let blocks = u64::try_from(stat.st_blocks).unwrap_or(0);
        *total = total.saturating_add(ENTRY_BYTES).saturating_add(blocks.saturating_mul(512));
        if *total > stop {
            return true;
        }
        if FileType::from_raw_mode(stat.st_mode) == FileType::Directory && depth < MAX_DEPTH {
            // Swapped for a link since the look: ELOOP or ENOTDIR, and nothing is entered.
            if let Ok(sub) = openat(folder, name, FOLDER, Mode::empty()) {
                if count_folder(&sub, stop, depth + 1, total) {
                    return true;
                }
            }
        }
    }
    false
}

/// The bytes a file takes on disk (where there are no blocks to count, its length).
#[cfg(not(unix))]
fn held(meta: &std::fs::Metadata) -> u64 {
    meta.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_past_the_budget_is_found_and_a_sparse_file_costs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("given.txt"), vec![1u8; 64 << 10]).unwrap();
        let mut watch = DiskWatch::start(dir.path(), 256 << 10);
        assert!(!watch.over(true), "what was there at the start is not counted");
        std::fs::File::create(dir.path().join("sparse")).unwrap().set_len(1 << 30).unwrap();
        assert!(!watch.over(true), "a sparse file holds no blocks");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/big"), vec![1u8; 300 << 10]).unwrap();
        assert!(watch.over(true));
        assert!(!DiskWatch::start(dir.path(), 0).over(true), "a budget of 0 watches nothing");
    }
}
