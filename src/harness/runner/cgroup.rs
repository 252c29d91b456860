//! A cgroup per run: created by the grader beside its own cgroup, joined by the launcher before `exec`, removed
//! after the run. The run gets an equal CPU share (so a fork bomb's hundreds of spinning processes weigh as much as
//! one student's JVM, not hundreds of times more), a memory limit (the `--memory` value: it counts what the JVM
//! touches, not what it reserves, so the JVM still starts) and a pids limit.
//!
//! A run's cgroups are reused: when a run ends with its cgroups empty, they go back to a pool of this grader's
//! and the next run with the same memory and pids limits takes them (making and removing three v1 folders cost
//! about 4 ms a run). A cgroup that still holds a process is never reused: it is removed once it empties. The pool
//! is left behind, empty, when the grader exits; the next probe removes it (its names carry the grader's PID
//! namespace, pid and start time: see `available`).
//!
//! cgroup v2 where its controllers are enabled for the grader's cgroup, else the v1 `cpu`, `memory` and `pids`
//! hierarchies (some machines still mount them). Agents' cgroups also freeze and pin (see `cgroup_agent`): under v2
//! the same folder does (`cgroup.freeze`, `cpuset.cpus`), under v1 folders in the `freezer` and `cpuset`
//! hierarchies when they are mounted.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::Limits;

/// The per-run cgroups (one folder per hierarchy: one for v2, up to three for v1).
#[derive(Debug, Default)]
pub struct RunCgroup {
    pub(super) dirs: Vec<PathBuf>,
    /// The limits they were set to (memory bytes, pids): the pool's key.
    pub(super) key: (u64, u64),
    /// Never pooled: a run left processes in it (dying ones may still count against its pids limit).
    spent: bool,
    /// An agent's freezer and CPU pin (`None` for other runs): also part of the pool's key.
    pub(super) agent: Option<super::cgroup_agent::AgentParts>,
}

/// Empty run cgroups of this grader, ready for the next run with the same limits.
fn pool() -> &'static Mutex<Vec<RunCgroup>> {
    static POOL: OnceLock<Mutex<Vec<RunCgroup>>> = OnceLock::new();
    POOL.get_or_init(|| Mutex::new(Vec::new()))
}

/// Takes an idle cgroup from the pool: made with limits `key` and, for an agent, pinned to `pin` (`agent`).
pub(super) fn from_pool(key: (u64, u64), agent: Option<Option<usize>>) -> Option<RunCgroup> {
    let mut idle = pool().lock().unwrap_or_else(|p| p.into_inner());
    let i = idle.iter().position(|c| c.key == key && c.agent.as_ref().map(|a| a.pin) == agent)?;
    Some(idle.swap_remove(i))
}

/// Where the grader may create run cgroups: per hierarchy, the folder of its own cgroup and the controllers to set.
#[derive(Clone, Debug)]
pub(super) struct Parent {
    pub(super) dir: PathBuf,
    pub(super) kind: Kind,
}

/// A hierarchy: v2 (every controller in one), or one v1 controller's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    V2,
    Cpu,
    Memory,
    Pids,
    /// v1 `freezer`: only agents' cgroups have a folder in it.
    Freezer,
    /// v1 `cpuset`: only pinned agents' cgroups have a folder in it.
    Cpuset,
}

impl RunCgroup {
    /// Creates the cgroups of run `name` with `limits`.
    ///
    /// # Errors
    /// A message naming the folder or file that could not be made or written.
    pub fn create(name: &str, limits: &Limits) -> Result<RunCgroup, String> {
        let key = (limits.memory_bytes, limits.processes);
        if let Some(idle) = from_pool(key, None) {
            return Ok(idle);
        }
        Self::create_new(name, limits)
    }

