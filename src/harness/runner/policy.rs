//! What every run of one grading run may use beyond its own folder, decided once by the grader before any hand-in
//! is seen: the folders it may read and execute (the toolchains the TA's command uses, `--allow-read`) and the
//! environment it starts from (an allowlist of the grader's, `--env`). Nothing here is ever derived from a path or
//! a file a student can write.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Grader variables a run inherits when the grader has them set: the locale and the time zone (a program's number
/// formatting and dates), and `JAVA_HOME` (tools that look for their JDK there). Everything else, tokens and
/// `SSH_AUTH_SOCK` included, is left out; `PATH` is rebuilt (see [`Grants::from_grader`]), `HOME` and `TMPDIR` point
/// into the run's own folder.
pub const INHERITED: [&str; 4] = ["LANG", "LANGUAGE", "TZ", "JAVA_HOME"];

/// Prefix of the locale variables a run inherits (`LC_ALL`, `LC_NUMERIC`, ...).
pub const INHERITED_PREFIX: &str = "LC_";

/// The locale a run gets when the grader sets none: UTF-8 text, C collation and numbers.
pub const DEFAULT_LANG: &str = "C.UTF-8";

/// What runs may use beyond their own folder and the system's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grants {
    /// Folders runs may read and execute: toolchain installs the grader found, and `--allow-read`.
    pub read: Vec<PathBuf>,
    /// The environment every run starts from (the runner adds `HOME`, `TMPDIR` and its own marker).
    pub env: Vec<(OsString, OsString)>,
}

impl Grants {
    /// The grants of a run with no extra folders and the grader's environment allowlist (see [`INHERITED`]),
    /// computed once per process.
    pub fn base() -> Arc<Grants> {
        static BASE: OnceLock<Arc<Grants>> = OnceLock::new();
        BASE.get_or_init(|| Arc::new(Grants::from_grader(&[], &[]).unwrap_or_default())).clone()
    }

    /// The grants from the grader's own environment: the allowlisted variables, `PATH` with only absolute folders
    /// that exist (a relative entry such as `.` would find a student's file first), `allow_read` folders, and the
    /// TA's `--env` entries (`NAME` copies the grader's value, `NAME=VALUE` sets one).
    ///
    /// # Errors
    /// An `--env` entry with an empty or malformed name, a `NAME` the grader does not have, or an `--allow-read`
    /// folder that does not exist (each message names it).
    pub fn from_grader(allow_read: &[PathBuf], extra_env: &[String]) -> Result<Grants, String> {
        let mut env: Vec<(OsString, OsString)> = Vec::new();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let dirs: Vec<PathBuf> = std::env::split_paths(&path).filter(|d| d.is_absolute() && d.is_dir()).collect();
        let path = std::env::join_paths(dirs).unwrap_or_default();
        env.push(("PATH".into(), if path.is_empty() { "/usr/local/bin:/usr/bin:/bin".into() } else { path }));
        for (name, value) in std::env::vars_os() {
            let text = name.to_string_lossy();
            if INHERITED.contains(&text.as_ref()) || text.starts_with(INHERITED_PREFIX) {
                env.push((name, value));
            }
        }
        if !env.iter().any(|(n, _)| n == "LANG" || n == "LC_ALL") {
            env.push(("LANG".into(), DEFAULT_LANG.into()));
        }
        for entry in extra_env {
            let (name, value) = match entry.split_once('=') {
                Some((name, value)) => (name.to_string(), OsString::from(value)),
                None => {
                    let value = std::env::var_os(entry)
                        .ok_or(format!("--env {entry}: the grader has no variable {entry} to pass on"))?;
                    (entry.clone(), value)
                }
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("--env {entry}: '{name}' is not a variable name (letters, digits, _)"));
            }
            set(&mut env, OsStr::new(&name), value);
        }
        let mut read = Vec::new();
        for dir in allow_read {
            let absolute = std::fs::canonicalize(dir).map_err(|e| format!("--allow-read {}: {e}", dir.display()))?;
            read.push(absolute);
        }
        Ok(Grants { read, env })
    }

    /// The value of `name` in the base environment.
    pub fn var(&self, name: &str) -> Option<&OsStr> {
        self.env.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_os_str())
    }
}

/// Sets `name` to `value` in `env`, replacing an earlier value.
pub fn set(env: &mut Vec<(OsString, OsString)>, name: &OsStr, value: OsString) {
    match env.iter_mut().find(|(n, _)| n == name) {
        Some(slot) => slot.1 = value,
        None => env.push((name.to_os_string(), value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_is_an_allowlist_plus_what_the_ta_asks_for() {
        let grants = Grants::from_grader(&[], &["REFEREE_TEST_VALUE=42".into()]).unwrap();
        let names: Vec<String> = grants.env.iter().map(|(n, _)| n.to_string_lossy().into_owned()).collect();
        assert!(names.contains(&"PATH".to_string()), "{names:?}");
        assert_eq!(grants.var("REFEREE_TEST_VALUE"), Some(OsStr::new("42")));
        for name in &names {
            let allowed = ["PATH", "REFEREE_TEST_VALUE"].contains(&name.as_str())
                || INHERITED.contains(&name.as_str())
                || name.starts_with(INHERITED_PREFIX);
            assert!(allowed, "{name} is not on the allowlist");
        }
        let path = grants.var("PATH").unwrap();
        assert!(std::env::split_paths(path).all(|d| d.is_absolute()), "{path:?}");
    }

    #[test]
    fn bad_env_and_allow_read_entries_are_named() {
        let missing = Grants::from_grader(&[], &["REFEREE_SURELY_UNSET_VARIABLE".into()]).unwrap_err();
        assert!(missing.contains("REFEREE_SURELY_UNSET_VARIABLE"), "{missing}");
        let bad = Grants::from_grader(&[], &["A-B=1".into()]).unwrap_err();
        assert!(bad.contains("'A-B' is not a variable name"), "{bad}");
        let nowhere = Grants::from_grader(&[PathBuf::from("/surely/not/here")], &[]).unwrap_err();
        assert!(nowhere.starts_with("--allow-read /surely/not/here"), "{nowhere}");
    }
}
