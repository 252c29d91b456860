//! Where the toolchains of a TA's command live, found once per grading run by the grader, outside the sandbox,
//! from the grader's own `PATH` and the toolchain's own answer, never from anything a student can write.
//!
//! Python is asked for `sys.executable`, its prefixes, its installation's folders (`sysconfig`: the standard
//! library and site-packages) and `sys.path`; only the installation is granted (the base installation and the
//! site-packages of the interpreter or virtual environment the TA named): `sys.path` entries elsewhere (a `.pth`
//! line of an editable install of the course repository, `PYTHONPATH`) are left out, and said to be
//! ([`Toolchain::left_out`], [`Toolchain::note`]). Java is asked for `java.home`. A pyenv, asdf or mise
//! shim answers as the interpreter it starts, so a shim is followed to the real interpreter, which runs then run
//! directly (a shim needs the TA's shell setup, which a run does not have). Another program outside the system
//! folders gets the folder above the `bin` that holds it. Toolchains in the system folders need nothing (the
//! system is readable by every run) and are not asked.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Folders every run may read and execute already (the system's; see the launcher's Landlock rules).
pub const SYSTEM: [&str; 9] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"];

/// Interpreters a command may start without naming them (a `sh -c` command, a student's script): asked about
/// whenever the command's own program is not one of them.
pub const USUAL: [&str; 3] = ["python3", "java", "javac"];

/// What kind of toolchain a program is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A Python interpreter.
    Python,
    /// A JDK tool (`java`, `javac`).
    Java,
    /// Anything else.
    Other,
}

impl Kind {
    /// The kind a program name suggests.
    pub fn of(name: &OsStr) -> Kind {
        let name = Path::new(name).file_name().unwrap_or(name).to_string_lossy();
        if name.starts_with("python") || name.starts_with("pypy") {
            Kind::Python
        } else if ["java", "javac", "jar", "jshell"].contains(&name.as_ref()) {
            Kind::Java
        } else {
            Kind::Other
        }
    }
}

/// One toolchain as the grader found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// The name the command uses (`python3`), or the path it gives.
    pub name: OsString,
    /// What the grader's `PATH` finds for it.
    pub found: PathBuf,
    /// What runs start for it: `found`, or for a shim the real interpreter.
    pub program: PathBuf,
    /// Folders runs may read and execute for it (none for a toolchain of the system's).
    pub folders: Vec<PathBuf>,
    /// What it is.
    pub kind: Kind,
    /// `sys.path` entries outside the folders granted (a `.pth` line, `PYTHONPATH`): runs cannot read them.
    pub left_out: Vec<PathBuf>,
}

impl Toolchain {
    /// Whether `found` is a shim that starts another interpreter.
    pub fn is_shim(&self) -> bool {
        self.program != self.found
    }

    /// One line naming the `sys.path` entries runs cannot read, and why, when there are any.
    pub fn note(&self) -> Option<String> {
        if self.left_out.is_empty() {
            return None;
        }
        let list: Vec<String> = self.left_out.iter().map(|p| p.display().to_string()).collect();
        Some(format!(
            "note: '{}' ({}) has sys.path entries outside its installation and site-packages, which runs cannot \
             read (a .pth line or PYTHONPATH may name any folder, such as the course's own): {}; give --allow-read \
             for one a correct program needs",
            self.name.to_string_lossy(),
            self.program.display(),
            list.join(", ")
        ))
    }
}

/// Whether `path` lies in the system folders.
pub fn in_system(path: &Path) -> bool {
    SYSTEM.iter().any(|s| path.starts_with(s))
}

/// The toolchains `programs` name (bare names looked up on the `PATH` of `run_env`, the runs' environment, which
/// is also laid over the grader's when a toolchain is asked; absolute paths as they are), plus [`USUAL`] when one of `programs` is not a known interpreter (or none is given). `usable` says whether a run could start
/// a file at all (as root, runs are another user, who cannot enter `/root`): a toolchain it cannot start is left
/// out, and the runner finds another one (with a note). Relative paths (`{dir}/prog`, a student's file) are never
/// looked at.
pub fn discover(
    programs: &[OsString],
    run_env: &[(OsString, OsString)],
    usable: &dyn Fn(&Path) -> bool,
) -> Vec<Toolchain> {
    let path = run_env.iter().find(|(n, _)| n == "PATH").map(|(_, v)| v.clone()).unwrap_or_default();
    let path = path.as_os_str();
    let mut names: Vec<OsString> = Vec::new();
    for program in programs {
        if !names.contains(program) {
            names.push(program.clone());
        }
    }
    if programs.is_empty() || programs.iter().any(|p| Kind::of(p) == Kind::Other) {
        for usual in USUAL {
            if !names.iter().any(|n| n == usual) {
                names.push(usual.into());
            }
        }
    }
    let mut found = Vec::new();
    for name in names {
        let located = if Path::new(&name).is_absolute() {
            Some(PathBuf::from(&name)).filter(|p| p.is_file())
        } else if name.to_string_lossy().contains('/') {
            None
        } else {
            std::env::split_paths(path).map(|dir| dir.join(&name)).find(|c| c.is_file() && usable(c))
        };
        let Some(located) = located else { continue };
        if let Some(toolchain) = ask(&name, &located, usable, run_env) {
            found.push(toolchain);
        }
    }
    found
}

