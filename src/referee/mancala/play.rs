//! Mancala under the referee's game loop: the position as the protocol's 14 pit counts from the mover's side, a
//! move as a bin 0-5 of the mover's row.

use crate::game::mancala::{Mancala, MancalaState};
use crate::game::{Game, Player};
use crate::referee::game_loop::Refereed;

use super::board;

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

impl Refereed for Mancala {
    type State = MancalaState;
    type Move = u8;

    fn name(&self) -> &'static str {
        "mancala"
    }

    fn params(&self) -> String {
        format!("{} stones", self.stones())
    }

    fn greeting_params(&self) -> Vec<String> {
        vec![self.stones().to_string()]
    }

    fn start(&self) -> MancalaState {
        Mancala::start(self)
    }

    fn is_over(&self, state: &MancalaState) -> bool {
        self.is_terminal(state)
    }

    fn seat_to_move(&self, state: &MancalaState) -> u8 {
        match state.to_move {
            Player::Max => 1,
            Player::Min => 2,
        }
    }

    fn position(&self, state: &MancalaState) -> String {
        position_words(state)
    }

    fn legal(&self, state: &MancalaState, word: &str) -> Result<u8, String> {
        legal_bin(self, state, word)
    }

    fn apply(&self, state: &MancalaState, mv: &u8) -> MancalaState {
        Game::apply(self, state, *mv)
    }

    fn one_line(&self, state: &MancalaState) -> String {
        board::one_line(state)
    }

    fn draw(&self, state: &MancalaState) -> String {
        board::draw(state)
    }

    fn score(&self, state: &MancalaState) -> [u32; 2] {
        [u32::from(Mancala::store(state, Player::Max)), u32::from(Mancala::store(state, Player::Min))]
    }

    fn farewell(&self, _: &MancalaState) -> Option<String> {
        None
    }
}
