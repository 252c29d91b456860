//! The Othello game manager with real `python3` agents in the course's protocol: a course-style alpha-beta agent
//! (`tests/fixtures/othello/agents/ab2101_ai.py`) and variants of it made here that time out, crash, answer an
//! illegal move, or print debug lines on stdout. Everything goes through the `referee` binary.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use referee::game::othello::{Grid, Othello, Rules};
use referee::game::Game;
use referee::harness::model::{Points, Status, SubmissionResult};
use referee::harness::runner::layers::Policy;
use referee::harness::runner::{Limits, Sandbox, SandboxOptions};
use referee::referee::agent::{FaultKind, TimeControl};
use referee::referee::game_loop::{self, play as play_game};
use referee::referee::java_host::JavaTools;
use referee::referee::othello::play::legal_move;
use referee::referee::record::GameRecord;
use referee::referee::spec::{prepare, AgentSpec, CourseOptions, Setup};

use crate::referee::fixture;

const PYTHON: &str = "/usr/bin/python3";

fn good_agent() -> PathBuf {
    fixture("othello/agents/ab2101_ai.py")
}

/// The good agent's source with `find` replaced by `replace` (which must occur), saved as `<uni>/<uni>_ai.py`
/// under `root`.
fn variant(root: &Path, uni: &str, find: &str, replace: &str) -> PathBuf {
    let source = std::fs::read_to_string(good_agent()).unwrap();
    assert!(source.contains(find), "{find}");
    let dir = root.join(uni);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{uni}_ai.py"));
    std::fs::write(&path, source.replace(find, replace).replace("alphabeta-ab2101", uni)).unwrap();
    path
}

const SELECT: &str = "def select_move(board, color):\n";

/// Thinks forever on its third move.
fn slow(root: &Path) -> PathBuf {
    variant(
        root,
        "tm3303",
        SELECT,
        "TURNS = [0]\n\n\ndef select_move(board, color):\n    TURNS[0] += 1\n    while TURNS[0] == 3:\n        pass\n",
    )
}

/// Raises on its second move.
fn crash(root: &Path) -> PathBuf {
    variant(
        root,
        "cr4404",
        SELECT,
        "TURNS = [0]\n\n\ndef select_move(board, color):\n    TURNS[0] += 1\n    if TURNS[0] == 2:\n        raise ValueError('deliberate failure on move 2')\n",
    )
}

/// Always answers the top-left corner.
fn illegal(root: &Path) -> PathBuf {
    variant(root, "il5505", SELECT, "def select_move(board, color):\n    return 0, 0\n")
}

/// Prints a debug line on stdout before each move.
fn chatty(root: &Path) -> PathBuf {
    let call = "        i, j = select_move(board, color)\n";
    variant(root, "ch6606", call, &format!("        print('thinking about', get_score(board))\n{call}"))
}

/// Runs `referee match othello A B` with `extra` options and the records it wrote.
fn play(a: &str, b: &str, extra: &[&str]) -> (String, Vec<GameRecord>) {
    let json = tempfile::NamedTempFile::new().unwrap();
    let output = assert_cmd::Command::cargo_bin("referee")
        .unwrap()
        .args(["match", "othello", a, b, "--python", PYTHON, "--seed", "5", "--json"])
        .arg(json.path())
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let records: Vec<GameRecord> = serde_json::from_slice(&std::fs::read(json.path()).unwrap()).unwrap();
    (stdout, records)
}

/// Replays a record with the Rust rules: every move legal, the final disc count the record's score.
fn assert_legal_replay(record: &GameRecord, size: usize) {
    let game = Othello::<Grid>::new(size, Rules::Framework).unwrap();
    let mut state = game.start();
    for m in &record.moves {
        let mv = legal_move(&game, &state, &m.mv).unwrap_or_else(|e| panic!("move {}: {e}", m.mv));
        state = game.apply(&state, mv);
    }
    let (dark, light) = state.score();
    assert_eq!(record.outcome.score, [dark, light]);
    if record.outcome.adjudication.is_none() {
        assert!(game.is_terminal(&state), "the game stopped before its end");
    }
}

