//! Scratch copies of submissions: folders are copied, zips extracted (guarded against path escapes and bombs).
//! How a hand-in name becomes a student id is [`super::ids`].

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::harness::runner::sandbox::{hand_over, Sandbox};

/// The most a submission may unpack to.
pub const MAX_BYTES: u64 = 256 << 20;
/// The most files a submission may hold.
pub const MAX_FILES: usize = 20_000;

/// Why a submission could not be laid out (the student's problem: a broken or oversized archive).
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// Where.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Not a readable zip.
    #[error("{path}: not a readable zip archive: {message}")]
    BadZip {
        /// The archive.
        path: PathBuf,
        /// The zip library's message.
        message: String,
    },
    /// Too large or too many files.
    #[error("{path}: {message}")]
    TooLarge {
        /// The submission.
        path: PathBuf,
        /// Which limit.
        message: String,
    },
}

/// Lays `source` (a folder or a `.zip`) out in `dest` and returns the folder that holds the code: when the copy
/// has a single top-level folder and no files beside it (a zipped `netid-HW2-P3/` folder), that folder.
///
/// # Errors
/// [`WorkspaceError`] for an unreadable, broken or oversized submission.
pub fn lay_out(source: &Path, dest: &Path, sandbox: &Sandbox) -> Result<PathBuf, WorkspaceError> {
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WorkspaceError::Io { path, source }
    };
    readable_kind(source).map_err(io_at(source))?;
    fs::create_dir_all(dest).map_err(io_at(dest))?;
    let mut budget = Budget { bytes: 0, files: 0, origin: source.to_path_buf() };
    if source.is_dir() {
        copy_tree(source, dest, &mut budget, false, None)?;
    } else {
        extract_zip(source, dest, &mut budget)?;
    }
    let mut root = dest.to_path_buf();
    loop {
        let entries: Vec<_> = fs::read_dir(&root)
            .map_err(io_at(&root))?
            .filter_map(Result::ok)
            .filter(|e| !is_junk(&e.file_name().to_string_lossy()))
            .collect();
        match entries.as_slice() {
            [only] if only.path().is_dir() => root = only.path(),
            _ => break,
        }
    }
    hand_over(dest, sandbox).map_err(io_at(dest))?;
    Ok(root)
}

/// Copies the folder `source` as it is (no top folder unwrapped, its links kept as links) into `dest`, with the
/// limits of one submission, and gives the copy to the sandbox user (see [`hand_over`]): what `check` runs in when
/// runs are another user, and the fresh copy of the built tree each case of `grade` runs in.
///
/// # Errors
/// [`WorkspaceError`] for an unreadable or oversized folder.
pub fn copy_folder(source: &Path, dest: &Path, sandbox: &Sandbox) -> Result<(), WorkspaceError> {
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WorkspaceError::Io { path, source }
    };
    let mut budget = Budget { bytes: 0, files: 0, origin: source.to_path_buf() };
    if let Some(parent) = dest.parent() {
        fs::create_dir_all(parent).map_err(io_at(parent))?;
    }
    // A new folder (every case's copy) is the run's as it is written, in one pass: no second walk to hand it over.
    // Its top stays the grader's until everything in it is written, so no process of the run's uid (a case running
    // beside it) can swap a folder in it for a link while the grader writes there.
    match owned_dir(dest, &Sandbox { identity: None, ..sandbox.clone() }) {
        Ok(()) => {
            copy_tree(source, dest, &mut budget, true, Some(sandbox))?;
            #[cfg(unix)]
            fs::File::open(dest).and_then(|top| settle_mode_and_owner(&top, 0o700, sandbox)).map_err(io_at(dest))?;
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            copy_tree(source, dest, &mut budget, true, None)?;
            hand_over(dest, sandbox).map_err(io_at(dest))
        }
        Err(e) => Err(io_at(dest)(e)),
    }
}

