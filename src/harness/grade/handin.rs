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
            Err(_) => files.push((String::new(), read_capped(fs::File::open(path)?)?)),
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

fn is_junk(name: &str) -> bool {
    name == "__MACOSX" || name == ".DS_Store"
}

/// Regular files under `dir` with their `/`-separated paths relative to the hand-in.
fn collect_folder(dir: &Path, prefix: &str, files: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_junk(&name) {
            continue;
        }
        let relative = format!("{prefix}{name}");
        let kind = entry.file_type()?;
        if kind.is_dir() {
            collect_folder(&entry.path(), &format!("{relative}/"), files)?;
        } else if kind.is_file() {
            files.push((relative, read_capped(fs::File::open(entry.path())?)?));
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
        files.push((name, read_capped(entry)?));
    }
    Ok(files)
}

/// Reads at most one byte past the unpacking limit: a bomb is fingerprinted by its first bytes, not unpacked.
fn read_capped(reader: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(MAX_BYTES + 1).read_to_end(&mut bytes)?;
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
}
