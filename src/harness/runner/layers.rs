//! The sandbox's layers beyond the process group and the rlimits: which ones this machine offers (found once per
//! grader by a trial run of the launcher, so the answer is what a run really gets), and the policy for a missing one
//! (best effort with a warning, or a harness error before any student runs).
//!
//! - Landlock: files (read/execute on the system and the toolchain, read/write on the run's own folder only), TCP
//!   connect/bind, and signals/abstract sockets outside the run. Needs no privilege.
//! - Network namespace: no interface at all, loopback included. Root, or user namespaces.
//! - PID namespace with a private `/proc`: the run sees only its own processes. Root, or user namespaces.
//! - cgroup: a CPU share, a memory limit and a pids limit per run. Where the grader may create cgroups.

use std::sync::OnceLock;

/// The layers a run is started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Layers {
    /// Landlock file-system, TCP and signal rules.
    pub landlock: bool,
    /// A network namespace of its own.
    pub network: bool,
    /// A PID namespace of its own, with a private `/proc`.
    pub pid: bool,
    /// A cgroup of its own (CPU share, memory, pids).
    pub cgroup: bool,
}

impl Layers {
    /// Whether any layer is on (runs then go through the launcher).
    pub fn any(&self) -> bool {
        self.landlock || self.network || self.pid || self.cgroup
    }

    /// Every layer's name, in the order results list them.
    pub const NAMES: [&'static str; 4] = ["landlock", "network", "pid", "cgroup"];

    /// The layers named in `list` (comma-separated names from [`Layers::NAMES`]; `none` for no layer).
    ///
    /// # Errors
    /// An unknown name, with the known ones.
    pub fn parse_list(list: &str) -> Result<Layers, String> {
        let mut layers = Layers::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty() && *n != "none") {
            match name {
                "landlock" => layers.landlock = true,
                "network" => layers.network = true,
                "pid" => layers.pid = true,
                "cgroup" => layers.cgroup = true,
                other => {
                    return Err(format!(
                        "--sandbox-layers: unknown layer '{other}' (known: {}, or none)",
                        Layers::NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(layers)
    }

    /// The layers on in both `self` and `other`.
    pub fn intersect(&self, other: &Layers) -> Layers {
        Layers {
            landlock: self.landlock && other.landlock,
            network: self.network && other.network,
            pid: self.pid && other.pid,
            cgroup: self.cgroup && other.cgroup,
        }
    }

    /// The names of the layers that are on, for results (`landlock`, `network`, `pid`, `cgroup`).
    pub fn names(&self) -> Vec<String> {
        [(self.landlock, "landlock"), (self.network, "network"), (self.pid, "pid"), (self.cgroup, "cgroup")]
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| name.to_string())
            .collect()
    }
}

/// How the probe describes Landlock when every rule is enforced, abstract-socket and signal scoping included.
pub const LANDLOCK_FULL: &str = "files, TCP and signals (Landlock ABI 6 or later)";

/// Whether Landlock confines abstract unix sockets and signals to each run here (ABI 6), so runs may share one
/// empty network namespace without reaching each other.
pub fn scopes_abstract_sockets() -> bool {
    probe().states.iter().any(|s| s.name == "landlock" && s.in_force && s.detail == LANDLOCK_FULL)
}

/// What to do when a layer is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Policy {
    /// Use every layer the machine offers; warn once about the others.
    #[default]
    BestEffort,
    /// Refuse to run anything unless every layer is in force (a harness error before any student runs).
    Require,
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
    /// Landlock, network, PID, cgroup, in that order.
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

/// The layers this machine offers, probed once per process (a trial launch with every layer on).
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
            .filter(|s| !s.in_force && only.names().iter().any(|n| n == s.name))
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

/// One warning line for the layers best effort goes without, or `None` when all are in force.
pub fn warning() -> Option<String> {
    let missing = probe().missing();
    (!missing.is_empty()).then(|| {
        format!(
            "warning: sandbox without {} (see `referee sandbox`; --sandbox require refuses to grade without them)",
            missing.join("; ")
        )
    })
}

fn probe_now() -> Probe {
    let landlock = super::launcher::trial(&Layers { landlock: true, ..Layers::default() });
    let namespaces = super::launcher::trial(&Layers { network: true, pid: true, ..Layers::default() });
    let cgroup = super::cgroup::available();
    let landlock_state = match &landlock {
        Ok(detail) => LayerState { name: "landlock", in_force: true, detail: detail.clone() },
        Err(why) => LayerState { name: "landlock", in_force: false, detail: why.clone() },
    };
    let (network, pid) = match &namespaces {
        Ok(_) => (
            LayerState {
                name: "network",
                in_force: true,
                detail: "a network namespace of its own: no interface, not even the machine's loopback".into(),
            },
            LayerState {
                name: "pid",
                in_force: true,
                detail: "a PID namespace with a private /proc: it sees and signals only its own processes".into(),
            },
        ),
        Err(why) => (
            LayerState { name: "network", in_force: false, detail: why.clone() },
            LayerState { name: "pid", in_force: false, detail: why.clone() },
        ),
    };
    let cgroup_state = match &cgroup {
        Ok(detail) => LayerState { name: "cgroup", in_force: true, detail: detail.clone() },
        Err(why) => LayerState { name: "cgroup", in_force: false, detail: why.clone() },
    };
    let layers = Layers {
        landlock: landlock.is_ok(),
        network: namespaces.is_ok(),
        pid: namespaces.is_ok(),
        cgroup: cgroup.is_ok(),
    };
    Probe { states: vec![landlock_state, network, pid, cgroup_state], layers }
}
