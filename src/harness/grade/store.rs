//! Where a class run keeps its results: `<out>/results/<id>.json`, one per student, each written whole (renamed
//! into place), so an interrupted run loses nothing finished and the next one resumes from them. The `--out`
//! folder is marked as a referee run's, for a person who finds it (the roster never reads the mark: a hand-in
//! could hold one to hide itself; it skips the run's own folders by where they are).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::ids::safe_id;
use crate::harness::model::SubmissionResult;

/// The file that marks a folder as a referee run's output, for a person who finds it.
pub const OUTPUT_MARK: &str = ".referee-out";

/// Finished results on disk: `<out>/results/<id>.json`, written atomically, one per student.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The store under `out` (created if needed, and marked as a referee run's output).
    ///
    /// # Errors
    /// When the folder cannot be created.
    pub fn open(out: &Path) -> io::Result<Store> {
        let dir = out.join("results");
        fs::create_dir_all(&dir)?;
        mark_output(out)?;
        Ok(Store { dir })
    }

    /// Every stored result that parses (a half-written file never exists: writes are renamed into place).
    pub fn load_all(&self) -> Vec<SubmissionResult> {
        let Ok(entries) = fs::read_dir(&self.dir) else { return Vec::new() };
        let mut out: Vec<SubmissionResult> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
            .filter_map(|e| serde_json::from_slice(&fs::read(e.path()).ok()?).ok())
            .collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    }

    /// Stores `result`, replacing any earlier one for the same student.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, result: &SubmissionResult) -> io::Result<()> {
        let json = crate::harness::render::json_text::to_vec_pretty(result)?;
        write_atomic(&self.dir.join(format!("{}.json", safe_name(&result.id))), &json)
    }
}

/// Marks `out` as a referee run's output folder.
///
/// # Errors
/// When the mark cannot be written.
pub fn mark_output(out: &Path) -> io::Result<()> {
    let mark = out.join(OUTPUT_MARK);
    if mark.exists() {
        return Ok(());
    }
    fs::create_dir_all(out)?;
    fs::write(mark, "written by referee: results of a grading run, never a student's hand-in\n")
}

/// Writes `path` by renaming a finished temporary file over it, so readers see the old or the new file, never half.
///
/// # Errors
/// When writing or renaming fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, path)
}

/// An id or label made safe as a file name (a student id already is: [`super::ids::safe_id`]).
pub fn safe_name(id: &str) -> String {
    safe_id(id)
}