/// Makes the folder `path` as [`hand_over`] leaves one: `0700`, owned by the run's uid.
fn owned_dir(path: &Path, sandbox: &Sandbox) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        fs::DirBuilder::new().mode(0o700).create(path)?;
        settle_mode_and_owner(&fs::File::open(path)?, 0o700, sandbox)
    }
    #[cfg(not(unix))]
    {
        let _ = sandbox;
        fs::create_dir(path)
    }
}

/// Gives the open file or folder `file` to the run's uid (if runs have one) and makes sure its mode is `mode`
/// (a umask may have taken bits away).
#[cfg(unix)]
fn settle_mode_and_owner(file: &fs::File, mode: u32, sandbox: &Sandbox) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(id) = sandbox.identity {
        let owner = (rustix::fs::Uid::from_raw(id.uid), rustix::fs::Gid::from_raw(id.gid));
        rustix::fs::fchown(file, Some(owner.0), Some(owner.1))?;
    }
    if file.metadata()?.permissions().mode() & 0o7777 != mode {
        // std's fchmod, with the mode as u32 on every Unix (rustix's mode type is u16 on macOS).
        file.set_permissions(fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

/// Copies the regular file `from` (whose metadata is `meta`) to the new file `to`, made the run's before a byte
/// is written (the data goes through `copy_file_range`, in the kernel, where the file system allows).
fn copy_file_owned(from: &Path, to: &Path, meta: &fs::Metadata, sandbox: &Sandbox) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let mode = if meta.permissions().mode() & 0o111 != 0 { 0o700 } else { 0o600 };
        let nofollow = rustix::fs::OFlags::NOFOLLOW.bits() as i32;
        let mut src = fs::OpenOptions::new().read(true).custom_flags(nofollow).open(from)?;
        let mut dst = fs::OpenOptions::new().write(true).create_new(true).mode(mode).custom_flags(nofollow).open(to)?;
        settle_mode_and_owner(&dst, mode, sandbox)?;
        io::copy(&mut src, &mut dst)?;
        Ok(())
    }
    #[cfg(not(unix))]
    {
        let _ = (meta, sandbox);
        fs::copy(from, to).map(drop)
    }
}

/// Removes `dir` (a case's copy, a student's scratch folder), off the grading path where that is safe.
///
/// On this project's ext4 VM a single `rmdir` waits about 4 ms on the journal (the same removal on a tmpfs takes
/// microseconds), longer than every other step of a case besides the program: so when runs are another uid than
/// the grader, the folder is first closed (renamed beside itself to a name of its own, then owned by the grader
/// and `0700`, two quick operations) so that no run of any uid, including the next one lent the same uid, can
/// enter it, and then removed by a background thread while the next case runs. [`settle`] waits until every
/// folder discarded so far is gone. Where it cannot be closed (runs are the grader's own uid, or a step fails),
/// it is removed at once, as before. Every process of the run is dead before a folder is discarded.
pub fn discard(dir: &Path, sandbox: &Sandbox) {
    if sandbox.identity.is_none() || !dir.is_dir() {
        let _ = remove_tree(dir);
        return;
    }
    match close_for_removal(dir) {
        Some(closed) => reaper().discard(closed),
        None => {
            let _ = remove_tree(dir);
        }
    }
}

/// Removes the folder `dir` and everything in it. A grader that is not root may find a folder a run (of its own
/// uid) closed to itself, mode 000, which only root lists and empties as it is: the tree is then given back its
/// owner's modes through [`hand_over`] (by descriptors, links neither followed nor changed) and removed again, so
/// nothing a run did leaves its copy behind.
///
/// # Errors
/// When the folder cannot be removed even then.
pub fn remove_tree(dir: &Path) -> io::Result<()> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != io::ErrorKind::NotFound && dir.is_dir() => {
            hand_over(dir, &Sandbox::default())?;
            fs::remove_dir_all(dir)
        }
        other => other,
    }
}

/// Waits until every folder given to [`discard`] is removed (or could not be).
pub fn settle() {
    if let Some(reaper) = REAPER.get() {
        reaper.settle();
    }
}

