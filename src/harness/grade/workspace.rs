//! Scratch copies of submissions: folders are copied, zips extracted (guarded against path escapes and bombs),
//! and a hand-in name becomes a student id.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::harness::runner::sandbox::{hand_over, Sandbox};

/// The most a submission may unpack to.
pub const MAX_BYTES: u64 = 256 << 20;
/// The most files a submission may hold.
pub const MAX_FILES: usize = 20_000;

/// The student id in a hand-in name: the name without its extension and without the course's `-HW2-P3` /
/// `HW2P3` suffix (any homework and part numbers, any case); a Canvas bulk-download name
/// (`smithgina_12345_67890_gina-HW2-P3.zip`, `smithgina_LATE_12345_67890_...`) gives its login, `smithgina`.
pub fn student_id(name: &str) -> String {
    let stem = name.strip_suffix(".zip").or_else(|| name.strip_suffix(".ZIP")).unwrap_or(name);
    if let Some(login) = canvas_login(stem) {
        return login.to_string();
    }
    let lower = stem.to_ascii_lowercase();
    // Find a trailing "hw<digits>" optionally followed by "-"/"_" and "p<digits>", preceded by an optional "-"/"_".
    let bytes = lower.as_bytes();
    let mut cut = None;
    for start in 0..bytes.len() {
        if lower[start..].starts_with("hw") && is_suffix(&lower[start + 2..]) {
            cut = Some(start);
            break;
        }
    }
    let id = match cut {
        Some(i) if i > 0 => stem[..i].trim_end_matches(['-', '_', ' ']),
        _ => stem,
    };
    if id.is_empty() {
        stem.to_string()
    } else {
        id.to_string()
    }
}

/// The login of a Canvas bulk-download name: `<login>[_LATE]_<user id>_<submission id>[_<file name>]`. Two
/// all-digit fields are required, so that an ordinary name with one number in it is never taken for one.
fn canvas_login(stem: &str) -> Option<&str> {
    let mut parts = stem.split('_');
    let login = parts.next().filter(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric()))?;
    let mut next = parts.next()?;
    if next.eq_ignore_ascii_case("late") {
        next = parts.next()?;
    }
    let number = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit());
    (number(next) && number(parts.next()?)).then_some(login)
}

fn is_suffix(rest: &str) -> bool {
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let rest = rest[digits..].trim_start_matches(['-', '_']);
    if rest.is_empty() {
        return true;
    }
    let Some(part) = rest.strip_prefix('p') else { return false };
    let d = part.chars().take_while(char::is_ascii_digit).count();
    d > 0 && part[d..].is_empty()
}

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
    fs::create_dir_all(dest).map_err(io_at(dest))?;
    let mut budget = Budget { bytes: 0, files: 0, origin: source.to_path_buf() };
    if source.is_dir() {
        copy_tree(source, dest, &mut budget)?;
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

/// Copies the folder `source` as it is (no top folder unwrapped) into `dest`, with the limits of one submission,
/// and gives the copy to the sandbox user (see [`hand_over`]): what `check` runs in when runs are another user.
///
/// # Errors
/// [`WorkspaceError`] for an unreadable or oversized folder.
pub fn copy_folder(source: &Path, dest: &Path, sandbox: &Sandbox) -> Result<(), WorkspaceError> {
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WorkspaceError::Io { path, source }
    };
    fs::create_dir_all(dest).map_err(io_at(dest))?;
    copy_tree(source, dest, &mut Budget { bytes: 0, files: 0, origin: source.to_path_buf() })?;
    hand_over(dest, sandbox).map_err(io_at(dest))
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

/// The student id of a single hand-in at `path` (`--dir carol-HW2-P3.zip` is `carol`); `submission` when the
/// path has no name of its own.
pub fn submission_id(path: &Path) -> String {
    let absolute = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    match absolute.file_name() {
        Some(name) => student_id(&name.to_string_lossy()),
        None => "submission".into(),
    }
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

/// Copies regular files and folders (symbolic links are skipped: they could point anywhere).
fn copy_tree(from: &Path, to: &Path, budget: &mut Budget) -> Result<(), WorkspaceError> {
    let io_at = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WorkspaceError::Io { path, source }
    };
    for entry in fs::read_dir(from).map_err(io_at(from))? {
        let entry = entry.map_err(io_at(from))?;
        let kind = entry.file_type().map_err(io_at(&entry.path()))?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            fs::create_dir_all(&target).map_err(io_at(&target))?;
            copy_tree(&entry.path(), &target, budget)?;
        } else if kind.is_file() {
            let len = entry.metadata().map_err(io_at(&entry.path()))?.len();
            budget.add(len)?;
            fs::copy(entry.path(), &target).map_err(io_at(&target))?;
        }
    }
    Ok(())
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
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_the_course_hand_in_names() {
        assert_eq!(student_id("crdyer-HW2-P3.zip"), "crdyer");
        assert_eq!(student_id("crdyerHW2P3.zip"), "crdyer");
        assert_eq!(student_id("bob_hw2_p3"), "bob");
        assert_eq!(student_id("carol-HW2-P3"), "carol");
        assert_eq!(student_id("dave-hw10"), "dave");
        assert_eq!(student_id("erin"), "erin");
        assert_eq!(student_id("hw2p3"), "hw2p3");
        assert_eq!(student_id("shw2x.zip"), "shw2x");
    }

    #[test]
    fn a_single_hand_in_is_named_after_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let zip = dir.path().join("carol-HW2-P3.zip");
        fs::write(&zip, b"").unwrap();
        assert_eq!(submission_id(&zip), "carol");
        assert_eq!(submission_id(&dir.path().join("smithgina_LATE_1_2_x.zip")), "smithgina");
        assert_eq!(submission_id(Path::new("/")), "submission");
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

    #[test]
    fn canvas_bulk_download_names_give_the_login() {
        assert_eq!(student_id("smithgina_12345_67890_gina-HW2-P3.zip"), "smithgina");
        assert_eq!(student_id("smithgina_LATE_12345_67890_gina-HW2-P3.zip"), "smithgina");
        assert_eq!(student_id("smithgina_late_12345_67890_TakeStones.zip"), "smithgina");
        assert_eq!(student_id("smithgina_12345_67890"), "smithgina");
        // One number is not Canvas's pattern; the course suffix rule still applies.
        assert_eq!(student_id("bob_2024_hw2_p3.zip"), "bob_2024");
        assert_eq!(student_id("bob_12_x"), "bob_12_x");
    }
}