    /// Creates new cgroups of run `name` with `limits` (never from the pool).
    ///
    /// # Errors
    /// A message naming the folder or file that could not be made or written.
    pub(super) fn create_new(name: &str, limits: &Limits) -> Result<RunCgroup, String> {
        let key = (limits.memory_bytes, limits.processes);
        let parents = parents();
        if parents.is_empty() {
            return Err("no writable cgroup hierarchy with cpu, memory and pids".into());
        }
        let mut made = RunCgroup { dirs: Vec::new(), key, spent: false, agent: None };
        for parent in parents {
            let dir = parent.dir.join(format!("referee-{name}"));
            std::fs::create_dir(&dir).map_err(|e| format!("cannot create cgroup {}: {e}", dir.display()))?;
            made.dirs.push(dir.clone());
            let memory = limits.memory_bytes.to_string();
            let pids = limits.processes.to_string();
            let settings: Vec<(&str, &str)> = match parent.kind {
                Kind::V2 => vec![("cpu.weight", "100"), ("memory.max", &memory), ("pids.max", &pids)],
                Kind::Cpu => vec![("cpu.shares", "1024")],
                Kind::Memory => vec![("memory.limit_in_bytes", &memory)],
                Kind::Pids => vec![("pids.max", &pids)],
                Kind::Freezer | Kind::Cpuset => Vec::new(),
            };
            for (file, value) in settings {
                let path = dir.join(file);
                std::fs::write(&path, value).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
        }
        Ok(made)
    }

    /// The folders the launcher joins (writes its pid to their `cgroup.procs`).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Kills every process still in the run's cgroups (what the program left running, even outside its process
    /// group: `setsid`, a daemon) and says how many there were (see [`kill_all_in`]).
    pub fn kill_all(&mut self) -> usize {
        let found = kill_all_in(&self.dirs);
        // A process frozen by the v1 freezer dies only once thawed.
        self.thaw();
        self.spent |= found > 0;
        found
    }

    /// Marks the cgroups as never to be reused: removed once empty.
    pub(super) fn spend(&mut self) {
        self.spent = true;
    }

    /// The memory and pids limits the cgroups were made with.
    pub(super) fn key(&self) -> (u64, u64) {
        self.key
    }
}

/// Kills every process listed in the cgroups `dirs` other than the grader itself (a grading thread may sit in
/// one, see `cgroup_slot`) and says how many there were. Reads again after each round of kills, since a process
/// may fork between a read and its kill (the pids limit bounds how many it can make); a killed process may stay
/// listed for a few milliseconds while it exits, and is not waited for.
pub fn kill_all_in(dirs: &[PathBuf]) -> usize {
    let me = i32::try_from(std::process::id()).unwrap_or(0);
    let mut killed = std::collections::BTreeSet::new();
    for _ in 0..1000 {
        let found: Vec<i32> = dirs
            .iter()
            .filter_map(|d| std::fs::read_to_string(d.join("cgroup.procs")).ok())
            .flat_map(|text| text.split_whitespace().filter_map(|w| w.parse::<i32>().ok()).collect::<Vec<_>>())
            .filter(|pid| *pid != me && !killed.contains(pid))
            .collect();
        if found.is_empty() {
            break;
        }
        for pid in found {
            #[cfg(unix)]
            if let Some(p) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
            }
            killed.insert(pid);
        }
    }
    killed.len()
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        if self.dirs.is_empty() {
            return;
        }
        self.thaw();
        let empty =
            |d: &PathBuf| std::fs::read(d.join("cgroup.procs")).is_ok_and(|t| t.iter().all(u8::is_ascii_whitespace));
        if !self.spent && self.dirs.iter().all(empty) {
            let reused = RunCgroup {
                dirs: std::mem::take(&mut self.dirs),
                key: self.key,
                spent: false,
                agent: self.agent.take(),
            };
            pool().lock().unwrap_or_else(|p| p.into_inner()).push(reused);
            return;
        }
        // The run's processes are all dead (killed with their group) by the time it is dropped, but a cgroup that
        // still holds an exiting process only empties a few milliseconds later: retry off the grading thread.
        let left: Vec<PathBuf> =
            self.dirs.drain(..).filter(|d| std::fs::remove_dir(d).is_err() && d.exists()).collect();
        if left.is_empty() {
            return;
        }
        std::thread::spawn(move || {
            for _ in 0..500 {
                std::thread::sleep(std::time::Duration::from_millis(2));
                if left.iter().all(|d| std::fs::remove_dir(d).is_ok() || !d.exists()) {
                    break;
                }
            }
        });
    }
}

/// Whether run cgroups can be made here: `Ok` with what they hold, or why not. Also removes the run cgroups of
/// graders that are gone (a grader that exits or is killed may leave its last ones behind, empty). Run cgroups are
/// named after their run's marker (`referee-<grader pid>-<pid namespace>-<start time>-<n>`), so only a grader of
/// this PID namespace whose pid and start time no longer match a live process is taken for gone: a grader in a
/// fresh container has the same pid as the one before it but another start time, and the cgroups of a grader in
/// another namespace (which may be pooled for its next run) are never touched.
pub fn available() -> Result<String, String> {
    for parent in parents() {
        let Ok(entries) = std::fs::read_dir(&parent.dir) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.strip_prefix("referee-").is_some_and(super::sandbox::abandoned) {
                let _ = std::fs::remove_dir(entry.path());
            }
        }
    }
    let probe = RunCgroup::create(&super::sandbox::next_marker(), &Limits::default())?;
    let kinds = parents().iter().map(|p| p.kind).collect::<Vec<_>>();
    drop(probe);
    Ok(if kinds.contains(&Kind::V2) {
        "a cgroup per run (cgroup v2): an equal CPU share, the --memory limit, a pids limit".into()
    } else {
        "a cgroup per grading thread, holding one run at a time (cgroup v1 cpu, memory and pids): an equal CPU \
         share, the --memory limit, a pids limit"
            .into()
    })
}