/// Renames `dir` beside itself to a name no one else uses and makes it the grader's, `0700`; the new path, or
/// `None` when a step failed (then nothing is renamed, or the rename stands and the folder is at the new path,
/// which the caller then removes at once).
fn close_for_removal(dir: &Path) -> Option<PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let parent = dir.parent()?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let closed = parent.join(format!(".discarded-{}-{n}", std::process::id()));
    fs::rename(dir, &closed).ok()?;
    #[cfg(unix)]
    {
        use rustix::fs::{fchmod, fchown, open, Mode, OFlags};
        let (uid, gid) = (rustix::process::geteuid(), rustix::process::getegid());
        // Through a descriptor of the folder itself: nothing at that name is followed.
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let shut = open(&closed, flags, Mode::empty()).and_then(|folder| {
            fchown(&folder, Some(uid), Some(gid))?;
            fchmod(&folder, Mode::from_raw_mode(0o700))
        });
        if shut.is_err() {
            let _ = remove_tree(&closed);
            return None;
        }
    }
    Some(closed)
}

/// The background remover: a queue of closed folders and a count of those not yet removed.
struct Reaper {
    queue: std::sync::Mutex<Option<std::sync::mpsc::Sender<PathBuf>>>,
    pending: std::sync::Mutex<usize>,
    done: std::sync::Condvar,
}

static REAPER: std::sync::OnceLock<Reaper> = std::sync::OnceLock::new();

fn reaper() -> &'static Reaper {
    REAPER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<PathBuf>();
        let spawned = std::thread::Builder::new().name("referee-discard".into()).spawn(move || {
            for dir in rx {
                let _ = fs::remove_dir_all(&dir);
                if let Some(reaper) = REAPER.get() {
                    reaper.finished();
                }
            }
        });
        Reaper {
            queue: std::sync::Mutex::new(spawned.ok().map(|_| tx)),
            pending: std::sync::Mutex::new(0),
            done: std::sync::Condvar::new(),
        }
    })
}

impl Reaper {
    /// Queues `dir`; removes it at once when there is no background thread.
    fn discard(&self, dir: PathBuf) {
        let queue = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        let Some(tx) = queue.as_ref() else {
            let _ = fs::remove_dir_all(&dir);
            return;
        };
        *self.pending.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        if let Err(unsent) = tx.send(dir) {
            let _ = fs::remove_dir_all(unsent.0);
            self.finished();
        }
    }

    fn finished(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        *pending = pending.saturating_sub(1);
        self.done.notify_all();
    }