#[test]
fn a_students_agent_plays_whole_games_in_both_colors() {
    let agent = good_agent();
    let (stdout, records) = play("builtin:greedy", &agent.to_string_lossy(), &["--size", "6", "--time", "5"]);
    assert_eq!(records.len(), 2);
    for (record, student_seat) in records.iter().zip([2u8, 1]) {
        assert!(record.outcome.adjudication.is_none(), "{:?}", record.outcome.adjudication);
        assert_eq!(record.seats[usize::from(student_seat - 1)].display_name.as_deref(), Some("alphabeta-ab2101"));
        assert!(record.moves.len() >= 10);
        assert_legal_replay(record, 6);
    }
    assert_eq!(stdout.matches("winner: ").count() + stdout.matches("\ndraw, ").count(), 2, "{stdout}");
    assert!(stdout.contains("ab2101_ai.py: "), "{stdout}");
}

#[test]
fn every_fault_loses_with_its_reason_the_board_and_stderr() {
    let root = tempfile::tempdir().unwrap();
    let cases = [
        (slow(root.path()), FaultKind::NoMove, "no move within 1 s", 2),
        (crash(root.path()), FaultKind::Crashed, "exit code 1", 1),
        (illegal(root.path()), FaultKind::IllegalMove, "column 0 row 0 flips nothing", 0),
        (chatty(root.path()), FaultKind::Garbage, "sent 'thinking about (2, 2)' where a move 'i j' was expected", 0),
    ];
    for (path, kind, detail, own_moves) in cases {
        let (stdout, records) =
            play(&path.to_string_lossy(), "builtin:random", &["--size", "6", "--time", "1", "--games", "1"]);
        let record = &records[0];
        let adj = record.outcome.adjudication.as_ref().unwrap_or_else(|| panic!("{path:?}: not adjudicated"));
        assert_eq!((adj.loser, adj.fault.kind), (1, kind), "{path:?}: {}", adj.fault.detail);
        assert!(adj.fault.detail.contains(detail), "{path:?}: {}", adj.fault.detail);
        assert_eq!(record.outcome.winner, Some(2));
        assert_eq!(record.moves.iter().filter(|m| m.seat == 1).count(), own_moves, "{path:?}");
        assert!(adj.position.contains("dark (X, 1) to move"), "{}", adj.position);
        assert_legal_replay(record, 6);
        assert!(stdout.contains("winner: builtin:random (seat 2)"), "{stdout}");
        if kind == FaultKind::Crashed {
            assert!(
                adj.fault.stderr_tail.contains("ValueError: deliberate failure on move 2"),
                "{}",
                adj.fault.stderr_tail
            );
            assert!(stdout.contains("deliberate failure"), "the stderr tail is printed: {stdout}");
        }
    }
}

#[test]
fn debug_lines_are_skipped_when_allowed() {
    let root = tempfile::tempdir().unwrap();
    let chatty = chatty(root.path());
    let (_, records) =
        play(&chatty.to_string_lossy(), "builtin:random", &["--size", "6", "--games", "1", "--allow-chatter"]);
    assert!(records[0].outcome.adjudication.is_none(), "{:?}", records[0].outcome.adjudication);
    assert_legal_replay(&records[0], 6);
}

#[test]
fn the_long_color_line_is_sent() {
    let root = tempfile::tempdir().unwrap();
    // The variant echoes the color line it receives as chatter before its first move (the sandbox lets it write
    // no file the test could read, and the record keeps chatter as the move's info).
    let path = variant(
        root.path(),
        "fl7707",
        "        if line.startswith(\"FINAL\"):\n",
        "        if line.startswith(\"FINAL\"):\n",
    );
    let source = std::fs::read_to_string(&path).unwrap().replace(
        "    color = int(input().split(\",\")[0])\n",
        "    color_line = input()\n    print('seen ' + color_line, flush=True)\n    color = int(color_line.split(',')[0])\n",
    );
    std::fs::write(&path, source).unwrap();
    let (_, records) = play(
        &path.to_string_lossy(),
        "builtin:random",
        &["--size", "4", "--games", "2", "--color-line", "{color},4,0,1,1", "--allow-chatter"],
    );
    for (i, record) in records.iter().enumerate() {
        let seat = u8::try_from(i + 1).unwrap();
        let first = record.moves.iter().find(|m| m.seat == seat).unwrap();
        assert_eq!(first.info.as_deref(), Some(format!("seen {seat},4,0,1,1").as_str()), "game {}", i + 1);
    }
}

