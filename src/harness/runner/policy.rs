//! What every run of one grading run may use beyond its own folder, decided once by the grader before any hand-in
//! is seen: the folders it may read and execute (the toolchains the TA's command uses, `--allow-read`) and the
//! environment it starts from (an allowlist of the grader's, `--env`). Nothing here is ever derived from a path or
//! a file a student can write.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::layers::Layers;
use super::layers::Policy;
use super::lease::Lease;
use super::toolchain::{self, Toolchain};
pub use super::wire::Identity;

/// Grader variables a run inherits when the grader has them set: the locale and the time zone (a program's number
/// formatting and dates), and `JAVA_HOME` (tools that look for their JDK there). Everything else, tokens and
/// `SSH_AUTH_SOCK` included, is left out; `PATH` is rebuilt (see [`Grants::from_grader`]), `HOME` and `TMPDIR` point
/// into the run's own folder.
pub const INHERITED: [&str; 4] = ["LANG", "LANGUAGE", "TZ", "JAVA_HOME"];

/// Windows variables a run inherits there (matched without regard to case, as Windows does): without
/// `SYSTEMROOT` a Python cannot even seed its hashes, and programs find the shell and executable suffixes through
/// the others. Nothing of them is secret. Not used on other systems.
pub const INHERITED_ON_WINDOWS: [&str; 8] = [
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "PROCESSOR_ARCHITECTURE",
    "NUMBER_OF_PROCESSORS",
    "OS",
];

/// Prefix of the locale variables a run inherits (`LC_ALL`, `LC_NUMERIC`, ...).
pub const INHERITED_PREFIX: &str = "LC_";

/// The locale a run gets when the grader sets none: UTF-8 text, C collation and numbers.
pub const DEFAULT_LANG: &str = "C.UTF-8";

/// What runs may use beyond their own folder and the system's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grants {
    /// Folders runs may read and execute: toolchain installs the grader found, `JAVA_HOME`, and `--allow-read`.
    pub read: Vec<PathBuf>,
    /// The environment every run starts from (the runner adds `HOME`, `TMPDIR` and its own marker).
    pub env: Vec<(OsString, OsString)>,
    /// The toolchains the grader found for the commands (what runs start for a name, what they may read).
    pub toolchains: Vec<Toolchain>,
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
            let windows = cfg!(windows) && INHERITED_ON_WINDOWS.iter().any(|w| w.eq_ignore_ascii_case(&text));
            if INHERITED.contains(&text.as_ref()) || text.starts_with(INHERITED_PREFIX) || windows {
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
        Ok(Grants { read, env, toolchains: Vec::new() })
    }

    /// These grants with the toolchains of `programs` (the commands' programs; see [`toolchain::discover`]): their
    /// folders become readable, `JAVA_HOME` too when the grader sets it, and on the runs' `PATH` a shim's folder
    /// gives way to the real interpreter's.
    pub fn with_toolchains(mut self, programs: &[OsString], usable: &dyn Fn(&Path) -> bool) -> Grants {
        self.toolchains = toolchain::discover(programs, &self.env, usable);
        let mut read = std::mem::take(&mut self.read);
        read.extend(self.toolchains.iter().flat_map(|t| t.folders.iter().cloned()));
        if let Some(home) = self.var("JAVA_HOME").map(PathBuf::from).filter(|h| h.is_dir()) {
            read.push(home);
        }
        self.read = toolchain::prune(read.clone());
        // `--allow-read` folders inside the system stay as given (prune drops them as already readable).
        let run_path = self.var("PATH").map(OsStr::to_os_string).unwrap_or_default();
        let mut dirs: Vec<PathBuf> = std::env::split_paths(&run_path).collect();
        for shim in self.toolchains.iter().filter(|t| t.is_shim()) {
            let (Some(from), Some(to)) = (shim.found.parent(), shim.program.parent()) else { continue };
            for dir in &mut dirs {
                if dir == from {
                    *dir = to.to_path_buf();
                }
            }
        }
        dirs.dedup();
        if let Ok(joined) = std::env::join_paths(dirs) {
            set(&mut self.env, OsStr::new("PATH"), joined);
        }
        self
    }

    /// What runs start for the command name `program`, when the grader found its toolchain.
    pub fn program_for(&self, program: &OsStr) -> Option<&Path> {
        self.toolchains.iter().find(|t| t.name == program).map(|t| t.program.as_path())
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

/// How runs are contained beyond their process group and limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// Run as this user (only possible when the grader is root). With a dedicated user, RLIMIT_NPROC bounds a
    /// fork bomb (root ignores it) and the submission cannot write to the grader's files.
    pub identity: Option<Identity>,
    /// The layers runs get (Landlock, namespaces, cgroup); none for trusted programs.
    pub layers: Layers,
    /// What runs may use beyond their own folder: toolchain folders, the environment they start from.
    pub grants: Arc<Grants>,
}