    fn settle(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        while *pending > 0 {
            pending = self.done.wait(pending).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl WorkspaceError {
    /// Whether laying out the hand-in failed through the grader (it could not read the hand-in or write its
    /// copy) rather than through what the student handed in (a broken or oversized archive).
    pub fn is_graders(&self) -> bool {
        matches!(self, WorkspaceError::Io { .. })
    }

    /// The line that says so, for the student and the TA alike.
    pub fn explained(&self) -> String {
        if self.is_graders() {
            format!("the grader could not read the hand-in: {self}")
        } else {
            format!("the submission could not be unpacked: {self}")
        }
    }
}

/// `Ok` when `path` is a folder or a regular file: anything else (a broken link, a pipe, a device) is refused before
/// it is opened, since opening a pipe would wait forever.
///
/// # Errors
/// Why it cannot be read as a hand-in.
pub fn readable_kind(path: &Path) -> io::Result<()> {
    let meta = fs::metadata(path)?;
    if meta.is_dir() || meta.is_file() {
        Ok(())
    } else {
        Err(io::Error::other("neither a folder nor a file (a pipe, a socket or a device)"))
    }
}

/// Checks that the folder `source` fits the limits of one submission, without copying anything (it stops
/// counting at the first limit passed). A zip is not measured here: its limits are checked as it is extracted.
///
/// # Errors
/// [`WorkspaceError::TooLarge`] past a limit, [`WorkspaceError::Io`] for an unreadable folder.
pub fn measure(source: &Path) -> Result<(), WorkspaceError> {
    fn walk(dir: &Path, budget: &mut Budget) -> Result<(), WorkspaceError> {
        let io_at = |source| WorkspaceError::Io { path: dir.to_path_buf(), source };
        for entry in fs::read_dir(dir).map_err(io_at)? {
            let entry = entry.map_err(io_at)?;
            let kind = entry.file_type().map_err(io_at)?;
            if kind.is_dir() {
                walk(&entry.path(), budget)?;
            } else if kind.is_file() {
                budget.add(entry.metadata().map_err(io_at)?.len())?;
            }
        }
        Ok(())
    }
    if !source.is_dir() {
        return Ok(());
    }
    walk(source, &mut Budget { bytes: 0, files: 0, origin: source.to_path_buf() })
}

fn is_junk(name: &str) -> bool {
    name == "__MACOSX" || name == ".DS_Store"
}

struct Budget {
    bytes: u64,
    files: usize,
    origin: PathBuf,
}

impl Budget {
    fn add(&mut self, bytes: u64) -> Result<(), WorkspaceError> {
        self.bytes += bytes;
        self.files += 1;
        if self.bytes > MAX_BYTES || self.files > MAX_FILES {
            return Err(WorkspaceError::TooLarge {
                path: self.origin.clone(),
                message: format!("larger than the limit of {} MiB in {} files", MAX_BYTES >> 20, MAX_FILES),
            });
        }
        Ok(())
    }
}

/// Copies regular files and folders. Symbolic links are skipped (they could point anywhere), or with `links` made
/// again as the same links, never followed: a built tree whose program a build step turned into a link keeps it,
/// so its runs are refused for the link itself, and say so.
///
/// With `owned`, `to` is a new folder already the run's, and each folder and file is made with the owner and mode
/// [`hand_over`] would give it (`0700`; `0600`, `0700` for a file with an execute bit) as it is written, files
/// opened with `O_NOFOLLOW`: no second walk to hand the copy over.
fn copy_tree(
    from: &Path,
    to: &Path,
    budget: &mut Budget,
    links: bool,
    owned: Option<&Sandbox>,
) -> Result<(), WorkspaceError> {
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WorkspaceError::Io { path, source }
    };
    let entries = match fs::read_dir(from) {
        // A grader that is not root, reading a folder of its own closed to itself (mode 000: an unzipped hand-in
        // can be so), opens it to itself for the copy and closes it again: root would read it as it is.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => match open_to_owner(from, 0o500) {
            Some(mode) => {
                let copied = copy_tree(from, to, budget, links, owned);
                let closed = close_again(from, mode).map_err(io_at(from));
                return copied.and(closed);
            }
            None => return Err(io_at(from)(e)),
        },
        other => other.map_err(io_at(from))?,
    };
    for entry in entries {
        let entry = entry.map_err(io_at(from))?;
        let kind = entry.file_type().map_err(io_at(&entry.path()))?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            match owned {
                Some(sandbox) => owned_dir(&target, sandbox),
                None => fs::create_dir_all(&target),
            }
            .map_err(io_at(&target))?;
            copy_tree(&entry.path(), &target, budget, links, owned)?;
        } else if kind.is_symlink() && links {
            #[cfg(unix)]
            {
                let pointed = fs::read_link(entry.path()).map_err(io_at(&entry.path()))?;
                std::os::unix::fs::symlink(pointed, &target).map_err(io_at(&target))?;
            }
        } else if kind.is_file() {
            let meta = entry.metadata().map_err(io_at(&entry.path()))?;
            budget.add(meta.len())?;
            let copy = || match owned {
                Some(sandbox) => copy_file_owned(&entry.path(), &target, &meta, sandbox),
                None => fs::copy(entry.path(), &target).map(drop),
            };
            match copy() {
                // As for a folder above: a file of the grader's own it cannot read (mode 000), read as root would.
                Err(e) if e.kind() == io::ErrorKind::PermissionDenied => match open_to_owner(&entry.path(), 0o400) {
                    Some(mode) => {
                        let copied = copy();
                        close_again(&entry.path(), mode).and(copied)
                    }
                    None => Err(e),
                },
                other => other,
            }
            .map_err(io_at(&target))?;
        }
    }
    Ok(())
}

