//! Scratch copies of submissions: folders are copied, zips extracted (guarded against path escapes and bombs).
//! How a hand-in name becomes a student id is [`super::ids`].

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::harness::runner::own_disk;
use crate::harness::runner::sandbox::{hand_over, Sandbox};
use crate::harness::runner::walk::{self, refusal, MAX_DEPTH};

/// The most a submission may unpack to.
pub const MAX_BYTES: u64 = 256 << 20;
/// The most entries (files, folders and links together) a submission may hold.
pub const MAX_FILES: usize = 20_000;
/// The longest a submission may take to be laid out (unpacked or copied): far more than any hand-in the limits
/// above let through needs (20,000 entries take about a second), so only a hand-in built to stall the grader
/// meets it, and it is refused as its own failure.
pub const LAY_OUT_TIME: std::time::Duration = std::time::Duration::from_secs(60);

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
    /// Refused for its own shape: too large, too many entries, too deep, names in conflict, too slow to lay out.
    /// The student's failure, with the reason.
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
    lay_out_within(source, dest, sandbox, LAY_OUT_TIME)
}

/// [`lay_out`] within `time` (past it, the hand-in is refused).
///
/// # Errors
/// See [`lay_out`].
pub fn lay_out_within(
    source: &Path,
    dest: &Path,
    sandbox: &Sandbox,
    time: std::time::Duration,
) -> Result<PathBuf, WorkspaceError> {
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WorkspaceError::Io { path, source }
    };
    readable_kind(source).map_err(io_at(source))?;
    // The hand-in as the TA's listing names it may be a link (Gradescope's class folder links the submission): it
    // is followed here, at the top only; inside, the walk never follows one.
    let resolved = fs::canonicalize(source).map_err(io_at(source))?;
    let source = resolved.as_path();
    fs::create_dir_all(dest).map_err(io_at(dest))?;
    let mut budget = Budget::new(source);
    budget.deadline = std::time::Instant::now().checked_add(time);
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
    hand_over(dest, sandbox).map_err(|e| match refusal(&e) {
        Some(why) => budget.refused(&why.0),
        None => io_at(dest)(e),
    })?;
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
    let mut budget = Budget::new(source);
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
            hand_over(dest, sandbox).map_err(|e| match refusal(&e) {
                Some(why) => budget.refused(&why.0),
                None => io_at(dest)(e),
            })
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
        // A filesystem of a case's own inside it may still be being unmounted in the background.
        settle();
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

/// Removes the folder `dir` and everything in it, however deep ([`walk::remove_tree`]: iterative, by descriptors,
/// links never followed). A grader that is not root may find a folder a run (of its own uid) closed to itself,
/// mode 000, which only root lists and empties as it is: it is opened to the grader first, so nothing a run did
/// leaves its copy behind.
///
/// # Errors
/// When something in it cannot be removed.
pub fn remove_tree(dir: &Path) -> io::Result<()> {
    walk::remove_tree(dir)
}

