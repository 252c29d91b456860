//! Perft: the number of leaves of the game tree to a fixed depth, the standard check that move generation and
//! flipping are exact (any error changes a count).
//!
//! A ply is a placed disc or a pass: a side with no legal move passes (one ply) when its opponent can move, and a
//! finished game (neither side can move) is a leaf at whatever depth it ends. From the 8x8 start the published
//! counts for depths 1 to 9 are 4, 12, 56, 244, 1396, 8200, 55092, 390216 and 3005288.

use super::board::Board;
use crate::game::Player;

/// Leaves of the tree `depth` plies deep from `board` with `player` to move (passes count as plies).
pub fn perft<B: Board>(board: &B, player: Player, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = board.moves(player).peekable();
    if moves.peek().is_none() {
        return if board.has_move(player.opponent()) { perft(board, player.opponent(), depth - 1) } else { 1 };
    }
    if depth == 1 {
        return moves.count() as u64;
    }
    moves.map(|mv| perft(&board.play(player, mv), player.opponent(), depth - 1)).sum()
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::othello::{literal, Bits, Grid, Othello, Rules};

    #[test]
    fn the_array_board_counts_what_the_bitboard_counts() {
        for size in [4, 6, 8] {
            let fast = Othello::<Bits>::new(size, Rules::Standard).unwrap().start();
            let plain = Othello::<Grid>::new(size, Rules::Standard).unwrap().start();
            for d in 0..=6 {
                assert_eq!(perft(fast.board(), Player::Max, d), perft(plain.board(), Player::Max, d), "{size} {d}");
            }
        }
    }

    #[test]
    fn a_pass_is_a_ply_and_a_finished_game_is_a_leaf() {
        // Dark cannot move, light can (column 2, row 0), after which neither can.
        let grid = literal::parse_board("((2, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))").unwrap();
        let board = Bits::from_grid(&grid).unwrap();
        assert_eq!(perft(&board, Player::Max, 1), 1, "the pass");
        assert_eq!(perft(&board, Player::Max, 2), 1, "light's one move");
        assert_eq!(perft(&board, Player::Max, 9), 1, "the game is over after it: one leaf however deep");
        // The 4x4 game is solved to its end well within 20 plies: every line is a leaf once, at any greater depth.
        let start = Othello::<Bits>::new(4, Rules::Standard).unwrap().start();
        assert_eq!(perft(start.board(), Player::Max, 20), perft(start.board(), Player::Max, 30));
    }
}
