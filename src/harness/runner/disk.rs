//! A run's disk budget in its own folder (`--disk-limit`). Where the grader could give the run's folder a
//! filesystem of its own (see [`super::own_disk`]), the kernel enforces the budget and this only names the run
//! that reached it, from one `statvfs` a look. Elsewhere what the folder holds is walked when the run starts and
//! every [`PERIOD`] while it runs; a run whose folder grew by more than the budget is killed and reported as over
//! it (the student's failure, named as such). With the mount layer, the private temporary folders are one tmpfs of
//! the same size (see `confine::private_temp`); Landlock keeps every other folder read-only, so the two are all a
//! run can fill.
//!
//! Measured as the blocks files really take (a sparse file costs what it holds) plus [`ENTRY_BYTES`] per entry, so
//! a million empty files (inodes, not blocks) are over the budget too. The walk never follows a link and stops as
//! soon as the budget is passed, so a hostile tree costs the grader no more than the budget's worth of entries; it
//! cannot see a file deleted while still open, which only the filesystem of the run's own counts.

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
    /// The folder is on a filesystem of its own: measured by `statvfs`, not walked.
    own: bool,
    next: Instant,
}

impl DiskWatch {
    /// Starts watching `dir` with a growth budget of `budget` bytes (0: not watched).
    pub fn start(dir: &Path, budget: u64) -> DiskWatch {
        let own = budget > 0 && super::own_disk::usage(dir).is_some();
        let baseline = match (budget, own) {
            (0, _) => 0,
            (_, true) => super::own_disk::usage(dir).unwrap_or(0),
            (_, false) => usage(dir, u64::MAX),
        };
        DiskWatch { dir: dir.to_path_buf(), baseline, budget, own, next: Instant::now() + PERIOD }
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
        if self.own {
            return super::own_disk::usage(&self.dir).is_some_and(|held| held > limit);
        }
        usage(&self.dir, limit) > limit
    }
}

