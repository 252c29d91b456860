//! The game loop every refereed game shares: start both agents (so neither's start-up delays the other's clock),
//! give the side to move its turn, check the reply, apply it, and end with a record. A failure of any kind ends the
//! game as a loss for the agent at fault; the agents are finished and their processes gone when it returns.

use std::path::Path;

use crate::referee::agent::{Agent, Fault, FaultKind, TimeControl};
use crate::referee::record::{Adjudication, GameRecord, MoveRecord, Outcome, SeatRecord};
use crate::referee::spec::Prepared;

/// A game longer than this many moves is stopped and scored as it stands (no real game comes close).
pub const MAX_PLIES: usize = 2000;

/// A game as the referee's loop sees it: states, the text agents get, and the checks on their replies.
pub trait Refereed {
    /// A position.
    type State;
    /// A checked move.
    type Move: std::fmt::Display;

    /// The game's name in records (`mancala`).
    fn name(&self) -> &'static str;
    /// Its parameters in words, for records (`4 stones`).
    fn params(&self) -> String;
    /// The parameters the project's protocol greets agents with.
    fn greeting_params(&self) -> Vec<String>;
    /// The starting position.
    fn start(&self) -> Self::State;
    /// Whether the game is over.
    fn is_over(&self, state: &Self::State) -> bool;
    /// The seat to move, 1 (moved first) or 2.
    fn seat_to_move(&self, state: &Self::State) -> u8;
    /// What the agent to move is sent.
    fn position(&self, state: &Self::State) -> String;
    /// Checks a reply against `state`.
    ///
    /// # Errors
    /// One line saying why the move is not legal.
    fn legal(&self, state: &Self::State, word: &str) -> Result<Self::Move, String>;
    /// The position after a legal move.
    fn apply(&self, state: &Self::State, mv: &Self::Move) -> Self::State;
    /// The position on one line, for move lists.
    fn one_line(&self, state: &Self::State) -> String;
    /// The position drawn over several lines, for adjudications.
    fn draw(&self, state: &Self::State) -> String;
    /// The score, seat 1 first (stones in the stores, discs).
    fn score(&self, state: &Self::State) -> [u32; 2];
    /// The last line both agents get at the end (`FINAL d l`), or `None` for the protocol's default.
    fn farewell(&self, state: &Self::State) -> Option<String>;

    /// The position after replaying a record's moves from the start (moves that do not apply are skipped).
    fn replay(&self, record: &GameRecord) -> Self::State {
        let mut state = self.start();
        for m in &record.moves {
            if let Ok(mv) = self.legal(&state, &m.mv) {
                state = self.apply(&state, &mv);
            }
        }
        state
    }
}

/// Plays one game from the start, `agents[0]` in seat 1. `on_move` sees every move as it is played.
pub fn play<G: Refereed>(
    game: &G,
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
            adjudication = Some(Adjudication { loser: i as u8 + 1, fault, position: game.draw(&state) });
            break;
        }
    }
    while adjudication.is_none() && !game.is_over(&state) && moves.len() < MAX_PLIES {
        let seat = game.seat_to_move(&state);
        let agent = &mut agents[usize::from(seat - 1)];
        let result = agent.turn(&game.position(&state), clock).and_then(|played| {
            let mv = game.legal(&state, &played.word).map_err(|detail| Fault {
                kind: FaultKind::IllegalMove,
                detail,
                stderr_tail: agent.stderr_tail(),
            })?;
            Ok((played, mv))
        });
        match result {
            Ok((played, mv)) => {
                state = game.apply(&state, &mv);
                let record = MoveRecord {
                    seat,
                    mv: mv.to_string(),
                    millis: played.elapsed.as_millis() as u64,
                    info: played.info,
                    board: game.one_line(&state),
                };
                on_move(&record);
                moves.push(record);
            }
            Err(fault) => {
                adjudication = Some(Adjudication { loser: seat, fault, position: game.draw(&state) });
            }
        }
    }
    let farewell = game.farewell(&state);
    for agent in agents.iter_mut() {
        match &farewell {
            Some(line) => agent.finish_with(Some(line)),
            None => agent.finish(),
        }
    }
    let score = game.score(&state);
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
        game: game.name().into(),
        params: game.params(),
        per_move_millis: clock.per_move.as_millis() as u64,
        seats,
        moves,
        outcome: Outcome { winner, score, adjudication },
    }
}

/// Plays one game between two prepared agents (`seats[0]` in seat 1), their working folders under `dir` (removed
/// afterwards), pinned to CPU `pin` when given; built-in agents draw their random numbers from `seed` when given
/// (see [`game_seed`]), else from the run's seed.
///
/// # Errors
/// When a working folder cannot be made.
pub fn play_prepared<G: Refereed>(
    game: &G,
    seats: [&Prepared; 2],
    clock: &TimeControl,
    dir: &Path,
    pin: Option<usize>,
    seed: Option<u64>,
    on_move: &mut dyn FnMut(&MoveRecord),
) -> std::io::Result<GameRecord> {
    let params = game.greeting_params();
    let mut a = seats[0].seeded_agent(&params, 1, &dir.join("seat1"), pin, seed)?;
    let mut b = seats[1].seeded_agent(&params, 2, &dir.join("seat2"), pin, seed)?;
    let record = play(game, [&mut a, &mut b], clock, on_move);
    let _ = crate::harness::grade::workspace::remove_tree(dir);
    Ok(record)
}

/// The seed of one game of a run seeded with `run`: the game's `round` (from 0) and the `seat` the graded agent
/// takes, mixed (SplitMix64's finalizer, so neighbouring rounds give unrelated seeds). Every game of a run is then
/// a different game, and the same run seed replays them all, in any order and on any shard.
pub fn game_seed(run: u64, round: u64, seat: u8) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let golden = 0x9e37_79b9_7f4a_7c15_u64;
    mix(mix(mix(run.wrapping_add(golden)) ^ round.wrapping_add(golden)) ^ u64::from(seat))
}

fn seat_record(agent: &Agent) -> SeatRecord {
    SeatRecord { label: agent.label.clone(), display_name: agent.display_name.clone(), starts: agent.starts }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_round_and_seat_has_a_seed_of_its_own() {
        let seeds: std::collections::BTreeSet<u64> =
            (0..50).flat_map(|round| [1, 2].map(|seat| game_seed(7, round, seat))).collect();
        assert_eq!(seeds.len(), 100);
        assert_eq!(game_seed(7, 3, 2), game_seed(7, 3, 2));
        assert_ne!(game_seed(7, 0, 1), game_seed(8, 0, 1));
    }
}
