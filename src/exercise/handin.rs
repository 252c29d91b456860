//! Where a student's answers are: a class folder holds, per student, a folder or a zip (found as `referee grade`
//! finds them, ids by the same rules) or a loose answer file (`alice.txt`, `alice-HW2-P1.txt`); inside a folder
//! or zip, every text file holding a section such as `[alphabeta]` is an answer file, and several are merged.
//!
//! Only reading happens here, and it is bounded: files over 1 MiB, symbolic links (which could point at the
//! grader's own files and show them in feedback), hidden files and `__MACOSX` are passed over, and at most
//! [`MAX_FILES`] files of a hand-in are looked at.

use std::fs;
use std::io::Read;
use std::path::Path;

use super::file::{self, AnswerFile};
use crate::harness::grade::class::{ClassError, Entry};
use crate::harness::grade::ids::{safe_id, student_id, suffixed};
use crate::harness::grade::roster::read;

/// The largest answer file read.
pub const MAX_BYTES: u64 = 1 << 20;
/// The most files of one hand-in looked at.
pub const MAX_FILES: usize = 2000;

/// Whether `name` could be a text file (by its extension, or none).
fn texty(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let ext = Path::new(&lower).extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    matches!(ext.as_str(), "" | "txt" | "text" | "md" | "ini" | "answers")
}

fn skipped(name: &str) -> bool {
    name.starts_with('.') || name == "__MACOSX"
}

fn holds_sections(text: &str) -> bool {
    text.lines().any(file::is_header)
}

/// The files found in a hand-in: `(relative name, text)` of every readable text file, and the names of the rest.
#[derive(Default)]
struct Found {
    texts: Vec<(String, String)>,
    others: Vec<String>,
}

/// Collects the files under `top` (at most 6 folders down), in name order, depth first: iteratively, with an
/// explicit stack of folders still to read.
fn walk(top: &Path, found: &mut Found) -> std::io::Result<()> {
    // Each item: a folder's entries not yet looked at (last first), its prefix, its depth.
    let mut stack = vec![(sorted(top)?, String::new(), 0usize)];
    while let Some((entries, prefix, depth)) = stack.last_mut() {
        let Some(entry) = entries.pop() else {
            stack.pop();
            continue;
        };
        if found.texts.len() + found.others.len() >= MAX_FILES {
            break;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        if skipped(&name) {
            continue;
        }
        let relative = format!("{prefix}{name}");
        // DirEntry::file_type does not follow symbolic links: a link is neither a file nor a folder here.
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && *depth < 6 {
            let depth = *depth + 1;
            stack.push((sorted(&entry.path())?, format!("{relative}/"), depth));
        } else if kind.is_file() {
            let small = entry.metadata().is_ok_and(|m| m.len() <= MAX_BYTES);
            if texty(&name) && small {
                let bytes = fs::read(entry.path())?;
                found.texts.push((relative, file::decode(&bytes)));
            } else {
                found.others.push(relative);
            }
        }
    }
    Ok(())
}

/// The entries of the folder `dir`, sorted by name, last first.
fn sorted(dir: &Path) -> std::io::Result<Vec<fs::DirEntry>> {
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| std::cmp::Reverse(e.file_name()));
    Ok(entries)
}

fn unzip(path: &Path, found: &mut Found) -> Result<(), String> {
    let archive = fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut zip = zip::ZipArchive::new(archive).map_err(|e| format!("not a readable zip archive: {e}"))?;
    for i in 0..zip.len().min(MAX_FILES) {
        let Ok(mut entry) = zip.by_index(i) else { continue };
        let name = entry.name().to_string();
        if entry.is_dir() || name.split('/').any(skipped) || entry.is_symlink() {
            continue;
        }
        let base = name.rsplit('/').next().unwrap_or(&name).to_string();
        if !texty(&base) || entry.size() > MAX_BYTES {
            found.others.push(name);
            continue;
        }
        let mut bytes = Vec::new();
        // The declared size can lie: read at most one byte past the limit.
        if (&mut entry).take(MAX_BYTES + 1).read_to_end(&mut bytes).is_err() || bytes.len() as u64 > MAX_BYTES {
            found.others.push(name);
            continue;
        }
        found.texts.push((name, file::decode(&bytes)));
    }
    Ok(())
}

