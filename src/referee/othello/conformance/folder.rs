//! The folders the student's module runs in (issue 22, item 6): every Python process of a check starts in a fresh
//! copy ([`CaseCopy`]) of the module's folder, which is also its `HOME` and `TMPDIR`, discarded when the process
//! ends; and a call that leaves its folder other than the import left it ends its process, so the next call starts
//! in a fresh copy again. A call never finds a file an earlier call wrote, nor runs a file an earlier call changed.
//!
//! Starting Python for every call would cost far more than the calls (see `docs/incoming/h-oth.md`), so calls that
//! change nothing share one process, as they always have: what the module keeps in memory between calls (a cache)
//! carries over, as it does in a game.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::harness::grade::workspace::{settle, WorkspaceError};
use crate::harness::grade::CaseCopy;
use crate::harness::runner::sandbox::Sandbox;

/// The most a folder may hold (entries, bytes of regular files) for its calls to share a process: past either,
/// every call gets a process and a copy of its own instead of a comparison.
const MAX_ENTRIES: usize = 256;
const MAX_BYTES: u64 = 4 << 20;

/// Where fresh copies come from and go.
#[derive(Debug)]
pub struct Copies {
    /// The module's folder as the grader wrote it (the grader's, never a run's).
    source: PathBuf,
    /// Where the copies are made (`unit-1`, `unit-2`, ...).
    parent: PathBuf,
    sandbox: Sandbox,
    made: usize,
}

impl Copies {
    /// Copies of `source` made in `parent`, each given to `sandbox`'s uid.
    pub fn new(source: &Path, parent: &Path, sandbox: &Sandbox) -> Copies {
        Copies { source: source.to_path_buf(), parent: parent.to_path_buf(), sandbox: sandbox.clone(), made: 0 }
    }

    /// A fresh copy, discarded when dropped. A copy that fails is tried once more after every folder discarded so
    /// far is gone (a full disk may be an earlier copy's doing, still being removed).
    ///
    /// # Errors
    /// A one-line message: the grader could not write the copy (never the student's doing).
    pub fn fresh(&mut self) -> Result<CaseCopy, String> {
        let mut attempt = || {
            self.made += 1;
            CaseCopy::new(&self.source, &self.parent.join(format!("unit-{}", self.made)), &self.sandbox)
        };
        attempt()
            .or_else(|_| {
                settle();
                attempt()
            })
            .map_err(|e: WorkspaceError| format!("the grader could not copy the module's folder: {e}"))
    }
}

/// One entry of a folder as a call may find it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    path: PathBuf,
    kind: Kind,
    mode: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Folder,
    File(Vec<u8>),
    /// A link (its target), a pipe, a socket, a device.
    Other(PathBuf),
}

/// What a folder holds: every entry's path, type, mode and, for a file, its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    entries: Vec<Entry>,
}

impl Snapshot {
    /// What `dir` holds now; `None` when it cannot be read or holds more than the limits (then no call shares
    /// it).
    pub fn take(dir: &Path) -> Option<Snapshot> {
        let mut entries =
            vec![Entry { path: PathBuf::new(), kind: Kind::Folder, mode: mode(&fs::metadata(dir).ok()?) }];
        let mut bytes = 0;
        walk(dir, Path::new(""), &mut entries, &mut bytes, None)?;
        Some(Snapshot { entries })
    }

    /// Whether `dir` still holds exactly what it held: stops at the first difference, so a folder a call filled
    /// costs no more to look at than this snapshot's entries, and never reads a file of another size.
    pub fn unchanged(&self, dir: &Path) -> bool {
        let Some(root) = fs::metadata(dir).ok() else { return false };
        if self.entries.first().map(|e| e.mode) != Some(mode(&root)) {
            return false;
        }
        let mut found = vec![self.entries[0].clone()];
        let mut bytes = 0;
        walk(dir, Path::new(""), &mut found, &mut bytes, Some(self)).is_some() && found == self.entries
    }

    fn expects(&self, path: &Path) -> Option<&Entry> {
        self.entries.iter().find(|e| e.path == path)
    }
}

fn mode(meta: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        u32::from(meta.permissions().readonly())
    }
}

