//! A class folder's hand-ins: every folder and `.zip` in it is one student's, each with an id of its own.
//!
//! No name can stop a class run or merge two students: ids are read out of names by the course's rules and made
//! safe ([`super::ids`]), and two hand-ins whose ids come out the same (`pat lee` and `pat_lee`, or
//! `alice-HW2-P3` beside `alice-hw2-p3.zip`) both stay, the second with a suffix taken from its own name, so the
//! same names give the same ids in every run (and a resumed run finds each result again). What a referee run
//! wrote (an `--out` folder, a scratch folder) is never taken for a hand-in, even inside the class folder.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::ids::{printable, safe_id, student_id, suffixed};

/// One student's hand-in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The student id: safe as a file name, unique in the class.
    pub id: String,
    /// The hand-in's name as found in the class folder (invalid UTF-8 replaced), kept for the gradebook.
    pub name: String,
    /// The folder or zip.
    pub path: PathBuf,
}

/// A class folder that cannot be graded as it is.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    /// Unreadable.
    #[error("{path}: {source}")]
    Io {
        /// Where.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Nothing to grade.
    #[error("{0}: no submissions (expected one folder or .zip per student)")]
    Empty(PathBuf),
}

/// The hand-ins of a class folder, and what the TA should know about how they were read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roster {
    /// Every hand-in, sorted by id.
    pub entries: Vec<Entry>,
    /// One line per thing left out or renamed (a referee output folder skipped, an id given a suffix), printable.
    pub notes: Vec<String>,
}

/// The hand-ins in `dir`: every folder and `.zip` (hidden entries and `__MACOSX` skipped), sorted by id.
///
/// # Errors
/// An unreadable folder, or one with no hand-in at all.
pub fn discover(dir: &Path) -> Result<Vec<Entry>, ClassError> {
    read(dir, &[]).map(|roster| roster.entries)
}

/// [`discover`], with the notes for the TA; the paths in `skip` (the run's `--out`, `--solution` and `--work`,
/// which may lie inside `dir`) are skipped too.
///
/// # Errors
/// See [`discover`].
pub fn read(dir: &Path, skip: &[&Path]) -> Result<Roster, ClassError> {
    read_with(dir, skip, false)
}

/// [`read`], with every loose file of `dir` (not a folder, not a `.zip`) listed too, so that a class run gives it
/// a row (not graded, saying what to hand in instead: see [`loose_file`]) rather than passing it over. Hidden
/// files and the operating systems' own (`__MACOSX`, `Thumbs.db`, `desktop.ini`) are still skipped.
///
/// # Errors
/// See [`discover`].
pub fn read_all(dir: &Path, skip: &[&Path]) -> Result<Roster, ClassError> {
    read_with(dir, skip, true)
}

/// Names a class folder may hold that are nobody's hand-in: what macOS and Windows leave in any folder.
pub fn is_os_junk(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.starts_with('.') || lower == "__macosx" || lower == "thumbs.db" || lower == "desktop.ini"
}

/// Why the hand-in at `path` is no hand-in a program suite or a game can grade: `Some` for a loose file (not a
/// folder, not a `.zip`), with what to hand in instead.
pub fn loose_file(path: &Path) -> Option<String> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let zip = name.to_ascii_lowercase().ends_with(".zip");
    let file = fs::metadata(path).is_ok_and(|m| !m.is_dir());
    (file && !zip).then(|| {
        format!(
            "a loose file, not a hand-in: {} is neither a folder nor a .zip (hand in a folder or a .zip holding \
             the program's files, e.g. {}/{})",
            printable(&name),
            printable(&student_id(stem(&name))),
            printable(&name)
        )
    })
}

/// A loose file's name without its extension (`alice.py` is `alice`; `.profile` and `alice` stay).
fn stem(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    }
}

fn read_with(dir: &Path, skip: &[&Path], loose: bool) -> Result<Roster, ClassError> {
    let io_at = |source| ClassError::Io { path: dir.to_path_buf(), source };
    let skip: Vec<PathBuf> = skip.iter().filter_map(|o| fs::canonicalize(o).ok()).collect();
    let mut found: Vec<(String, String, PathBuf)> = Vec::new();
    let mut notes = Vec::new();
    let mut skipped = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_at)? {
        let entry = entry.map_err(io_at)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let named_zip = name.to_ascii_lowercase().ends_with(".zip");
        // A link that leads nowhere and a `.zip` that is no file are hand-ins the grader cannot read: they get a
        // row that says so, rather than vanishing from the class.
        let broken = fs::metadata(&path).map_or(true, |m| named_zip && !m.is_file() && !m.is_dir());
        let listed = path.is_dir() || (named_zip && path.is_file()) || broken || (loose && path.is_file());
        if name.starts_with('.') || name == "__MACOSX" || (loose && is_os_junk(&name)) || !listed {
            continue;
        }
        // Only by where the run's own folders are: never by anything inside a folder, which a hand-in could hold.
        if fs::canonicalize(&path).is_ok_and(|p| skip.contains(&p)) {
            skipped.push(printable(&name));
            continue;
        }
        let raw = if loose && path.is_file() && !named_zip { student_id(stem(&name)) } else { student_id(&name) };
        found.push((safe_id(&raw), name, path));
    }
    if !skipped.is_empty() {
        skipped.sort();
        notes.push(format!(
            "not graded as student{}: {} (this run's --out, --solution or --work)",
            if skipped.len() == 1 { "" } else { "s" },
            skipped.join(", ")
        ));
    }
    if found.is_empty() {
        return Err(ClassError::Empty(dir.to_path_buf()));
    }
    let (entries, renamed) = unique_ids(found);
    notes.extend(renamed);
    Ok(Roster { entries, notes })
}

