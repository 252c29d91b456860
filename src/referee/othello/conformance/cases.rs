//! The boards the check asks about: fixed ones (start positions and positions from seeded random games, the same
//! on every run) and `--cases N` random ones from a printed seed.

use crate::game::othello::{Grid, Othello, Rules};
use crate::game::{Game, Player};
use crate::rng::Rng;

/// Boards with at most this many empty squares (4x4 only) are searched to the end for the form without `limit`.
pub const FULL_DEPTH_EMPTIES: usize = 7;

/// The seed of the fixed cases' games (not the `--seed`: fixed cases are the same on every run).
const FIXED_SEED: u64 = 4701;

/// One question: a board, the root player, and the depth limit for the form with `limit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The board (`board[row][col]`).
    pub grid: Grid,
    /// The root player: whose view utilities take, and who moves at a Max node.
    pub color: Player,
    /// Plies to search in the form with `limit`.
    pub limit: u32,
    /// Where it comes from (`fixed 3`, `random 12`).
    pub label: String,
}

impl Case {
    /// The course's color number: 1 dark, 2 light.
    pub fn color_number(&self) -> u8 {
        match self.color {
            Player::Max => 1,
            Player::Min => 2,
        }
    }

    /// Empty squares.
    pub fn empties(&self) -> usize {
        let n = self.grid.size();
        n * n - (self.grid.count(Player::Max) + self.grid.count(Player::Min)) as usize
    }

    /// Whether the tree is small enough to search to the end (for the form without `limit`).
    pub fn full_depth(&self) -> bool {
        self.grid.size() == 4 && self.empties() <= FULL_DEPTH_EMPTIES
    }

    /// Whether `color` has a legal move (select functions are only asked then).
    pub fn can_move(&self) -> bool {
        self.grid.has_move(self.color)
    }
}

/// The deepest limit asked (a plain Python minimax answers a 6x6 board at 4 plies in well under a second).
pub const MAX_LIMIT: u32 = 4;

/// The board after `plies` random moves from the start of a `size` game under the framework rules (fewer if the
/// game ends first); `None` for a size the rules do not know (never asked for).
fn played(size: usize, plies: usize, rng: &mut Rng) -> Option<Grid> {
    let game = Othello::<Grid>::new(size, Rules::Framework).ok()?;
    let mut state = game.start();
    for _ in 0..plies {
        let moves: Vec<_> = game.legal_moves(&state).collect();
        if moves.is_empty() {
            break;
        }
        state = game.apply(&state, moves[rng.below(moves.len())]);
    }
    Some(state.grid())
}

/// The fixed cases: both start positions and positions from seeded 4x4 and 6x6 games, both colors, every limit.
pub fn fixed() -> Vec<Case> {
    let mut out = Vec::new();
    let mut push = |grid: Option<Grid>, color: Player, limit: u32| {
        if let Some(grid) = grid {
            let label = format!("fixed {}", out.len() + 1);
            out.push(Case { grid, color, limit, label });
        }
    };
    for (size, color, limit) in
        [(4, Player::Max, 1), (4, Player::Max, 4), (4, Player::Min, 2), (6, Player::Max, 3), (6, Player::Min, 2)]
    {
        push(Grid::start(size).ok(), color, limit);
    }
    let mut rng = Rng::new(FIXED_SEED);
    let mut k = 0;
    for (size, games, plies) in [(4, 3, [3, 6, 8, 10]), (6, 2, [6, 12, 18, 24])] {
        for _ in 0..games {
            let game_seed = rng.next_u64();
            for plies in plies {
                let grid = played(size, plies, &mut Rng::new(game_seed));
                let color = if k % 2 == 0 { Player::Max } else { Player::Min };
                push(grid, color, 1 + (k % MAX_LIMIT as usize) as u32);
                k += 1;
            }
        }
    }
    out
}

/// The other-color twins of the 4x4 cases among `cases` (same board, same limit), labelled `fixed 3, other color`:
/// asked with `caching` on right after their case, they show a cache whose key leaves the color out. Each comes
/// with the index of its case.
pub fn twins(cases: &[Case]) -> Vec<(usize, Case)> {
    let four = cases.iter().enumerate().filter(|(_, c)| c.grid.size() == 4);
    four.map(|(i, c)| {
        let label = format!("{}, other color", c.label);
        (i, Case { color: c.color.opponent(), label, ..c.clone() })
    })
    .collect()
}

/// `n` random cases from `seed`: boards from random games (4x4 twice as often as 6x6), a random color and limit.
pub fn random(seed: u64, n: usize) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    (0..n)
        .filter_map(|i| {
            let size = if rng.below(3) < 2 { 4 } else { 6 };
            let plies = rng.below(size * size - 4);
            let grid = played(size, plies, &mut rng)?;
            let color = if rng.below(2) == 0 { Player::Max } else { Player::Min };
            let limit = rng.range(1, MAX_LIMIT);
            Some(Case { grid, color, limit, label: format!("random {}", i + 1) })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_cases_are_stable_and_varied() {
        let cases = fixed();
        assert_eq!(cases, fixed());
        assert_eq!(cases.len(), 5 + 3 * 4 + 2 * 4);
        assert!(cases.iter().any(Case::full_depth));
        assert!(cases.iter().any(|c| c.grid.size() == 6 && c.limit == MAX_LIMIT));
        assert!(cases.iter().any(|c| c.color == Player::Min));
        let twins = twins(&cases);
        assert_eq!(twins.len(), cases.iter().filter(|c| c.grid.size() == 4).count());
        assert!(twins.iter().all(|(i, t)| t.grid == cases[*i].grid && t.color != cases[*i].color));
    }

    #[test]
    fn random_cases_replay_from_their_seed() {
        assert_eq!(random(9, 30), random(9, 30));
        assert_ne!(random(9, 30), random(10, 30));
        assert!(random(9, 60).iter().all(|c| (1..=MAX_LIMIT).contains(&c.limit)));
    }
}