/// What `dir` holds, counted up to just past `stop` (then the walk ends).
///
/// It runs while the program does, as the grader (root), over a folder the run may change: on Unix it goes by
/// descriptors (each folder opened with `O_NOFOLLOW` relative to its parent's, each entry looked at without
/// following it), so a run that swaps one of its folders for a link between two looks never makes the grader
/// walk, and count, a folder outside. It keeps its place on the heap, not the stack, and goes down to any depth:
/// at most [`OPEN_FOLDERS`] descriptors are held, and a folder whose descriptor was let go is found again through
/// its child's `..`, checked to be the same folder (device and inode) as before.
pub fn usage(dir: &Path, stop: u64) -> u64 {
    #[cfg(unix)]
    {
        walk(dir, stop)
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

/// How many folders' descriptors [`usage`] holds at once (the deepest ones and the top).
pub const OPEN_FOLDERS: usize = 64;

/// How [`usage`] opens a folder: never through a link.
#[cfg(unix)]
const FOLDER: rustix::fs::OFlags = rustix::fs::OFlags::RDONLY
    .union(rustix::fs::OFlags::DIRECTORY)
    .union(rustix::fs::OFlags::NOFOLLOW)
    .union(rustix::fs::OFlags::CLOEXEC);

/// One folder on the walk's way down: its descriptor while held, who it is, and the subfolders still to enter.
#[cfg(unix)]
struct Level {
    fd: Option<rustix::fd::OwnedFd>,
    id: (rustix::fs::Dev, u64),
    pending: Vec<std::ffi::CString>,
}

/// The walk of [`usage`] on Unix: each folder's entries are counted when it is opened, its subfolders entered
/// one by one, depth first, with the way back kept in a list of [`Level`]s.
#[cfg(unix)]
fn walk(dir: &Path, stop: u64) -> u64 {
    use rustix::fs::{open, Mode};
    let Ok(top) = open(dir, FOLDER, Mode::empty()) else { return 0 };
    let mut total = 0u64;
    let Some(first) = enter(top, stop, &mut total) else { return total };
    let mut levels = vec![first];
    while let Some(last) = levels.last_mut() {
        let Some(name) = last.pending.pop() else {
            let done = levels.pop();
            if let (Some(done), Some(parent)) = (done, levels.last_mut()) {
                if parent.fd.is_none() {
                    parent.fd = back_up(done.fd.as_ref(), parent.id);
                    if parent.fd.is_none() {
                        // Moved away since: what it still held is not counted, nothing outside is entered.
                        parent.pending.clear();
                    }
                }
            }
            continue;
        };
        let Some(fd) = last.fd.as_ref() else {
            last.pending.clear();
            continue;
        };
        // Swapped for a link since the look: ELOOP or ENOTDIR, and nothing is entered.
        let Ok(sub) = rustix::fs::openat(fd, name.as_c_str(), FOLDER, Mode::empty()) else { continue };
        let Some(level) = enter(sub, stop, &mut total) else { return total };
        levels.push(level);
        // The top stays open; of the others, only the deepest.
        if levels.len() > OPEN_FOLDERS + 1 {
            let far = levels.len() - OPEN_FOLDERS - 1;
            if far > 0 {
                levels[far].fd = None;
            }
        }
    }
    total
}

/// Counts the entries of the open folder `fd` into `total`; its [`Level`], or `None` once `total` passed `stop`.
#[cfg(unix)]
fn enter(fd: rustix::fd::OwnedFd, stop: u64, total: &mut u64) -> Option<Level> {
    use rustix::fs::{fstat, statat, AtFlags, Dir, FileType};
    let id = fstat(&fd).map(|s| (s.st_dev, s.st_ino)).unwrap_or((0, 0));
    let mut pending = Vec::new();
    if let Ok(entries) = Dir::read_from(&fd) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name.to_bytes() == b"." || name.to_bytes() == b".." {
                continue;
            }
            let Ok(stat) = statat(&fd, name, AtFlags::SYMLINK_NOFOLLOW) else { continue };
            let blocks = u64::try_from(stat.st_blocks).unwrap_or(0);
            *total = total.saturating_add(ENTRY_BYTES).saturating_add(blocks.saturating_mul(512));
            if *total > stop {
                return None;
            }
            if FileType::from_raw_mode(stat.st_mode) == FileType::Directory {
                pending.push(name.to_owned());
            }
        }
    }
    Some(Level { fd: Some(fd), id, pending })
}

/// The folder `id` again, as the parent (`..`) of the folder `child` just walked: `None` when it is another
/// folder now (the run moved things) or cannot be opened.
#[cfg(unix)]
fn back_up(child: Option<&rustix::fd::OwnedFd>, id: (rustix::fs::Dev, u64)) -> Option<rustix::fd::OwnedFd> {
    let parent = rustix::fs::openat(child?, c"..", FOLDER, rustix::fs::Mode::empty()).ok()?;
    let found = rustix::fs::fstat(&parent).ok()?;
    ((found.st_dev, found.st_ino) == id).then_some(parent)
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

    /// Before, folders more than 256 deep were not entered: what a run kept there was never counted.
    #[test]
    fn files_at_any_depth_are_counted_and_a_sibling_after_a_deep_chain_too() {
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().join("a");
        for _ in 0..1500 {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("big"), vec![1u8; 256 << 10]).unwrap();
        std::fs::create_dir(dir.path().join("b")).unwrap();
        std::fs::write(dir.path().join("b/after"), vec![1u8; 128 << 10]).unwrap();
        let total = usage(dir.path(), u64::MAX);
        let least = (256u64 << 10) + (128 << 10) + 1500 * ENTRY_BYTES;
        assert!(total >= least, "counted {total} of at least {least}");
        assert!(usage(dir.path(), 1 << 10) <= (1 << 10) + (256 << 10) + ENTRY_BYTES, "it stops at the budget");
    }
}
