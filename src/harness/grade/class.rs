//! Grading a whole class: one folder or zip per student, graded in parallel, each result stored the moment it is
//! finished so an interrupted run resumes without grading anyone twice.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::parallel::for_each_parallel;
use super::prepared::PreparedSuite;
use super::resume::plan;
use super::submission::{fingerprint, grade_submission, Cancelled, GradeConfig};
use super::workspace::student_id;
use crate::harness::model::SubmissionResult;

/// One student's hand-in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The student id.
    pub id: String,
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
    /// Two hand-ins map to one student id.
    #[error("two submissions for student '{id}': {first} and {second}")]
    Duplicate {
        /// The id.
        id: String,
        /// One hand-in.
        first: String,
        /// The other.
        second: String,
    },
    /// Nothing to grade.
    #[error("{0}: no submissions (expected one folder or .zip per student)")]
    Empty(PathBuf),
}

/// The hand-ins in `dir`: every folder and `.zip` (hidden entries and `__MACOSX` skipped), sorted by id.
///
/// # Errors
/// An unreadable folder, two hand-ins with the same id, or none at all.
pub fn discover(dir: &Path) -> Result<Vec<Entry>, ClassError> {
    let io_at = |source| ClassError::Io { path: dir.to_path_buf(), source };
    let mut by_id: BTreeMap<String, PathBuf> = BTreeMap::new();
    for entry in fs::read_dir(dir).map_err(io_at)? {
        let entry = entry.map_err(io_at)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let is_zip = name.to_ascii_lowercase().ends_with(".zip") && path.is_file();
        if name.starts_with('.') || name == "__MACOSX" || !(path.is_dir() || is_zip) {
            continue;
        }
        let id = student_id(&name);
        if let Some(first) = by_id.insert(id.clone(), path.clone()) {
            return Err(ClassError::Duplicate {
                id,
                first: first.display().to_string(),
                second: path.display().to_string(),
            });
        }
    }
    if by_id.is_empty() {
        return Err(ClassError::Empty(dir.to_path_buf()));
    }
    Ok(by_id.into_iter().map(|(id, path)| Entry { id, path }).collect())
}

/// Finished results on disk: `<out>/results/<id>.json`, written atomically, one per student.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The store under `out` (created if needed).
    ///
    /// # Errors
    /// When the folder cannot be created.
    pub fn open(out: &Path) -> io::Result<Store> {
        let dir = out.join("results");
        fs::create_dir_all(&dir)?;
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
        let json = serde_json::to_vec_pretty(result).map_err(io::Error::other)?;
        write_atomic(&self.dir.join(format!("{}.json", safe_name(&result.id))), &json)
    }
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

/// A student id made safe as a file name.
pub fn safe_name(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.@".contains(c) { c } else { '_' }).collect()
}

/// What a class run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassSummary {
    /// Students graded in this run.
    pub graded: usize,
    /// Students skipped because an earlier run had graded the same hand-in the same way.
    pub skipped: usize,
    /// Who replaced an earlier result, and why ([`super::resume::Plan::regrade_lines`]).
    pub regraded: Vec<String>,
}

/// Grades every entry that `store` holds no result for from the same hand-in graded the same way
/// ([`super::resume`]), `jobs` students at a time, calling `on_start` (on the worker) as each starts and `on_done`
/// (on this thread) as each finishes, after its result is stored.
///
/// # Errors
/// [`Cancelled`]: finished students are stored; the ones in progress are not, and a re-run grades them.
#[expect(
    clippy::too_many_arguments,
    reason = "two callbacks (start, done) beside the run's inputs; a hooks struct would only rename them"
)]
pub fn grade_class(
    entries: &[Entry],
    suite: &PreparedSuite,
    config: &GradeConfig,
    jobs: usize,
    store: &Store,
    scratch_root: &Path,
    on_start: impl Fn(&Entry) + Sync,
    mut on_done: impl FnMut(&SubmissionResult, io::Result<()>),
) -> Result<ClassSummary, Cancelled> {
    let plan = plan(entries, store, &fingerprint(suite, config));
    let mut summary = ClassSummary { graded: 0, skipped: plan.kept, regraded: plan.regrade_lines() };
    let mut cancelled = false;
    for_each_parallel(
        &plan.todo,
        jobs,
        |todo| {
            if config.cancel.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(Cancelled);
            }
            let entry = todo.entry;
            on_start(entry);
            let scratch = scratch_root.join(safe_name(&entry.id));
            let _ = make_traversable(&scratch);
            let result = grade_submission(&entry.id, &entry.path, &scratch, suite, config);
            let _ = fs::remove_dir_all(&scratch);
            result.map(|r| SubmissionResult { handin: todo.handin.clone(), ..r })
        },
        |_, result| match result {
            Ok(result) => {
                let saved = store.save(&result);
                summary.graded += 1;
                on_done(&result, saved);
            }
            Err(Cancelled) => cancelled = true,
        },
    );
    if cancelled {
        Err(Cancelled)
    } else {
        Ok(summary)
    }
}

/// Creates `dir` so that a sandbox user can pass through it (mode 0711) but not list it.
///
/// # Errors
/// When it cannot be created.
pub fn make_traversable(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o711))?;
    }
    Ok(())
}
