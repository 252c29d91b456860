//! The operating-system side of containing a run: who it runs as, its resource limits, killing its process
//! group, and finding processes that escaped the group.
//!
//! Every run's environment carries `REFEREE_RUN=<grader pid>-<n>`. A process that leaves the group (`setsid`)
//! still carries it, so it can be found in `/proc` and killed; the same marker lets a later grader clean up runs
//! left behind by one that was itself killed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::policy::Grants;
use super::Limits;

/// The environment variable that marks a run's processes.
pub const MARKER_VAR: &str = "REFEREE_RUN";

/// A user to run submissions as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// User id.
    pub uid: u32,
    /// Group id.
    pub gid: u32,
}

/// How runs are contained beyond their process group and limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// Run as this user (only possible when the grader is root). With a dedicated user, RLIMIT_NPROC bounds a
    /// fork bomb (root ignores it) and the submission cannot write to the grader's files.
    pub identity: Option<Identity>,
    /// The layers runs get (Landlock, namespaces, cgroup); none for trusted programs.
    pub layers: super::layers::Layers,
    /// What runs may use beyond their own folder: toolchain folders, the environment they start from.
    pub grants: Arc<Grants>,
}

impl Default for Sandbox {
    /// No user switch, no layer, the grader's environment allowlist.
    fn default() -> Sandbox {
        Sandbox { identity: None, layers: super::layers::Layers::default(), grants: Grants::base() }
    }
}

/// How the TA asked untrusted runs to be contained (the command line's sandbox options, as the library sees them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SandboxOptions {
    /// What to do when a layer is missing.
    pub policy: super::layers::Policy,
    /// `--sandbox-layers`: use only these layers (each must be available), to simulate a poorer machine.
    pub only: Option<super::layers::Layers>,
    /// Run as the grader's own user (refused for root).
    pub run_as_self: bool,
    /// `--allow-read`: more folders runs may read and execute.
    pub allow_read: Vec<PathBuf>,
    /// `--env`: more environment for runs (`NAME` or `NAME=VALUE`).
    pub env: Vec<String>,
}

/// The first uid leased to submissions: each submission graded at the same time as others gets its own uid, so
/// RLIMIT_NPROC (counted per user) bounds each one separately and one student's fork bomb cannot starve another
/// student's JVM of threads. No passwd entry is needed for a uid to run a process.
pub const UID_BASE: u32 = 600_000;

/// A uid on loan to one submission, across every grader process on the machine: each uid is backed by an
/// exclusively locked file in the temp folder, which the kernel unlocks when the grader exits or dies. (Two graders
/// leasing independently ran one's fork bomb and another's student under one uid, and RLIMIT_NPROC then failed the
/// innocent `execve`.) The uid returns to the pool when the lease is dropped.
#[derive(Debug)]
pub struct Lease {
    _lock: Option<std::fs::File>,
}

impl Sandbox {
    /// The sandbox one submission runs in: with dedicated users, a uid of its own for as long as the lease lives.
    pub fn lease(&self) -> (Sandbox, Lease) {
        let Some(base) = self.identity else { return (self.clone(), Lease { _lock: None }) };
        match lock_free_uid() {
            Some((uid, lock)) => (
                Sandbox { identity: Some(Identity { uid, gid: base.gid }), ..self.clone() },
                Lease { _lock: Some(lock) },
            ),
            // No lock folder: fall back to the shared identity (RLIMIT_NPROC then counts all runs together).
            None => (self.clone(), Lease { _lock: None }),
        }
    }

    /// This sandbox with `grants` in place of its own.
    pub fn with_grants(self, grants: Arc<Grants>) -> Sandbox {
        Sandbox { grants, ..self }
    }
}

/// The first uid from [`UID_BASE`] whose lock file this process could lock exclusively.
fn lock_free_uid() -> Option<(u32, std::fs::File)> {
    let dir = std::env::temp_dir().join("referee-uid-locks");
    std::fs::create_dir_all(&dir).ok()?;
    (UID_BASE..UID_BASE + 4096).find_map(|uid| {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(uid.to_string()))
            .ok()?;
        #[cfg(unix)]
        {
            use rustix::fs::{flock, FlockOperation};
            flock(&file, FlockOperation::NonBlockingLockExclusive).ok()?;
        }
        Some((uid, file))
    })
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

