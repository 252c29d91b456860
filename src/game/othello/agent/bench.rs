//! A benchmark of the strong agent's search: nodes per second and depth completed in a given time.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::engine::Engine;
use crate::game::othello::{literal, Bits, Othello, OthelloState, Rules};
use crate::game::Game;

/// A midgame position: 8x8 after twenty moves of a quiet opening, dark to move.
const MIDGAME: &str = "((0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 2, 0, 0, 0, 0), (0, 0, 2, 2, 1, 1, 0, 0), \
    (0, 2, 2, 2, 1, 1, 1, 0), (0, 0, 2, 1, 2, 1, 0, 0), (0, 0, 1, 2, 2, 2, 2, 0), (0, 0, 0, 1, 1, 0, 0, 0), \
    (0, 0, 0, 0, 0, 0, 0, 0))";

/// Prints, for the 8x8 opening and a midgame position, the depth the strong agent completes in `seconds` and its
/// nodes per second.
///
/// # Errors
/// Any error writing to `out`.
pub fn bench(out: &mut dyn Write, seconds: f64) -> io::Result<()> {
    let game: Othello<Bits> = Othello::new(8, Rules::Standard).map_err(io::Error::other)?;
    let mut positions: Vec<(&str, OthelloState<Bits>)> = vec![("opening", game.start())];
    if let Ok(grid) = literal::parse_board(MIDGAME) {
        if let Ok(state) = game.state(&grid, crate::game::Player::Max) {
            if !game.is_terminal(&state) {
                positions.push(("midgame", state));
            }
        }
    }
    for (name, state) in positions {
        let mut engine = Engine::new(Rules::Standard);
        let start = Instant::now();
        let deadline = start + Duration::from_secs_f64(seconds.max(0.0));
        let done = engine.think(state.board(), state.to_move(), deadline, &mut |_| {});
        let elapsed = start.elapsed().as_secs_f64().max(1e-9);
        match done {
            Some(it) => writeln!(
                out,
                "{name}: depth {} move {} score {:+} nodes {} in {elapsed:.2} s = {:.0} nodes/s",
                it.depth,
                it.best,
                it.value,
                it.nodes,
                it.nodes as f64 / elapsed
            )?,
            None => writeln!(out, "{name}: no move")?,
        }
    }
    Ok(())
}
