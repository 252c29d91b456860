//! The sandbox's layers beyond the process group and the rlimits, as a set: which ones a run is started with.
//! Which ones this machine offers is [`super::probe`]'s business.
//!
//! - Landlock: files (read/execute on the system and the toolchains, read/write on the run's own folder only, no
//!   symbolic links or socket files made there), TCP connect/bind, and signals/abstract sockets outside the run.
//! - Network namespace: no interface at all, loopback included.
//! - PID namespace with a private `/proc`: the run sees only its own processes.
//! - IPC namespace: System V shared memory, semaphores and message queues (and POSIX queues) of its own, gone with
//!   the run.
//! - Mount namespace: a private `/tmp`, `/var/tmp`, `/dev/shm` and `/run` (no host socket reachable by path),
//!   gone with the run.
//! - seccomp: no kernel keyrings, no netlink user sockets (channels between runs that no other layer closes).
//! - cgroup: a CPU share, a memory limit and a pids limit per run.

/// How `referee sandbox` describes Landlock when every rule is enforced, abstract-socket and signal scoping
/// included.
pub const LANDLOCK_FULL: &str = "files, TCP and signals (Landlock ABI 6 or later)";

/// What to do when a layer is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Policy {
    /// Use every layer the machine offers; warn once about the others.
    #[default]
    BestEffort,
    /// Refuse to run anything unless every layer is in force (a harness error before any student runs).
    Require,
}

/// The layers a run is started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Layers {
    /// Landlock file-system, TCP and signal rules.
    pub landlock: bool,
    /// A network namespace of its own (or the grader's empty one).
    pub network: bool,
    /// A PID namespace of its own, with a private `/proc` (or the grader's `hidepid` one).
    pub pid: bool,
    /// An IPC namespace of its own.
    pub ipc: bool,
    /// A mount namespace of its own with private temporary folders and no `/run`.
    pub mount: bool,
    /// A seccomp filter refusing keyrings and netlink user sockets.
    pub seccomp: bool,
    /// A cgroup of its own (CPU share, memory, pids).
    pub cgroup: bool,
}

impl Layers {
    /// Every layer's name, in the order results list them.
    pub const NAMES: [&'static str; 7] = ["landlock", "network", "pid", "ipc", "mount", "seccomp", "cgroup"];

    /// Every layer on.
    pub const ALL: Layers =
        Layers { landlock: true, network: true, pid: true, ipc: true, mount: true, seccomp: true, cgroup: true };

    /// Whether any layer is on (runs then go through the launcher).
    pub fn any(&self) -> bool {
        *self != Layers::default()
    }

    /// Whether the layer `name` (one of [`Layers::NAMES`]) is on.
    pub fn get(&self, name: &str) -> bool {
        self.fields().into_iter().any(|(n, on)| n == name && on)
    }

    /// This set with the layer `name` turned on or off (an unknown name changes nothing).
    pub fn with(mut self, name: &str, on: bool) -> Layers {
        let slot = match name {
            "landlock" => &mut self.landlock,
            "network" => &mut self.network,
            "pid" => &mut self.pid,
            "ipc" => &mut self.ipc,
            "mount" => &mut self.mount,
            "seccomp" => &mut self.seccomp,
            "cgroup" => &mut self.cgroup,
            _ => return self,
        };
        *slot = on;
        self
    }

    fn fields(&self) -> [(&'static str, bool); 7] {
        [
            ("landlock", self.landlock),
            ("network", self.network),
            ("pid", self.pid),
            ("ipc", self.ipc),
            ("mount", self.mount),
            ("seccomp", self.seccomp),
            ("cgroup", self.cgroup),
        ]
    }

    /// The layers named in `list` (comma-separated names from [`Layers::NAMES`]; `none` for no layer, `all` for
    /// every one).
    ///
    /// # Errors
    /// An unknown name, with the known ones.
    pub fn parse_list(list: &str) -> Result<Layers, String> {
        let mut layers = Layers::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty() && *n != "none") {
            if name == "all" {
                layers = Layers::ALL;
            } else if Layers::NAMES.contains(&name) {
                layers = layers.with(name, true);
            } else {
                return Err(format!(
                    "--sandbox-layers: unknown layer '{name}' (known: {}, or all, or none)",
                    Layers::NAMES.join(", ")
                ));
            }
        }
        Ok(layers)
    }

    /// The layers on in both `self` and `other`.
    pub fn intersect(&self, other: &Layers) -> Layers {
        Layers::NAMES.iter().fold(Layers::default(), |acc, name| acc.with(name, self.get(name) && other.get(name)))
    }

    /// The names of the layers that are on, for results, in the order of [`Layers::NAMES`].
    pub fn names(&self) -> Vec<String> {
        self.fields().into_iter().filter(|(_, on)| *on).map(|(name, _)| name.to_string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_to_sets_and_back() {
        let layers = Layers::parse_list("landlock, ipc,cgroup").unwrap();
        assert_eq!(layers.names(), ["landlock", "ipc", "cgroup"]);
        assert_eq!(Layers::parse_list("none").unwrap(), Layers::default());
        assert_eq!(Layers::parse_list("all").unwrap().names(), Layers::NAMES);
        let wrong = Layers::parse_list("landlock,chroot").unwrap_err();
        assert!(wrong.contains("unknown layer 'chroot'"), "{wrong}");
        assert_eq!(Layers::ALL.intersect(&layers), layers);
        assert!(!Layers::default().any() && layers.any());
    }
}
