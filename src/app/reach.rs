//! Paths a TA gives, made to mean in every run what they meant on the TA's command line. Runs and agents start in
//! folders of their own (a case's scratch folder, a game's folder), so a relative `--work`, a relative agent path
//! or a relative interpreter would name nothing there, and every correct hand-in would fail alike ("does not
//! parse", "no such file"): such paths are made absolute before anything runs, and a program the runs cannot reach
//! is refused up front with a one-line message (exit 2) rather than found out as every student's failure.

use std::path::{Path, PathBuf};

use crate::harness::runner::sandbox::{self, Sandbox};

/// `path` made absolute against the current folder (not resolving links); as given when that cannot be done.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Checks the program word `first` of the TA's `flag` command (`--cmd`, `--build`): a word with `{` is the
/// hand-in's own file and a bare name is found on `PATH` (elsewhere); an absolute path must be a file the runs'
/// user can reach; a relative path that names a file here would name nothing in a run's own folder.
///
/// # Errors
/// One line naming the flag, the program and what to write instead.
pub fn tas_program(flag: &str, first: &str, sandbox: &Sandbox) -> Result<(), String> {
    if first.contains('{') || !first.contains('/') {
        return Ok(());
    }
    if Path::new(first).is_relative() {
        let here = absolute(Path::new(first));
        if here.is_file() {
            return Err(format!(
                "{flag}: '{first}' is relative to this folder, but each run starts in a folder of its own, where it \
                 names nothing: write {}",
                here.display()
            ));
        }
        return Ok(());
    }
    sandbox::path_program(first, sandbox).map(|_| ()).map_err(|e| format!("{flag}: {e}"))
}

/// The interpreter or compiler `program` of an arena option (`--python`, `--java`, `--javac`): a bare name as it
/// is (found on `PATH`), a path made absolute and checked as [`sandbox::path_program`] does.
///
/// # Errors
/// One line naming the option and the program.
pub fn arena_program(flag: &str, program: &str, sandbox: &Sandbox) -> Result<String, String> {
    if !program.contains('/') {
        return Ok(program.to_string());
    }
    sandbox::path_program(program, sandbox)
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| format!("{flag}: {e}"))
}