/// Whether a user other than the owner can execute `path`: every folder above it searchable by others and the
/// file (after links) executable by others.
fn reachable_by_others(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(real) = std::fs::canonicalize(path) else { return false };
        let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode()).unwrap_or(0);
        real.ancestors().skip(1).all(|dir| mode(dir) & 0o001 != 0) && mode(&real) & 0o001 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

impl Sandbox {
    /// Dedicated users (leased uids from [`UID_BASE`], group `nogroup`) when the grader runs as root, otherwise
    /// the grader's own user; with every layer this machine offers.
    pub fn default_for_this_process() -> Sandbox {
        let layers = super::layers::probe().layers;
        let identity = is_root().then(nobody);
        Sandbox { identity, layers, grants: Grants::base() }
    }

    /// The sandbox for untrusted runs as `options` ask: [`Sandbox::default_for_this_process`], or the grader's own
    /// user with `run_as_self`; the layers under the policy (or only those `--sandbox-layers` names); the grader's
    /// environment allowlist with `--env`, and `--allow-read` folders.
    ///
    /// # Errors
    /// Under [`Policy::Require`](super::layers::Policy::Require), the layers that are missing and why; a bad
    /// `--env` or `--allow-read` entry.
    pub fn for_untrusted(options: &SandboxOptions) -> Result<Sandbox, String> {
        let layers = super::layers::select(options.policy, options.only.as_ref())?;
        let identity = if options.run_as_self { None } else { Sandbox::default_for_this_process().identity };
        let grants = Grants::from_grader(&options.allow_read, &options.env)?;
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

/// A fresh marker value for one run.
pub fn next_marker() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// Pids of children spawned by the runner and not yet waited for: the orphan reaper must never touch them.
fn managed() -> &'static Mutex<HashSet<u32>> {
    static MANAGED: OnceLock<Mutex<HashSet<u32>>> = OnceLock::new();
    MANAGED.get_or_init(|| Mutex::new(HashSet::new()))
}

/// Runs `spawn` with the managed set locked and records the child's pid, so no orphan sweep can mistake a
/// brand-new child for an orphan.
pub(crate) fn spawn_managed<T>(spawn: impl FnOnce() -> std::io::Result<(T, u32)>) -> std::io::Result<T> {
    let mut set = managed().lock().unwrap_or_else(|p| p.into_inner());
    let (child, pid) = spawn()?;
    set.insert(pid);
    Ok(child)
}

/// Forgets a child once it has been waited for.
pub(crate) fn release(pid: u32) {
    managed().lock().unwrap_or_else(|p| p.into_inner()).remove(&pid);
}

/// Applies `limits` to the running process `pid` (right after spawn, before it can do much).
pub(crate) fn apply_limits(pid: u32, limits: &Limits, sandbox: &Sandbox) {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{prlimit, Pid, Resource, Rlimit};
        let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else { return };
        let set = |resource, value: u64| {
            // A child that has already exited cannot be limited, and needs no limit.
            let _ = prlimit(Some(pid), resource, Rlimit { current: Some(value), maximum: Some(value) });
        };
        set(Resource::Cpu, limits.effective_cpu_seconds());
        set(Resource::Data, limits.memory_bytes);
        set(Resource::Fsize, limits.file_bytes);
        set(Resource::Core, 0);
        if sandbox.identity.is_some() {
            set(Resource::Nproc, limits.processes);
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pid, limits, sandbox);
    }
}

/// Sends `signal` to the process group `pgid`; `true` if the group still had a member.
pub(crate) fn signal_group(pgid: u32, signal: GroupSignal) -> bool {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process_group, Pid, Signal};
        let Some(pid) = i32::try_from(pgid).ok().and_then(Pid::from_raw) else { return false };
        let sig = match signal {
            GroupSignal::Terminate => Signal::TERM,
            GroupSignal::Kill => Signal::KILL,
            GroupSignal::Stop => Signal::STOP,
            GroupSignal::Continue => Signal::CONT,
        };
        kill_process_group(pid, sig).is_ok()
    }
    #[cfg(not(unix))]
    {
        let _ = (pgid, signal);
        false
    }
}