/// Adds the bits `grant` to the mode of `path` when it is a folder or file of the grader's own, the grader is not
/// root and the bits are missing; the mode it had, to give back with [`close_again`]. Only the grader's own files
/// (its hand-in folder, its scratch copy) are changed, and only for the moment of the copy: whatever changes them
/// in between (a run of a grader that is not root is its own uid) could change their modes itself.
fn open_to_owner(path: &Path, grant: u32) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let me = rustix::process::geteuid();
        let meta = fs::symlink_metadata(path).ok()?;
        let mode = meta.mode() & 0o7777;
        let kind = meta.file_type();
        let closed = mode & grant != grant && (kind.is_dir() || kind.is_file());
        if me.is_root() || meta.uid() != me.as_raw() || !closed {
            return None;
        }
        fs::set_permissions(path, fs::Permissions::from_mode(mode | grant)).ok()?;
        Some(mode)
    }
    #[cfg(not(unix))]
    {
        let _ = (path, grant);
        None
    }
}

/// Gives `path` back the `mode` [`open_to_owner`] found.
fn close_again(path: &Path, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

fn extract_zip(path: &Path, dest: &Path, budget: &mut Budget) -> Result<(), WorkspaceError> {
    let bad = |e: zip::result::ZipError| WorkspaceError::BadZip { path: path.to_path_buf(), message: e.to_string() };
    let file = fs::File::open(path).map_err(|source| WorkspaceError::Io { path: path.to_path_buf(), source })?;
    let mut archive = zip::ZipArchive::new(file).map_err(bad)?;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(bad)?;
        // `enclosed_name` refuses absolute paths and `..`: nothing lands outside `dest`.
        let Some(relative) = entry.enclosed_name() else { continue };
        if relative.components().any(|c| is_junk(&c.as_os_str().to_string_lossy())) {
            continue;
        }
        let target = dest.join(relative);
        let io_at = |source| WorkspaceError::Io { path: target.clone(), source };
        if entry.is_dir() {
            fs::create_dir_all(&target).map_err(io_at)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(io_at)?;
        }
        budget.add(entry.size())?;
        let mut out = fs::File::create(&target).map_err(io_at)?;
        // Read at most what is left of the budget, whatever the header claims.
        let room = MAX_BYTES.saturating_sub(budget.bytes - entry.size()) + 1;
        let written = io::copy(&mut io::Read::take(&mut entry, room), &mut out).map_err(io_at)?;
        if written >= room {
            return Err(WorkspaceError::TooLarge {
                path: path.to_path_buf(),
                message: "unpacks past the size limit".into(),
            });
        }
        if let Some(mode) = executable_mode(entry.unix_mode()) {
            crate::harness::runner::platform::set_mode(&target, mode).map_err(io_at)?;
        }
    }
    Ok(())
}

