//! The launcher's last step: the program it starts, and what the program inherits.
//!
//! A program inside the run's own folder (a path under the folder the grader named, such as `{dir}/prog`) is a
//! file the student controls, so it is opened the moment before `exec`, one path component at a time from the
//! run's folder, refusing `..` and every symbolic link, and must be a regular file; on Linux it is then started
//! through that descriptor (`/proc/self/fd/<n>`), never by a path the kernel would resolve again. macOS has no
//! `/proc` (and std no `fexecve`): there it is started by the path just checked, which only the run itself could
//! change in between (no run is contained there beyond its own user). A `#!` script is started the
//! way the kernel would (its interpreter, then the script's path): an interpreter reopens the script by path, which
//! is safe because the check above found no link on it, and at that moment only the run itself can write in its
//! folder. A program outside the run's folder is the grader's (found on the grader's `PATH`, or given by the TA)
//! and is started by path.
//!
//! Every descriptor above 2 is marked close-on-exec first, whatever the grader inherited from the TA's shell.

#![cfg(unix)]

use std::ffi::{OsStr, OsString};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// Why the program was not started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// The grader's side failed (its program is missing, a layer could not be set up): never the student's doing.
    Grader(String),
    /// The student's program inside the run's folder cannot be started (a link, a missing file, no execute bit,
    /// not a program): the student's doing.
    Program(String),
}

/// How the program will be started.
#[derive(Debug)]
pub enum Start {
    /// The grader's program, by path.
    Path(OsString),
    /// A binary in the run's folder, through its descriptor; the path the TA's command named, for `argv[0]`.
    #[cfg(target_os = "linux")]
    Descriptor(OwnedFd, OsString),
    /// A binary in the run's folder, checked as above and started by that path (macOS, where no descriptor can be
    /// executed).
    Checked(OsString),
    /// A script in the run's folder: its interpreter, the interpreter's argument, and the script's checked path.
    Script(PathBuf, Option<OsString>, OsString),
}

/// Finds how to start `program`, given the run's folder `dir` as the grader spelled it (the working folder);
/// `by_path` starts a program of the run's folder by its checked path rather than its descriptor (always so off
/// Linux).
///
/// # Errors
/// [`StartError::Program`] for a program inside `dir` that is a link, lies behind one, leaves the folder with `..`,
/// is missing or is not a regular file.
pub fn locate(dir: Option<&Path>, program: &OsStr, by_path: bool) -> Result<Start, StartError> {
    let path = Path::new(program);
    let inside = match dir {
        Some(dir) if path.is_absolute() => path.strip_prefix(dir).ok(),
        Some(_) if path.components().count() > 1 => Some(path),
        _ => None,
    };
    let Some(relative) = inside else { return Ok(Start::Path(program.to_os_string())) };
    let shown = program.to_string_lossy();
    let fd = open_beneath(relative, by_path).map_err(|why| StartError::Program(format!("'{shown}' {why}")))?;
    match shebang(&fd, by_path) {
        Some((interpreter, arg)) => Ok(Start::Script(interpreter, arg, program.to_os_string())),
        None => Ok(binary(fd, program.to_os_string(), by_path)),
    }
}

/// A binary of the run's folder, started through its descriptor `fd` or by its checked path.
#[cfg(target_os = "linux")]
fn binary(fd: OwnedFd, program: OsString, by_path: bool) -> Start {
    if by_path {
        Start::Checked(program)
    } else {
        Start::Descriptor(fd, program)
    }
}

/// A binary of the run's folder, started by its checked path.
#[cfg(not(target_os = "linux"))]
fn binary(_fd: OwnedFd, program: OsString, _by_path: bool) -> Start {
    Start::Checked(program)
}

/// Opens `relative` from the working folder, component by component, with no link followed and no `..`.
fn open_beneath(relative: &Path, by_path: bool) -> Result<OwnedFd, String> {
    use rustix::fs::{openat, Mode, OFlags, CWD};
    let components: Vec<&OsStr> = relative
        .components()
        .filter(|c| *c != Component::CurDir)
        .map(|c| match c {
            Component::Normal(name) => Ok(name),
            _ => Err("leads out of its folder (`..` or `/`)".to_string()),
        })
        .collect::<Result<_, _>>()?;
    let Some((last, folders)) = components.split_last() else { return Err("names no file".into()) };
    // Linux opens for nothing but a path (the file need not be readable); a start by path opens for reading.
    #[cfg(target_os = "linux")]
    let open_as = if by_path { OFlags::RDONLY } else { OFlags::PATH };
    #[cfg(not(target_os = "linux"))]
    let open_as = {
        let _ = by_path;
        OFlags::RDONLY
    };
    let flags = open_as | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut at =
        openat(CWD, ".", flags | OFlags::DIRECTORY, Mode::empty()).map_err(|e| format!("is not there: {e}"))?;
    for name in folders {
        at = openat(&at, *name, flags | OFlags::DIRECTORY, Mode::empty()).map_err(|e| match e {
            rustix::io::Errno::NOTDIR | rustix::io::Errno::LOOP => {
                format!(
                    "lies behind '{}', a symbolic link or not a folder: links are not followed",
                    name.to_string_lossy()
                )
            }
            e => format!("is not there: {e}"),
        })?;
    }
    let fd = openat(&at, *last, flags, Mode::empty()).map_err(|e| match e {
        // Where `O_NOFOLLOW` cannot open a link itself, it refuses it.
        rustix::io::Errno::LOOP => "is a symbolic link: links are not followed".to_string(),
        e => format!("is not there: {e}"),
    })?;
    let stat = rustix::fs::fstat(&fd).map_err(|e| format!("cannot be read: {e}"))?;
    match rustix::fs::FileType::from_raw_mode(stat.st_mode) {
        rustix::fs::FileType::RegularFile => Ok(fd),
        rustix::fs::FileType::Symlink => Err("is a symbolic link: links are not followed".into()),
        _ => Err("is not a regular file".into()),
    }
}

