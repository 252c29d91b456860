//! The referee with real agent processes: protocol agents in Python (`tests/fixtures/protocol`) and students'
//! Java players run unchanged through the Java host (`tests/fixtures/mancala`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use referee::game::mancala::Mancala;
use referee::harness::runner::{Limits, Sandbox};
use referee::referee::agent::{FaultKind, TimeControl};
use referee::referee::game_loop::play;
use referee::referee::java_host::JavaTools;
use referee::referee::record::GameRecord;
use referee::referee::spec::{prepare, AgentSpec, Prepared, Setup};

pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

/// `cmd:` for the Python protocol fixture with a misbehaviour `mode` ("" plays its first bin).
pub fn first_bin(mode: &str) -> AgentSpec {
    AgentSpec::Command(format!("/usr/bin/python3 {} {mode}", fixture("protocol/first_bin.py").display()))
}

pub fn have_java() -> bool {
    let ok =
        ["javac", "java"].iter().all(|t| Command::new(t).arg("-version").output().is_ok_and(|o| o.status.success()));
    if !ok {
        assert!(std::env::var_os("REFEREE_REQUIRE_JAVA").is_none(), "javac/java are required here but missing");
        eprintln!("skipped: no JDK on this machine (.ci/run installs one)");
    }
    ok
}

fn setup(work: &Path, java: JavaTools) -> Setup {
    Setup {
        game: "mancala".into(),
        work: work.to_path_buf(),
        sandbox: Sandbox::default_for_this_process(),
        limits: Limits { cpu_seconds: 600, ..Limits::default() },
        java,
        python: "/usr/bin/python3".into(),
        seed: 7,
        builtin_args: Vec::new(),
        course: None,
    }
}

fn clock(millis: u64) -> TimeControl {
    TimeControl {
        per_move: Duration::from_millis(millis),
        tolerance: Duration::from_millis(150),
        startup: Duration::from_secs(60),
    }
}

/// Plays one game with 4 stones per bin, `a` in seat 1.
fn game_with(a: &AgentSpec, b: &AgentSpec, millis: u64, java: JavaTools) -> GameRecord {
    game_of(4, a, b, millis, java)
}

/// Plays one game with `stones` per bin, `a` in seat 1.
fn game_of(stones: u16, a: &AgentSpec, b: &AgentSpec, millis: u64, java: JavaTools) -> GameRecord {
    let work = tempfile::tempdir().unwrap();
    referee::harness::grade::class::make_traversable(work.path()).unwrap();
    let setup = setup(work.path(), java);
    let (pa, pb) = (prepare(a, &setup).unwrap(), prepare(b, &setup).unwrap());
    let params = [stones.to_string()];
    let mut x = pa.agent(&params, 1, &work.path().join("g/1"), None).unwrap();
    let mut y = pb.agent(&params, 2, &work.path().join("g/2"), None).unwrap();
    play(&Mancala::new(stones), [&mut x, &mut y], &clock(millis), &mut |_| {})
}

/// Plays `a` against `b` with `stones` per bin twice, `a` in seat 1 and then in seat 2, each prepared (compiled)
/// once.
fn both_seats(stones: u16, a: &AgentSpec, b: &AgentSpec, millis: u64) -> [GameRecord; 2] {
    let work = tempfile::tempdir().unwrap();
    referee::harness::grade::class::make_traversable(work.path()).unwrap();
    let setup = setup(work.path(), JavaTools::default());
    let (pa, pb) = (prepare(a, &setup).unwrap(), prepare(b, &setup).unwrap());
    let params = [stones.to_string()];
    let game = |first: &Prepared, second: &Prepared, dir: &str| {
        let mut x = first.agent(&params, 1, &work.path().join(dir).join("1"), None).unwrap();
        let mut y = second.agent(&params, 2, &work.path().join(dir).join("2"), None).unwrap();
        play(&Mancala::new(stones), [&mut x, &mut y], &clock(millis), &mut |_| {})
    };
    [game(&pa, &pb, "g1"), game(&pb, &pa, "g2")]
}

fn game(a: &AgentSpec, b: &AgentSpec, millis: u64) -> GameRecord {
    game_with(a, b, millis, JavaTools::default())
}

