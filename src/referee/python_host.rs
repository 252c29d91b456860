//! Running a student's Python Othello agent (`<uni>_ai.py`) unchanged: its code is laid out in a folder of its own
//! beside the project's `othello_shared.py` (so `import othello_shared` finds the helpers the course shipped), and
//! checked for syntax errors before any game, so a file that cannot even be parsed is a build error like a Java
//! compile error, not a string of forfeits.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::harness::grade::python_syntax::{self, SyntaxCheckError};
use crate::harness::grade::workspace::lay_out;
use crate::harness::runner::sandbox::{hand_over, Sandbox};

use super::prepare_error::PrepareError;

/// The project's `othello_shared.py`, API-compatible with the course's, written for the project.
pub const OTHELLO_SHARED: &str = include_str!("othello/python/othello_shared.py");

/// Course files that are never the student's agent: the game manager, the GUI, the shared helpers (replaced by
/// ours), and the course's random agent.
const FRAMEWORK: [&str; 4] = ["othello_game.py", "othello_gui.py", "othello_shared.py", "randy_ai.py"];

/// An agent laid out and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The agent's file in its folder (the folder also holds `othello_shared.py`).
    pub file: PathBuf,
}

/// Lays `source` (a `.py` file, a folder or a zip) out under `dir`, finds the agent (the named file, or the single
/// `*_ai.py`, or the single other `.py`), puts the project's `othello_shared.py` beside it, and has `python`
/// parse it.
///
/// # Errors
/// [`PrepareError::Build`] for a missing or ambiguous agent or a syntax error (with Python's message);
/// [`PrepareError::Setup`] when the folder cannot be written or Python cannot run.
pub fn build(source: &Path, dir: &Path, python: &OsString, sandbox: &Sandbox) -> Result<Built, PrepareError> {
    let setup = |what: &Path, e: &dyn std::fmt::Display| PrepareError::Setup(format!("{}: {e}", what.display()));
    let _ = crate::harness::grade::workspace::remove_tree(dir);
    let code = dir.join("code");
    let (root, file) = if source.is_file() && source.extension().is_some_and(|x| x == "py") {
        std::fs::create_dir_all(&code).map_err(|e| setup(&code, &e))?;
        let folder = source.parent().unwrap_or(Path::new("."));
        // Its own helper modules may sit beside it; other agents there do no harm.
        for file in python_files(folder) {
            let name = file.file_name().unwrap_or_default();
            std::fs::copy(&file, code.join(name)).map_err(|e| setup(&file, &e))?;
        }
        let name = source.file_name().unwrap_or_default();
        (code.clone(), code.join(name))
    } else {
        let root = lay_out(source, &code, &Sandbox::default())?;
        let file = find_agent(&root, source)?;
        (root, file)
    };
    std::fs::write(root.join("othello_shared.py"), OTHELLO_SHARED).map_err(|e| setup(&root, &e))?;
    hand_over(dir, sandbox).map_err(|e| setup(dir, &e))?;
    let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
    match python_syntax::check(python, &file, &root, sandbox.clone(), None) {
        Ok(()) => {}
        Err(SyntaxCheckError::Invalid(why)) => {
            return Err(PrepareError::Build(format!("{name} does not parse:\n{why}")))
        }
        Err(e) => return Err(PrepareError::Setup(e.to_string())),
    }
    Ok(Built { file })
}

fn python_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files
}

fn is_framework(file: &Path) -> bool {
    file.file_name().is_some_and(|n| FRAMEWORK.iter().any(|f| n == *f))
}

/// The agent in a laid-out submission: the single `*_ai.py`, else the single `.py` that is not a course file.
fn find_agent(root: &Path, source: &Path) -> Result<PathBuf, PrepareError> {
    let files: Vec<PathBuf> = python_files(root).into_iter().filter(|f| !is_framework(f)).collect();
    let named: Vec<&PathBuf> =
        files.iter().filter(|f| f.file_stem().is_some_and(|s| s.to_string_lossy().ends_with("_ai"))).collect();
    let candidates: Vec<&PathBuf> = if named.is_empty() { files.iter().collect() } else { named };
    match candidates.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(PrepareError::Build(format!("{}: no <uni>_ai.py found", source.display()))),
        many => {
            let names: Vec<String> =
                many.iter().map(|f| f.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
            Err(PrepareError::Build(format!(
                "{}: several agents ({}); name the file to play",
                source.display(),
                names.join(", ")
            )))
        }
    }
}
