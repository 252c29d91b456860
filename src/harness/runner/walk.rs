//! Walking and removing a tree a student or a run made, however deep: iteratively (an explicit stack, never one
//! call per level), by descriptors (each entry opened or removed relative to its folder's descriptor, with
//! `O_NOFOLLOW`, never by a path looked up again), with the number of open descriptors bounded.
//!
//! A walk ([`walk`]) keeps one descriptor per folder level and refuses a tree nested deeper than its limit: the
//! refusal ([`Refused`]) is the tree's own failure, with the reason, never the grader's. Removing ([`remove_tree`])
//! has no depth limit at all: it keeps at most [`REMOVE_FDS`] folders open and moves any subtree below that depth
//! up to the top folder (a `renameat` within the same tree), so a chain of any depth is emptied in linear time.

#[cfg(unix)]
use std::ffi::{CStr, CString};
use std::io;
use std::path::{Path, PathBuf};

#[cfg(unix)]
use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
#[cfg(unix)]
use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};

/// How deep a hand-in's (or a built tree's) folders may nest: deeper than any real project (a Java package tree
/// is about 10 levels), low enough that a walk's descriptors (one per level) never run short.
pub const MAX_DEPTH: usize = 128;

/// The most folders [`remove_tree`] keeps open at once.
pub const REMOVE_FDS: usize = 32;

/// Why a tree was refused: its own shape (too deep, too many entries, names in conflict), never the grader's
/// failure. Carried inside an [`io::Error`] by the walks that return one (see [`refusal`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

impl Refused {
    /// The refusal of a tree that nests folders deeper than `limit`, at `path` (relative to its top).
    pub fn too_deep(path: &Path, limit: usize) -> Refused {
        Refused(format!("nests folders more than {limit} deep (at {})", shorten(path)))
    }
}

/// The refusal carried by `e`, if `e` is one.
pub fn refusal(e: &io::Error) -> Option<&Refused> {
    e.get_ref().and_then(|inner| inner.downcast_ref::<Refused>())
}

/// `path` as a message shows it: at most about 120 characters (a deep path is mostly repetition).
fn shorten(path: &Path) -> String {
    let text = path.display().to_string();
    if text.chars().count() <= 120 {
        return text;
    }
    let head: String = text.chars().take(60).collect();
    let cut = text.char_indices().rev().nth(39).map_or(0, |(i, _)| i);
    format!("{head}...{}", &text[cut..])
}

/// One entry of a walk: where it is and what it is (its `lstat`).
#[cfg(unix)]
pub struct Entry<'a> {
    /// The folder it is in.
    pub parent: BorrowedFd<'a>,
    /// Its name there.
    pub name: &'a CStr,
    /// Its path relative to the top of the walk.
    pub path: &'a Path,
    /// 1 for an entry of the top folder, 2 one level below, and so on.
    pub depth: usize,
    /// What it is, links not followed.
    pub stat: &'a Stat,
}

#[cfg(unix)]
impl Entry<'_> {
    /// Its kind (links not followed).
    pub fn kind(&self) -> FileType {
        FileType::from_raw_mode(self.stat.st_mode)
    }
}

/// What a walk shows its visitor, in order: a folder is entered (and its descriptor given), its entries follow,
/// then it is left; anything else is shown as it is and never opened by the walk.
#[cfg(unix)]
pub enum Step<'a> {
    /// A folder, opened (`O_NOFOLLOW`): its entries come next, then [`Step::Leave`].
    Enter(Entry<'a>, BorrowedFd<'a>),
    /// A file, a link, a FIFO, a socket or a device.
    Other(Entry<'a>),
    /// Done with the folder entered last, at this depth.
    Leave(usize),
}