/// Unmounts a case's filesystem of its own ([`own_disk::OwnDisk`]) and removes its mount point off the grading
/// path: a detached unmount waits on the kernel's grace period (about 5 ms a case measured here, more than every
/// other grading step together), and the run's processes are all gone before its copy is given up. Folders
/// discarded later are removed after it (one queue), and [`settle`] waits for it.
pub fn discard_disk(disk: own_disk::OwnDisk) {
    reaper().discard_job(Job::Disk(disk));
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

/// What the background remover is given: a closed folder, or a case's filesystem to unmount.
enum Job {
    Tree(PathBuf),
    Disk(own_disk::OwnDisk),
}

impl Job {
    /// Does it, on whichever thread calls.
    fn run(self) {
        match self {
            Job::Tree(dir) => {
                let _ = remove_tree(&dir);
            }
            Job::Disk(disk) => drop(disk),
        }
    }
}

/// The background remover: a queue of jobs and a count of those not yet done.
struct Reaper {
    queue: std::sync::Mutex<Option<std::sync::mpsc::Sender<Job>>>,
    pending: std::sync::Mutex<usize>,
    done: std::sync::Condvar,
}

static REAPER: std::sync::OnceLock<Reaper> = std::sync::OnceLock::new();

fn reaper() -> &'static Reaper {
    REAPER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let spawned = std::thread::Builder::new().name("referee-discard".into()).spawn(move || {
            for job in rx {
                job.run();
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
    /// Queues the closed folder `dir`.
    fn discard(&self, dir: PathBuf) {
        self.discard_job(Job::Tree(dir));
    }

    /// Queues `job`; does it at once when there is no background thread.
    fn discard_job(&self, job: Job) {
        let queue = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        let Some(tx) = queue.as_ref() else {
            job.run();
            return;
        };
        *self.pending.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        if let Err(unsent) = tx.send(job) {
            unsent.0.run();
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

/// Checks that the folder `source` fits the limits of one submission (entries, bytes, depth), without copying
/// anything (it stops at the first limit passed). A zip is not measured here: its limits are checked as it is
/// extracted.
///
/// # Errors
/// [`WorkspaceError::TooLarge`] past a limit, [`WorkspaceError::Io`] for an unreadable folder.
pub fn measure(source: &Path) -> Result<(), WorkspaceError> {
    if !source.is_dir() {
        return Ok(());
    }
    let mut budget = Budget::new(source);
    #[cfg(unix)]
    {
        // The top as the TA names it, a link included (see `lay_out_within`); nothing inside is followed.
        let source =
            &fs::canonicalize(source).map_err(|e| WorkspaceError::Io { path: source.to_path_buf(), source: e })?;
        let top = walk::open_top(source).map_err(|e| WorkspaceError::Io { path: source.to_path_buf(), source: e })?;
        walk::walk(top, MAX_DEPTH, |step| match step {
            walk::Step::Enter(..) => budget.add(0),
            walk::Step::Other(entry) if entry.kind() == rustix::fs::FileType::RegularFile => {
                budget.add(u64::try_from(entry.stat.st_size).unwrap_or(0))
            }
            walk::Step::Other(_) => budget.add(0),
            walk::Step::Leave(_) => Ok(()),
        })
        .map_err(|e| budget.walk_error(source, e))
    }
    #[cfg(not(unix))]
    {
        let mut pending = vec![source.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let io_at = |source| WorkspaceError::Io { path: dir.clone(), source };
            for entry in fs::read_dir(&dir).map_err(io_at)? {
                let entry = entry.map_err(io_at)?;
                let kind = entry.file_type().map_err(io_at)?;
                if kind.is_dir() {
                    budget.add(0)?;
                    pending.push(entry.path());
                } else {
                    budget.add(if kind.is_file() { entry.metadata().map_err(io_at)?.len() } else { 0 })?;
                }
            }
        }
        Ok(())
    }
}

fn is_junk(name: &str) -> bool {
    name == "__MACOSX" || name == ".DS_Store"
}

/// What one submission has used of its limits so far: bytes, entries (files, folders and links alike), time.
struct Budget {
    bytes: u64,
    files: usize,
    origin: PathBuf,
    deadline: Option<std::time::Instant>,
}

impl Budget {
    /// An empty budget for the submission at `origin`, with no deadline.
    fn new(origin: &Path) -> Budget {
        Budget { bytes: 0, files: 0, origin: origin.to_path_buf(), deadline: None }
    }

    /// Counts one more entry of `bytes` (0 for a folder or a link).
    fn add(&mut self, bytes: u64) -> Result<(), WorkspaceError> {
        self.bytes = self.bytes.saturating_add(bytes);
        self.files += 1;
        if self.bytes > MAX_BYTES || self.files > MAX_FILES {
            return Err(self.refused(&format!(
                "larger than the limit of {} MiB in {} files and folders",
                MAX_BYTES >> 20,
                MAX_FILES
            )));
        }
        if self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err(self.refused(&format!(
                "took more than {} s to lay out (the limit for unpacking or copying a hand-in)",
                LAY_OUT_TIME.as_secs()
            )));
        }
        Ok(())
    }

    /// The refusal of this submission for `why`.
    fn refused(&self, why: &str) -> WorkspaceError {
        WorkspaceError::TooLarge { path: self.origin.clone(), message: why.to_string() }
    }

    /// A walk of the folder `top` that stopped, as this submission's error: a refusal of its shape is the
    /// submission's, a read that failed is the grader's (at the full path).
    #[cfg(unix)]
    fn walk_error(&self, top: &Path, e: walk::WalkError<WorkspaceError>) -> WorkspaceError {
        match e {
            walk::WalkError::Refused(why) => self.refused(&why.0),
            walk::WalkError::Io { path, source } => WorkspaceError::Io { path: top.join(path), source },
            walk::WalkError::Visit(e) => e,
        }
    }
}

/// Copies regular files and folders. Symbolic links are skipped (they could point anywhere), or with `links` made
/// again as the same links, never followed: a built tree whose program a build step turned into a link keeps it,
/// so its runs are refused for the link itself, and say so. FIFOs, sockets and devices are skipped. Every entry
/// counts in `budget`; a tree nested deeper than [`MAX_DEPTH`] is refused.
///
/// The walk goes by descriptors on both sides ([`walk::walk`]; each entry opened or made relative to its folder's
/// descriptor with `O_NOFOLLOW`). Each folder and file is made with the mode [`hand_over`] would give it (`0700`;
/// `0600`, `0700` for a file with an execute bit) and, with `owned`, its owner, as it is written: `to` is then a
/// new folder already the run's, and no second walk hands the copy over.
#[cfg(unix)]
fn copy_tree(
    from: &Path,
    to: &Path,
    budget: &mut Budget,
    links: bool,
    owned: Option<&Sandbox>,
) -> Result<(), WorkspaceError> {
    use rustix::fs::{openat, FileType, Mode, OFlags};
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |source: io::Error| WorkspaceError::Io { path, source }
    };
    let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    // A grader that is not root, reading a folder of its own closed to itself (mode 000: an unzipped hand-in
    // can be so), opens it to itself for the copy and closes it again: root would read it as it is.
    let (top, reopened) = match rustix::fs::open(from, dir_flags, Mode::empty()) {
        Err(rustix::io::Errno::ACCESS) => match open_to_owner(from, 0o500) {
            Some(mode) => (rustix::fs::open(from, dir_flags, Mode::empty()), Some(mode)),
            None => (Err(rustix::io::Errno::ACCESS), None),
        },
        other => (other, None),
    };
    let top = top.map_err(|e| io_at(from)(e.into()));
    let copied = top.and_then(|top| {
        let dest = rustix::fs::open(to, dir_flags, Mode::empty()).map_err(|e| io_at(to)(e.into()))?;
        let settle = |file: &fs::File, mode: u32| match owned {
            Some(sandbox) => settle_mode_and_owner(file, mode, sandbox),
            None => settle_mode_and_owner(file, mode, &Sandbox { identity: None, ..Sandbox::default() }),
        };
        let mut dests = vec![dest];
        walk::walk(top, MAX_DEPTH, |step| {
            let Some(here) = dests.last() else { return Ok(()) };
            match step {
                walk::Step::Enter(entry, _) => {
                    budget.add(0)?;
                    let made = rustix::fs::mkdirat(here, entry.name, Mode::RWXU)
                        .and_then(|()| openat(here, entry.name, dir_flags, Mode::empty()))
                        .map_err(io::Error::from)
                        .and_then(|fd| {
                            let file = fs::File::from(fd);
                            settle(&file, 0o700)?;
                            Ok(file)
                        })
                        .map_err(io_at(&to.join(entry.path)))?;
                    dests.push(made.into());
                    Ok(())
                }
                walk::Step::Leave(_) => {
                    dests.pop();
                    Ok(())
                }
                walk::Step::Other(entry) => match entry.kind() {
                    FileType::Symlink if links => {
                        budget.add(0)?;
                        rustix::fs::readlinkat(entry.parent, entry.name, Vec::new())
                            .and_then(|pointed| rustix::fs::symlinkat(pointed.as_c_str(), here, entry.name))
                            .map_err(|e| io_at(&to.join(entry.path))(e.into()))
                    }
                    FileType::RegularFile => {
                        budget.add(u64::try_from(entry.stat.st_size).unwrap_or(0))?;
                        let mode = if entry.stat.st_mode & 0o111 != 0 { 0o700 } else { 0o600 };
                        copy_file_at(&entry, here, mode, &settle).map_err(io_at(&to.join(entry.path)))
                    }
                    _ => Ok(()),
                },
            }
        })
        .map_err(|e| budget.walk_error(from, e))
    });
    let closed = reopened.map_or(Ok(()), |mode| close_again(from, mode).map_err(io_at(from)));
    copied.and(closed)
}

/// Copies the regular file `entry` into the folder `to` under the same name, as a new file of mode `mode` given
/// its owner by `settle` before a byte is written (the data goes through `copy_file_range`, in the kernel, where
/// the file system allows). A file of the grader's own it cannot read (mode 000) is read as root would, its mode
/// given back after; an entry that turned into something else since it was listed is skipped.
#[cfg(unix)]
fn copy_file_at(
    entry: &walk::Entry<'_>,
    to: &rustix::fd::OwnedFd,
    mode: u32,
    settle: &dyn Fn(&fs::File, u32) -> io::Result<()>,
) -> io::Result<()> {
    use rustix::fs::{fchmod, fstat, openat, FileType, Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let me = rustix::process::geteuid();
    let (src, give_back) = match openat(entry.parent, entry.name, flags, Mode::empty()) {
        Err(rustix::io::Errno::ACCESS) if !me.is_root() && entry.stat.st_uid == me.as_raw() => {
            let was = Mode::from_raw_mode(entry.stat.st_mode & 0o7777);
            rustix::fs::chmodat(entry.parent, entry.name, was | Mode::RUSR, rustix::fs::AtFlags::empty())?;
            (openat(entry.parent, entry.name, flags, Mode::empty()), Some(was))
        }
        other => (other, None),
    };
    let src = match src {
        Ok(src) => src,
        Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOENT) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if let Some(was) = give_back {
        fchmod(&src, was)?;
    }
    if !fstat(&src).is_ok_and(|s| FileType::from_raw_mode(s.st_mode) == FileType::RegularFile) {
        return Ok(());
    }
    let create = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    // `mode` is 0o600 or 0o700 (see `copy_tree`); written as flags, whose raw type differs between systems.
    let perms = if mode & 0o100 != 0 { Mode::RWXU } else { Mode::RUSR | Mode::WUSR };
    let dst = fs::File::from(openat(to, entry.name, create, perms)?);
    settle(&dst, mode)?;
    io::copy(&mut fs::File::from(src), &mut &dst)?;
    Ok(())
}

/// [`copy_tree`] where there are no descriptors to walk by: by paths, iteratively, links skipped.
#[cfg(not(unix))]
fn copy_tree(
    from: &Path,
    to: &Path,
    budget: &mut Budget,
    _links: bool,
    _owned: Option<&Sandbox>,
) -> Result<(), WorkspaceError> {
    let mut pending = vec![(from.to_path_buf(), to.to_path_buf(), 0usize)];
    while let Some((from, to, depth)) = pending.pop() {
        let io_at = |path: &Path| {
            let path = path.to_path_buf();
            move |source| WorkspaceError::Io { path, source }
        };
        for entry in fs::read_dir(&from).map_err(io_at(&from))? {
            let entry = entry.map_err(io_at(&from))?;
            let kind = entry.file_type().map_err(io_at(&entry.path()))?;
            let target = to.join(entry.file_name());
            if kind.is_dir() {
                if depth >= MAX_DEPTH {
                    return Err(budget.refused(&walk::Refused::too_deep(&entry.path(), MAX_DEPTH).0));
                }
                budget.add(0)?;
                fs::create_dir_all(&target).map_err(io_at(&target))?;
                pending.push((entry.path(), target, depth + 1));
            } else if kind.is_file() {
                budget.add(entry.metadata().map_err(io_at(&entry.path()))?.len())?;
                fs::copy(entry.path(), &target).map_err(io_at(&target))?;
            }
        }
    }
    Ok(())
}

/// Adds the bits `grant` to the mode of `path` when it is a folder or file of the grader's own, the grader is not
/// root and the bits are missing; the mode it had, to give back with [`close_again`]. Only the grader's own files
/// (its hand-in folder, its scratch copy) are changed, and only for the moment of the copy: whatever changes them
/// in between (a run of a grader that is not root is its own uid) could change their modes itself.
#[cfg(unix)]
fn open_to_owner(path: &Path, grant: u32) -> Option<u32> {
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

/// Gives `path` back the `mode` [`open_to_owner`] found.
#[cfg(unix)]
fn close_again(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

/// The longest path inside a zip that is unpacked (bytes): far longer than any real project's, short enough that
/// the path of its copy stays within what the system opens by path.
const MAX_ZIP_PATH: usize = 1024;

/// Unpacks the zip `path` into `dest`. Every file and folder counts in `budget` (folders an entry only implies
/// too). The archive's own shape is refused as the submission's failure before anything is written for it: a
/// name that is both a file and a folder (`a` and `a/b`), folders nested more than [`MAX_DEPTH`] deep, a path
/// longer than [`MAX_ZIP_PATH`] bytes or with a component longer than 255 bytes.
fn extract_zip(path: &Path, dest: &Path, budget: &mut Budget) -> Result<(), WorkspaceError> {
    use std::collections::HashMap;
    let bad = |e: zip::result::ZipError| WorkspaceError::BadZip { path: path.to_path_buf(), message: e.to_string() };
    let file = fs::File::open(path).map_err(|source| WorkspaceError::Io { path: path.to_path_buf(), source })?;
    let mut archive = zip::ZipArchive::new(file).map_err(bad)?;
    // What the archive has laid out so far, by relative path: true for a folder.
    let mut seen: HashMap<PathBuf, bool> = HashMap::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(bad)?;
        // `enclosed_name` refuses absolute paths and `..`: nothing lands outside `dest`.
        let Some(relative) = entry.enclosed_name() else { continue };
        if relative.components().any(|c| is_junk(&c.as_os_str().to_string_lossy())) {
            continue;
        }
        let parts: Vec<&std::ffi::OsStr> = relative
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(part) => Some(part),
                _ => None,
            })
            .collect();
        let Some((last, folders)) = parts.split_last() else { continue };
        let shown = relative.display().to_string();
        let folder_depth = if entry.is_dir() { parts.len() } else { folders.len() };
        if folder_depth > MAX_DEPTH {
            return Err(budget.refused(&format!("nests folders more than {MAX_DEPTH} deep")));
        }
        if relative.as_os_str().len() > MAX_ZIP_PATH || parts.iter().any(|p| p.len() > 255) {
            let short: String = shown.chars().take(80).collect();
            return Err(budget.refused(&format!(
                "holds a path longer than {MAX_ZIP_PATH} bytes or a name longer than 255 bytes ({short}...)"
            )));
        }
        let mut prefix = PathBuf::new();
        for folder in folders.iter().copied().chain(entry.is_dir().then_some(*last)) {
            prefix.push(folder);
            match seen.get(&prefix) {
                Some(true) => {}
                Some(false) => return Err(conflict(budget, &prefix)),
                None => {
                    budget.add(0)?;
                    seen.insert(prefix.clone(), true);
                }
            }
        }
        let target = dest.join(&prefix);
        let io_at = |target: &Path| {
            let target = target.to_path_buf();
            move |source| WorkspaceError::Io { path: target, source }
        };
        if entry.is_dir() {
            fs::create_dir_all(&target).map_err(io_at(&target))?;
            continue;
        }
        fs::create_dir_all(&target).map_err(io_at(&target))?;
        prefix.push(last);
        if seen.insert(prefix.clone(), false) == Some(true) {
            return Err(conflict(budget, &prefix));
        }
        let target = dest.join(&prefix);
        budget.add(entry.size())?;
        let mut out = fs::File::create(&target).map_err(io_at(&target))?;
        // Read at most what is left of the budget, whatever the header claims.
        let room = MAX_BYTES.saturating_sub(budget.bytes.saturating_sub(entry.size())) + 1;
        let written = io::copy(&mut io::Read::take(&mut entry, room), &mut out).map_err(io_at(&target))?;
        if written >= room {
            return Err(budget.refused("unpacks past the size limit"));
        }
        if let Some(mode) = executable_mode(entry.unix_mode()) {
            crate::harness::runner::platform::set_mode(&target, mode).map_err(io_at(&target))?;
        }
    }
    Ok(())
}

/// The refusal of a zip that holds `name` both as a file and as a folder.
fn conflict(budget: &Budget, name: &Path) -> WorkspaceError {
    let shown: String = name.display().to_string().chars().take(120).collect();
    budget.refused(&format!("holds '{shown}' both as a file and as a folder"))
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

    /// Writes a zip at `path` of `entries` (name, is a folder); a name the zip library will not write twice is left
    /// out. Returns what was written: each file's name with its content.
    fn zip_of(path: &Path, entries: &[(String, bool)]) -> Vec<(String, bool)> {
        let mut zip = zip::ZipWriter::new(fs::File::create(path).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        let mut written = Vec::new();
        for (name, folder) in entries {
            let added = if *folder {
                zip.add_directory(name.as_str(), options).map_err(io::Error::other)
            } else {
                zip.start_file(name.as_str(), options)
                    .map_err(io::Error::other)
                    .and_then(|()| io::Write::write_all(&mut zip, name.as_bytes()))
            };
            if added.is_ok() {
                written.push((name.clone(), *folder));
            }
        }
        zip.finish().unwrap();
        written
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

        /// Issue 32, item 3: a zip holding `a` and `a/b` (a file and a folder of one name) was "the grader could
        /// not read the hand-in". Any zip of files and folders named from a tiny alphabet (so names collide) is now
        /// laid out whole or refused as the hand-in's own failure, naming the conflict, never the grader's.
        #[test]
        fn any_zip_is_laid_out_whole_or_refused_as_the_hand_ins_own(
            entries in proptest::collection::vec(("[ab](/[ab]){0,3}", proptest::bool::ANY), 1..10)
        ) {
            let tmp = tempfile::tempdir().unwrap();
            let zip = tmp.path().join("h.zip");
            let written = zip_of(&zip, &entries);
            // The model: a name that is a file and also a folder (an entry's, or on the way to another entry).
            let files: Vec<&str> = written.iter().filter(|(_, d)| !*d).map(|(n, _)| n.as_str()).collect();
            let conflict = written.iter().any(|(name, folder)| {
                let parts: Vec<&str> = name.split('/').collect();
                let folders = if *folder { parts.len() } else { parts.len() - 1 };
                (1..=folders).any(|k| files.contains(&parts[..k].join("/").as_str()))
            });
            let dest = tmp.path().join("dest");
            match lay_out(&zip, &dest, &Sandbox::default()) {
                Ok(_) => {
                    proptest::prop_assert!(!conflict, "{written:?} laid out");
                    for name in files {
                        proptest::prop_assert_eq!(fs::read_to_string(dest.join(name)).unwrap(), name);
                    }
                }
                Err(e) => {
                    proptest::prop_assert!(!e.is_graders(), "blamed on the grader: {}", e.explained());
                    proptest::prop_assert!(conflict, "{written:?} refused: {e}");
                    proptest::prop_assert!(e.to_string().contains("both as a file and as a folder"), "{e}");
                }
            }
        }
    }

    /// Folders count in a hand-in's budget: a zip of empty folders (0.9 MB for 10,000, which took 8 s to lay out)
    /// is refused past the entry limit, as the hand-in's failure.
    #[test]
    fn empty_folders_count_in_the_budget() {
        // On a tmpfs where there is one: on this project's ext4 VM each folder made and removed waits on the journal.
        let shm = Path::new("/dev/shm");
        let tmp = if shm.is_dir() { tempfile::tempdir_in(shm).unwrap() } else { tempfile::tempdir().unwrap() };
        let zip = tmp.path().join("h.zip");
        let names: Vec<(String, bool)> = (0..=MAX_FILES).map(|i| (format!("d{i}"), true)).collect();
        zip_of(&zip, &names);
        let e = lay_out(&zip, &tmp.path().join("dest"), &Sandbox::default()).unwrap_err();
        assert!(!e.is_graders() && e.to_string().contains("files and folders"), "{e}");
    }

    /// A hand-in that takes longer than its time to lay out is refused as its own failure, naming the limit.
    #[test]
    fn laying_out_has_a_time_budget() {
        let tmp = tempfile::tempdir().unwrap();
        let source = tmp.path().join("h");
        fs::create_dir_all(source.join("src")).unwrap();
        fs::write(source.join("src/A.java"), "class A {}").unwrap();
        let dest = tmp.path().join("dest");
        assert!(lay_out_within(&source, &dest, &Sandbox::default(), std::time::Duration::from_secs(60)).is_ok());
        let e = lay_out_within(&source, &tmp.path().join("d2"), &Sandbox::default(), std::time::Duration::ZERO)
            .unwrap_err();
        assert!(!e.is_graders() && e.to_string().contains("to lay out"), "{e}");
    }

    /// A folder hand-in nested deeper than the walks go is refused as the hand-in's failure, with the reason (on
    /// main: copied by recursion, with no limit); measuring says the same. A built tree that deep is refused when
    /// it is taken back (on main: "the grader could not take the built folder back", the grader blamed).
    #[test]
    fn a_tree_too_deep_is_the_hand_ins_failure() {
        let tmp = tempfile::tempdir().unwrap();
        let source = tmp.path().join("h");
        let mut deep = source.clone();
        for _ in 0..=MAX_DEPTH {
            deep.push("d");
        }
        fs::create_dir_all(&deep).unwrap();
        let e = lay_out(&source, &tmp.path().join("dest"), &Sandbox::default()).unwrap_err();
        assert!(!e.is_graders(), "{}", e.explained());
        assert!(e.to_string().contains(&format!("nests folders more than {MAX_DEPTH} deep")), "{e}");
        assert!(matches!(measure(&source), Err(WorkspaceError::TooLarge { .. })));
        let e = crate::harness::runner::sandbox::take_back(&source, &Sandbox::default()).unwrap_err();
        assert!(refusal(&e).is_some(), "{e}");
        remove_tree(&source).unwrap();
        assert!(!source.exists());
    }
}
