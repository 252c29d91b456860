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

/// Plays Mancala with 2 stones per bin, `a` in seat 1 (in `work/g/1`) pinned to `pin`, `simple` in seat 2, under
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
    let params = ["2".to_string()];
    let mut x = pa.agent(&params, 1, &work.join("g/1"), pin).unwrap();
    let mut y = pb.agent(&params, 2, &work.join("g/2"), pin).unwrap();
    let clock =
        TimeControl { per_move: PER_MOVE, tolerance: Duration::from_millis(150), startup: Duration::from_secs(60) };
    play(&Mancala::new(2), [&mut x, &mut y], &clock, &mut |_| {})
}

/// Seconds from a log's lines `<word> <seconds>` (or bare `<seconds>`) that start with `word`.
fn times(text: &str, word: &str) -> Vec<f64> {
    text.lines()
        .filter_map(|l| {
            let rest = if word.is_empty() { l } else { l.strip_prefix(word)?.trim_start() };
            rest.trim().parse().ok()
        })
        .collect()
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
        let record = game(work.path(), sandbox, &helper_agent("helper"), None);
        assert!(record.outcome.adjudication.is_none(), "{row}: {:?}", record.outcome.adjudication);
        let dir = work.path().join("g/1");
        let turns = std::fs::read_to_string(dir.join("turns.log")).unwrap();
        let helper = times(&std::fs::read_to_string(dir.join("helper.log")).unwrap(), "");
        let (gos, dones) = (times(&turns, "go"), times(&turns, "done"));
        // Each wait for the opponent: from its `done` to its next `go`, less the slack at both ends.
        let waits: Vec<(f64, f64)> =
            dones.iter().zip(gos.iter().skip(1)).map(|(d, g)| (d + SLACK, g - SLACK)).filter(|(a, b)| a < b).collect();
        assert!(waits.len() >= 3, "{row}: too few waits to judge: {turns}");
        let waited: f64 = waits.iter().map(|(a, b)| b - a).sum();
        let during = helper.iter().filter(|t| waits.iter().any(|(a, b)| a < *t && *t < b)).count();
        // The helper is alive (it works on its agent's own time), and records nothing while its agent waits.
        let span = helper.last().unwrap_or(&0.0) - helper.first().unwrap_or(&0.0);
        assert!(helper.len() > 20, "{row}: the helper recorded only {} stamps", helper.len());
        assert_eq!(
            during,
            0,
            "{row}: the helper recorded {during} stamps in {waited:.2} s of its agent's waits (of {} in {span:.2} s)",
            helper.len()
        );
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