/// Why a walk stopped.
#[derive(Debug, thiserror::Error)]
pub enum WalkError<E> {
    /// The tree itself was refused (too deep): its failure, not the grader's.
    #[error("{0}")]
    Refused(Refused),
    /// Reading the tree failed at `path` (relative to the top).
    #[error("{}: {source}", path.display())]
    Io {
        /// Where.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The visitor stopped the walk.
    #[error("{0}")]
    Visit(E),
}

impl WalkError<io::Error> {
    /// As one [`io::Error`]: a refusal stays recognisable through [`refusal`].
    pub fn into_io(self) -> io::Error {
        match self {
            WalkError::Refused(r) => io::Error::other(r),
            WalkError::Io { path, source } if path.as_os_str().is_empty() => source,
            WalkError::Io { path, source } => io::Error::new(source.kind(), format!("{}: {source}", path.display())),
            WalkError::Visit(e) => e,
        }
    }
}

/// A folder being walked: its descriptor, the names not yet visited (last first), its path, and the mode to give
/// it back when the walk opened it to itself.
#[cfg(unix)]
struct Frame {
    fd: OwnedFd,
    pending: Vec<CString>,
    path: PathBuf,
    restore: Option<Mode>,
}

/// Walks the folder `top` (an open descriptor) depth first, entries of each folder in name order, calling `visit`
/// for each [`Step`]. A folder deeper than `limit` (the top's entries are depth 1) stops the walk with
/// [`WalkError::Refused`] before it is opened: at most `limit + 2` descriptors are open at once.
///
/// An entry that vanishes or turns into a link between its listing and its opening is passed over (links are never
/// followed). A grader that is not root, meeting a folder of its own closed to itself (mode 000), opens it to
/// itself for the walk and gives it back its mode when it leaves it; root reads it as it is.
///
/// # Errors
/// See [`WalkError`].
#[cfg(unix)]
pub fn walk<E>(
    top: OwnedFd,
    limit: usize,
    mut visit: impl FnMut(Step<'_>) -> Result<(), E>,
) -> Result<(), WalkError<E>> {
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |e: rustix::io::Errno| WalkError::Io { path, source: e.into() }
    };
    let pending = names(&top).map_err(io_at(Path::new("")))?;
    let mut stack = vec![Frame { fd: top, pending, path: PathBuf::new(), restore: None }];
    while !stack.is_empty() {
        let depth = stack.len();
        let Some(frame) = stack.last_mut() else { break };
        let Some(name) = frame.pending.pop() else {
            if let Some(done) = stack.pop() {
                // Given back its mode, unless the visitor changed it meanwhile (a hand-over sets its own).
                let opened = done.restore.map(|m| m | Mode::RUSR | Mode::XUSR);
                let now = rustix::fs::fstat(&done.fd).ok().map(|s| Mode::from_raw_mode(s.st_mode & 0o7777));
                if let (Some(mode), true) = (done.restore, now.is_some() && now == opened) {
                    let _ = rustix::fs::fchmod(&done.fd, mode);
                }
                if !stack.is_empty() {
                    visit(Step::Leave(stack.len())).map_err(WalkError::Visit)?;
                }
            }
            continue;
        };
        let path = frame.path.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name.as_bytes()));
        let stat = match rustix::fs::statat(&frame.fd, name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => stat,
            Err(rustix::io::Errno::NOENT) => continue,
            Err(e) => return Err(io_at(&path)(e)),
        };
        let entry = Entry { parent: frame.fd.as_fd(), name: &name, path: &path, depth, stat: &stat };
        if entry.kind() != FileType::Directory {
            visit(Step::Other(entry)).map_err(WalkError::Visit)?;
            continue;
        }
        if depth > limit {
            return Err(WalkError::Refused(Refused::too_deep(&path, limit)));
        }
        let Some((fd, restore)) = open_dir(frame.fd.as_fd(), &name, &stat).map_err(io_at(&path))? else { continue };
        let pending = names(&fd).map_err(io_at(&path))?;
        visit(Step::Enter(entry, fd.as_fd())).map_err(WalkError::Visit)?;
        stack.push(Frame { fd, pending, path, restore });
    }
    Ok(())
}

/// Opens the folder `name` in `parent` (whose `lstat` is `stat`) without following a link: `None` when it is gone
/// or no longer a folder. A grader that is not root opens a folder of its own closed to itself by adding `u+rx`;
/// the mode to give back comes with it.
#[cfg(unix)]
fn open_dir(parent: BorrowedFd<'_>, name: &CStr, stat: &Stat) -> rustix::io::Result<Option<(OwnedFd, Option<Mode>)>> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(parent, name, flags, Mode::empty()) {
        Ok(fd) => Ok(Some((fd, None))),
        Err(rustix::io::Errno::NOENT | rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR) => Ok(None),
        Err(rustix::io::Errno::ACCESS) if !is_root() && stat.st_uid == rustix::process::geteuid().as_raw() => {
            let mode = Mode::from_raw_mode(stat.st_mode & 0o7777);
            rustix::fs::chmodat(parent, name, mode | Mode::RUSR | Mode::XUSR, AtFlags::empty())?;
            let fd = rustix::fs::openat(parent, name, flags, Mode::empty())?;
            Ok(Some((fd, Some(mode))))
        }
        Err(e) => Err(e),
    }
}