/// The signals the runner and the referee send to a process group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupSignal {
    /// SIGTERM: the polite request at the deadline.
    Terminate,
    /// SIGKILL.
    Kill,
    /// SIGSTOP: an agent waiting for its turn may not think.
    Stop,
    /// SIGCONT: its turn again.
    Continue,
}

/// Kills every process whose environment carries `MARKER_VAR=<marker>` (with `marker = None`, every marked process
/// whose grader is no longer alive). Returns how many were killed. Linux only; elsewhere 0.
pub fn kill_marked(marker: Option<&str>) -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut killed = 0;
        // A process can fork between the scan and the kill: scan again until a pass finds nothing.
        for _ in 0..20 {
            let found = marked_processes(marker);
            if found.is_empty() {
                break;
            }
            for pid in found {
                if let Some(p) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
                    if rustix::process::kill_process(p, rustix::process::Signal::KILL).is_ok() {
                        killed += 1;
                    }
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        killed
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = marker;
        0
    }
}

#[cfg(target_os = "linux")]
fn marked_processes(marker: Option<&str>) -> Vec<i32> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let prefix = format!("{MARKER_VAR}=");
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid as u32 != me)
        .filter(|&pid| {
            let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { return false };
            env.split(|&b| b == 0).filter_map(|var| var.strip_prefix(prefix.as_bytes())).any(|value| {
                let value = String::from_utf8_lossy(value);
                match marker {
                    Some(m) => value == m,
                    None => value.split('-').next().and_then(|p| p.parse::<u32>().ok()).is_some_and(|p| !alive(p)),
                }
            })
        })
        .collect()
}

#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Makes this process the reaper of its orphaned descendants, so a daemonizing submission's processes come back
/// to it instead of to init. Only for a process whose children are all spawned by the runner (the CLI), because
/// [`reap_orphans`] waits for every child it does not manage.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::set_child_subreaper(rustix::process::Pid::from_raw(1));
        SUBREAPER.store(true, Ordering::Relaxed);
    }
}

static SUBREAPER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// In a subreaper: kills this run's orphans and reaps every unmanaged child (orphans that have exited).
/// Returns how many orphans were found.
pub(super) fn reap_orphans(marker: &str) -> usize {
    #[cfg(target_os = "linux")]
    {
        if !SUBREAPER.load(Ordering::Relaxed) {
            return 0;
        }
        let set = managed().lock().unwrap_or_else(|p| p.into_inner());
        let orphans: Vec<u32> = children().into_iter().filter(|pid| !set.contains(pid)).collect();
        if orphans.is_empty() {
            return 0;
        }
        drop(set);
        kill_marked(Some(marker));
        for &pid in &orphans {
            if let Some(p) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) {
                let _ = rustix::process::waitpid(Some(p), rustix::process::WaitOptions::NOHANG);
            }
        }
        orphans.len()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = marker;
        0
    }
}

/// This process's children, from `/proc/self/task/*/children`.
#[cfg(target_os = "linux")]
fn children() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|s| s.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<u32>>())
        .collect()
}

/// Gives `path` (recursively) to the sandbox user, so a submission can write in its own scratch copy.
///
/// # Errors
/// When ownership cannot be changed.
pub fn hand_over(path: &Path, sandbox: &Sandbox) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let Some(id) = sandbox.identity else { return Ok(()) };
        let (uid, gid) = (rustix::fs::Uid::from_raw(id.uid), rustix::fs::Gid::from_raw(id.gid));
        let mut stack = vec![path.to_path_buf()];
        while let Some(p) = stack.pop() {
            rustix::fs::chown(&p, Some(uid), Some(gid))?;
            if p.is_dir() && !p.is_symlink() {
                for entry in std::fs::read_dir(&p)? {
                    stack.push(entry?.path());
                }
            }
        }
        Ok(())
    }
    #[cfg(not(unix))]
    {
        let _ = (path, sandbox);
        Ok(())
    }
}