/// The grader's own cgroup folder in each usable hierarchy, found once: a grading thread may later move into a
/// cgroup of its own (`cgroup_slot`), and `/proc/self/cgroup` then names that one for the main thread.
fn parents() -> Vec<Parent> {
    all_parents().0.clone()
}

/// The grader's own folders in the v1 `freezer` and `cpuset` hierarchies, when runs' cgroups are v1 ones and
/// these are mounted (under v2 an agent's one folder freezes and pins).
pub(super) fn agent_parents() -> Vec<Parent> {
    all_parents().1.clone()
}

fn all_parents() -> &'static (Vec<Parent>, Vec<Parent>) {
    static PARENTS: OnceLock<(Vec<Parent>, Vec<Parent>)> = OnceLock::new();
    PARENTS.get_or_init(parents_now)
}

/// The grader's own cgroup folders when they are the three v1 hierarchies (cpu, memory, pids), where a thread may
/// sit in a cgroup apart from the rest of its process; `None` under cgroup v2 or without cgroups.
pub(super) fn v1_parent_dirs() -> Option<Vec<PathBuf>> {
    let parents = parents();
    (!parents.is_empty() && parents.iter().all(|p| p.kind != Kind::V2))
        .then(|| parents.into_iter().map(|p| p.dir).collect())
}

fn parents_now() -> (Vec<Parent>, Vec<Parent>) {
    let Ok(own) = std::fs::read_to_string("/proc/self/cgroup") else { return (Vec::new(), Vec::new()) };
    let Ok(mounts) = std::fs::read_to_string("/proc/self/mountinfo") else { return (Vec::new(), Vec::new()) };
    let mut v1 = Vec::new();
    let mut v2 = None;
    for line in mounts.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let Some(dash) = fields.iter().position(|f| *f == "-") else { continue };
        let (Some(root), Some(point), Some(fstype), Some(options)) =
            (fields.get(3), fields.get(4), fields.get(dash + 1), fields.get(dash + 3))
        else {
            continue;
        };
        let own_path = |controller: &str| {
            own.lines().find_map(|l| {
                let mut parts = l.splitn(3, ':');
                let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
                let matches =
                    if controller.is_empty() { list.is_empty() } else { list.split(',').any(|c| c == controller) };
                matches.then(|| path.to_string())
            })
        };
        let dir_of = |path: String| {
            let relative = path.strip_prefix(root).unwrap_or(&path).trim_start_matches('/').to_string();
            Path::new(point).join(relative)
        };
        if *fstype == "cgroup2" {
            if let Some(path) = own_path("") {
                let dir = dir_of(path);
                let controllers = std::fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default();
                if ["cpu", "memory", "pids"].iter().all(|c| controllers.split_whitespace().any(|w| w == *c)) {
                    super::cgroup_agent::enable_cpuset(&dir, &controllers);
                    v2 = Some(Parent { dir, kind: Kind::V2 });
                }
            }
        } else if *fstype == "cgroup" {
            let controllers = [
                ("cpu", Kind::Cpu),
                ("memory", Kind::Memory),
                ("pids", Kind::Pids),
                ("freezer", Kind::Freezer),
                ("cpuset", Kind::Cpuset),
            ];
            for (controller, kind) in controllers {
                if options.split(',').any(|o| o == controller) && !v1.iter().any(|p: &Parent| p.kind == kind) {
                    if let Some(path) = own_path(controller) {
                        v1.push(Parent { dir: dir_of(path), kind });
                    }
                }
            }
        }
    }
    let (agent, run): (Vec<Parent>, Vec<Parent>) =
        v1.into_iter().partition(|p| matches!(p.kind, Kind::Freezer | Kind::Cpuset));
    match v2 {
        Some(parent) => (vec![parent], Vec::new()),
        None if run.len() == 3 => (run, agent),
        None => (Vec::new(), Vec::new()),
    }
}
