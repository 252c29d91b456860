//! A hand-in's fingerprint: SHA-256 over every file of its folder or zip, sorted by relative path, so a class run
//! that resumes can tell a resubmission from the hand-in it graded before.
//!
//! Only contents and relative paths count: copying a folder, touching its files or zipping the same files again
//! (new timestamps, another compression) keeps the fingerprint; changing a byte, renaming or adding a file changes
//! it. The files are the ones grading lays out (symbolic links, `__MACOSX` and `.DS_Store` left out, as in
//! [`super::workspace`]). SHA-256 rather than a quick hash: its output is fixed by a standard, so a fingerprint
//! stored by one build of the grader means the same to the next, and no hand-in can be made to collide with another.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::workspace::MAX_BYTES;
#[cfg(unix)]
use crate::harness::runner::walk;

/// The fingerprint of the hand-in at `path` (a folder or a `.zip`), as 64 hex digits.
///
/// A zip that cannot be read as an archive is fingerprinted by its raw bytes (grading reports it as broken; a
/// fixed upload then gets a new fingerprint and is graded again).
///
/// # Errors
/// When a file cannot be read.
pub fn fingerprint(path: &Path) -> io::Result<String> {
    super::workspace::readable_kind(path)?;
    let mut files = Vec::new();
    if path.is_dir() {
        collect_folder(path, "", &mut files)?;
    } else {
        match collect_zip(path) {
            Ok(found) => files = found,
            Err(_) => files.push((String::new(), read_capped(fs::File::open(path)?, MAX_BYTES + 1)?)),
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut hash = Sha256::new();
    for (name, bytes) in &files {
        // Length-prefixed fields, so no two different listings hash the same stream.
        hash.update((name.len() as u64).to_le_bytes());
        hash.update(name.as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The regular files of the hand-in at `path` (a folder or a `.zip`), as [`fingerprint`] reads them: relative
/// `/`-separated paths (sorted) and contents (read up to the unpacking limit in all, for a folder).
///
/// # Errors
/// An unreadable file or folder, or a zip that cannot be read as an archive.
pub fn files(path: &Path) -> io::Result<Vec<(String, Vec<u8>)>> {
    super::workspace::readable_kind(path)?;
    let mut files = Vec::new();
    if path.is_dir() {
        collect_folder(path, "", &mut files)?;
    } else {
        files = collect_zip(path).map_err(|e| io::Error::other(format!("not a readable zip archive: {e}")))?;
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(files)
}

fn is_junk(name: &str) -> bool {
    name == "__MACOSX" || name == ".DS_Store"
}

/// Regular files under `dir` with their `/`-separated paths relative to the hand-in: walked iteratively and by
/// descriptors ([`walk::walk`], links never followed), to the depth a hand-in may have (a deeper one is refused
/// when laid out: its fingerprint is then an error, and it is graded again). Contents are read up to the
/// unpacking limit in all; past it, files count by name only (such a hand-in is refused when laid out).
#[cfg(unix)]
fn collect_folder(dir: &Path, _prefix: &str, files: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
    use rustix::fs::{FileType, Mode, OFlags};
    let mut budget = MAX_BYTES + 1;
    let mut junk_depth: Option<usize> = None;
    // A link at the top is followed, as laying out follows it; nothing below it is.
    let top = walk::open_top(&fs::canonicalize(dir)?)?;
    walk::walk(top, walk::MAX_DEPTH, |step| -> io::Result<()> {
        match step {
            walk::Step::Enter(entry, _) => {
                if junk_depth.is_none() && is_junk(&entry.name.to_string_lossy()) {
                    junk_depth = Some(entry.depth);
                }
            }
            walk::Step::Leave(depth) => {
                if junk_depth == Some(depth) {
                    junk_depth = None;
                }
            }
            walk::Step::Other(entry) => {
                if junk_depth.is_some()
                    || is_junk(&entry.name.to_string_lossy())
                    || entry.kind() != FileType::RegularFile
                {
                    return Ok(());
                }
                let relative = entry.path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>();
                let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
                let file = fs::File::from(rustix::fs::openat(entry.parent, entry.name, flags, Mode::empty())?);
                let bytes = read_capped(file, budget)?;
                budget = budget.saturating_sub(bytes.len() as u64);
                files.push((relative.join("/"), bytes));
            }
        }
        Ok(())
    })
    .map_err(walk::WalkError::into_io)
}

/// Regular files under `dir` with their `/`-separated paths relative to the hand-in (an explicit stack, no
/// recursion).
#[cfg(not(unix))]
fn collect_folder(dir: &Path, prefix: &str, files: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
    let mut budget = MAX_BYTES + 1;
    let mut stack = vec![(dir.to_path_buf(), prefix.to_string())];
    while let Some((dir, prefix)) = stack.pop() {
        for entry in fs::read_dir(&dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_junk(&name) {
                continue;
            }
            let relative = format!("{prefix}{name}");
            let kind = entry.file_type()?;
            if kind.is_dir() {
                stack.push((entry.path(), format!("{relative}/")));
            } else if kind.is_file() {
                let bytes = read_capped(fs::File::open(entry.path())?, budget)?;
                budget = budget.saturating_sub(bytes.len() as u64);
                files.push((relative, bytes));
            }
        }
    }
    Ok(())
}

fn collect_zip(path: &Path) -> Result<Vec<(String, Vec<u8>)>, zip::result::ZipError> {
    let mut archive = zip::ZipArchive::new(fs::File::open(path)?)?;
    let mut files = Vec::new();
    for i in 0..archive.len() {
        let entry = archive.by_index(i)?;
        let Some(relative) = entry.enclosed_name() else { continue };
        if entry.is_dir() || relative.components().any(|c| is_junk(&c.as_os_str().to_string_lossy())) {
            continue;
        }
        let name = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        files.push((name, read_capped(entry, MAX_BYTES + 1)?));
    }
    Ok(files)
}

/// Reads at most `cap` bytes (one past the unpacking limit, or what is left of it): a bomb is fingerprinted by its
/// first bytes, not unpacked.
fn read_capped(reader: impl Read, cap: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(cap).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in files {
            let path = dir.path().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, body).unwrap();
        }
        dir
    }

    fn zipped(files: &[(&str, &str)], method: zip::CompressionMethod) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut zip = zip::ZipWriter::new(fs::File::create(file.path()).unwrap());
        // Reversed, so the archive's order is not the sorted one.
        for (name, body) in files.iter().rev() {
            zip.start_file(*name, zip::write::SimpleFileOptions::default().compression_method(method)).unwrap();
            io::Write::write_all(&mut zip, body.as_bytes()).unwrap();
        }
        zip.finish().unwrap();
        file
    }

    #[test]
    fn contents_and_names_count_and_nothing_else() {
        let files = [("TakeStones.java", "class TakeStones {}"), ("util/Helper.java", "class Helper {}")];
        let print = |dir: &tempfile::TempDir| fingerprint(dir.path()).unwrap();
        let first = print(&folder(&files));
        assert_eq!(first.len(), 64);
        assert_eq!(print(&folder(&files)), first, "a copy of the same files");
        let with_junk = folder(&[files[0], files[1], (".DS_Store", "x"), ("__MACOSX/._a", "y")]);
        assert_eq!(print(&with_junk), first, "Finder's litter");
        let stored = zipped(&files, zip::CompressionMethod::Stored);
        let deflated = zipped(&files, zip::CompressionMethod::Deflated);
        assert_eq!(fingerprint(stored.path()).unwrap(), first, "the same files zipped");
        assert_eq!(fingerprint(deflated.path()).unwrap(), first, "zipped with another compression");
        assert_ne!(print(&folder(&[files[0], ("util/Helper.java", "class Helper { }")])), first, "one byte more");
        assert_ne!(print(&folder(&[files[0], ("Helper.java", "class Helper {}")])), first, "a file moved");
        assert_ne!(print(&folder(&files[..1])), first, "a file fewer");
        // The boundary between name and contents is part of the hash.
        assert_ne!(print(&folder(&[("ab", "c")])), print(&folder(&[("a", "bc")])));
    }

    #[test]
    fn a_broken_zip_is_fingerprinted_by_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.zip"), dir.path().join("b.zip"));
        fs::write(&a, b"PK\x03\x04 not a zip").unwrap();
        fs::write(&b, b"PK\x03\x04 not a zip either").unwrap();
        assert_ne!(fingerprint(&a).unwrap(), fingerprint(&b).unwrap());
        assert!(fingerprint(&dir.path().join("missing.zip")).is_err());
    }

    /// The stream a stored fingerprint was made from: length-prefixed names and contents in string order of the
    /// `/`-joined paths (so `a.b` comes before `a/b`, whatever order a walk visits them in).
    #[test]
    fn the_hash_is_of_files_in_the_order_of_their_paths_as_strings() {
        let files = [("a/b", "1"), ("a.b", "2"), ("a/c/d", "3"), ("z", "4")];
        let mut sorted = files.to_vec();
        sorted.sort();
        let mut hash = Sha256::new();
        for (name, body) in sorted {
            hash.update((name.len() as u64).to_le_bytes());
            hash.update(name.as_bytes());
            hash.update((body.len() as u64).to_le_bytes());
            hash.update(body.as_bytes());
        }
        let expected: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(fingerprint(folder(&files).path()).unwrap(), expected);
    }

    /// A chain of folders deeper than a hand-in may nest is an error (it is graded again and refused when laid
    /// out), never a crash, and links inside are not followed.
    #[cfg(unix)]
    #[test]
    fn a_tree_too_deep_is_an_error_and_links_are_not_followed() {
        let dir = folder(&[("Main.java", "class Main {}")]);
        let mut deep = dir.path().to_path_buf();
        for _ in 0..walk::MAX_DEPTH + 5 {
            deep.push("d");
        }
        fs::create_dir_all(&deep).unwrap();
        assert!(fingerprint(dir.path()).is_err());
        let plain = folder(&[("Main.java", "class Main {}")]);
        let before = fingerprint(plain.path()).unwrap();
        let outside = folder(&[("secret", "s")]);
        std::os::unix::fs::symlink(outside.path(), plain.path().join("link")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), plain.path().join("file-link")).unwrap();
        assert_eq!(fingerprint(plain.path()).unwrap(), before, "links count for nothing");
    }
}