/// The interpreter and its argument when the file starts with `#!` (as the kernel reads it: the first line, at
/// most 255 bytes, the interpreter up to the first blank, the rest as one argument); `None` for anything else,
/// or a file the run may not read (the kernel then decides).
fn shebang(fd: &OwnedFd, by_path: bool) -> Option<(PathBuf, Option<OsString>)> {
    use std::os::unix::ffi::OsStrExt;
    let mut head = [0u8; 256];
    let n = if by_path { rustix::io::pread(fd, &mut head, 0).ok()? } else { read_path_only(fd, &mut head)? };
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let trimmed: Vec<&[u8]> = line.splitn(2, |b| *b == b' ' || *b == b'\t').collect();
    let interpreter = trimmed.first().map(|w| w.trim_ascii()).filter(|w| !w.is_empty())?;
    let arg = trimmed.get(1).map(|a| a.trim_ascii()).filter(|a| !a.is_empty());
    let interpreter = PathBuf::from(OsStr::from_bytes(interpreter));
    // The kernel takes a name without a slash as a path from the working folder, never from PATH.
    let interpreter = if interpreter.components().count() == 1 && !interpreter.is_absolute() {
        Path::new(".").join(interpreter)
    } else {
        interpreter
    };
    Some((interpreter, arg.map(|a| OsStr::from_bytes(a).to_os_string())))
}

/// Reads the head of a path-only descriptor (Linux), which cannot be read itself: reopened through `/proc`.
#[cfg(target_os = "linux")]
fn read_path_only(fd: &OwnedFd, head: &mut [u8]) -> Option<usize> {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    std::fs::File::open(format!("/proc/self/fd/{}", fd.as_raw_fd())).ok()?.read(head).ok()
}

/// Off Linux every descriptor here is readable.
#[cfg(not(target_os = "linux"))]
fn read_path_only(fd: &OwnedFd, head: &mut [u8]) -> Option<usize> {
    rustix::io::pread(fd, head, 0).ok()
}

impl Start {
    /// The command that starts it with `args` (the environment and the working folder are this process's).
    pub fn command(&self, args: &[OsString]) -> Command {
        match self {
            Start::Path(program) => {
                let mut command = Command::new(program);
                command.args(args);
                command
            }
            #[cfg(target_os = "linux")]
            Start::Descriptor(fd, shown) => {
                let mut command = Command::new(format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(fd)));
                command.arg0(shown).args(args);
                command
            }
            Start::Checked(shown) => {
                let mut command = Command::new(shown);
                command.args(args);
                command
            }
            Start::Script(interpreter, arg, script) => {
                let mut command = Command::new(interpreter);
                command.args(arg).arg(script).args(args);
                command
            }
        }
    }

    /// Why `error` from starting it is the student's (a program of the run's folder, or its `#!` line) or the
    /// grader's.
    pub fn error(&self, error: &std::io::Error) -> StartError {
        match self {
            Start::Path(program) => {
                StartError::Grader(format!("cannot start '{}': {error}", program.to_string_lossy()))
            }
            #[cfg(target_os = "linux")]
            Start::Descriptor(_, shown) => {
                StartError::Program(format!("'{}' cannot be executed: {error}", shown.to_string_lossy()))
            }
            Start::Checked(shown) => {
                StartError::Program(format!("'{}' cannot be executed: {error}", shown.to_string_lossy()))
            }
            Start::Script(interpreter, _, script) => StartError::Program(format!(
                "'{}' names the interpreter '{}' on its #! line, which cannot be started: {error}",
                script.to_string_lossy(),
                interpreter.display()
            )),
        }
    }
}

/// Marks every descriptor above 2 close-on-exec: nothing the grader inherited (a TA's `7>>notes.txt`, a CI
/// runner's pipe) reaches the program.
pub fn close_inherited() {
    close_fds::set_fds_cloexec(3, &[]);
}

/// Replaces this process with the program. Returns only on failure.
pub fn exec(start: &Start, args: &[OsString]) -> StartError {
    close_inherited();
    let error = start.command(args).exec();
    start.error(&error)
}