/// The names in the folder `dir` (`.` and `..` left out), sorted, last first.
#[cfg(unix)]
fn names(dir: &OwnedFd) -> rustix::io::Result<Vec<CString>> {
    let mut names = Vec::new();
    for entry in rustix::fs::Dir::read_from(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if name != c"." && name != c".." {
            names.push(name.to_owned());
        }
    }
    names.sort_unstable_by(|a, b| b.cmp(a));
    Ok(names)
}

/// Whether this process is root (who reads and removes everything as it is).
#[cfg(unix)]
fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// Opens the folder `path` for a walk, without following a link at its last component; a grader that is not root
/// opens a folder of its own closed to itself (mode 000) by adding `u+rwx` first.
///
/// # Errors
/// When it is not a folder or cannot be opened.
#[cfg(unix)]
pub fn open_top(path: &Path) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::open(path, flags, Mode::empty()) {
        Err(rustix::io::Errno::ACCESS) if !is_root() => {
            rustix::fs::chmod(path, Mode::RWXU)?;
            Ok(rustix::fs::open(path, flags, Mode::empty())?)
        }
        other => Ok(other?),
    }
}

/// Removes `path` and everything in it, however deep, without following a link (a link at `path` is removed
/// itself). Nothing at `path` is success.
///
/// Folders are emptied through descriptors, at most [`REMOVE_FDS`] open at once: a folder below that depth is moved
/// up into the top folder under a name of the walk's own (`renameat` within the tree) and emptied from there. A
/// grader that is not root gives a folder of its own that a run closed (mode 000, or no write bit) `u+rwx` first.
///
/// # Errors
/// When something in it could not be removed (the first such error; the rest is removed all the same).
pub fn remove_tree(path: &Path) -> io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        other => other?,
    };
    if !meta.is_dir() {
        return std::fs::remove_file(path);
    }
    #[cfg(unix)]
    {
        let top = open_top(path)?;
        let emptied = empty(top);
        match std::fs::remove_dir(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => emptied,
            other => emptied.and(other),
        }
    }
    #[cfg(not(unix))]
    {
        std::fs::remove_dir_all(path)
    }
}

/// A folder being emptied: its descriptor, the names not yet removed (last first), its name in its parent, and how
/// many times it was listed again (something was still in it).
#[cfg(unix)]
struct Emptying {
    fd: OwnedFd,
    pending: Vec<CString>,
    name: Option<CString>,
    relisted: u8,
}