impl Default for Sandbox {
    /// No user switch, no layer, the grader's environment allowlist.
    fn default() -> Sandbox {
        Sandbox { identity: None, layers: Layers::default(), grants: Grants::base() }
    }
}

/// How the TA asked untrusted runs to be contained (the command line's sandbox options, as the library sees them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SandboxOptions {
    /// What to do when a layer is missing.
    pub policy: Policy,
    /// `--sandbox-layers`: use only these layers (each must be available), to simulate a poorer machine.
    pub only: Option<Layers>,
    /// Run as the grader's own user (refused for root).
    pub run_as_self: bool,
    /// `--allow-read`: more folders runs may read and execute.
    pub allow_read: Vec<PathBuf>,
    /// `--env`: more environment for runs (`NAME` or `NAME=VALUE`).
    pub env: Vec<String>,
    /// The programs the commands start (`--cmd` and `--build`'s first words), whose toolchains are found once.
    pub programs: Vec<OsString>,
}

impl Sandbox {
    /// The sandbox one submission runs in: with dedicated users, a uid of its own for as long as the lease lives.
    pub fn lease(&self) -> (Sandbox, Lease) {
        let Some(base) = self.identity else { return (self.clone(), Lease::none()) };
        match super::lease::lease() {
            Some(lease) => {
                let uid = lease.uid().unwrap_or(base.uid);
                (Sandbox { identity: Some(Identity { uid, gid: base.gid }), ..self.clone() }, lease)
            }
            // No lock folder: fall back to the shared identity (RLIMIT_NPROC then counts all runs together).
            None => (self.clone(), Lease::none()),
        }
    }

    /// This sandbox with `grants` in place of its own.
    pub fn with_grants(self, grants: Arc<Grants>) -> Sandbox {
        Sandbox { grants, ..self }
    }
}

/// Finds `program` the way `execvp` would, but when runs use a dedicated user, only where that user can reach
/// it (a `python3` shim under root's home is out of reach of a uid from [`UID_BASE`]).
///
/// # Errors
/// A message naming what was found and why it cannot be used, or saying that nothing by that name is on `PATH`
/// (rather than the "Permission denied" `execvp` gives when a folder on `PATH` is closed to the sandbox user).
pub fn resolve_program(program: &std::ffi::OsStr, sandbox: &Sandbox) -> Result<std::ffi::OsString, String> {
    let text = program.to_string_lossy();
    if text.contains('/') {
        return Ok(program.to_os_string());
    }
    if let Some(found) = sandbox.grants.program_for(program) {
        return Ok(found.as_os_str().to_os_string());
    }
    let (mine, theirs) = candidates(program);
    if sandbox.identity.is_none() {
        return Ok(mine.map_or_else(|| program.to_os_string(), PathBuf::into_os_string));
    }
    match (theirs, mine) {
        (Some(found), _) => Ok(found.into_os_string()),
        (None, Some(found)) => Err(format!(
            "'{text}' is only found at {}, which the sandbox user cannot reach; give a full path to a system-wide \
             program or use --run-as-self",
            found.display()
        )),
        (None, None) => {
            Err(format!("command '{text}' not found for the sandbox user: no program by that name on PATH"))
        }
    }
}

/// A program the TA names by a path (`/opt/py/bin/python3`, `venv/bin/python3`), checked before anything runs:
/// made absolute against the current folder (runs start in folders of their own, where a relative path names
/// nothing), and refused when it is not a file or, with a sandbox user, when that user cannot reach it (a folder on
/// the way closed to others, as `/root` is): every run would fail alike, and be taken for the students' failure.
///
/// # Errors
/// One line naming the program and what is wrong with it.
pub fn path_program(text: &str, sandbox: &Sandbox) -> Result<PathBuf, String> {
    let path = std::path::absolute(text).map_err(|e| format!("'{text}': {e}"))?;
    if !path.is_file() {
        return Err(format!("'{text}' does not exist (looked for {})", path.display()));
    }
    if sandbox.identity.is_some() && !reachable_by_others(&path) {
        return Err(format!(
            "'{text}' ({}) cannot be reached by the sandbox user that runs it (a folder on the way, or the file, is \
             closed to others): install it system-wide, or open its folders to others (chmod o+x)",
            path.display()
        ));
    }
    Ok(path)
}

/// As root, when the grader's own `program` (the first on `PATH`) is a Python virtual environment the sandbox user
/// cannot reach: that environment's folder (runs would get another Python, without its packages).
pub fn unreachable_venv(program: &std::ffi::OsStr, sandbox: &Sandbox) -> Option<PathBuf> {
    if sandbox.identity.is_none() || program.to_string_lossy().contains('/') {
        return None;
    }
    let (Some(mine), _) = candidates(program) else { return None };
    let venv = mine.parent()?.parent()?;
    (venv.join("pyvenv.cfg").is_file() && !reachable_by_others(&mine)).then(|| venv.to_path_buf())
}

