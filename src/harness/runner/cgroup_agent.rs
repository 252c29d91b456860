//! An agent's cgroup freezes and pins: pausing an agent between its turns freezes every process in its cgroup
//! (whatever session or process group it moved to: a `setsid` helper stops thinking too), and its CPU pin is the
//! cgroup's cpuset, which `sched_setaffinity` can only narrow, never widen.
//!
//! Under cgroup v2 the agent's one folder does both (`cgroup.freeze`, waited for until `cgroup.events` says
//! `frozen 1`; `cpuset.cpus` with the `cpuset` controller enabled for the grader's cgroup). Under v1 the agent gets
//! a folder in the `freezer` hierarchy (`freezer.state` `FROZEN`) and, when pinned, one in the `cpuset` hierarchy,
//! where they are mounted. Whatever of this the machine lacks is left out, never an error: the referee then pauses
//! with signals as before (see `referee::process`), and [`RunCgroup::can_freeze`] / [`RunCgroup::is_pinned`] say
//! what holds.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::cgroup::{agent_parents, from_pool, Kind, RunCgroup};
use super::Limits;

/// How long a freeze may take to be confirmed before the referee falls back to signals.
const FREEZE_WAIT: Duration = Duration::from_millis(500);

/// What an agent's cgroup has beyond a run's.
#[derive(Clone, Debug)]
pub struct AgentParts {
    /// The CPU it was asked to be pinned to.
    pub(super) pin: Option<usize>,
    /// How it is frozen, if it can be.
    freezer: Option<Freezer>,
    /// Whether a cpuset holds the pin.
    pinned: bool,
}

/// A freezer: a v2 cgroup's `cgroup.freeze`, or a v1 `freezer` folder.
#[derive(Clone, Debug)]
enum Freezer {
    V2(PathBuf),
    V1(PathBuf),
}

impl RunCgroup {
    /// The cgroups of agent `name`: a run's (CPU share, `limits`' memory and pids) with a freezer and, with
    /// `pin`, a cpuset of that one CPU, where the machine has them.
    ///
    /// # Errors
    /// A message naming the folder or file of the run's part that could not be made or written.
    pub fn for_agent(name: &str, limits: &Limits, pin: Option<usize>) -> Result<RunCgroup, String> {
        if let Some(idle) = from_pool((limits.memory_bytes, limits.processes), Some(pin)) {
            return Ok(idle);
        }
        let mut made = RunCgroup::create_new(name, limits)?;
        let mut parts = AgentParts { pin, freezer: None, pinned: false };
        if let [only] = made.dirs.as_slice() {
            // cgroup v2: the run's own folder freezes and pins.
            let only = only.clone();
            if only.join("cgroup.freeze").is_file() {
                parts.freezer = Some(Freezer::V2(only.clone()));
            }
            if let Some(cpu) = pin {
                parts.pinned = set_cpus(&only, cpu);
            }
        } else {
            for parent in agent_parents() {
                let dir = parent.dir.join(format!("referee-{name}"));
                let ready = match (parent.kind, pin) {
                    (Kind::Freezer, _) => std::fs::create_dir(&dir).is_ok(),
                    (Kind::Cpuset, Some(cpu)) => std::fs::create_dir(&dir).is_ok() && v1_cpuset(&parent.dir, &dir, cpu),
                    _ => continue,
                };
                if !ready {
                    let _ = std::fs::remove_dir(&dir);
                    continue;
                }
                match parent.kind {
                    Kind::Freezer => parts.freezer = Some(Freezer::V1(dir.clone())),
                    _ => parts.pinned = true,
                }
                made.dirs.push(dir);
            }
        }
        made.agent = Some(parts);
        Ok(made)
    }

    /// Whether pausing can freeze the whole cgroup.
    pub fn can_freeze(&self) -> bool {
        self.agent.as_ref().is_some_and(|a| a.freezer.is_some())
    }

    /// Whether the CPU pin is the cgroup's cpuset (which the agent cannot widen).
    pub fn is_pinned(&self) -> bool {
        self.agent.as_ref().is_some_and(|a| a.pinned)
    }

