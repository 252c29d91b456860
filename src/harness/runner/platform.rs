//! What this system offers untrusted runs, and the two Unix file facts the grader sets outside the runner's own
//! code (file modes and links: on other systems a mode is not kept and a link is refused), so no platform `cfg` is
//! needed above the runner.
//!
//! - Linux: the launcher with every layer the machine offers (see `probe`), a uid per student as root.
//! - macOS: the launcher with resource limits, its own process group, the environment allowlist and no inherited
//!   descriptor; no Landlock, namespaces, seccomp or cgroups, and the student's own user.
//! - Windows: no launcher; each run's tree in a Job Object, ended as a whole; no resource limits beyond the wall
//!   clock and captured output. Hand-ins are not graded there (`grade` refuses).

use std::path::Path;

/// Why the referee launcher cannot run here (Windows, where `check` runs programs without it, but the game
/// commands need it).
pub const NO_LAUNCHER: &str = "this command needs Linux or macOS to run programs (on Windows, use WSL)";

/// The one line a command that runs students' programs says on a system with less containment than Linux, or
/// `None` on Linux (where `probe::warning` names the missing layers instead).
pub fn notice() -> Option<&'static str> {
    if cfg!(target_os = "linux") {
        None
    } else if cfg!(windows) {
        Some(
            "note: on Windows a run gets a Job Object (its whole process tree ends at the time limit) and a clean \
             environment, but no sandbox and no memory, CPU or file limits: it can read and write what you can and \
             reach the network (Linux, or WSL, contains it)",
        )
    } else {
        Some(
            "note: on macOS a run gets its own process group (killed as a whole at the time limit), CPU-time, \
             file-size and open-file limits and a clean environment, but no Landlock, namespaces, seccomp or \
             cgroups: it can read and write what you can, reach the network, use any amount of memory, and a \
             process that leaves its group outlives the run (Linux contains it)",
        )
    }
}

/// What every run gets here besides the layers, as `referee sandbox` lists it.
pub fn limits() -> &'static str {
    if cfg!(target_os = "linux") {
        "own process group, wall clock with TERM then KILL of the whole tree, CPU time, data segment, file size, \
         capped output"
    } else if cfg!(windows) {
        "a Job Object: the whole process tree ends at the wall clock; capped output; no CPU, memory or file limits"
    } else {
        "own process group, wall clock with TERM then KILL of the whole tree, CPU time, file size, 1024 open \
         files, capped output (memory is not limited: macOS does not enforce it)"
    }
}

/// Why hand-ins are not graded here, or `None` where they are: on Windows `grade` (a class, one hand-in or a game
/// class) refuses with this line and exit 3, since students' programs would run with no sandbox and no limits.
pub fn grading_refused() -> Option<&'static str> {
    cfg!(windows).then_some(
        "grading needs Linux or macOS (on Windows, use WSL): here students' programs would run with no sandbox \
         and no resource limits; `referee check` runs your own program here",
    )
}

/// Sets `path`'s permission bits to `mode` (Unix); elsewhere there are none to set.
///
/// # Errors
/// When the mode cannot be set.
pub fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

/// Makes `link` a symbolic link to `target` (Unix).
///
/// # Errors
/// When it cannot be made; always on systems without Unix links.
pub fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(not(unix))]
    {
        let _ = (target, link);
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "symbolic links need Linux or macOS"))
    }
}