/// Replaces the agent's `input` with one that also appends each line read to `seen.txt` in its working folder.
const LOGGED_INPUT: &str = r"import sys


def input():
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    with open('seen.txt', 'a') as log:
        log.write(line)
    return line.rstrip('\n')
";

/// The manager's last line, `FINAL dark light`, reaches both agents after the last move (the course's manager never
/// flushed it). Each agent logs the lines it reads into its working folder, the one place the sandbox lets it write;
/// `match` removes that folder after each game, so this test drives the game loop itself and reads the logs after.
#[test]
fn final_is_delivered_to_both_agents() {
    let root = tempfile::tempdir().unwrap();
    // Every line read from the manager is logged, so the log is the color line, each turn's two lines, FINAL.
    let path = variant(root.path(), "fl7707", "import sys\n", LOGGED_INPUT);
    let work = root.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    referee::harness::grade::class::make_traversable(&work).unwrap();
    // As in `match`: a uid of its own as root and every layer here (all of them required in CI).
    let policy =
        if std::env::var_os("REFEREE_REQUIRE_SANDBOX").is_some() { Policy::Require } else { Policy::BestEffort };
    let setup = Setup {
        game: "othello".into(),
        work: work.clone(),
        sandbox: Sandbox::for_untrusted(&SandboxOptions { policy, ..SandboxOptions::default() }).unwrap(),
        limits: Limits { cpu_seconds: 120, ..Limits::default() },
        java: JavaTools::default(),
        python: PYTHON.into(),
        seed: 5,
        builtin_args: Vec::new(),
        course: Some(CourseOptions { color_line: "{color}".into(), chatter: false }),
    };
    let agent = prepare(&AgentSpec::Python(path), &setup).unwrap();
    let game = Othello::<Grid>::new(4, Rules::Framework).unwrap();
    let params = game_loop::Refereed::greeting_params(&game);
    let dirs = [work.join("game/seat1"), work.join("game/seat2")];
    let mut dark = agent.agent(&params, 1, &dirs[0], None).unwrap();
    let mut light = agent.agent(&params, 2, &dirs[1], None).unwrap();
    let clock = TimeControl {
        per_move: Duration::from_secs(5),
        tolerance: Duration::from_millis(500),
        startup: Duration::from_secs(30),
    };
    let record = play_game(&game, [&mut dark, &mut light], &clock, &mut |_| {});
    assert!(record.outcome.adjudication.is_none(), "{:?}", record.outcome.adjudication);
    assert_legal_replay(&record, 4);
    let last = format!("FINAL {} {}", record.outcome.score[0], record.outcome.score[1]);
    for (seat, dir) in ["1", "2"].iter().zip(&dirs) {
        let seen = std::fs::read_to_string(dir.join("seen.txt")).unwrap();
        let lines: Vec<&str> = seen.lines().collect();
        assert_eq!(lines.first(), Some(seat), "seat {seat} read:\n{seen}");
        assert_eq!(lines.last(), Some(&last.as_str()), "seat {seat} read:\n{seen}");
        let turns = record.moves.iter().filter(|m| m.seat.to_string() == *seat).count();
        assert_eq!(lines.len(), 2 + 2 * turns, "seat {seat} read:\n{seen}");
    }
}

#[test]
fn a_command_agent_and_the_built_ins_play_under_standard_rules() {
    let bin = assert_cmd::cargo::cargo_bin("referee");
    let cmd = format!("cmd:{} agent othello greedy --time 100ms --rules standard", bin.display());
    let (stdout, records) = play(&cmd, "builtin:strong", &["--size", "6", "--time", "0.3", "--rules", "standard"]);
    assert!(stdout.contains("6x6, standard rules"), "{stdout}");
    for record in &records {
        assert!(record.outcome.adjudication.is_none(), "{:?}", record.outcome.adjudication);
        // Strong never loses to greedy.
        let strong = if record.seats[0].label == "builtin:strong" { 1 } else { 2 };
        assert_ne!(record.outcome.winner, Some(3 - strong), "{}", record.verdict());
    }
}

