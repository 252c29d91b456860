//! A grader's scratch folder, marked with its owner so that the next grader can tell a folder left by a killed
//! grader from one a live grader is using, and remove it.
//!
//! The mark is a file `.referee-owner` holding the owner's pid and the kernel's start time of that process (from
//! `/proc/<pid>/stat`): a pid alone could have been reused by an unrelated process since. A folder without a mark
//! (one being created this instant, or not ours) is never touched.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::harness::runner::sandbox::start_time;
use crate::harness::runner::Sandbox;

/// The name of the owner mark inside a scratch folder.
pub const OWNER_FILE: &str = ".referee-owner";
/// Every grader's scratch folder starts with this (`referee-`, `referee-arena-`).
pub const PREFIX: &str = "referee-";

/// A marked scratch folder, removed when dropped (and by the next grader if this one is killed).
#[derive(Debug)]
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// Removes the scratch folders in `parent` whose graders are gone, then makes a new one named
    /// `<prefix>XXXXXX` (the prefix should start with [`PREFIX`]) and marks it as this process's.
    ///
    /// # Errors
    /// When the folder or its mark cannot be written.
    pub fn create(parent: &Path, prefix: &str) -> io::Result<Scratch> {
        fs::create_dir_all(parent)?;
        remove_abandoned(parent);
        let dir = tempfile::Builder::new().prefix(prefix).tempdir_in(parent)?;
        if let Some(mark) = owner_mark(std::process::id()) {
            fs::write(dir.path().join(OWNER_FILE), mark)?;
        }
        Ok(Scratch { dir })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Scratch {
    /// Waits for the folders discarded inside it (removed in the background, [`super::workspace::discard`]) before
    /// the folder itself goes: a `check` or a game ends with nothing of its runs left behind.
    fn drop(&mut self) {
        super::workspace::settle();
        // What a run closed to itself (a grader that is not root cannot empty a mode-000 folder as it is).
        let _ = super::workspace::remove_tree(self.dir.path());
    }
}

/// The folder `check` works in: a copy of the student's folder, built there, from which every case gets a fresh
/// copy of its own ([`super::CaseCopy`]); all in a marked scratch folder, removed when dropped.
#[derive(Debug)]
pub struct RunCopy {
    scratch: Scratch,
    dir: PathBuf,
}

impl RunCopy {
    /// The copy of the student's folder (given to the runs' uid until it is built, then taken back).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the copy of run `n` goes.
    pub fn case_dir(&self, n: usize) -> PathBuf {
        self.scratch.path().join(format!("case-{n}"))
    }
}

/// A copy of `dir` in a new scratch folder in the system temp folder, given to the runs' uid (a leased one as
/// root, the grader's own otherwise): the student's own folder is never where a run writes.
///
/// # Errors
/// A one-line message: the folder is too large, unreadable, or the copy cannot be written.
pub fn run_copy(dir: &Path, sandbox: &Sandbox) -> Result<RunCopy, String> {
    let scratch = Scratch::create(&std::env::temp_dir(), "referee-check-").map_err(|e| e.to_string())?;
    super::class::make_traversable(scratch.path()).map_err(|e| e.to_string())?;
    let copy = scratch.path().join("copy");
    super::workspace::copy_folder(dir, &copy, sandbox).map_err(|e| e.to_string())?;
    Ok(RunCopy { scratch, dir: copy })
}

/// Removes every marked scratch folder in `parent` whose owner is no longer running; returns the ones removed.
pub fn remove_abandoned(parent: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(parent) else { return Vec::new() };
    let mut removed = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let ours = entry.file_name().to_string_lossy().starts_with(PREFIX) && path.is_dir();
        let Some(mark) = ours.then(|| fs::read_to_string(path.join(OWNER_FILE)).ok()).flatten() else { continue };
        if !owner_is_running(&mark) && super::workspace::remove_tree(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

/// `"<pid> <start time>"` for process `pid`, or `None` where `/proc` cannot say.
fn owner_mark(pid: u32) -> Option<String> {
    Some(format!("{pid} {}\n", start_time(pid)?))
}

/// Whether the process a mark names is still the one running under that pid. An unreadable mark counts as
/// running: only a folder known to be abandoned is removed.
fn owner_is_running(mark: &str) -> bool {
    let mut fields = mark.split_whitespace();
    let (Some(Ok(pid)), Some(Ok(started))) =
        (fields.next().map(str::parse::<u32>), fields.next().map(str::parse::<u64>))
    else {
        return true;
    };
    start_time(pid) == Some(started)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_graders_folder_is_removed_and_a_live_ones_kept() {
        let parent = tempfile::tempdir().unwrap();
        // A process that has exited: its pid names no process, or a newer one with another start time.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead_pid = child.id();
        let dead_start = start_time(dead_pid).unwrap_or(1);
        child.wait().unwrap();
        let dead = parent.path().join("referee-dead01");
        fs::create_dir_all(dead.join("alice/submission")).unwrap();
        fs::write(dead.join(OWNER_FILE), format!("{dead_pid} {dead_start}\n")).unwrap();
        // Our own pid with a start time that is not ours: the pid was reused.
        let reused = parent.path().join("referee-reused");
        fs::create_dir_all(&reused).unwrap();
        let own = std::process::id();
        fs::write(reused.join(OWNER_FILE), format!("{own} {}\n", start_time(own).unwrap() + 1)).unwrap();
        let unmarked = parent.path().join("referee-unmarked");
        fs::create_dir_all(&unmarked).unwrap();
        let other = parent.path().join("someone-else");
        fs::create_dir_all(&other).unwrap();
        fs::write(other.join(OWNER_FILE), "1 1\n").unwrap();

        let live = Scratch::create(parent.path(), "referee-").unwrap();
        assert!(!dead.exists(), "the killed grader's folder is removed");
        assert!(!reused.exists(), "a reused pid is told apart by its start time");
        assert!(unmarked.exists() && other.exists(), "folders not marked as ours are left alone");
        assert!(live.path().join(OWNER_FILE).exists());

        // A second grader leaves the live one's folder alone.
        let second = Scratch::create(parent.path(), "referee-").unwrap();
        assert!(live.path().exists());
        let kept = live.path().to_path_buf();
        drop(live);
        assert!(!kept.exists(), "dropped when its grader finishes");
        drop(second);
    }
}
