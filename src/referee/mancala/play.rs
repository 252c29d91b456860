//! One refereed Mancala game between two agent processes.

use crate::game::mancala::{Mancala, MancalaState};
use crate::game::{Game, Player};
use crate::referee::agent::{Agent, Fault, FaultKind, TimeControl};
use crate::referee::record::{Adjudication, GameRecord, MoveRecord, Outcome, SeatRecord};
use crate::referee::spec::Prepared;
use std::path::Path;

use super::board;

/// A game longer than this many moves is stopped and scored as it stands (no real game comes close: every move
/// that is not an extra turn sows at least one stone, and extra turns cannot repeat forever).
pub const MAX_PLIES: usize = 2000;

/// The position's words in the protocol: the 14 pits from the mover's point of view.
pub fn position_words(state: &MancalaState) -> String {
    Mancala::relative(state).iter().map(u16::to_string).collect::<Vec<_>>().join(" ")
}

/// Checks an agent's move word against `state`: a bin 0-5 of the mover's row holding stones.
///
/// # Errors
/// One line saying why the move is not legal.
pub fn legal_bin(game: &Mancala, state: &MancalaState, word: &str) -> Result<u8, String> {
    let bin: i64 = word.parse().map_err(|_| format!("'{word}' is not a bin number"))?;
    if !(0..=5).contains(&bin) {
        return Err(format!("bin {bin} is not one of its own bins 0-5"));
    }
    let bin = bin as u8;
    if game.legal_moves(state).any(|b| b == bin) {
        Ok(bin)
    } else {
        Err(format!("bin {bin} is empty"))
    }
}

fn seat_of(player: Player) -> usize {
    match player {
        Player::Max => 0,
        Player::Min => 1,
    }
}

/// Plays one game from the start, `agents[0]` in seat 1 (moves first). `on_move` sees every move as it is played
/// (for live output). The agents are finished (told to quit, processes gone) when this returns.
pub fn play(
    game: &Mancala,
    agents: [&mut Agent; 2],
    clock: &TimeControl,
    mut on_move: impl FnMut(&MoveRecord),
) -> GameRecord {
    let mut state = game.start();
    let mut moves = Vec::new();
    let mut adjudication = None;
    let [first, second] = agents;
    let mut agents = [first, second];
    // Start both before the first move, so neither's start-up delays the other's clock.
    for (i, agent) in agents.iter_mut().enumerate() {
        if let Err(fault) = agent.start(clock) {
            adjudication = Some(Adjudication { loser: i as u8 + 1, fault, position: board::draw(&state) });
            break;
        }
    }
    while adjudication.is_none() && !game.is_terminal(&state) && moves.len() < MAX_PLIES {
        let seat = seat_of(state.to_move);
        let agent = &mut agents[seat];
        let result = agent.turn(&position_words(&state), clock).and_then(|played| {
            let bin = legal_bin(game, &state, &played.word).map_err(|detail| Fault {
                kind: FaultKind::IllegalMove,
                detail,
                stderr_tail: agent.stderr_tail(),
            })?;
            Ok((played, bin))
        });
        match result {
            Ok((played, bin)) => {
                state = game.apply(&state, bin);
                let record = MoveRecord {
                    seat: seat as u8 + 1,
                    mv: bin.to_string(),
                    millis: played.elapsed.as_millis() as u64,
                    info: played.info,
                    board: board::one_line(&state),
                };
                on_move(&record);
                moves.push(record);
            }
            Err(fault) => {
                adjudication = Some(Adjudication { loser: seat as u8 + 1, fault, position: board::draw(&state) });
            }
        }
    }
    for agent in agents.iter_mut() {
        agent.finish();
    }
    let score = [u32::from(Mancala::store(&state, Player::Max)), u32::from(Mancala::store(&state, Player::Min))];
    let winner = match &adjudication {
        Some(adj) => Some(3 - adj.loser),
        None => match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(1),
            std::cmp::Ordering::Less => Some(2),
            std::cmp::Ordering::Equal => None,
        },
    };
    let seats = [seat_record(agents[0]), seat_record(agents[1])];
    GameRecord {
        game: "mancala".into(),
        params: format!("{} stones", game.stones()),
        per_move_millis: clock.per_move.as_millis() as u64,
        seats,
        moves,
        outcome: Outcome { winner, score, adjudication },
    }
}

/// Plays one game between two prepared agents (`seats[0]` moves first), their working folders under `dir` (removed
/// afterwards), pinned to CPU `pin` when given.
///
/// # Errors
/// When a working folder cannot be made.
pub fn play_prepared(
    game: &Mancala,
    seats: [&Prepared; 2],
    clock: &TimeControl,
    dir: &Path,
    pin: Option<usize>,
    on_move: impl FnMut(&MoveRecord),
) -> std::io::Result<GameRecord> {
    let params = [game.stones().to_string()];
    let mut a = seats[0].agent(&params, 1, &dir.join("seat1"), pin)?;
    let mut b = seats[1].agent(&params, 2, &dir.join("seat2"), pin)?;
    let record = play(game, [&mut a, &mut b], clock, on_move);
    let _ = std::fs::remove_dir_all(dir);
    Ok(record)
}

fn seat_record(agent: &Agent) -> SeatRecord {
    SeatRecord { label: agent.label.clone(), display_name: agent.display_name.clone(), starts: agent.starts }
}
