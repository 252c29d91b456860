//! Before any student runs: each toolchain the commands start (a Python, a JDK tool) is started once inside the
//! sandbox (`python3 -c pass`, `java -version`) and, if that fails, once outside. Failing inside only means the
//! sandbox hides something the toolchain needs: a problem of the grader's setup, reported with the path the
//! sandbox refused and the flag that grants it, before a single student is marked down for it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::policy::{resolve_program, Sandbox};
use super::toolchain::{in_system, Kind};
use super::{run, Exit, Limits, RunSpec};

/// Starts each toolchain of `programs` once inside `sandbox`.
///
/// # Errors
/// One message (for the grader, never a student) naming the toolchain, what it said, the path the sandbox refused
/// and how to grant it; or that it does not start even outside.
pub fn preflight(sandbox: &Sandbox, programs: &[OsString]) -> Result<(), String> {
    let mut seen: Vec<&OsString> = Vec::new();
    for program in programs {
        if seen.contains(&program) {
            continue;
        }
        seen.push(program);
        let args: &[&str] = match Kind::of(program) {
            Kind::Python => &["-c", "pass"],
            Kind::Java => &["-version"],
            Kind::Other => continue,
        };
        let name = program.to_string_lossy();
        if let Some(venv) = super::policy::unreachable_venv(program, sandbox) {
            return Err(format!(
                "'{name}' is the virtual environment {}, which the sandbox user cannot reach: every student would \
                 run another Python without its packages; make it readable by other users (chmod -R o+rX, and o+x \
                 on the folders above it) or put it where they can reach it",
                venv.display()
            ));
        }
        let resolved = resolve_program(program, sandbox)?;
        if !Path::new(&resolved).is_file() {
            // Not there at all: every run says so as a harness error, naming it.
            continue;
        }
        let shown = if resolved == *program {
            format!("'{name}'")
        } else {
            format!("'{name}' ({})", Path::new(&resolved).display())
        };
        let Some(inside) = inside(sandbox, &resolved, args)? else { continue };
        match outside(sandbox, &resolved, args) {
            Err(why) => {
                return Err(format!("{shown} does not start even outside the sandbox: {why}"));
            }
            Ok(()) => {
                let telling = |l: &&str| ["rror", "denied", "No module", "cannot"].iter().any(|w| l.contains(w));
                let lines = || inside.lines().filter(|l| !l.trim().is_empty());
                let first = lines().find(telling).or_else(|| lines().next()).unwrap_or("no message").trim();
                let mut message =
                    format!("the sandbox keeps {shown} from starting, though it starts outside it: {first}");
                match refused_path(&inside, sandbox.identity.is_some()) {
                    Some(path) => {
                        let folder = if path.is_dir() {
                            path.clone()
                        } else {
                            path.parent().map_or(path.clone(), Path::to_path_buf)
                        };
                        message.push_str(&format!(
                            "; it needs {}, which the sandbox does not grant: give --allow-read {}",
                            path.display(),
                            folder.display()
                        ));
                        if sandbox.identity.is_some() && !readable_by_others(&path) {
                            message.push_str(", and make it readable by other users (runs are not you)");
                        }
                    }
                    None => message.push_str("; give --allow-read for the folders it needs"),
                }
                return Err(message);
            }
        }
    }
    Ok(())
}

/// Runs `program args` once in `sandbox`, in a folder of its own; `None` when it exits 0, else what it said.
fn inside(sandbox: &Sandbox, program: &OsString, args: &[&str]) -> Result<Option<String>, String> {
    let (leased, _lease) = sandbox.lease();
    let dir = tempfile::Builder::new()
        .prefix("referee-preflight-")
        .tempdir()
        .map_err(|e| format!("cannot make a folder for the sandbox check: {e}"))?;
    super::sandbox::hand_over(dir.path(), &leased).map_err(|e| format!("cannot prepare the sandbox check: {e}"))?;
    let spec = RunSpec {
        program: program.clone(),
        args: args.iter().map(OsString::from).collect(),
        cwd: dir.path().to_path_buf(),
        stdin: None,
        env: Vec::new(),
        limits: Limits::default().with_timeout(Duration::from_secs(60)),
        sandbox: leased,
        cancel: None,
    };
    match run(&spec) {
        Ok(outcome) if outcome.exit == Exit::Code(0) && !outcome.timed_out => Ok(None),
        Ok(outcome) => {
            let mut text = String::from_utf8_lossy(&outcome.stderr).into_owned();
            text.push_str(&String::from_utf8_lossy(&outcome.stdout));
            if let Some(why) = outcome.refused {
                text = format!("{why}\n{text}");
            }
            if outcome.timed_out {
                text = format!("it did not finish in 60 s\n{text}");
            }
            Ok(Some(text))
        }
        Err(e) => Ok(Some(e.to_string())),
    }
}

/// Runs `program args` as the grader, in the runs' environment.
fn outside(sandbox: &Sandbox, program: &OsString, args: &[&str]) -> Result<(), String> {
    let output = std::process::Command::new(program)
        .args(args)
        .envs(sandbox.grants.env.iter().map(|(n, v)| (n, v)))
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot start it: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&output.stderr);
    Err(text.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message").trim().to_string())
}

/// What the sandbox most likely refused: of the absolute paths in `text` that exist here and lie outside the
/// system folders, the first one other users cannot read when runs are another user (`other_user`), else the first.
fn refused_path(text: &str, other_user: bool) -> Option<PathBuf> {
    let found: Vec<PathBuf> = text
        .split(|c: char| c.is_whitespace() || "'\"`,;()[]<>=".contains(c))
        .map(|word| word.trim_end_matches([':', '.']))
        .filter(|word| word.starts_with('/'))
        .map(PathBuf::from)
        .filter(|path| path.exists() && !in_system(path))
        .collect();
    let hidden = found.iter().find(|path| other_user && !readable_by_others(path));
    hidden.or(found.first()).cloned()
}

/// Whether users other than the owner may read `path`: every folder above it searchable by others, and it readable
/// (and, for a folder, searchable) by others.
fn readable_by_others(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode()).unwrap_or(0);
        let own = if path.is_dir() { 0o005 } else { 0o004 };
        path.ancestors().skip(1).all(|dir| mode(dir) & 0o001 != 0) && mode(path) & own == own
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refused_path_is_the_first_one_outside_the_system_that_exists() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib/python3.11");
        std::fs::create_dir_all(&lib).unwrap();
        let text = format!(
            "Fatal Python error: init_fs_encoding\n  sys.path = [\n    '{}/lib/python311.zip',\n    '{}',\n    \
             '/usr/lib/python3.11',\n  ]\n",
            dir.path().display(),
            lib.display()
        );
        assert_eq!(refused_path(&text, false), Some(lib));
        assert_eq!(refused_path("cannot start '/usr/bin/python3': Permission denied", true), None);
    }
}