/// The answers in the hand-in at `path` (a folder, a zip or an answer file), every answer file merged.
///
/// # Errors
/// One line for the student's report: the hand-in holds no answer file (with what it holds instead), or a zip
/// that cannot be read.
pub fn answers(path: &Path) -> Result<AnswerFile, String> {
    let mut found = Found::default();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let meta = fs::metadata(path).map_err(|e| format!("the hand-in cannot be read: {e}"))?;
    if meta.is_dir() {
        walk(path, &mut found).map_err(|e| format!("the hand-in cannot be read: {e}"))?;
    } else if !meta.is_file() {
        // A pipe or a device would block or never end: not a hand-in.
        return Err(format!("no answer file: {name} is neither a folder nor a file"));
    } else if name.to_ascii_lowercase().ends_with(".zip") {
        unzip(path, &mut found)?;
    } else {
        if meta.len() > MAX_BYTES {
            return Err(format!("no answer file: {name} is larger than 1 MiB"));
        }
        let bytes = fs::read(path).map_err(|e| format!("the hand-in cannot be read: {e}"))?;
        found.texts.push((name.clone(), file::decode(&bytes)));
    }
    let mut merged = AnswerFile::default();
    let mut used = 0;
    for (file_name, text) in &found.texts {
        if holds_sections(text) {
            merged.merge(file::parse(file_name, text));
            used += 1;
        }
    }
    if used == 0 {
        let mut names: Vec<&str> =
            found.texts.iter().map(|(n, _)| n.as_str()).chain(found.others.iter().map(String::as_str)).collect();
        let more = names.len().saturating_sub(6);
        names.truncate(6);
        let holds = if names.is_empty() {
            "nothing".to_string()
        } else if more > 0 {
            format!("{} and {more} more", names.join(", "))
        } else {
            names.join(", ")
        };
        return Err(format!(
            "no answer file: the hand-in holds {holds}, but no text file with a section such as [alphabeta] (hand in \
             the answer template, answers.txt, filled in)"
        ));
    }
    Ok(merged)
}

/// The student id of one hand-in, by its name as in a class folder (`alice.txt` and `alice-HW2-P1.zip` are
/// `alice`).
pub fn id_of(path: &Path) -> String {
    let absolute = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let name = absolute.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".txt").or_else(|| name.strip_suffix(".TXT")).unwrap_or(&name);
    if stem.is_empty() {
        "submission".into()
    } else {
        safe_id(&student_id(stem))
    }
}

/// Whether `path` is a loose file of a class folder (an answer file handed in as itself), not a folder or zip.
pub fn is_loose_file(path: &Path) -> bool {
    let zip = path.file_name().is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().ends_with(".zip"));
    !zip && fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir())
}

