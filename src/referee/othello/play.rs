//! One refereed Othello game in the course's protocol: each turn the side to move gets `SCORE d l` and the board
//! as a tuple-of-tuples literal, and answers `i j`; at the end both get `FINAL d l`, flushed, before their stdin
//! closes (the course's manager killed them without it).

use std::path::Path;

use crate::game::othello::literal::format_board;
use crate::game::othello::{Board, Grid, Move, Othello, OthelloState};
use crate::game::{Game, Player};
use crate::referee::agent::{Agent, Fault, FaultKind, TimeControl};
use crate::referee::record::{Adjudication, GameRecord, MoveRecord, Outcome, SeatRecord};
use crate::referee::spec::Prepared;

/// The two lines that give an agent its turn.
pub fn position_lines(state: &OthelloState<Grid>) -> String {
    let (dark, light) = state.score();
    format!("SCORE {dark} {light}\n{}", format_board(&state.grid()))
}

/// Checks a reply `i j` against `state`.
///
/// # Errors
/// One line saying why the move is not legal.
pub fn legal_move(game: &Othello<Grid>, state: &OthelloState<Grid>, word: &str) -> Result<Move, String> {
    let mut parts = word.split_whitespace().map(str::parse::<i64>);
    let (Some(Ok(col)), Some(Ok(row))) = (parts.next(), parts.next()) else {
        return Err(format!("'{word}' is not a move 'i j'"));
    };
    let size = game.size() as i64;
    if !(0..size).contains(&col) || !(0..size).contains(&row) {
        return Err(format!("{col} {row} is off the {size}x{size} board (column i, row j, from 0)"));
    }
    let mv = Move { col: col as u8, row: row as u8 };
    if game.legal_moves(state).any(|m| m == mv) {
        return Ok(mv);
    }
    let why = if state.grid().get(mv.row.into(), mv.col.into()) != 0 { "is taken" } else { "flips nothing" };
    let legal: Vec<String> = game.legal_moves(state).map(|m| format!("({m})")).collect();
    Err(format!("column {col} row {row} {why}; legal were {}", legal.join(" ")))
}

/// The board on one line, rows separated by `/` (`.` empty, `X` dark, `O` light).
pub fn one_line(grid: &Grid) -> String {
    let n = grid.size();
    let rows: Vec<String> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| match grid.get(r, c) {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    rows.join("/")
}

/// The board drawn with the side to move and the score.
pub fn draw(state: &OthelloState<Grid>) -> String {
    let (dark, light) = state.score();
    let side = match state.to_move() {
        Player::Max => "dark (X, 1)",
        Player::Min => "light (O, 2)",
    };
    format!("{}dark {dark}, light {light}; {side} to move\n", state.grid())
}

fn seat_of(player: Player) -> usize {
    match player {
        Player::Max => 0,
        Player::Min => 1,
    }
}

/// Plays one game from the start, `agents[0]` dark (moves first). `on_move` sees every move as it is played. Both
/// agents get `FINAL d l` and are gone when this returns.
pub fn play(
    game: &Othello<Grid>,
    agents: [&mut Agent; 2],
    clock: &TimeControl,
    on_move: &mut dyn FnMut(&MoveRecord),
) -> GameRecord {
    let mut state = game.start();
    let mut moves = Vec::new();
    let mut adjudication = None;
    let [first, second] = agents;
    let mut agents = [first, second];
    for (i, agent) in agents.iter_mut().enumerate() {
        if let Err(fault) = agent.start(clock) {
            adjudication = Some(Adjudication { loser: i as u8 + 1, fault, position: draw(&state) });
            break;
        }
    }
    while adjudication.is_none() && !game.is_terminal(&state) {
        let seat = seat_of(state.to_move());
        let agent = &mut agents[seat];
        let result = agent.turn(&position_lines(&state), clock).and_then(|played| {
            let mv = legal_move(game, &state, &played.word).map_err(|detail| Fault {
                kind: FaultKind::IllegalMove,
                detail,
                stderr_tail: agent.stderr_tail(),
            })?;
            Ok((played, mv))
        });
        match result {
            Ok((played, mv)) => {
                state = game.apply(&state, mv);
                let record = MoveRecord {
                    seat: seat as u8 + 1,
                    mv: mv.to_string(),
                    millis: played.elapsed.as_millis() as u64,
                    info: played.info,
                    board: one_line(&state.grid()),
                };
                on_move(&record);
                moves.push(record);
            }
            Err(fault) => {
                adjudication = Some(Adjudication { loser: seat as u8 + 1, fault, position: draw(&state) });
            }
        }
    }
    let (dark, light) = state.score();
    let farewell = format!("FINAL {dark} {light}");
    for agent in agents.iter_mut() {
        agent.finish_with(Some(&farewell));
    }
    let winner = match &adjudication {
        Some(adj) => Some(3 - adj.loser),
        None => match dark.cmp(&light) {
            std::cmp::Ordering::Greater => Some(1),
            std::cmp::Ordering::Less => Some(2),
            std::cmp::Ordering::Equal => None,
        },
    };
    let seats = [seat_record(agents[0]), seat_record(agents[1])];
    let rules = match game.rules() {
        crate::game::othello::Rules::Framework => "framework",
        crate::game::othello::Rules::Standard => "standard",
    };
    GameRecord {
        game: "othello".into(),
        params: format!("{0}x{0}, {rules} rules", game.size()),
        per_move_millis: clock.per_move.as_millis() as u64,
        seats,
        moves,
        outcome: Outcome { winner, score: [dark, light], adjudication },
    }
}

/// Plays one game between two prepared agents (`seats[0]` dark), their working folders under `dir` (removed
/// afterwards), pinned to CPU `pin` when given.
///
/// # Errors
/// When a working folder cannot be made.
pub fn play_prepared(
    game: &Othello<Grid>,
    seats: [&Prepared; 2],
    clock: &TimeControl,
    dir: &Path,
    pin: Option<usize>,
    on_move: &mut dyn FnMut(&MoveRecord),
) -> std::io::Result<GameRecord> {
    let params = [game.size().to_string()];
    let mut a = seats[0].agent(&params, 1, &dir.join("seat1"), pin)?;
    let mut b = seats[1].agent(&params, 2, &dir.join("seat2"), pin)?;
    let record = play(game, [&mut a, &mut b], clock, on_move);
    let _ = std::fs::remove_dir_all(dir);
    Ok(record)
}

/// Replays a record's moves from the start.
pub fn final_state(game: &Othello<Grid>, record: &GameRecord) -> OthelloState<Grid> {
    let mut state = game.start();
    for m in &record.moves {
        if let Ok(mv) = legal_move(game, &state, &m.mv) {
            state = game.apply(&state, mv);
        }
    }
    state
}

fn seat_record(agent: &Agent) -> SeatRecord {
    SeatRecord { label: agent.label.clone(), display_name: agent.display_name.clone(), starts: agent.starts }
}