/// Gives every hand-in its own id. In a group whose ids came out the same, sorted by name, the first whose name
/// gave that id unchanged (else the first) keeps it; each other gets a suffix of 6 hex digits of the hash of its
/// own name (more if that is taken too). Returns the entries sorted by id and one note per group.
fn unique_ids(found: Vec<(String, String, PathBuf)>) -> (Vec<Entry>, Vec<String>) {
    let mut groups: BTreeMap<String, Vec<(String, PathBuf)>> = BTreeMap::new();
    for (id, name, path) in found {
        groups.entry(id).or_default().push((name, path));
    }
    let mut taken: std::collections::BTreeSet<String> = groups.keys().cloned().collect();
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    for (id, mut group) in groups {
        group.sort();
        let keeper = group.iter().position(|(name, _)| student_id(name) == id).unwrap_or(0);
        let mut given = Vec::new();
        for (k, (name, path)) in group.into_iter().enumerate() {
            let mine = if k == keeper {
                id.clone()
            } else {
                let mut hex = 6;
                let mut candidate = suffixed(&id, &name, hex);
                while taken.contains(&candidate) && hex < 64 {
                    hex += 2;
                    candidate = suffixed(&id, &name, hex);
                }
                taken.insert(candidate.clone());
                candidate
            };
            given.push(format!("{} as {mine}", printable(&name)));
            entries.push(Entry { id: mine, name, path });
        }
        if given.len() > 1 {
            notes.push(format!(
                "{} hand-ins give the student id '{id}', so each keeps a row of its own: {}",
                given.len(),
                given.join(", ")
            ));
        }
    }
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    (entries, notes)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn class(names: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in names {
            fs::create_dir_all(dir.path().join(name)).unwrap();
        }
        dir
    }

    #[test]
    fn colliding_ids_each_keep_a_row_with_a_stable_suffix() {
        let dir = class(&["pat lee", "pat_lee", "alice-HW2-P3", "alice-hw2-p3x"]);
        fs::write(dir.path().join("alice-hw2-p3.zip"), b"").unwrap();
        let roster = read(dir.path(), &[]).unwrap();
        let ids: Vec<(&str, &str)> = roster.entries.iter().map(|e| (e.id.as_str(), e.name.as_str())).collect();
        let pat = format!("pat_lee-{}", &super::super::ids::hex_digest("pat lee")[..6]);
        let alice = format!("alice-{}", &super::super::ids::hex_digest("alice-hw2-p3.zip")[..6]);
        assert!(ids.contains(&("pat_lee", "pat_lee")), "{ids:?}");
        assert!(ids.contains(&(pat.as_str(), "pat lee")), "{ids:?}");
        assert!(ids.contains(&("alice", "alice-HW2-P3")), "{ids:?}");
        assert!(ids.contains(&(alice.as_str(), "alice-hw2-p3.zip")), "{ids:?}");
        assert_eq!(roster.entries.len(), 5);
        assert_eq!(roster.notes.len(), 2, "{:?}", roster.notes);
        assert!(roster.notes.iter().any(|n| n.contains("pat lee as pat_lee-")), "{:?}", roster.notes);
        // The same names give the same ids again.
        assert_eq!(read(dir.path(), &[]).unwrap(), roster);
    }

    #[test]
    fn only_the_runs_own_folders_are_skipped_never_a_folder_for_what_it_holds() {
        let dir = class(&["alice", "out/results", "old/results", "scratch", "empty-out"]);
        // Every file an earlier version took as the mark of a referee run's folder: a hand-in can hold them all.
        fs::write(dir.path().join("out/.referee-out"), b"").unwrap();
        fs::write(dir.path().join("old/gradebook.csv"), b"id\n").unwrap();
        fs::write(dir.path().join("scratch/.referee-owner"), b"1 2").unwrap();
        let roster = read(dir.path(), &[&dir.path().join("empty-out")]).unwrap();
        let ids: Vec<&str> = roster.entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["alice", "old", "out", "scratch"]);
        assert_eq!(roster.notes, ["not graded as student: empty-out (this run's --out, --solution or --work)"]);
    }
}