/// Adds what `dir/relative` holds to `entries` (sorted by name, depth first); with `like`, stops (`None`) at the
/// first entry `like` does not hold the same, reading a file only when its size is the one expected. Iterative:
/// an explicit stack of folders whose names are still to look at, never one call per level.
fn walk(
    root: &Path,
    relative: &Path,
    entries: &mut Vec<Entry>,
    bytes: &mut u64,
    like: Option<&Snapshot>,
) -> Option<()> {
    let mut stack = vec![(relative.to_path_buf(), listed(root, relative, entries.len(), like)?)];
    while let Some((folder, names)) = stack.last_mut() {
        let Some(name) = names.pop() else {
            stack.pop();
            continue;
        };
        let path = folder.join(&name);
        let full = root.join(&path);
        let meta = fs::symlink_metadata(&full).ok()?;
        let expected = like.map(|s| s.expects(&path));
        if expected == Some(None) {
            return None;
        }
        let kind = if meta.is_dir() {
            Kind::Folder
        } else if meta.is_file() {
            *bytes += meta.len();
            let wanted = expected.flatten().map(|e| match &e.kind {
                Kind::File(b) => b.len() as u64,
                _ => u64::MAX,
            });
            if *bytes > MAX_BYTES || wanted.is_some_and(|w| w != meta.len()) {
                return None;
            }
            Kind::File(read_regular(&full, meta.len())?)
        } else {
            Kind::Other(fs::read_link(&full).unwrap_or_default())
        };
        let entry = Entry { path: path.clone(), kind, mode: mode(&meta) };
        if expected.flatten().is_some_and(|e| *e != entry) {
            return None;
        }
        let folder = entry.kind == Kind::Folder;
        entries.push(entry);
        if folder {
            let names = listed(root, &path, entries.len(), like)?;
            stack.push((path, names));
        }
    }
    Some(())
}

/// The names in `root/relative`, sorted, last first; `None` when it cannot be read or would take the count of
/// entries (`so_far` already) past what a folder may hold (with `like`, past what it held).
fn listed(root: &Path, relative: &Path, so_far: usize, like: Option<&Snapshot>) -> Option<Vec<std::ffi::OsString>> {
    let mut names: Vec<_> = Vec::new();
    for entry in fs::read_dir(root.join(relative)).ok()? {
        names.push(entry.ok()?.file_name());
        if so_far + names.len() > like.map_or(MAX_ENTRIES, |s| s.entries.len()) {
            return None;
        }
    }
    names.sort_unstable_by(|a, b| b.cmp(a));
    Some(names)
}

/// The bytes of the regular file `path`, opened without following a link and without waiting on a pipe swapped
/// in since it was looked at; `None` unless it is still a regular file of `size` bytes.
fn read_regular(path: &Path, size: u64) -> Option<Vec<u8>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags((rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32);
    }
    let file = options.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() != size {
        return None;
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(size + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 == size).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_sees_every_change_a_call_can_leave() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("agent_ai.py"), b"x = 1\n").unwrap();
        fs::write(dir.path().join("othello_shared.py"), b"y = 2\n").unwrap();
        let snap = Snapshot::take(dir.path()).unwrap();
        assert!(snap.unchanged(dir.path()));
        // The same size, written back: only the bytes differ.
        fs::write(dir.path().join("agent_ai.py"), b"x = 2\n").unwrap();
        assert!(!snap.unchanged(dir.path()));
        fs::write(dir.path().join("agent_ai.py"), b"x = 1\n").unwrap();
        assert!(snap.unchanged(dir.path()), "put back as it was");
        fs::write(dir.path().join("seen.txt"), b"").unwrap();
        assert!(!snap.unchanged(dir.path()), "a new file");
        fs::remove_file(dir.path().join("seen.txt")).unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        assert!(!snap.unchanged(dir.path()), "a new folder");
        fs::remove_dir(dir.path().join("sub")).unwrap();
        fs::remove_file(dir.path().join("othello_shared.py")).unwrap();
        assert!(!snap.unchanged(dir.path()), "a file removed");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("agent_ai.py", dir.path().join("othello_shared.py")).unwrap();
            assert!(!snap.unchanged(dir.path()), "a file swapped for a link");
            fs::remove_file(dir.path().join("othello_shared.py")).unwrap();
            fs::write(dir.path().join("othello_shared.py"), b"y = 2\n").unwrap();
            assert!(snap.unchanged(dir.path()));
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(dir.path().join("agent_ai.py"), fs::Permissions::from_mode(0o600)).unwrap();
            assert!(!snap.unchanged(dir.path()), "a mode changed");
        }
    }

    #[test]
    fn a_folder_past_the_limits_is_never_shared() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..=MAX_ENTRIES {
            fs::write(dir.path().join(format!("f{i}")), b"").unwrap();
        }
        assert!(Snapshot::take(dir.path()).is_none());
    }
}
