//! Which sandbox layers this machine offers, found once per grader by trial runs of the launcher (so the answer is
//! what a run really gets), and the policy for a missing one (best effort with a warning, or a harness error before
//! any student runs).

use std::sync::OnceLock;

use super::layers::Layers;
pub use super::layers::Policy;

pub use super::layers::LANDLOCK_FULL;

/// Whether Landlock confines abstract unix sockets and signals to each run here (ABI 6), so runs may share one
/// empty network namespace without reaching each other.
pub fn scopes_abstract_sockets() -> bool {
    probe().states.iter().any(|s| s.name == "landlock" && s.in_force && s.detail == LANDLOCK_FULL)
}

/// One layer's state on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerState {
    /// Its name as `referee sandbox` prints it.
    pub name: &'static str,
    /// Whether runs get it.
    pub in_force: bool,
    /// What it does when in force, or why it is not.
    pub detail: String,
}

/// Every layer's state on this machine, as found by [`probe`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// One state per layer, in the order of [`Layers::NAMES`].
    pub states: Vec<LayerState>,
    /// The layers runs get.
    pub layers: Layers,
}

impl Probe {
    /// The layers not in force, as `name (why)` for a warning or an error.
    pub fn missing(&self) -> Vec<String> {
        self.states.iter().filter(|s| !s.in_force).map(|s| format!("{} ({})", s.name, s.detail)).collect()
    }
}

/// The layers this machine offers, probed once per process.
pub fn probe() -> &'static Probe {
    static PROBE: OnceLock<Probe> = OnceLock::new();
    PROBE.get_or_init(probe_now)
}

/// The layers to use under `policy`, or exactly the layers `only` names (`--sandbox-layers`, which simulates a
/// machine that offers no more than those).
///
/// # Errors
/// Under [`Policy::Require`], a message naming each missing layer and why it is missing; a layer `only` names that
/// this machine does not offer.
pub fn select(policy: Policy, only: Option<&Layers>) -> Result<Layers, String> {
    let probe = probe();
    if let Some(only) = only {
        let absent: Vec<String> = probe
            .states
            .iter()
            .filter(|s| !s.in_force && only.get(s.name))
            .map(|s| format!("{} ({})", s.name, s.detail))
            .collect();
        if !absent.is_empty() {
            return Err(format!("--sandbox-layers: not available on this machine: {}", absent.join("; ")));
        }
        return Ok(probe.layers.intersect(only));
    }
    let missing = probe.missing();
    if policy == Policy::Require && !missing.is_empty() {
        return Err(format!("--sandbox require: not in force on this machine: {}", missing.join("; ")));
    }
    Ok(probe.layers)
}

/// One warning line for the layers best effort goes without, or `None` when all are in force. Off Linux, where no
/// layer exists, the line says what a run does and does not get there (see [`super::platform::notice`]).
pub fn warning() -> Option<String> {
    if let Some(notice) = super::platform::notice() {
        return Some(notice.to_string());
    }
    let missing = probe().missing();
    (!missing.is_empty()).then(|| {
        format!(
            "warning: sandbox without {} (see `referee sandbox`; --sandbox require refuses to grade without them)",
            missing.join("; ")
        )
    })
}

/// What each namespace layer does when in force.
fn namespace_detail(name: &str) -> &'static str {
    match name {
        "network" => "a network namespace of its own: no interface, not even the machine's loopback",
        "pid" => "a PID namespace with a private /proc: it sees and signals only its own processes",
        "ipc" => {
            "an IPC namespace of its own: System V and POSIX IPC objects are its own and end with it, never reach a \
             neighbour or a later run"
        }
        _ => {
            "a mount namespace of its own: empty private /tmp, /var/tmp, /dev/shm and /run (no host socket by path), \
             all gone when it ends"
        }
    }
}

fn probe_now() -> Probe {
    if !cfg!(target_os = "linux") {
        // Every layer is a Linux facility: nothing to try.
        let states: Vec<LayerState> = Layers::NAMES
            .iter()
            .map(|&name| LayerState { name, in_force: false, detail: "a Linux facility, not on this system".into() })
            .collect();
        return Probe { states, layers: Layers::default() };
    }
    use super::plan::trial;
    let state = |name: &'static str, found: Result<String, String>| match found {
        Ok(detail) => LayerState { name, in_force: true, detail },
        Err(detail) => LayerState { name, in_force: false, detail },
    };
    let landlock = state("landlock", trial(&Layers { landlock: true, ..Layers::default() }));
    // The namespaces together first (one trial where they all work); one by one only where that fails.
    let together = Layers { network: true, pid: true, ipc: true, mount: true, ..Layers::default() };
    let namespaces: Vec<LayerState> = match trial(&together) {
        Ok(_) => ["network", "pid", "ipc", "mount"]
            .into_iter()
            .map(|name| LayerState { name, in_force: true, detail: namespace_detail(name).into() })
            .collect(),
        Err(_) => ["network", "pid", "ipc", "mount"]
            .into_iter()
            .map(|name| {
                let found = trial(&Layers::default().with(name, true)).map(|_| namespace_detail(name).to_string());
                state(name, found)
            })
            .collect(),
    };
    let seccomp = state(
        "seccomp",
        trial(&Layers { seccomp: true, ..Layers::default() })
            .map(|_| "seccomp: no kernel keyrings, no netlink user sockets".to_string()),
    );
    let cgroup = state("cgroup", super::cgroup::available());
    let mut states = vec![landlock];
    states.extend(namespaces);
    states.push(seccomp);
    states.push(cgroup);
    let layers = states.iter().fold(Layers::default(), |acc, s| acc.with(s.name, s.in_force));
    Probe { states, layers }
}
