//! The project's `othello_shared.py` (the helpers students' agents import) against the Rust rules: on positions from
//! seeded random games it must list the same legal moves in the same column-major order, and `play_move` must give
//! the same board, for both colors and sizes 4, 6 and 8. Runs the real `python3`.

use std::io::Write;
use std::process::{Command, Stdio};

use referee::game::othello::literal::format_board;
use referee::game::othello::{Bits, Othello, Rules};
use referee::game::{Game, Player};
use referee::rng::Rng;

/// Reads `LITERAL|PLAYER` lines; prints `i j` moves separated by `;`, then ` => ` and each move's board, `|`-joined.
const DRIVER: &str = r#"
import sys
sys.path.insert(0, sys.argv[1])
from othello_shared import get_possible_moves, play_move, get_score
for line in sys.stdin:
    literal, player = line.rstrip("\n").split("|")
    board, player = eval(literal), int(player)
    moves = get_possible_moves(board, player)
    boards = [repr(play_move(board, player, i, j)).replace(" ", "") for i, j in moves]
    print(";".join("%d %d" % m for m in moves) + " => " + "|".join(boards) + " # %d %d" % get_score(board))
"#;

#[test]
fn othello_shared_py_agrees_with_the_rust_rules() {
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    let mut rng = Rng::new(11);
    for size in [4, 6, 8] {
        let game = Othello::<Bits>::new(size, Rules::Standard).unwrap();
        for _ in 0..40 {
            let mut state = game.start();
            let plies = rng.below(size * size - 4);
            for _ in 0..plies {
                let moves: Vec<_> = game.legal_moves(&state).collect();
                if moves.is_empty() {
                    break;
                }
                state = game.apply(&state, moves[rng.below(moves.len())]);
            }
            let grid = state.grid();
            for player in [Player::Max, Player::Min] {
                // The same board with `player` to move (the helpers take the color as an argument).
                let Ok(view) = game.state(&grid, player) else { continue };
                if view.to_move() != player {
                    continue;
                }
                let moves: Vec<_> = game.legal_moves(&view).collect();
                let listed: Vec<String> = moves.iter().map(|m| format!("{} {}", m.col, m.row)).collect();
                let boards: Vec<String> =
                    moves.iter().map(|&m| format_board(&game.apply(&view, m).grid()).replace(' ', "")).collect();
                let (dark, light) = view.score();
                let cell = if player == Player::Max { 1 } else { 2 };
                lines.push(format!("{}|{cell}", format_board(&grid)));
                expected.push(format!("{} => {} # {dark} {light}", listed.join(";"), boards.join("|")));
            }
        }
    }
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/src/referee/othello/python");
    let mut child = Command::new("/usr/bin/python3")
        .args(["-c", DRIVER, folder])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all((lines.join("\n") + "\n").as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let got: Vec<String> = String::from_utf8(output.stdout).unwrap().lines().map(String::from).collect();
    assert_eq!(got.len(), expected.len());
    assert!(expected.len() > 200, "{} positions", expected.len());
    for ((line, want), have) in lines.iter().zip(&expected).zip(&got) {
        assert_eq!(have, want, "position {line}");
    }
}

/// Speaks the course's game-manager protocol to two `referee agent othello` processes for a whole 6x6 game.
#[test]
fn built_in_agents_speak_the_course_protocol_for_a_whole_game() {
    use std::io::{BufRead, BufReader};
    let game = Othello::<Bits>::new(6, Rules::Framework).unwrap();
    let spawn = |name: &str| {
        Command::new(assert_cmd::cargo::cargo_bin("referee"))
            .args(["agent", "othello", name, "--time", "0.05"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut agents = [spawn("strong"), spawn("random")];
    let mut readers: Vec<_> = agents.iter_mut().map(|a| BufReader::new(a.stdout.take().unwrap())).collect();
    for (k, reader) in readers.iter_mut().enumerate() {
        let mut name = String::new();
        reader.read_line(&mut name).unwrap();
        assert!(name.starts_with("builtin:"), "{name}");
        // The first agent gets the later course's long color line, the second the plain one.
        let color = if k == 0 { "1,4,0,1,1\n" } else { "2\n" };
        agents[k].stdin.as_mut().unwrap().write_all(color.as_bytes()).unwrap();
    }
    let mut state = game.start();
    let mut plies = 0;
    while !game.is_terminal(&state) {
        let k = if state.to_move() == Player::Max { 0 } else { 1 };
        let (dark, light) = state.score();
        let message = format!("SCORE {dark} {light}\n{}\n", format_board(&state.grid()));
        let stdin = agents[k].stdin.as_mut().unwrap();
        stdin.write_all(message.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        readers[k].read_line(&mut answer).unwrap();
        let mv = game
            .legal_moves(&state)
            .find(|m| format!("{} {}", m.col, m.row) == answer.trim())
            .unwrap_or_else(|| panic!("agent {k} answered '{}', not a legal move", answer.trim()));
        state = game.apply(&state, mv);
        plies += 1;
    }
    let (dark, light) = state.score();
    for agent in &mut agents {
        let _ = agent.stdin.as_mut().unwrap().write_all(format!("FINAL {dark} {light}\n").as_bytes());
    }
    for agent in &mut agents {
        assert!(agent.wait().unwrap().success());
    }
    assert!(plies >= 4);
    assert!(dark > light, "strong (dark) beats random: {dark}-{light}");
}