#[test]
fn othello_bad_arguments_get_one_line_and_exit_2() {
    let good = good_agent();
    let good = good.to_string_lossy();
    let cases: [(&[&str], &str); 5] = [
        (
            &["match", "othello", "missing_ai.py", "builtin:random"],
            "no such file (expected builtin:NAME, cmd:COMMAND or a path to <uni>_ai.py)",
        ),
        (&["match", "othello", "builtin:simple", "builtin:random"], "unknown built-in agent 'simple'"),
        (&["match", "othello", &good, "builtin:random", "--size", "5"], "--size 5"),
        (&["match", "othello", &good, "builtin:random", "--color-line", "1,4"], "must contain {color}"),
        (&["grade", "othello", "--submissions", "/nonexistent/class"], "/nonexistent/class"),
    ];
    for (args, message) in cases {
        crate::util::assert_usage_error(args, message);
    }
}

#[test]
fn a_file_that_does_not_parse_cannot_play() {
    let root = tempfile::tempdir().unwrap();
    let broken = variant(root.path(), "sx8808", "def run_ai():", "def run_ai(:");
    let out = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["match", "othello", "builtin:random", "--python", PYTHON])
        .arg(&broken)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("sx8808_ai.py does not parse") && stderr.contains("SyntaxError"), "{stderr}");
}

/// A class as handed in: `ab2101` (a course-style agent with the course's function names), `cr4404` (crashes on
/// its second move) and `sx8808` (does not parse), each in a folder of its own.
fn class(root: &Path) -> PathBuf {
    let subs = root.join("class");
    let good = subs.join("ab2101");
    std::fs::create_dir_all(&good).unwrap();
    std::fs::copy(fixture("othello/modules/limit_ai.py"), good.join("ab2101_ai.py")).unwrap();
    crash(&subs);
    variant(&subs, "sx8808", "def run_ai():", "def run_ai(:");
    subs
}

