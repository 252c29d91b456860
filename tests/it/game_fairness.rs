//! Games are fair: an agent does not think on its opponent's time, not even through a helper in a session of its
//! own, and cannot leave the CPU it is pinned to (`tests/fixtures/protocol/helper_agent.py`).

use std::path::Path;
use std::time::Duration;

use referee::game::mancala::Mancala;
use referee::harness::runner::{Limits, Sandbox};
use referee::referee::agent::TimeControl;
use referee::referee::game_loop::play;
use referee::referee::java_host::JavaTools;
use referee::referee::record::GameRecord;
use referee::referee::spec::{prepare, AgentSpec, Setup};

use crate::referee::fixture;

/// The opponent's turn: the built-in `simple` agent thinks until just before it ends.
const PER_MOVE: Duration = Duration::from_millis(400);

/// How long after its `done` the agent may take to be paused, and before its `go` it is let go again: the
/// referee's reading of a line, a freeze's confirmation, a loaded machine's scheduling.
const SLACK: f64 = 0.12;

fn helper_agent(mode: &str) -> AgentSpec {
    AgentSpec::Command(format!("/usr/bin/python3 {} {mode}", fixture("protocol/helper_agent.py").display()))
}

/// Plays Mancala with 4 stones per bin (a game long enough for a dozen waits), `a` in seat 1 pinned to `pin`, `simple` in seat 2, under
/// `sandbox`.
fn game(work: &Path, sandbox: Sandbox, a: &AgentSpec, pin: Option<usize>) -> GameRecord {
    referee::harness::grade::class::make_traversable(work).unwrap();
    let setup = Setup {
        game: "mancala".into(),
        work: work.to_path_buf(),
        sandbox,
        limits: Limits { cpu_seconds: 600, ..Limits::default() },
        java: JavaTools::default(),
        python: "/usr/bin/python3".into(),
        seed: 7,
        builtin_args: Vec::new(),
        course: None,
    };
    let (pa, pb) = (prepare(a, &setup).unwrap(), prepare(&AgentSpec::Builtin("simple".into()), &setup).unwrap());
    let params = ["4".to_string()];
    let mut x = pa.agent(&params, 1, &work.join("g/1"), pin).unwrap();
    let mut y = pb.agent(&params, 2, &work.join("g/2"), pin).unwrap();
    let clock =
        TimeControl { per_move: PER_MOVE, tolerance: Duration::from_millis(150), startup: Duration::from_secs(60) };
    play(&Mancala::new(4), [&mut x, &mut y], &clock, &mut |_| {})
}

/// The sandboxes to play under: this machine's, and (when it has cgroups) the same without its cgroup layer, where
/// the pause falls back to signals.
fn sandboxes() -> Vec<(&'static str, Sandbox)> {
    let full = Sandbox::default_for_this_process();
    let mut all = vec![("this machine's layers", full.clone())];
    if full.layers.cgroup {
        let mut layers = full.layers;
        layers.cgroup = false;
        all.push(("without the cgroup layer", Sandbox { layers, ..full }));
    }
    all
}

#[test]
fn a_setsid_helper_makes_no_progress_while_its_agent_waits_for_the_opponent() {
    for (row, sandbox) in sandboxes() {
        if sandbox.identity.is_none() && !sandbox.layers.cgroup {
            eprintln!("{row}: skipped (no cgroup and no uid of its own: a helper that left its group is not held)");
            continue;
        }
        let work = tempfile::tempdir().unwrap();
        let record = game(work.path(), sandbox, &helper_agent(&format!("helper {SLACK}")), None);
        assert!(record.outcome.adjudication.is_none(), "{row}: {:?}", record.outcome.adjudication);
        // `waited SECONDS during N of TOTAL`, one per turn after the first.
        let reports: Vec<(f64, u64, u64)> = record
            .moves
            .iter()
            .filter(|m| m.seat == 1)
            .filter_map(|m| {
                let words: Vec<String> = m.info.as_deref()?.split(' ').map(String::from).collect();
                Some((words.get(1)?.parse().ok()?, words.get(3)?.parse().ok()?, words.get(5)?.parse().ok()?))
            })
            .collect();
        let judged: Vec<_> = reports.iter().filter(|(waited, _, _)| *waited > 0.0).collect();
        assert!(judged.len() >= 3, "{row}: too few waits to judge: {reports:?}");
        let waited: f64 = judged.iter().map(|(w, _, _)| w).sum();
        let during: u64 = judged.iter().map(|(_, n, _)| n).sum();
        let total = reports.last().map_or(0, |r| r.2);
        // The helper is alive (it works on its agent's own time), and sends nothing while its agent waits. How many
        // stamps it gets in depends on the machine's load (16 of them at a load of 29 on 2 cores, 44 when quiet):
        // a handful shows it alive.
        assert!(total >= 5, "{row}: the helper sent only {total} stamps");
        assert_eq!(
            during, 0,
            "{row}: the helper sent {during} stamps in {waited:.2} s of its agent's waits (of {total})"
        );
        eprintln!("{row}: 0 of the helper's {total} stamps in {waited:.2} s of its agent's waits");
    }
}

#[test]
fn an_agent_cannot_widen_its_cpu_pin() {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    let sandbox = Sandbox::default_for_this_process();
    if cpus < 2 || !sandbox.layers.cgroup {
        eprintln!("skipped: needs 2 CPUs and a cgroup per run (a pin is then only an affinity the agent may widen)");
        return;
    }
    let pin = cpus - 1;
    let work = tempfile::tempdir().unwrap();
    let record = game(work.path(), sandbox, &helper_agent("affinity"), Some(pin));
    let infos: Vec<_> = record.moves.iter().filter(|m| m.seat == 1).map(|m| m.info.clone()).collect();
    assert!(!infos.is_empty(), "{}", record.verdict());
    for info in infos {
        assert_eq!(info.as_deref(), Some(format!("cpus {pin}").as_str()), "pinned to CPU {pin}");
    }
}
