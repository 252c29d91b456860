//! The Mancala commands: `match`, `grade mancala`, `tournament`, and the built-in agents' `agent` process.

pub mod agent;
pub mod grade;
pub mod matches;

use std::path::{Path, PathBuf};

use crate::app::arena::Contest;
use crate::game::mancala::Mancala;
use crate::referee::agent::TimeControl;
use crate::referee::mancala::{board, play_prepared};
use crate::referee::record::{GameRecord, MoveRecord};
use crate::referee::spec::{AgentSpec, Prepared};

/// The built-in Mancala agents' names, for `builtin:NAME`.
pub const BUILTINS: [&str; 3] = ["random", "simple", "strong"];

/// Mancala with a number of stones, as the referee plays it.
#[derive(Clone, Copy, Debug)]
pub struct MancalaContest(pub Mancala);

impl Contest for MancalaContest {
    fn name(&self) -> &'static str {
        "mancala"
    }

    fn describe(&self) -> String {
        format!("{} stones", self.0.stones())
    }

    fn play(
        &self,
        seats: [&Prepared; 2],
        clock: &TimeControl,
        dir: &Path,
        pin: Option<usize>,
        on_move: &mut dyn FnMut(&MoveRecord),
    ) -> std::io::Result<GameRecord> {
        play_prepared(&self.0, seats, clock, dir, pin, on_move)
    }

    fn final_board(&self, record: &GameRecord) -> String {
        board::draw(&final_state(&self.0, record))
    }

    fn student(&self, path: PathBuf) -> AgentSpec {
        AgentSpec::Java(path)
    }
}

/// Replays a record's moves to get its final position.
pub fn final_state(game: &Mancala, record: &GameRecord) -> crate::game::mancala::MancalaState {
    use crate::game::Game;
    let mut state = game.start();
    for m in &record.moves {
        if let Ok(bin) = m.mv.parse::<u8>() {
            if game.legal_moves(&state).any(|b| b == bin) {
                state = game.apply(&state, bin);
            }
        }
    }
    state
}

/// Parses an agent name for Mancala.
///
/// # Errors
/// See [`AgentSpec::parse`].
pub fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    AgentSpec::parse(text, &BUILTINS, AgentSpec::Java)
}