/// A game played to its end: no adjudication and all 48 stones in the two mancalas.
fn assert_played_out(record: &GameRecord) {
    assert_played_out_with(record, 4);
}

/// A game with `stones` per bin played to its end: no adjudication and all of them in the two mancalas.
fn assert_played_out_with(record: &GameRecord, stones: u16) {
    assert!(record.outcome.adjudication.is_none(), "{:?}", record.outcome.adjudication);
    assert_eq!(record.outcome.score.iter().sum::<u32>(), 12 * u32::from(stones), "{}", record.verdict());
}

#[test]
fn every_protocol_fault_loses_with_its_reason_position_and_stderr() {
    let cases = [
        ("garbage", FaultKind::Garbage, "Thinking about bin"),
        ("exit", FaultKind::Crashed, "exit code 7"),
        ("illegal", FaultKind::IllegalMove, "bin 6 is not one of its own bins"),
        ("silent", FaultKind::NoMove, "no move within 0.2 s"),
    ];
    for (mode, kind, detail) in cases {
        let record = game(&first_bin(mode), &first_bin(""), 200);
        let adj = record.outcome.adjudication.as_ref().unwrap_or_else(|| panic!("{mode}: not adjudicated"));
        assert_eq!((adj.loser, adj.fault.kind), (1, kind), "{mode}");
        assert!(adj.fault.detail.contains(detail), "{mode}: {}", adj.fault.detail);
        assert_eq!(record.outcome.winner, Some(2));
        // It fails on its third turn: two moves of its own were played and the position is the one it faced.
        assert_eq!(record.moves.iter().filter(|m| m.seat == 1).count(), 2, "{mode}");
        assert!(adj.position.contains("seat 1     0   0   6"), "{mode}: {}", adj.position);
        if mode == "exit" {
            assert!(adj.fault.stderr_tail.contains("giving up"), "{}", adj.fault.stderr_tail);
        }
    }
}

#[test]
fn an_agent_that_overstays_is_killed_restarted_and_its_last_move_counts() {
    for mode in ["slow", "ignore-stop"] {
        let record = game(&first_bin(mode), &first_bin(""), 150);
        assert_played_out(&record);
        let turns = record.moves.iter().filter(|m| m.seat == 1).count() as u32;
        assert_eq!(record.seats[0].starts, turns, "{mode}: one process per turn");
        assert_eq!(record.seats[1].starts, 1, "the well-behaved agent is never restarted");
        assert!(record.moves.iter().filter(|m| m.seat == 1).all(|m| m.millis >= 150), "{mode}");
    }
}

/// Processes whose environment carries the marker of runs started by process `pid`.
fn marked_by(pid: u32) -> Vec<u32> {
    // REFEREE_RUN=<grader pid>-<pid namespace>-<start>-<n>
    let pid = pid.to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read(format!("/proc/{p}/environ")).is_ok_and(|env| {
                env.split(|&b| b == 0)
                    .filter_map(|v| v.strip_prefix(b"REFEREE_RUN="))
                    .any(|value| String::from_utf8_lossy(value).split('-').next() == Some(pid.as_str()))
            })
        })
        .collect()
}

#[test]
fn a_match_leaves_no_agent_process_behind() {
    let bin = assert_cmd::cargo::cargo_bin("referee");
    let script = fixture("protocol/first_bin.py");
    let child = Command::new(bin)
        .args(["match", "mancala", "--time", "0.1", "--tolerance", "0.05", "--games", "2", "-q"])
        .arg(format!("cmd:/usr/bin/python3 {} slow", script.display()))
        .arg(format!("cmd:/usr/bin/python3 {}", script.display()))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert_eq!(text.matches("winner: ").count() + text.matches("\ndraw, ").count(), 2, "{text}");
    assert!(marked_by(pid).is_empty(), "agents left running: {:?}", marked_by(pid));
}

/// A student-style Java player, each in a folder of its own (`tests/it/variants.rs` makes the buggy ones).
fn player(name: &str) -> AgentSpec {
    let dir = std::env::temp_dir().join(format!("referee-players-{}", std::process::id())).join(name);
    AgentSpec::Java(crate::variants::mancala_player(name, &dir))
}

