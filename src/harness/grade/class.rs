//! Grading a whole class: one folder or zip per student, graded in parallel, each result stored the moment it is
//! finished so an interrupted run resumes without grading anyone twice.

use std::fs;
use std::io;
use std::path::Path;

use super::parallel::for_each_parallel;
use super::prepared::PreparedSuite;
use super::resume::plan;
use super::submission::{fingerprint, grade_submission, Cancelled, GradeConfig};
use super::workspace::{discard, settle};
use crate::harness::model::SubmissionResult;
use crate::harness::runner::phases::{self, Phase};

pub use super::roster::{discover, ClassError, Entry};
pub use super::store::{safe_name, write_atomic, Store};

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
        super::submission::one_at_a_time_without_own_disks(jobs, &config.sandbox),
        |todo| {
            if config.cancel.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(Cancelled);
            }
            let entry = todo.entry;
            on_start(entry);
            let scratch = scratch_root.join(safe_name(&entry.id));
            let _ = make_traversable(&scratch);
            let result = grade_submission(&entry.id, &entry.path, &scratch, suite, config);
            phases::time(Phase::Remove, || discard(&scratch, &config.sandbox));
            result.map(|r| SubmissionResult { handin: todo.handin.clone(), ..r })
        },
        |_, result| match result {
            Ok(result) => {
                let saved = phases::time(Phase::Store, || store.save(&result));
                summary.graded += 1;
                on_done(&result, saved);
            }
            Err(Cancelled) => cancelled = true,
        },
    );
    // Nothing of the class is left once it returns: the scratch folders still being removed are waited for.
    settle();
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