#[test]
fn a_class_of_python_agents_is_graded_from_real_games_and_its_search_functions() {
    let tmp = tempfile::tempdir().unwrap();
    let (subs, out) = (class(tmp.path()), tmp.path().join("out"));
    let grade = || {
        assert_cmd::Command::cargo_bin("referee")
            .unwrap()
            .args(["grade", "othello", "--size", "4", "--time", "5", "--games", "1", "--seed", "3", "--python", PYTHON])
            .args(["--check-cases", "10", "--target", "0.5", "--submissions"])
            .arg(&subs)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    let output = grade();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Students short of full marks: exit 1, as `grade` of a Take-Stones class (issue 33, item 6).
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let result = |id: &str| -> SubmissionResult {
        serde_json::from_slice(&std::fs::read(out.join("results").join(format!("{id}.json"))).unwrap()).unwrap()
    };
    let (good, crashed, broken) = (result("ab2101"), result("cr4404"), result("sx8808"));
    let games = |r: &SubmissionResult| -> Vec<Status> {
        r.cases.iter().filter(|c| c.name.starts_with("vs builtin:random")).map(|c| c.status).collect()
    };
    let conformance = |r: &SubmissionResult| -> Vec<(String, Status)> {
        r.cases.iter().filter(|c| c.name.starts_with("conformance: ")).map(|c| (c.name.clone(), c.status)).collect()
    };
    // Half the points for games (one per color), half for the seven search functions.
    let wins = games(&good).iter().filter(|s| **s == Status::Passed).count();
    assert_eq!(games(&good).len(), 2);
    assert!(wins >= 1, "a depth-4 alpha-beta agent beats random on 4x4: {:?}", good.cases[0].detail);
    assert_eq!(conformance(&good).len(), 7);
    assert!(conformance(&good).iter().all(|(_, s)| *s == Status::Passed), "{:?}", conformance(&good));
    // Exactly the maximum (issue 33: seven sevenths of 50 plus 50 were 99.99999999999999 in floats), everywhere.
    assert_eq!((good.score, good.max_score), (Points::whole(100), Points::whole(100)), "{:?}", good.score);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<dt>Full marks</dt><dd>1</dd>"), "report.html counts the full marks");
    let feedback = std::fs::read_to_string(out.join("feedback/ab2101.md")).unwrap();
    assert!(feedback.starts_with("# ab2101: 100 / 100\n"), "{feedback}");
    let gradescope = std::fs::read_to_string(out.join("gradescope/ab2101/results.json")).unwrap();
    assert!(gradescope.contains("\"score\": 100.0,") && gradescope.contains("Score: 100 / 100."), "{gradescope}");
    // The crashing agent loses both games; of the course's functions it defines only compute_utility, correctly.
    assert_eq!(games(&crashed), [Status::Crashed, Status::Crashed]);
    let crash_case = crashed.cases.iter().find(|c| c.name.starts_with("vs ")).unwrap();
    assert!(crash_case.stderr.text.contains("deliberate failure"));
    let passed: Vec<String> =
        conformance(&crashed).into_iter().filter(|(_, s)| *s == Status::Passed).map(|(n, _)| n).collect();
    assert_eq!(passed, ["conformance: compute_utility"]);
    assert_eq!(crashed.score, Points::whole(50).share(1, 7));
    assert_eq!(broken.score, Points::ZERO);
    assert!(broken.cases.iter().all(|c| c.status == Status::BuildError), "{:?}", broken.cases);
    assert!(broken.build.as_ref().is_some_and(|b| b.message.contains("SyntaxError")));
    let gradebook = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert_eq!(gradebook.lines().count(), 4, "{gradebook}");
    assert!(gradebook.lines().any(|l| l.starts_with("ab2101,100,100,")), "{gradebook}");
    assert!(gradebook.lines().any(|l| l.starts_with("cr4404,7.142857142,100,")), "{gradebook}");
    let feedback = std::fs::read_to_string(out.join("feedback/cr4404.md")).unwrap();
    assert!(feedback.contains("crashed") && feedback.contains("ValueError"), "{feedback}");
    assert!(feedback.contains("select_move_minimax") && feedback.contains("missing"), "{feedback}");
    let games: Vec<GameRecord> =
        serde_json::from_slice(&std::fs::read(out.join("games/ab2101.json")).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    games.iter().for_each(|g| assert_legal_replay(g, 4));

    // sx8808 hands in a version that parses; the same command grades only that student again, and says so.
    let kept = std::fs::read(out.join("results/ab2101.json")).unwrap();
    variant(&subs, "sx8808", "def run_ai():", "def run_ai():");
    let again = grade();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(stdout.contains("graded 1 student(s), 2 already graded earlier"), "{stdout}");
    assert!(stdout.contains("re-graded 1 student whose hand-in changed since the last run: sx8808\n"), "{stdout}");
    assert!(result("sx8808").cases.iter().all(|c| c.status != Status::BuildError), "{stdout}");
    assert_eq!(std::fs::read(out.join("results/ab2101.json")).unwrap(), kept, "an unchanged hand-in is not re-run");
}

#[test]
fn an_othello_tournament_ranks_the_class() {
    let tmp = tempfile::tempdir().unwrap();
    let (subs, out) = (class(tmp.path()), tmp.path().join("out"));
    let output = assert_cmd::Command::cargo_bin("referee")
        .unwrap()
        .args(["tournament", "othello", "--size", "4", "--time", "2", "--seed", "3", "--python", PYTHON])
        .args(["--with", "builtin:greedy", "--submissions"])
        .arg(&subs)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{table}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(table.contains("# Othello tournament") && table.contains("3 entrants, 6 games"), "{table}");
    assert!(table.contains("sx8808: "), "the agent that does not parse is left out: {table}");
    let csv = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let row = |id: &str| rows.iter().find(|r| r[1] == id).unwrap().clone();
    assert_eq!(row("cr4404")[5], "4", "the crashing agent forfeits all four of its games");
    assert!(row("ab2101")[6].parse::<f64>().unwrap() > row("cr4404")[6].parse::<f64>().unwrap());
}