#[test]
fn students_java_players_run_unchanged_and_their_failures_are_adjudicated() {
    if !have_java() {
        return;
    }
    // A course-style player that never returns from move() beats the first-bin agent in both seats (2 stones per
    // bin: games half as long, every move still cut at its deadline).
    for record in both_seats(2, &player("goodPlayer"), &first_bin(""), 300) {
        assert_played_out_with(&record, 2);
        assert_eq!(record.seats[usize::from(record.outcome.winner.unwrap() - 1)].label, "goodPlayer.java");
    }
    // A runaway search is cut at every deadline: a fresh JVM per turn, and every move it held was legal.
    let record = game_of(2, &player("loopPlayer"), &first_bin(""), 200, JavaTools::default());
    assert_played_out_with(&record, 2);
    assert!(record.seats[0].starts >= 2, "restarted after each turn: {}", record.seats[0].starts);

    // A second per move: under a loaded CI with every sandbox layer, a JVM given 300 ms was once cut before its
    // move() had thrown, leaving no stack trace to check.
    let throws = game(&player("throwPlayer"), &first_bin(""), 1000);
    let adj = throws.outcome.adjudication.as_ref().unwrap();
    assert_eq!(adj.fault.kind, FaultKind::NoMove);
    assert!(adj.fault.stderr_tail.contains("Exception"), "{}", adj.fault.stderr_tail);

    let illegal = game(&player("illegalPlayer"), &first_bin(""), 300);
    assert_eq!(illegal.outcome.adjudication.as_ref().unwrap().fault.kind, FaultKind::IllegalMove);

    let silent = game(&player("silentPlayer"), &first_bin(""), 200);
    let adj = silent.outcome.adjudication.as_ref().unwrap();
    assert_eq!((adj.fault.kind, silent.moves.len()), (FaultKind::NoMove, 0));
    assert!(adj.fault.detail.contains("never set its move"), "{}", adj.fault.detail);
}

#[test]
fn the_java_host_contains_a_runaway_search_on_java_21_and_later_too() {
    let home = Path::new("/usr/lib/jvm/temurin-25-jdk-amd64/bin");
    if !home.join("java").is_file() || !have_java() {
        eprintln!("skipped: no Java 21+ JDK at {}", home.display());
        return;
    }
    let tools = JavaTools { java: home.join("java").into(), javac: home.join("javac").into() };
    let record = game_with(&player("loopPlayer"), &first_bin(""), 200, tools);
    assert_played_out(&record);
    assert!(record.seats[0].starts >= 2);
}

#[test]
fn built_in_agents_play_through_the_protocol_without_a_forfeit() {
    // `simple` thinks until just before its deadline, so the referee's `stop` often crosses its `done`: an agent that
    // answered that `stop` would end its next turn at once (found in a tournament; see docs/agent-protocol.md).
    for (a, b) in [("simple", "random"), ("random", "strong"), ("strong", "simple")] {
        let record = game(&AgentSpec::Builtin(a.into()), &AgentSpec::Builtin(b.into()), 60);
        assert_played_out(&record);
        assert_eq!((record.seats[0].starts, record.seats[1].starts), (1, 1), "{a} vs {b}");
    }
}

#[test]
fn bad_arguments_get_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 6] = [
        (&["match", "mancala", "nonexistent.java", "builtin:random"], "no such file"),
        (&["match", "mancala", "builtin:foo", "builtin:random"], "unknown built-in agent 'foo'"),
        (&["match", "mancala", "builtin:simple", "builtin:random", "--time", "abc"], "--time: 'abc'"),
        (&["match", "mancala", "builtin:simple", "builtin:random", "--games", "0"], "--games"),
        (&["agent", "mancala", "nope"], "unknown agent 'nope'"),
        (&["grade", "mancala", "--submissions", "/nonexistent/class"], "/nonexistent/class"),
    ];
    for (args, message) in cases {
        crate::util::assert_usage_error(args, message);
    }
    // A built-in agent given a malformed position says what is wrong and exits 2.
    let out = assert_cmd::Command::cargo_bin("referee")
        .unwrap()
        .args(["agent", "mancala", "simple"])
        .write_stdin("referee 1 mancala 4 1\ngo 50 1 2 3\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected 14 pit counts, got 3"));
}