    /// Freezes every process in the cgroup and waits until the kernel says they all are; `false` when there is
    /// no freezer or it did not confirm in time (the caller then stops the processes with signals).
    pub fn freeze(&self) -> bool {
        let Some(freezer) = self.agent.as_ref().and_then(|a| a.freezer.as_ref()) else { return false };
        let until = Instant::now() + FREEZE_WAIT;
        let (file, value, done): (PathBuf, &str, fn(&str) -> bool) = match freezer {
            Freezer::V2(dir) => (dir.join("cgroup.freeze"), "1", |text| text.lines().any(|l| l == "frozen 1")),
            Freezer::V1(dir) => (dir.join("freezer.state"), "FROZEN", |text| text.trim() == "FROZEN"),
        };
        let events = match freezer {
            Freezer::V2(dir) => dir.join("cgroup.events"),
            Freezer::V1(dir) => dir.join("freezer.state"),
        };
        if std::fs::write(&file, value).is_err() {
            return false;
        }
        loop {
            // (Reading v1's `freezer.state` also moves a FREEZING cgroup on to FROZEN once every task is.)
            if std::fs::read_to_string(&events).is_ok_and(|t| done(&t)) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Lets a frozen cgroup run again (nothing when it has no freezer).
    pub fn thaw(&self) {
        match self.agent.as_ref().and_then(|a| a.freezer.as_ref()) {
            Some(Freezer::V2(dir)) => {
                let _ = std::fs::write(dir.join("cgroup.freeze"), "0");
            }
            Some(Freezer::V1(dir)) => {
                let _ = std::fs::write(dir.join("freezer.state"), "THAWED");
            }
            None => {}
        }
    }
}

/// Sets a cgroup's `cpuset.cpus` to `cpu` and says whether that is what its processes now get.
fn set_cpus(dir: &Path, cpu: usize) -> bool {
    let cpus = cpu.to_string();
    std::fs::write(dir.join("cpuset.cpus"), &cpus).is_ok()
        && std::fs::read_to_string(dir.join("cpuset.cpus.effective")).is_ok_and(|t| t.trim() == cpus)
}

/// Makes the v1 cpuset `dir` (a child of `parent`) hold CPU `cpu` and the parent's memory nodes (a v1 cpuset
/// takes no process before both are set).
fn v1_cpuset(parent: &Path, dir: &Path, cpu: usize) -> bool {
    let Ok(mems) = std::fs::read_to_string(parent.join("cpuset.mems")) else { return false };
    let cpus = cpu.to_string();
    std::fs::write(dir.join("cpuset.mems"), mems.trim()).is_ok()
        && std::fs::write(dir.join("cpuset.cpus"), &cpus).is_ok()
        && std::fs::read_to_string(dir.join("cpuset.cpus")).is_ok_and(|t| t.trim() == cpus)
}

/// Enables the `cpuset` controller for the children of the grader's v2 cgroup `dir` when it is offered and not yet
/// enabled (`controllers`: its `cgroup.subtree_control`); agents' pins need it, and nothing else changes (a child
/// without `cpuset.cpus` of its own has all of its parent's CPUs).
pub(super) fn enable_cpuset(dir: &Path, controllers: &str) {
    if controllers.split_whitespace().any(|w| w == "cpuset") {
        return;
    }
    let offered = std::fs::read_to_string(dir.join("cgroup.controllers")).unwrap_or_default();
    if offered.split_whitespace().any(|w| w == "cpuset") {
        let _ = std::fs::write(dir.join("cgroup.subtree_control"), "+cpuset");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPU time (user and system clock ticks) of process `pid` so far.
    fn cpu_ticks(pid: &str) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = after.split(' ').collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }

    /// The `Cpus_allowed_list` of process `pid`.
    fn allowed(pid: &str) -> String {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).unwrap().trim().to_string()
    }

    #[test]
    fn an_agents_cgroup_freezes_every_process_in_it_pins_it_and_carries_its_limits() {
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        if !super::super::sandbox::is_root() || super::super::cgroup::available().is_err() || cpus < 2 {
            eprintln!("SKIPPED agent cgroups: only as root, with cgroups and 2 CPUs");
            return;
        }
        let limits = Limits { processes: 77, memory_bytes: 300 << 20, ..Limits::default() };
        let pin = cpus - 1;
        let mut cgroup =
            RunCgroup::for_agent(&format!("{}-agent-test", std::process::id()), &limits, Some(pin)).unwrap();
        // The run's limits are the cgroup's.
        let read = |file: &str| cgroup.dirs().iter().find_map(|d| std::fs::read_to_string(d.join(file)).ok());
        assert_eq!(read("pids.max").unwrap().trim(), "77");
        let memory = read("memory.max").or_else(|| read("memory.limit_in_bytes")).unwrap();
        assert_eq!(memory.trim(), (300u64 << 20).to_string());
        assert!(read("cpu.weight").or_else(|| read("cpu.shares")).is_some());
        // A spinning process in it, and a spinning child that left its session; both ask for every CPU.
        let procs: Vec<String> = cgroup.dirs().iter().map(|d| d.join("cgroup.procs").display().to_string()).collect();
        let python = "import os\n\
            os.sched_setaffinity(0, range(os.cpu_count()))\n\
            child = os.fork()\n\
            if child == 0:\n    os.setsid()\n    os.sched_setaffinity(0, range(os.cpu_count()))\n    while True: pass\n\
            print(child, flush=True)\n\
            while True: pass\n";
        let mut agent = std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"for f in $1; do echo $$ > "$f" || exit 9; done; exec python3 -c "$0""#)
            .arg(python)
            .arg(procs.join(" "))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(agent.stdout.take().unwrap()), &mut line).unwrap();
        let pids = [agent.id().to_string(), line.trim().to_string()];
        std::thread::sleep(Duration::from_millis(100));
        assert!(cgroup.is_pinned(), "no cpuset where cgroups are available");
        for pid in &pids {
            assert_eq!(allowed(pid), pin.to_string(), "process {pid} widened its pin");
        }
        assert!(cgroup.can_freeze(), "no freezer where cgroups are available");
        assert!(cgroup.freeze());
        let before: Vec<u64> = pids.iter().map(|p| cpu_ticks(p)).collect();
        std::thread::sleep(Duration::from_millis(300));
        let frozen: Vec<u64> = pids.iter().map(|p| cpu_ticks(p)).collect();
        cgroup.thaw();
        std::thread::sleep(Duration::from_millis(300));
        let thawed: Vec<u64> = pids.iter().map(|p| cpu_ticks(p)).collect();
        assert_eq!(before, frozen, "CPU time while frozen");
        assert!(thawed.iter().zip(&frozen).all(|(t, f)| t > f), "thawed: {frozen:?} -> {thawed:?}");
        assert_eq!(cgroup.kill_all(), 2);
        agent.wait().unwrap();
    }
}