/// The toolchain at `found`: asked when it or its real file lies outside the system folders.
fn ask(name: &OsStr, found: &Path, usable: &dyn Fn(&Path) -> bool, env: &[(OsString, OsString)]) -> Option<Toolchain> {
    let real = std::fs::canonicalize(found).ok()?;
    let kind = Kind::of(name);
    let plain = Toolchain {
        name: name.to_os_string(),
        found: found.to_path_buf(),
        program: found.to_path_buf(),
        folders: Vec::new(),
        kind,
        left_out: Vec::new(),
    };
    if in_system(found) && in_system(&real) {
        return Some(plain);
    }
    match kind {
        Kind::Python => {
            let answer = python(found, env)?;
            let program = PathBuf::from(&answer.executable);
            let shim = std::fs::canonicalize(&program).ok().is_some_and(|p| p != real);
            let program = if shim && usable(&program) { program } else { found.to_path_buf() };
            let mut folders = answer.granted();
            folders.extend(program.parent().map(Path::to_path_buf));
            if !shim {
                folders.extend(real.parent().map(Path::to_path_buf));
            }
            let folders = prune(folders);
            let left_out = outside(&answer.path, &folders);
            Some(Toolchain { program, folders, left_out, ..plain })
        }
        Kind::Java => {
            let home = java_home(found, name, env)?;
            let own = home.join("bin").join(Path::new(name).file_name().unwrap_or(name));
            let shim = !real.starts_with(&home);
            let program = if shim && own.is_file() && usable(&own) { own } else { found.to_path_buf() };
            Some(Toolchain { program, folders: prune(vec![home]), ..plain })
        }
        Kind::Other => {
            let bin = real.parent()?;
            let home = if bin.file_name().is_some_and(|n| n == "bin") { bin.parent()? } else { bin };
            Some(Toolchain { folders: prune(vec![home.to_path_buf()]), ..plain })
        }
    }
}

/// The absolute, existing folders (and zip files) of `folders` that lie outside the system, without duplicates or
/// one inside another; never `/` itself.
pub fn prune(folders: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut kept: Vec<PathBuf> = folders
        .into_iter()
        .filter(|f| f.is_absolute() && f.parent().is_some() && f.exists() && !in_system(f))
        .filter_map(|f| std::fs::canonicalize(&f).ok().filter(|c| c.parent().is_some() && !in_system(c)))
        .collect();
    kept.sort();
    kept.dedup();
    let all = kept.clone();
    kept.retain(|f| !all.iter().any(|other| other != f && f.starts_with(other)));
    kept
}

/// What a Python interpreter says about itself.
#[derive(Debug, Default)]
struct PythonAnswer {
    executable: String,
    /// `sys.prefix`, `sys.base_prefix`, `sys.exec_prefix`, `sys.base_exec_prefix`.
    prefixes: Vec<String>,
    /// `sysconfig`'s `stdlib`, `platstdlib`, `purelib` and `platlib` (none from a Python without `sysconfig`).
    install: Vec<String>,
    path: Vec<String>,
}

impl PythonAnswer {
    /// What runs may read: the base installation (`base_prefix`, `base_exec_prefix`), the standard library and
    /// site-packages, and a virtual environment's `pyvenv.cfg` (without it the interpreter does not know it is
    /// one); never the virtual environment's whole folder (it may be the course repository itself). A Python
    /// without `sysconfig` gets its prefixes.
    fn granted(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self.install.iter().map(PathBuf::from).collect();
        if out.is_empty() {
            return self.prefixes.iter().map(PathBuf::from).collect();
        }
        let base = |i: usize| self.prefixes.get(i).map(PathBuf::from);
        out.extend([base(1), base(3)].into_iter().flatten());
        for venv in [base(0), base(2)].into_iter().flatten() {
            out.push(venv.join("pyvenv.cfg"));
        }
        out
    }
}

