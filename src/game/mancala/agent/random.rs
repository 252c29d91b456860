//! The random agent: a uniformly random legal move.

use crate::game::mancala::{Mancala, MancalaState};
use crate::game::Game;
use crate::rng::Rng;

/// A uniformly random legal bin of `state`'s mover (0-5), drawn from `rng`; `None` when the game is over.
pub fn choose(game: &Mancala, state: &MancalaState, rng: &mut Rng) -> Option<u8> {
    let count = game.legal_moves(state).count();
    if count == 0 {
        return None;
    }
    game.legal_moves(state).nth(rng.below(count))
}