/// The first `program` on `PATH` (the grader's own resolution) and the first one a sandbox user can reach.
fn candidates(program: &std::ffi::OsStr) -> (Option<PathBuf>, Option<PathBuf>) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found: Vec<PathBuf> =
        std::env::split_paths(&path).map(|dir| dir.join(program)).filter(|c| c.is_file()).collect();
    let reachable = found.iter().find(|c| reachable_by_others(c)).cloned();
    (found.into_iter().next(), reachable)
}

/// When the sandbox user gets another `program` than the grader would run (a pyenv `python3` under root's home is
/// out of its reach, so it runs `/usr/bin/python3`): a note naming both, with their versions.
pub fn resolution_note(program: &std::ffi::OsStr, sandbox: &Sandbox) -> Option<String> {
    if sandbox.identity.is_none() || program.to_string_lossy().contains('/') {
        return None;
    }
    let (Some(mine), Some(theirs)) = candidates(program) else { return None };
    if std::fs::canonicalize(&mine).ok() == std::fs::canonicalize(&theirs).ok() {
        return None;
    }
    let version = |p: &Path| {
        let out = std::process::Command::new(p).arg("--version").stdin(std::process::Stdio::null()).output().ok()?;
        let text = if out.stdout.is_empty() { out.stderr } else { out.stdout };
        String::from_utf8_lossy(&text).lines().next().map(|l| format!(" ({})", l.trim()))
    };
    Some(format!(
        "note: '{}' is {}{} for you, but the sandbox user cannot reach it and runs {}{}",
        program.to_string_lossy(),
        mine.display(),
        version(&mine).unwrap_or_default(),
        theirs.display(),
        version(&theirs).unwrap_or_default()
    ))
}

/// Whether a user other than the owner can execute `path`: every folder above it, as written and after links,
/// searchable by others, and the file executable by others.
fn reachable_by_others(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(real) = std::fs::canonicalize(path) else { return false };
        let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode()).unwrap_or(0);
        // The folders on the way as written (a link in a closed folder is as closed) and on the way to the target.
        let open = |p: &Path| p.ancestors().skip(1).all(|dir| mode(dir) & 0o001 != 0);
        open(path) && open(&real) && mode(&real) & 0o001 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

impl Sandbox {
    /// Dedicated users (leased uids from [`UID_BASE`], group `nogroup`) when the grader runs as root on Linux,
    /// otherwise the grader's own user; with every layer this machine offers.
    pub fn default_for_this_process() -> Sandbox {
        let layers = super::probe::probe().layers;
        // Switching users is the Linux launcher's: elsewhere runs are the grader's own user.
        let identity = (is_root() && cfg!(target_os = "linux")).then(nobody);
        Sandbox { identity, layers, grants: Grants::base() }
    }

    /// The sandbox for untrusted runs as `options` ask: [`Sandbox::default_for_this_process`], or the grader's own
    /// user with `run_as_self`; the layers under the policy (or only those `--sandbox-layers` names); the grader's
    /// environment allowlist with `--env`; the toolchains of the commands' programs and `--allow-read` folders.
    ///
    /// # Errors
    /// Under [`Policy::Require`], the layers that are missing and why; a bad `--env` or `--allow-read` entry;
    /// `run_as_self` as root.
    pub fn for_untrusted(options: &SandboxOptions) -> Result<Sandbox, String> {
        if options.run_as_self && is_root() {
            return Err("--run-as-self is refused as root: student code would run as root (it could read \
                        /etc/shadow and every file); without it each submission runs as an unprivileged uid of \
                        its own"
                .into());
        }
        let layers = super::probe::select(options.policy, options.only.as_ref())?;
        let identity = if options.run_as_self { None } else { Sandbox::default_for_this_process().identity };
        let usable = |p: &Path| identity.is_none() || reachable_by_others(p);
        let grants =
            Grants::from_grader(&options.allow_read, &options.env)?.with_toolchains(&options.programs, &usable);
        Ok(Sandbox { identity, layers, grants: Arc::new(grants) })
    }
}

/// Whether this process runs as root.
pub fn is_root() -> bool {
    #[cfg(unix)]
    {
        rustix::process::geteuid().is_root()
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// The `nobody` user from `/etc/passwd` (65534 when it cannot be read).
fn nobody() -> Identity {
    let fallback = Identity { uid: 65534, gid: 65534 };
    let Ok(passwd) = std::fs::read_to_string("/etc/passwd") else { return fallback };
    passwd
        .lines()
        .map(|l| l.split(':').collect::<Vec<_>>())
        .find(|f| f.first() == Some(&"nobody") && f.len() > 3)
        .and_then(|f| Some(Identity { uid: f[2].parse().ok()?, gid: f[3].parse().ok()? }))
        .unwrap_or(fallback)
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