/// The hand-ins of a class folder, sorted by id, and one note per loose file that is no answer file. Every
/// folder, zip and loose file (hidden ones and `__MACOSX` aside) is a hand-in, so none is ever missing from the
/// gradebook: a loose file that holds no section such as `[alphabeta]` (empty, unreadable, over 1 MiB, another
/// kind of file) is listed too, to be reported as not graded, under an id of its own when a student already has
/// its id. The paths in `skip` (the run's `--out`) are no hand-ins.
///
/// # Errors
/// An unreadable folder, two answer files or hand-ins of one student, or no hand-in at all.
pub fn discover_class(dir: &Path, skip: &[&Path]) -> Result<(Vec<Entry>, Vec<String>), String> {
    let mut entries = match read(dir, skip) {
        Ok(roster) => roster.entries,
        Err(ClassError::Empty(_)) => Vec::new(),
        Err(e) => return Err(e.to_string()),
    };
    let mut notes = Vec::new();
    let listing = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut answers: Vec<(String, String, std::path::PathBuf)> = Vec::new();
    let mut others: Vec<(String, String, std::path::PathBuf)> = Vec::new();
    for entry in listing.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if skipped(&name) || !is_loose_file(&path) || entries.iter().any(|e| e.path == path) {
            continue;
        }
        let stem = name.strip_suffix(".txt").or_else(|| name.strip_suffix(".TXT")).unwrap_or(&name);
        let text = fs::metadata(&path)
            .ok()
            .filter(|m| m.is_file() && m.len() <= MAX_BYTES)
            .and_then(|_| fs::read(&path).ok())
            .map(|b| file::decode(&b))
            .unwrap_or_default();
        let id = safe_id(&student_id(stem));
        if holds_sections(&text) {
            answers.push((id, name, path));
        } else {
            others.push((id, name, path));
        }
    }
    for (id, name, path) in answers {
        if let Some(other) = entries.iter().find(|e| e.id == id) {
            return Err(format!("two submissions for student '{id}': {} and {}", other.path.display(), path.display()));
        }
        entries.push(Entry { id, name, path });
    }
    others.sort_by(|a, b| a.1.cmp(&b.1));
    for (id, name, path) in others {
        let id = if entries.iter().any(|e| e.id == id) { suffixed(&id, &name, 8) } else { id };
        notes.push(format!(
            "{} is no answer file (no section such as [alphabeta]): listed as {id}, not graded",
            crate::visible::visible(&name)
        ));
        entries.push(Entry { id, name, path });
    }
    if entries.is_empty() {
        return Err(format!(
            "{}: no submissions (expected one folder, zip or answer .txt file per student)",
            dir.display()
        ));
    }
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    Ok((entries, notes))
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn answer_files_are_found_merged_and_links_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let h = dir.path().join("alice");
        fs::create_dir_all(h.join("sub")).unwrap();
        fs::write(h.join("answers.txt"), "[csp]\nnext = B\n").unwrap();
        fs::write(h.join("sub/more.md"), "[mdp]\nvk = B = 1\n").unwrap();
        fs::write(h.join("notes.txt"), "nothing here\n").unwrap();
        let secret = dir.path().join("secret.txt");
        fs::write(&secret, "[hillclimb]\nlength = 42\n").unwrap();
        std::os::unix::fs::symlink(&secret, h.join("link.txt")).unwrap();
        let a = answers(&h).unwrap();
        assert!(a.section(super::super::Kind::Csp).is_some() && a.section(super::super::Kind::Mdp).is_some());
        assert!(a.section(super::super::Kind::Hillclimb).is_none(), "a symbolic link is never followed");
        fs::remove_file(h.join("answers.txt")).unwrap();
        fs::remove_file(h.join("sub/more.md")).unwrap();
        let e = answers(&h).unwrap_err();
        assert!(e.starts_with("no answer file: the hand-in holds notes.txt"), "{e}");
    }

    #[test]
    fn a_class_of_folders_zips_and_loose_files() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("bob-HW2-P1")).unwrap();
        fs::write(dir.path().join("alice.txt"), "[csp]\nnext = B\n").unwrap();
        fs::write(dir.path().join("README.txt"), "how to grade\n").unwrap();
        fs::write(dir.path().join("bob.pdf"), "%PDF").unwrap();
        let (entries, notes) = discover_class(dir.path(), &[]).unwrap();
        // No loose file is left out: one that is no answer file is listed (to be reported as not graded), under
        // an id of its own when a student has its id.
        let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["README", "alice", "bob", "bob.pdf"]);
        // One whose id a student already has gets a suffix rather than stopping the class.
        fs::write(dir.path().join("alice.TXT"), "notes").unwrap();
        let (entries, _) = discover_class(dir.path(), &[]).unwrap();
        assert_eq!(entries.iter().filter(|e| e.id.starts_with("alice-")).count(), 1, "{entries:?}");
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("README.txt is no answer file")), "{notes:?}");
        fs::create_dir_all(dir.path().join("alice")).unwrap();
        assert!(discover_class(dir.path(), &[]).unwrap_err().contains("two submissions for student 'alice'"));
    }
}
