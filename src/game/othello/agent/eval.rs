//! The strong agent's evaluation of a position for the side to move: mobility, corners, X and C squares next to
//! empty corners, edge discs anchored to an owned corner, and disc parity late in the game.

use crate::game::othello::{Bits, Board};
use crate::game::Player;

/// A finished game is worth this much per disc of difference, so any win outranks every heuristic value.
pub const DISC: i32 = 1000;

/// Heuristic values stay strictly inside (-`DISC`, `DISC`).
const LIMIT: i32 = DISC - 1;

/// The bit of column `c`, row `r`.
const fn bit(c: usize, r: usize) -> u64 {
    1u64 << (8 * c + r)
}

/// The squares of one board size that the evaluation looks at.
#[derive(Clone, Copy, Debug)]
pub struct Squares {
    /// Squares per side.
    pub n: usize,
    /// The four corners as (column, row).
    pub corners: [(usize, usize); 4],
    /// Each corner's diagonal neighbour (the X square).
    pub x: [u64; 4],
    /// Each corner's two edge neighbours (the C squares).
    pub c: [u64; 4],
    /// All four corners.
    pub corner_mask: u64,
}

impl Squares {
    /// The squares of an `n` x `n` board (4, 6 or 8).
    pub fn new(n: usize) -> Squares {
        let m = n - 1;
        let corners = [(0, 0), (0, m), (m, 0), (m, m)];
        let mut x = [0; 4];
        let mut c = [0; 4];
        let mut corner_mask = 0;
        for (k, &(cc, cr)) in corners.iter().enumerate() {
            let (ic, ir) = (if cc == 0 { 1 } else { m - 1 }, if cr == 0 { 1 } else { m - 1 });
            x[k] = bit(ic, ir);
            c[k] = bit(ic, cr) | bit(cc, ir);
            corner_mask |= bit(cc, cr);
        }
        Squares { n, corners, x, c, corner_mask }
    }

    /// The discs of `own` on edges running unbroken from a corner `own` holds (counted once each).
    pub fn anchored(&self, own: u64) -> u32 {
        let m = self.n - 1;
        let mut stable = 0u64;
        for &(cc, cr) in &self.corners {
            if own & bit(cc, cr) == 0 {
                continue;
            }
            // Along the corner's column, then along its row.
            for along_column in [true, false] {
                for i in 0..self.n {
                    let (c, r) = if along_column {
                        (cc, if cr == 0 { i } else { m - i })
                    } else {
                        (if cc == 0 { i } else { m - i }, cr)
                    };
                    if own & bit(c, r) == 0 {
                        break;
                    }
                    stable |= bit(c, r);
                }
            }
        }
        stable.count_ones()
    }
}

/// The heuristic value of `board` for `player` (to move), strictly inside (-[`DISC`], [`DISC`]).
pub fn evaluate(sq: &Squares, board: &Bits, player: Player) -> i32 {
    let (own, opp) = board.sides(player);
    let empty = (sq.n * sq.n) as i32 - (own | opp).count_ones() as i32;
    let my_moves = board.move_mask(player).count_ones() as i32;
    let their_moves = board.move_mask(player.opponent()).count_ones() as i32;
    let mut v = 12 * (my_moves - their_moves);
    v += 60 * ((own & sq.corner_mask).count_ones() as i32 - (opp & sq.corner_mask).count_ones() as i32);
    for (k, &(cc, cr)) in sq.corners.iter().enumerate() {
        if (own | opp) & bit(cc, cr) != 0 {
            continue;
        }
        v -= 30 * ((own & sq.x[k]).count_ones() as i32 - (opp & sq.x[k]).count_ones() as i32);
        v -= 12 * ((own & sq.c[k]).count_ones() as i32 - (opp & sq.c[k]).count_ones() as i32);
    }
    v += 15 * (sq.anchored(own) as i32 - sq.anchored(opp) as i32);
    if empty <= 16 {
        v += (20 - empty) * (own.count_ones() as i32 - opp.count_ones() as i32);
    }
    v.clamp(-LIMIT, LIMIT)
}

/// The exact value of a finished game for `player`: [`DISC`] per disc of difference.
pub fn terminal(board: &Bits, player: Player) -> i32 {
    DISC * (board.count(player) as i32 - board.count(player.opponent()) as i32)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::othello::{literal, Othello, Rules};

    fn board(text: &str) -> Bits {
        let game: Othello<Bits> = Othello::new(4, Rules::Standard).unwrap();
        *game.state(&literal::parse_board(text).unwrap(), Player::Max).unwrap().board()
    }

    #[test]
    fn edge_discs_count_only_from_an_owned_corner() {
        // Dark holds the top-left corner and the two squares right of it; light holds a loose edge disc.
        let b = board("((1, 1, 1, 0), (0, 2, 1, 2), (0, 0, 0, 0), (0, 0, 0, 0))");
        let sq = Squares::new(4);
        let (dark, light) = b.sides(Player::Max);
        assert_eq!(sq.anchored(dark), 3);
        assert_eq!(sq.anchored(light), 0);
    }

    #[test]
    fn values_are_antisymmetric_inside_the_limit_and_terminals_count_discs() {
        let game: Othello<Bits> = Othello::new(8, Rules::Standard).unwrap();
        let start = game.start();
        let sq = Squares::new(8);
        assert_eq!(evaluate(&sq, start.board(), Player::Max), -evaluate(&sq, start.board(), Player::Min));
        let b = board("((1, 1, 1, 1), (1, 1, 1, 1), (2, 2, 2, 2), (2, 2, 2, 1))");
        assert_eq!(terminal(&b, Player::Max), 2 * DISC);
        assert_eq!(terminal(&b, Player::Min), -2 * DISC);
        assert!(evaluate(&Squares::new(4), &b, Player::Max).abs() < DISC);
    }
}