/// The absolute, existing `sys.path` entries that are neither inside `granted` nor the system's.
fn outside(path: &[String], granted: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for entry in path.iter().map(PathBuf::from).filter(|p| p.is_absolute() && p.exists()) {
        let real = std::fs::canonicalize(&entry).unwrap_or_else(|_| entry.clone());
        let reached = in_system(&real) || granted.iter().any(|g| real.starts_with(g));
        if !reached && !out.contains(&real) {
            out.push(real);
        }
    }
    out
}

/// Asks the Python at `program` where it lives (one `key<TAB>value` line each; `sysconfig` only when it has it, so
/// Python 2 answers too).
fn python(program: &Path, env: &[(OsString, OsString)]) -> Option<PythonAnswer> {
    const QUESTION: &str = "import sys
def put(k, v):
    sys.stdout.write(k + '\\t' + v + '\\n')
put('executable', sys.executable)
for x in [sys.prefix, getattr(sys, 'base_prefix', sys.prefix), sys.exec_prefix,
          getattr(sys, 'base_exec_prefix', sys.exec_prefix)]:
    put('prefix', x)
for x in sys.path:
    put('path', x)
try:
    import sysconfig
    p = sysconfig.get_paths()
    for k in ('stdlib', 'platstdlib', 'purelib', 'platlib'):
        if k in p:
            put('install', p[k])
except Exception:
    pass
";
    let (out, _) = output(Command::new(program).args(["-c", QUESTION]), env)?;
    let mut answer = PythonAnswer::default();
    for line in String::from_utf8_lossy(&out).lines() {
        match line.split_once('\t') {
            Some(("executable", value)) => answer.executable = value.to_string(),
            Some(("prefix", value)) => answer.prefixes.push(value.to_string()),
            Some(("path", value)) => answer.path.push(value.to_string()),
            Some(("install", value)) => answer.install.push(value.to_string()),
            _ => {}
        }
    }
    (!answer.executable.is_empty()).then_some(answer)
}

/// Asks the JDK tool at `program` for `java.home`.
fn java_home(program: &Path, name: &OsStr, env: &[(OsString, OsString)]) -> Option<PathBuf> {
    let flag = if Path::new(name).file_name().is_some_and(|n| n == "java") {
        "-XshowSettings:properties"
    } else {
        "-J-XshowSettings:properties"
    };
    let (out, err) = output(Command::new(program).args([flag, "-version"]), env)?;
    let text = format!("{}{}", String::from_utf8_lossy(&err), String::from_utf8_lossy(&out));
    text.lines().find_map(|l| l.trim().strip_prefix("java.home = ")).map(PathBuf::from)
}

/// Runs `command` with no input, for at most 20 s, in the grader's environment with the runs' own on top (the TA's
/// `--env PYTHONPATH=...` counts, as it will in every run); its stdout and stderr.
fn output(command: &mut Command, env: &[(OsString, OsString)]) -> Option<(Vec<u8>, Vec<u8>)> {
    command.envs(env.iter().map(|(n, v)| (n, v)));
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().ok()?;
    let (mut out, mut err) = (child.stdout.take()?, child.stderr.take()?);
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = err.read_to_end(&mut bytes);
        bytes
    });
    let mut bytes = Vec::new();
    let _ = out.read_to_end(&mut bytes);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    Some((bytes, reader.join().unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_names() {
        assert_eq!(Kind::of(OsStr::new("python3.11")), Kind::Python);
        assert_eq!(Kind::of(OsStr::new("/opt/jdk/bin/javac")), Kind::Java);
        assert_eq!(Kind::of(OsStr::new("sh")), Kind::Other);
    }

    #[test]
    fn a_system_toolchain_needs_no_folder_and_prune_keeps_the_outermost() {
        let found = discover(&["sh".into()], &[("PATH".into(), "/usr/bin:/bin".into())], &|_| true);
        let sh = found.iter().find(|t| t.name == "sh").unwrap();
        assert!(sh.folders.is_empty() && !sh.is_shim(), "{sh:?}");
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        let kept = prune(vec![dir.path().join("a/b"), dir.path().join("a"), "/usr/lib".into(), "relative".into()]);
        assert_eq!(kept, vec![std::fs::canonicalize(dir.path().join("a")).unwrap()]);
    }
}
