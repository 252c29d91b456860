//! One run's launch plan: from the grader's decisions (the [`Sandbox`] its policy made once, the run's limits, its
//! folder and cgroups) to the launcher's instructions ([`Request`]). The launcher ([`super::launcher`]) applies
//! them; nothing flows back but the report.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use super::layers::Layers;
use super::sandbox::Sandbox;
use super::wire::Request;
use super::Limits;

/// The `referee` binary that can act as launcher: this executable when it is `referee` (through `/proc/self/exe`,
/// which names it even if its file was replaced or its path is not visible), `$REFEREE_EXE`, or a `referee` beside
/// this executable or one folder up (`target/debug/deps/..` in tests).
pub fn launcher_path() -> Option<PathBuf> {
    let me = std::env::current_exe().ok()?;
    // Linux names a deleted (or replaced) executable `<path> (deleted)`; it still runs as itself.
    let name = me.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name.strip_suffix(" (deleted)").unwrap_or(&name) == "referee" {
        // Elsewhere the path it was started by, made absolute: runs start it from their own folder.
        return Some(if cfg!(target_os = "linux") {
            PathBuf::from("/proc/self/exe")
        } else {
            std::fs::canonicalize(&me).unwrap_or(me)
        });
    }
    if let Some(p) = std::env::var_os("REFEREE_EXE").map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(p);
    }
    let dir = me.parent()?;
    [dir.join("referee"), dir.parent()?.join("referee")].into_iter().find(|p| p.is_file())
}

/// What a run needs beyond limits and identity: more readable folders, its cgroups, a CPU pin.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Pin the program (and every thread and child it starts) to this CPU.
    pub pin: Option<usize>,
    /// Folders the program may read besides its working folder, the system and the grants (a compiled agent's
    /// classes).
    pub readable: Vec<PathBuf>,
    /// cgroup folders to join.
    pub cgroups: Vec<PathBuf>,
}

/// The launcher's request to run `program args` with `limits` in `sandbox`: the layers it must set up itself, the
/// grader's shared namespaces to join instead where that is as safe and cheaper (see `shared_ns`), the folders it
/// may read. The caller adds the run's folder and the report channel.
pub fn request(limits: &Limits, sandbox: &Sandbox, extras: &Extras, program: &OsStr, args: &[OsString]) -> Request {
    let identity = sandbox.identity;
    let layers = sandbox.layers;
    let shared = if layers.network || layers.pid { super::shared_ns::shared() } else { None };
    let netns = shared.filter(|_| layers.network).map(super::shared_ns::Shared::network);
    // A `hidepid` /proc hides only other users' processes: it stands for a PID namespace when this run's uid is
    // its own (leased), and the cgroup kills what the program leaves behind.
    let own_uid = identity.is_some_and(|i| i.uid >= super::lease::UID_BASE);
    let procns = shared.filter(|_| layers.pid && layers.cgroup && own_uid).and_then(super::shared_ns::Shared::proc);
    let mut readable = extras.readable.clone();
    if layers.landlock {
        readable.extend(sandbox.grants.read.iter().cloned());
    } else {
        // Without Landlock nothing is granted, but the mount layer must still keep these visible.
        readable.extend(sandbox.grants.read.iter().filter(|_| layers.mount).cloned());
    }
    Request {
        cpu: limits.effective_cpu_seconds(),
        data: limits.memory_bytes,
        fsize: limits.file_bytes,
        nproc: identity.map_or(0, |_| limits.processes),
        disk: limits.disk_bytes,
        identity,
        pin: extras.pin,
        layers: Layers { cgroup: false, ..layers },
        readable,
        cgroups: extras.cgroups.clone(),
        netns,
        procns,
        program: program.to_os_string(),
        args: args.to_vec(),
        ..Request::default()
    }
}

/// Whether the request runs the program as the first process of a PID namespace of its own, whose init reports
/// (and kills) what it leaves running; otherwise the runner finds leftovers in the run's cgroup and process group.
pub fn own_pid_namespace(request: &Request) -> bool {
    request.layers.pid && request.procns.is_none()
}

/// Starts the launcher with `layers` on and nothing to run (`+probe`): `Ok` with what the layers do, or why they
/// cannot be set up here (the launcher's own message).
///
/// # Errors
/// The launcher's message, or why it could not be started.
pub fn trial(layers: &Layers) -> Result<String, String> {
    let exe = launcher_path().ok_or("the referee launcher was not found")?;
    let request = Request { layers: *layers, probe: true, program: "true".into(), ..Request::default() };
    let mut command = std::process::Command::new(exe);
    command
        .args(request.to_args())
        .current_dir(std::env::temp_dir())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let output = super::report::exclusive(|| command.spawn())
        .and_then(std::process::Child::wait_with_output)
        .map_err(|e| format!("cannot start the launcher: {e}"))?;
    let err = String::from_utf8_lossy(&output.stderr);
    let err = err.trim();
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    } else if err.is_empty() {
        Err(format!("the trial launch ended with {}", output.status))
    } else {
        Err(err.to_string())
    }
}
