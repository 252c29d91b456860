//! The launcher: `referee __exec CPU DATA FSIZE NPROC UID GID [PIN] -- PROGRAM ARGS..`, a step between the runner
//! and the submission that takes the sandbox identity (no supplementary groups, then GID, then UID; `-` keeps the
//! grader's), sets the resource limits on itself, optionally pins itself to one CPU (`PIN`, the referee's agents),
//! and then becomes the program (`exec`).
//!
//! Why not set the limits from the grader after spawning: changing the limits of a process owned by another user
//! needs CAP_SYS_RESOURCE, which a container's root often lacks, and there would be a moment before they apply.
//! Why switch users here rather than through `Command::uid`: std then has to `fork` the whole grader, while a
//! plain spawn uses the much cheaper `posix_spawn`; that alone cost about 1.5 ms per run. The launcher is
//! single-threaded, so the per-thread identity calls change the whole process.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use super::sandbox::Identity;
use super::Limits;

/// The hidden subcommand that marks a launcher invocation.
pub const SUBCOMMAND: &str = "__exec";

/// Exit code of a launcher that could not start the program; its stderr then starts with [`FAILED_TAG`].
pub const FAILED_EXIT: i32 = 127;

/// What a launcher prints first on stderr when it cannot start the program (a NUL no real program starts with).
pub const FAILED_TAG: &str = "\0referee-exec-failed: ";

/// The `referee` binary that can act as launcher: this executable when it is `referee`, `$REFEREE_EXE`, or a
/// `referee` beside this executable or one folder up (`target/debug/deps/..` in tests).
pub fn launcher_path() -> Option<PathBuf> {
    let me = std::env::current_exe().ok()?;
    if me.file_stem().is_some_and(|s| s == "referee") {
        return Some(me);
    }
    if let Some(p) = std::env::var_os("REFEREE_EXE").map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(p);
    }
    let dir = me.parent()?;
    [dir.join("referee"), dir.parent()?.join("referee")].into_iter().find(|p| p.is_file())
}

/// The launcher's arguments for `limits`, an identity and `program args` (everything after the launcher path).
pub fn arguments(limits: &Limits, identity: Option<Identity>, program: &OsStr, args: &[OsString]) -> Vec<OsString> {
    pinned_arguments(limits, identity, None, program, args)
}

/// [`arguments`], pinning the program (and every thread and child it starts) to CPU `pin` when given.
pub fn pinned_arguments(
    limits: &Limits,
    identity: Option<Identity>,
    pin: Option<usize>,
    program: &OsStr,
    args: &[OsString],
) -> Vec<OsString> {
    let nproc = identity.map_or(0, |_| limits.processes);
    let id = |f: fn(&Identity) -> u32| identity.as_ref().map_or("-".to_string(), |i| f(i).to_string());
    let mut out: Vec<OsString> = vec![
        SUBCOMMAND.into(),
        limits.effective_cpu_seconds().to_string().into(),
        limits.memory_bytes.to_string().into(),
        limits.file_bytes.to_string().into(),
        nproc.to_string().into(),
        id(|i| i.uid).into(),
        id(|i| i.gid).into(),
    ];
    if let Some(cpu) = pin {
        out.push(cpu.to_string().into());
    }
    out.extend(["--".into(), program.to_os_string()]);
    out.extend(args.iter().cloned());
    out
}

/// Runs the launcher given everything after [`SUBCOMMAND`]: sets the limits and becomes the program. Returns only
/// when that fails, with the exit code to use after it has printed why.
pub fn exec(args: &[OsString]) -> i32 {
    let fail = |message: String| {
        eprintln!("{FAILED_TAG}{message}");
        FAILED_EXIT
    };
    let Some(split) = args.iter().position(|a| a == "--") else {
        return fail("launcher: missing '--' before the program".into());
    };
    let words: Vec<&str> = args[..split].iter().filter_map(|a| a.to_str()).collect();
    let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
    let (Some(cpu), Some(data), Some(fsize), Some(nproc), 6 | 7) =
        (number(0), number(1), number(2), number(3), words.len())
    else {
        return fail("launcher: expected CPU DATA FSIZE NPROC UID GID [PIN] before '--'".into());
    };
    let pin = words.get(6).and_then(|w| w.parse::<usize>().ok());
    let identity = match (words[4].parse::<u32>(), words[5].parse::<u32>()) {
        (Ok(uid), Ok(gid)) => Some(Identity { uid, gid }),
        _ => None,
    };
    let Some((program, rest)) = args[split + 1..].split_first() else {
        return fail("launcher: no program after '--'".into());
    };
    #[cfg(unix)]
    {
        if let Some(id) = identity {
            use rustix::thread::{set_thread_groups, set_thread_res_gid, set_thread_res_uid};
            let (uid, gid) = (rustix::fs::Uid::from_raw(id.uid), rustix::fs::Gid::from_raw(id.gid));
            let switched = set_thread_groups(&[])
                .and_then(|_| set_thread_res_gid(gid, gid, gid))
                .and_then(|_| set_thread_res_uid(uid, uid, uid));
            if let Err(e) = switched {
                return fail(format!("cannot switch to uid {} gid {}: {e}", id.uid, id.gid));
            }
        }
        if let Some(cpu) = pin {
            let mut set = rustix::thread::CpuSet::new();
            set.set(cpu);
            if let Err(e) = rustix::thread::sched_setaffinity(None, &set) {
                return fail(format!("cannot pin to CPU {cpu}: {e}"));
            }
        }
        use rustix::process::{setrlimit, Resource, Rlimit};
        let set = |resource, value: u64| setrlimit(resource, Rlimit { current: Some(value), maximum: Some(value) });
        let mut results = vec![set(Resource::Cpu, cpu), set(Resource::Data, data), set(Resource::Fsize, fsize)];
        results.push(set(Resource::Core, 0));
        if nproc > 0 {
            results.push(set(Resource::Nproc, nproc));
        }
        if let Some(e) = results.into_iter().find_map(Result::err) {
            return fail(format!("cannot set resource limits: {e}"));
        }
        use std::os::unix::process::CommandExt;
        let e = std::process::Command::new(program).args(rest).exec();
        fail(format!("cannot start '{}': {e}", program.to_string_lossy()))
    }
    #[cfg(not(unix))]
    {
        let _ = (cpu, data, fsize, nproc, identity, pin, program, rest);
        fail("launcher: only on Unix".into())
    }
}