/// Removes everything in the open folder `top` (see [`remove_tree`]).
#[cfg(unix)]
fn empty(top: OwnedFd) -> io::Result<()> {
    use rustix::io::Errno;
    writable(&top);
    let pending = names(&top)?;
    let mut stack = vec![Emptying { fd: top, pending, name: None, relisted: 0 }];
    let mut first_error: Option<io::Error> = None;
    let mut moved = 0u64;
    fn keep(e: rustix::io::Errno, first: &mut Option<io::Error>) {
        if first.is_none() {
            *first = Some(e.into());
        }
    }
    while !stack.is_empty() {
        let depth = stack.len();
        let Some(frame) = stack.last_mut() else { break };
        let Some(name) = frame.pending.pop() else {
            // Emptied (or as far as it goes): removed from its parent, or listed again if something is still in
            // it (for the top: folders moved up into it; anywhere: what could not be removed, tried once more).
            let Some(mut done) = stack.pop() else { break };
            if let (Some(name), Some(parent)) = (&done.name, stack.last()) {
                match rustix::fs::unlinkat(&parent.fd, name.as_c_str(), AtFlags::REMOVEDIR) {
                    Ok(()) | Err(Errno::NOENT) => continue,
                    Err(Errno::NOTEMPTY | Errno::EXIST) => {}
                    Err(e) => {
                        keep(e, &mut first_error);
                        continue;
                    }
                }
            }
            if done.relisted >= 2 {
                keep(Errno::NOTEMPTY, &mut first_error);
                continue;
            }
            match names(&done.fd) {
                Ok(pending) if pending.is_empty() && done.name.is_none() => {}
                Ok(pending) => {
                    done.pending = pending;
                    done.relisted += 1;
                    stack.push(done);
                }
                Err(e) => keep(e, &mut first_error),
            }
            continue;
        };
        match rustix::fs::unlinkat(&frame.fd, name.as_c_str(), AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => continue,
            Err(Errno::ISDIR | Errno::PERM) => {}
            Err(e) => {
                keep(e, &mut first_error);
                continue;
            }
        }
        match rustix::fs::unlinkat(&frame.fd, name.as_c_str(), AtFlags::REMOVEDIR) {
            Ok(()) | Err(Errno::NOENT) => continue,
            Err(Errno::NOTEMPTY | Errno::EXIST) => {}
            Err(e) => {
                keep(e, &mut first_error);
                continue;
            }
        }
        if depth < REMOVE_FDS {
            let child = match open_child(frame.fd.as_fd(), &name) {
                Ok(Some(child)) => child,
                Ok(None) => continue,
                Err(e) => {
                    keep(e, &mut first_error);
                    continue;
                }
            };
            match names(&child) {
                Ok(pending) => stack.push(Emptying { fd: child, pending, name: Some(name), relisted: 0 }),
                Err(e) => keep(e, &mut first_error),
            }
            continue;
        }
        // Too deep to keep open: move it up into the top folder, to be emptied from there.
        let (top, rest) = stack.split_at_mut(1);
        let (Some(top), Some(from)) = (top.first_mut(), rest.last()) else { continue };
        let from = &from.fd;
        let mut tries = 0;
        loop {
            moved += 1;
            tries += 1;
            let Ok(new) = CString::new(format!(".referee-moved-{}-{moved}", std::process::id())) else { break };
            match rustix::fs::renameat(from, name.as_c_str(), &top.fd, new.as_c_str()) {
                Ok(()) => {
                    top.pending.push(new);
                    break;
                }
                Err(Errno::EXIST | Errno::NOTEMPTY | Errno::NOTDIR | Errno::ISDIR) if tries < 16 => {}
                Err(e) => {
                    keep(e, &mut first_error);
                    break;
                }
            }
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// Opens the folder `name` in `parent` for emptying (`None` when it is gone or turned into something else, which
/// is then removed as it is), made writable to a grader that is not root when it is its own.
#[cfg(unix)]
fn open_child(parent: BorrowedFd<'_>, name: &CStr) -> rustix::io::Result<Option<OwnedFd>> {
    use rustix::io::Errno;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat(parent, name, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Ok(None),
        Err(Errno::LOOP | Errno::NOTDIR) => {
            rustix::fs::unlinkat(parent, name, AtFlags::empty())?;
            return Ok(None);
        }
        Err(Errno::ACCESS) if !is_root() => {
            rustix::fs::chmodat(parent, name, Mode::RWXU, AtFlags::empty())?;
            rustix::fs::openat(parent, name, flags, Mode::empty())?
        }
        Err(e) => return Err(e),
    };
    writable(&fd);
    Ok(Some(fd))
}

/// Gives the open folder `fd` `u+rwx` when this process is not root, owns it, and it lacks them (so its entries
/// can be removed); root needs no bits.
#[cfg(unix)]
fn writable(fd: &OwnedFd) {
    if is_root() {
        return;
    }
    if let Ok(stat) = rustix::fs::fstat(fd) {
        let me = rustix::process::geteuid().as_raw();
        if stat.st_uid == me && stat.st_mode & 0o700 != 0o700 {
            let _ = rustix::fs::fchmod(fd, Mode::from_raw_mode((stat.st_mode & 0o7777) | 0o700));
        }
    }
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;
    use std::os::unix::fs::PermissionsExt;

    /// What a generated tree holds at each relative path.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Kind {
        Dir,
        File,
        Link,
        Fifo,
        Socket,
    }

    /// Builds a tree under `top` from `ops` (parent choice, kind, name) and a chain of `chain` folders under the
    /// folder `chain_at` picks; returns the model: every relative path made, with its kind. Links point outside
    /// the tree (`outside`), at the tree's own top, and nowhere.
    fn build(
        top: &Path,
        outside: &Path,
        ops: &[(usize, u8, String)],
        chain: usize,
        chain_at: usize,
    ) -> BTreeMap<PathBuf, Kind> {
        let mut model = BTreeMap::new();
        let mut dirs = vec![PathBuf::new()];
        for (n, (parent, kind, name)) in ops.iter().enumerate() {
            let rel = dirs[parent % dirs.len()].join(name);
            if model.contains_key(&rel) {
                continue;
            }
            let full = top.join(&rel);
            let kind = match kind % 6 {
                0 | 1 => {
                    std::fs::create_dir(&full).unwrap();
                    dirs.push(rel.clone());
                    Kind::Dir
                }
                2 => {
                    std::fs::write(&full, format!("file {n}")).unwrap();
                    Kind::File
                }
                3 => {
                    let target = [outside, top, Path::new("/nowhere/at/all")][n % 3];
                    std::os::unix::fs::symlink(target, &full).unwrap();
                    Kind::Link
                }
                4 => {
                    rustix::fs::mknodat(rustix::fs::CWD, &full, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
                    Kind::Fifo
                }
                _ if full.as_os_str().len() < 100 => {
                    drop(std::os::unix::net::UnixListener::bind(&full).unwrap());
                    Kind::Socket
                }
                _ => continue,
            };
            model.insert(rel, kind);
        }
        // A deep chain: made by descriptors (`mkdirat` in a loop), as a run would, so no path gets too long.
        let mut at = dirs[chain_at % dirs.len()].clone();
        let mut fd = rustix::fs::open(top.join(&at), OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
        for _ in 0..chain {
            let name = if model.contains_key(&at.join("deep")) { "deeper" } else { "deep" };
            rustix::fs::mkdirat(&fd, name, Mode::RWXU).unwrap();
            fd = rustix::fs::openat(&fd, name, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
            at.push(name);
            model.insert(at.clone(), Kind::Dir);
        }
        model
    }

    /// The paths a walk of `top` visits, with their kinds; checks that every folder entered is left, at its depth.
    fn walked(top: &Path, limit: usize) -> Result<BTreeMap<PathBuf, Kind>, WalkError<std::convert::Infallible>> {
        let mut seen = BTreeMap::new();
        let mut open: Vec<usize> = Vec::new();
        walk(open_top(top).unwrap(), limit, |step| {
            match step {
                Step::Enter(entry, _) => {
                    assert_eq!(entry.depth, entry.path.components().count());
                    assert_eq!(entry.depth, open.len() + 1, "entered {} at the wrong depth", entry.path.display());
                    open.push(entry.depth);
                    seen.insert(entry.path.to_path_buf(), Kind::Dir);
                }
                Step::Other(entry) => {
                    assert_eq!(entry.depth, open.len() + 1);
                    let kind = match entry.kind() {
                        FileType::RegularFile => Kind::File,
                        FileType::Symlink => Kind::Link,
                        FileType::Fifo => Kind::Fifo,
                        FileType::Socket => Kind::Socket,
                        other => panic!("{other:?}"),
                    };
                    seen.insert(entry.path.to_path_buf(), kind);
                }
                Step::Leave(depth) => assert_eq!(open.pop(), Some(depth)),
            }
            Ok::<(), std::convert::Infallible>(())
        })?;
        assert!(open.is_empty(), "folders entered and never left: {open:?}");
        Ok(seen)
    }

    /// A scratch folder on a tmpfs where there is one: on this project's ext4 VM each `rmdir` waits about 4 ms on
    /// the journal, so a deep chain's removal measures the disk, not the remover.
    fn scratch() -> tempfile::TempDir {
        if Path::new("/dev/shm").is_dir() {
            tempfile::tempdir_in("/dev/shm").unwrap()
        } else {
            tempfile::tempdir().unwrap()
        }
    }

    fn ops() -> impl Strategy<Value = Vec<(usize, u8, String)>> {
        prop::collection::vec((0usize..64, 0u8..6, "[ab][ab.]?|x[a-z]{0,3}"), 0..60)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

        /// The walk visits exactly what was made (links, FIFOs and sockets shown, never followed or opened), each
        /// folder entered and left once; a tree deeper than the limit is refused, one within it never.
        #[test]
        fn the_walk_visits_exactly_what_was_made(ops in ops(), chain in 0usize..200, at in 0usize..64, limit in 1usize..160) {
            let tmp = scratch();
            let (top, outside) = (tmp.path().join("top"), tmp.path().join("outside"));
            std::fs::create_dir_all(&top).unwrap();
            std::fs::create_dir_all(outside.join("secret")).unwrap();
            let model = build(&top, &outside, &ops, chain, at);
            let deepest = model.iter().filter(|(_, k)| **k == Kind::Dir).map(|(p, _)| p.components().count()).max();
            prop_assert_eq!(walked(&top, usize::MAX).unwrap(), model);
            match walked(&top, limit) {
                Ok(_) => prop_assert!(deepest.unwrap_or(0) <= limit),
                Err(WalkError::Refused(why)) => {
                    prop_assert!(deepest.unwrap_or(0) > limit);
                    prop_assert!(why.0.contains(&format!("more than {limit} deep")), "{}", why.0);
                }
                Err(e) => return Err(TestCaseError::fail(e.to_string())),
            }
            prop_assert!(outside.join("secret").is_dir());
        }

        /// Removal leaves nothing of the tree, however deep and whatever it holds, and nothing outside it is
        /// touched (a link to a folder outside is removed as a link, never followed).
        #[test]
        fn removal_leaves_nothing_and_touches_nothing_outside(ops in ops(), chain in 0usize..1500, at in 0usize..64) {
            let tmp = scratch();
            let (top, outside) = (tmp.path().join("top"), tmp.path().join("outside"));
            std::fs::create_dir_all(&top).unwrap();
            std::fs::create_dir_all(outside.join("secret")).unwrap();
            std::fs::write(outside.join("secret/kept"), "x").unwrap();
            build(&top, &outside, &ops, chain, at);
            remove_tree(&top).unwrap();
            prop_assert!(!top.exists() && std::fs::symlink_metadata(&top).is_err());
            prop_assert_eq!(std::fs::read_to_string(outside.join("secret/kept")).unwrap(), "x");
            let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
            prop_assert_eq!(left, vec![std::ffi::OsString::from("outside")]);
        }
    }

    /// Issue 32, item 3: a chain of 24,000 folders (what a case makes in a fraction of a second) overflowed the
    /// stack of the thread that removes scratch copies (`std::fs::remove_dir_all` recurses once per level), and the
    /// grader aborted. Removal is iterative: it empties the chain on a thread with a 64 KiB stack.
    #[test]
    fn a_chain_of_24000_folders_is_removed_on_a_small_stack() {
        let tmp = scratch();
        let top = tmp.path().join("copy");
        std::fs::create_dir(&top).unwrap();
        let mut fd = rustix::fs::open(&top, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
        for _ in 0..24_000 {
            rustix::fs::mkdirat(&fd, "d", Mode::RWXU).unwrap();
            fd = rustix::fs::openat(&fd, "d", OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
        }
        rustix::fs::mkdirat(&fd, "closed", Mode::empty()).unwrap();
        std::fs::write(tmp.path().join("marker"), "kept").unwrap();
        drop(fd);
        let started = std::time::Instant::now();
        let removed = std::thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(move || remove_tree(&top).map(|()| top))
            .unwrap()
            .join()
            .expect("the remover overflowed its stack");
        let top = removed.unwrap();
        assert!(!top.exists());
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "took {:?}", started.elapsed());
        assert_eq!(std::fs::read_to_string(tmp.path().join("marker")).unwrap(), "kept");
    }

    /// A folder closed to everyone (mode 000) deep in the tree is removed too; a link at the top is removed as a
    /// link, what it names kept.
    #[test]
    fn closed_folders_and_a_link_at_the_top() {
        let tmp = scratch();
        let top = tmp.path().join("t");
        std::fs::create_dir_all(top.join("a/b/c")).unwrap();
        std::fs::write(top.join("a/b/c/f"), "x").unwrap();
        std::fs::set_permissions(top.join("a/b"), std::fs::Permissions::from_mode(0o000)).unwrap();
        std::os::unix::fs::symlink(&top, tmp.path().join("link")).unwrap();
        remove_tree(&tmp.path().join("link")).unwrap();
        assert!(top.join("a").exists(), "the link was followed");
        remove_tree(&top).unwrap();
        assert!(!top.exists());
        assert!(remove_tree(&top).is_ok(), "nothing there is success");
    }
}
