//! Python hand-ins checked for syntax errors before anything runs: Python's own parser (`ast.parse`, which never
//! executes the file), run by the interpreter and in the sandbox the submission will get. A file that does not
//! parse is reported once, with its line, like a compiler error, instead of as a failure of every case.
//!
//! Used by `grade` (a `--cmd` that runs `python… FILE.py`) and by the Othello referee (`<uni>_ai.py`).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::harness::runner::{run, Exit, Limits, RunSpec, Sandbox};

/// Why a file did not pass the check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxCheckError {
    /// The file does not parse: Python's message, `line 3: SyntaxError: invalid syntax` and the line's text.
    #[error("{0}")]
    Invalid(String),
    /// The check itself could not run (no such interpreter); nothing is known about the file.
    #[error("{0}")]
    NotRun(String),
    /// Cancelled (Ctrl-C) while the check ran.
    #[error("cancelled")]
    Cancelled,
}

/// Parses (never runs) `argv[1]`; on a syntax error prints `line N: Kind: message` and the line's text.
/// Written for Python 2 and 3 alike, so an old interpreter says what is wrong too.
const SCRIPT: &str = "import ast, sys
try:
    with open(sys.argv[1], 'rb') as f:
        ast.parse(f.read(), sys.argv[1])
except (SyntaxError, ValueError) as e:
    line = getattr(e, 'lineno', None)
    where = 'line %s: ' % line if line else ''
    sys.stderr.write('%s%s: %s\\n' % (where, type(e).__name__, getattr(e, 'msg', None) or e))
    text = (getattr(e, 'text', None) or '').strip()
    if text:
        sys.stderr.write('    %s\\n' % text)
    sys.exit(1)
";

/// Has `python` parse `file` (run in `cwd` under `sandbox`, stopped by `cancel`).
///
/// # Errors
/// [`SyntaxCheckError`]: the file does not parse, the interpreter could not run, or the run was cancelled.
pub fn check(
    python: &OsStr,
    file: &Path,
    cwd: &Path,
    sandbox: Sandbox,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<(), SyntaxCheckError> {
    let spec = RunSpec {
        program: python.to_os_string(),
        args: vec!["-c".into(), SCRIPT.into(), file.as_os_str().to_os_string()],
        cwd: cwd.to_path_buf(),
        stdin: None,
        env: Vec::new(),
        limits: Limits::default().with_timeout(Duration::from_secs(60)),
        sandbox,
        cancel,
    };
    let python_name = python.to_string_lossy();
    let outcome = run(&spec).map_err(|e| SyntaxCheckError::NotRun(format!("cannot run {python_name}: {e}")))?;
    if outcome.cancelled {
        return Err(SyntaxCheckError::Cancelled);
    }
    if outcome.timed_out {
        return Err(SyntaxCheckError::Invalid("the syntax check timed out".into()));
    }
    match outcome.exit {
        Exit::Code(0) => Ok(()),
        // 127/126: the shell convention for "not found" / "cannot execute" from the launcher.
        Exit::Code(126 | 127) => Err(SyntaxCheckError::NotRun(format!(
            "cannot run {python_name}: {}",
            String::from_utf8_lossy(&outcome.stderr).trim()
        ))),
        _ => {
            let text = String::from_utf8_lossy(&outcome.stderr);
            let last: Vec<&str> = text.lines().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
            Err(SyntaxCheckError::Invalid(last.join("\n")))
        }
    }
}

/// The interpreter and the file of a command that runs a Python file (`python3 {dir}/takestones.py {args}`,
/// `/usr/bin/python3 -u prog.py`, also as `sh -c 'python3 prog.py ...'` under `--shell`), expanded for the
/// submission in `dir`; `None` for any other command (and for `-m module` or `-c code`, which name no file).
pub fn python_entry(program: &OsStr, args: &[OsString], dir: &Path) -> Option<(OsString, PathBuf)> {
    if let [flag, script] = args {
        if program == "sh" && flag == "-c" {
            let words = shlex::split(&script.to_string_lossy())?;
            let (first, rest) = words.split_first()?;
            let rest: Vec<OsString> = rest.iter().map(OsString::from).collect();
            return python_entry(OsStr::new(first), &rest, dir);
        }
    }
    let name = Path::new(program).file_name()?.to_string_lossy().into_owned();
    if !name.starts_with("python") {
        return None;
    }
    for arg in args {
        let text = arg.to_string_lossy();
        if text == "-m" || text == "-c" || text.starts_with("-m") || text.starts_with("-c") {
            return None;
        }
        if text.starts_with('-') {
            continue;
        }
        if !text.ends_with(".py") {
            return None;
        }
        let file = dir.join(arg);
        return file.is_file().then(|| (program.to_os_string(), file));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_file_a_python_command_runs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("takestones.py"), "print(1)\n").unwrap();
        let file = dir.path().join("takestones.py");
        let entry = |program: &str, args: &[&str]| {
            let args: Vec<OsString> = args.iter().map(OsString::from).collect();
            python_entry(OsStr::new(program), &args, dir.path())
        };
        assert_eq!(entry("python3", &["-u", "takestones.py", "7"]), Some(("python3".into(), file.clone())));
        let absolute = file.to_string_lossy().into_owned();
        assert_eq!(entry("/usr/bin/python3.12", &[&absolute]), Some(("/usr/bin/python3.12".into(), file)));
        let shell = format!("python3 {absolute} 7 0 3");
        assert_eq!(entry("sh", &["-c", &shell]), Some(("python3".into(), dir.path().join("takestones.py"))));
        assert_eq!(entry("sh", &["-c", "cd x && python3 takestones.py"]), None);
        assert_eq!(entry("python3", &["-m", "takestones"]), None);
        assert_eq!(entry("python3", &["missing.py"]), None);
        assert_eq!(entry("java", &["takestones.py"]), None);
    }
}