/// The mode to give an extracted file whose archive entry has Unix mode `mode`: `0o755` for a regular file with
/// an execute bit (a program graded as `{dir}/prog` must start, as it did on the student's machine), `None`
/// (the default mode) otherwise. Set-id and sticky bits are never kept, nor modes of links or devices.
fn executable_mode(mode: Option<u32>) -> Option<u32> {
    const TYPE: u32 = 0o170_000;
    const REGULAR: u32 = 0o100_000;
    let mode = mode?;
    let regular = mode & TYPE == REGULAR || mode & TYPE == 0;
    (regular && mode & 0o111 != 0).then_some(0o755)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_files_execute_bit_is_kept() {
        assert_eq!(executable_mode(Some(0o100_755)), Some(0o755));
        assert_eq!(executable_mode(Some(0o744)), Some(0o755));
        assert_eq!(executable_mode(Some(0o104_755)), Some(0o755), "set-uid is dropped");
        assert_eq!(executable_mode(Some(0o100_644)), None);
        assert_eq!(executable_mode(Some(0o120_777)), None, "a link stays a plain file");
        assert_eq!(executable_mode(None), None);
    }

    #[test]
    fn a_discarded_copy_is_closed_to_its_run_at_once_and_gone_once_settled() {
        if !crate::harness::runner::sandbox::is_root() {
            eprintln!("SKIPPED discard: only as root can a copy belong to another uid");
            return;
        }
        let parent = tempfile::tempdir().unwrap();
        let copy = parent.path().join("case-0");
        fs::create_dir_all(copy.join("sub")).unwrap();
        fs::write(copy.join("sub/out.txt"), b"the hidden case's arguments").unwrap();
        let sandbox = Sandbox {
            identity: Some(crate::harness::runner::sandbox::Identity { uid: 600_999, gid: 65_534 }),
            ..Sandbox::default()
        };
        hand_over(&copy, &sandbox).unwrap();
        // Closed: renamed away, the grader's and 0700, so no uid lent later can enter it while it is removed.
        let closed = close_for_removal(&copy).unwrap();
        assert!(!copy.exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = fs::symlink_metadata(&closed).unwrap();
            assert_eq!((meta.uid(), meta.mode() & 0o777), (rustix::process::geteuid().as_raw(), 0o700));
        }
        fs::remove_dir_all(&closed).unwrap();
        // Through the background remover: nothing is left once settled.
        fs::create_dir_all(copy.join("sub")).unwrap();
        hand_over(&copy, &sandbox).unwrap();
        discard(&copy, &sandbox);
        assert!(!copy.exists(), "its name is free at once");
        settle();
        assert_eq!(fs::read_dir(parent.path()).unwrap().count(), 0, "nothing left behind");
    }

    #[test]
    fn a_case_copy_is_the_runs_with_the_modes_a_hand_over_gives() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if !crate::harness::runner::sandbox::is_root() {
            eprintln!("SKIPPED copy ownership: only as root can a copy belong to another uid");
            return;
        }
        let built = tempfile::tempdir().unwrap();
        fs::create_dir_all(built.path().join("pkg")).unwrap();
        fs::write(built.path().join("pkg/A.class"), b"cafebabe").unwrap();
        fs::write(built.path().join("run.sh"), b"#!/bin/sh\n").unwrap();
        fs::set_permissions(built.path().join("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::symlink("run.sh", built.path().join("link")).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let copy = scratch.path().join("case-0");
        let id = crate::harness::runner::sandbox::Identity { uid: 600_998, gid: 65_534 };
        copy_folder(built.path(), &copy, &Sandbox { identity: Some(id), ..Sandbox::default() }).unwrap();
        let seen = |p: &str| {
            let m = fs::symlink_metadata(copy.join(p)).unwrap();
            (m.uid(), m.mode() & 0o7777)
        };
        assert_eq!(seen(""), (600_998, 0o700));
        assert_eq!(seen("pkg"), (600_998, 0o700));
        assert_eq!(seen("pkg/A.class"), (600_998, 0o600));
        assert_eq!(seen("run.sh"), (600_998, 0o700));
        assert_eq!(fs::read(copy.join("pkg/A.class")).unwrap(), b"cafebabe");
        assert_eq!(fs::read_link(copy.join("link")).unwrap(), Path::new("run.sh"), "a link stays a link");
    }

    #[test]
    fn measuring_finds_a_folder_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("src")).unwrap();
        fs::write(dir.path().join("src/A.java"), b"class A {}").unwrap();
        assert!(measure(dir.path()).is_ok());
        // A sparse file: past the byte limit without writing it.
        fs::File::create(dir.path().join("src/big")).unwrap().set_len(MAX_BYTES + 1).unwrap();
        assert!(matches!(measure(dir.path()), Err(WorkspaceError::TooLarge { .. })));
    }
}
