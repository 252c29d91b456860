//! The course's static board evaluation, in both editions' constants.
//!
//! Both editions classify a leaf the same way (terminal, stone 1 still available, last move 1, prime, composite)
//! and differ only in the numbers attached and in whether Min's turn negates them.

use super::CompositeCount;
use crate::game::takestones::Stones;
use crate::game::Player;
use crate::search::Evaluator;

/// What the heuristic found at a leaf; `odd` is the parity test of the count the rule names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafClass {
    /// No legal move: the side to move has lost.
    Terminal {
        /// The player who won.
        winner: Player,
    },
    /// Stone 1 is still available: a neutral 0.
    StoneOneAvailable,
    /// The last move was 1: `odd` = the number of legal moves is odd.
    LastWasOne {
        /// The parity test.
        odd: bool,
    },
    /// The last move was a prime `p`: `odd` = the number of legal moves that are multiples of `p` is odd.
    Prime {
        /// The parity test.
        odd: bool,
    },
    /// The last move was composite with largest prime factor `p`: `odd` = the count of multiples of `p` (which
    /// stones are counted is [`CompositeCount`]) is odd.
    Composite {
        /// The parity test.
        odd: bool,
    },
}

/// Classifies a leaf of `board`. `terminal` says it has no legal move.
pub fn classify<B: Stones>(board: &B, state: &B::State, terminal: bool, composite: CompositeCount) -> LeafClass {
    if terminal {
        return LeafClass::Terminal { winner: board.to_move(state).opponent() };
    }
    let last = match board.last(state) {
        Some(last) if !board.is_available(state, 1) => last,
        // Before the first move stone 1 is always available.
        _ => return LeafClass::StoneOneAvailable,
    };
    if last == 1 {
        return LeafClass::LastWasOne { odd: board.legal_count(state) % 2 == 1 };
    }
    let p = board.largest_prime_factor(last);
    if p == last {
        return LeafClass::Prime { odd: board.count_legal_multiples(state, p) % 2 == 1 };
    }
    let count = match composite {
        CompositeCount::AllAvailable => board.count_available_multiples(state, p),
        CompositeCount::LegalMoves => board.count_legal_multiples(state, p),
    };
    LeafClass::Composite { odd: count % 2 == 1 }
}

/// The Fall 2019 evaluation: terminal +-1.0, then 0 / +-0.5 / +-0.7 / +-0.6, negated when Min is to move (so a 0 on
/// Min's turn is `-0.0`, as in Java).
#[derive(Clone, Copy, Debug, Default)]
pub struct StatsEval {
    /// Which stones the composite rule counts.
    pub composite: CompositeCount,
}

impl<B: Stones> Evaluator<B> for StatsEval {
    type Value = f64;

    #[inline]
    fn evaluate(&self, board: &B, state: &B::State, terminal: bool) -> f64 {
        let signed = |magnitude: f64, odd: bool| if odd { magnitude } else { -magnitude };
        let value = match classify(board, state, terminal, self.composite) {
            LeafClass::Terminal { winner: Player::Max } => return 1.0,
            LeafClass::Terminal { winner: Player::Min } => return -1.0,
            LeafClass::StoneOneAvailable => 0.0,
            LeafClass::LastWasOne { odd } => signed(0.5, odd),
            LeafClass::Prime { odd } => signed(0.7, odd),
            LeafClass::Composite { odd } => signed(0.6, odd),
        };
        match board.to_move(state) {
            Player::Max => value,
            Player::Min => -value,
        }
    }
}

/// The Spring 2017 evaluation: terminal +-100, then 0 / +-5 / +-7 / +-6, never negated.
#[derive(Clone, Copy, Debug, Default)]
pub struct TraceEval {
    /// Which stones the composite rule counts.
    pub composite: CompositeCount,
}

impl<B: Stones> Evaluator<B> for TraceEval {
    type Value = i32;

    #[inline]
    fn evaluate(&self, board: &B, state: &B::State, terminal: bool) -> i32 {
        let signed = |magnitude: i32, odd: bool| if odd { magnitude } else { -magnitude };
        match classify(board, state, terminal, self.composite) {
            LeafClass::Terminal { winner: Player::Max } => 100,
            LeafClass::Terminal { winner: Player::Min } => -100,
            LeafClass::StoneOneAvailable => 0,
            LeafClass::LastWasOne { odd } => signed(5, odd),
            LeafClass::Prime { odd } => signed(7, odd),
            LeafClass::Composite { odd } => signed(6, odd),
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::takestones::{Position, SmallBoard};
    use crate::game::Game;

    fn leaf(n: u32, taken: &[u64], composite: CompositeCount) -> LeafClass {
        let board = SmallBoard::new(n).unwrap();
        let state = board.root(&Position::new(u64::from(n), taken.to_vec()).unwrap());
        classify(&board, &state, board.is_terminal(&state), composite)
    }

    #[test]
    fn composite_reading_matters_where_the_trace_edition_proves_it() {
        // Official trace output2: path 3 -> 1 -> 4 in `7 0 3`, available 2 5 6 7. The largest prime factor of 4
        // is 2; available multiples {2, 6} are even (the leaf is -6), legal multiples {2} are odd.
        assert_eq!(leaf(7, &[3, 1, 4], CompositeCount::AllAvailable), LeafClass::Composite { odd: false });
        assert_eq!(leaf(7, &[3, 1, 4], CompositeCount::LegalMoves), LeafClass::Composite { odd: true });
    }

    #[test]
    fn stone_one_first_then_last_move_rules() {
        assert_eq!(leaf(7, &[3], CompositeCount::AllAvailable), LeafClass::StoneOneAvailable);
        // 7 1 1 -> legal moves 2..7 (six of them): even.
        assert_eq!(leaf(7, &[1], CompositeCount::AllAvailable), LeafClass::LastWasOne { odd: false });
        // 7: 1 then 2: multiples of 2 left are 4 and 6.
        assert_eq!(leaf(7, &[1, 2], CompositeCount::AllAvailable), LeafClass::Prime { odd: false });
        assert_eq!(leaf(7, &[1, 3], CompositeCount::AllAvailable), LeafClass::Prime { odd: true });
        // Terminal: 3 0 -> 1, 2, then Max cannot move: Min wins.
        assert_eq!(leaf(3, &[1, 2], CompositeCount::AllAvailable), LeafClass::Terminal { winner: Player::Min });
    }

    #[test]
    fn stats_negates_on_mins_turn_and_trace_does_not() {
        let board = SmallBoard::new(7).unwrap();
        // Min to move (three stones taken), last move 5, no multiple of 5 left: an even count, so the rule's value
        // is -0.7 / -7; the stats edition negates it for Min.
        let state = board.root(&Position::new(7, vec![3, 1, 5]).unwrap());
        assert_eq!(board.to_move(&state), Player::Min);
        let stats = StatsEval::default().evaluate(&board, &state, false);
        let trace = TraceEval::default().evaluate(&board, &state, false);
        assert_eq!((stats, trace), (0.7, -7));
        // A neutral leaf on Min's turn is Java's -0.0.
        let neutral = board.root(&Position::new(7, vec![3]).unwrap());
        assert!(StatsEval::default().evaluate(&board, &neutral, false).is_sign_negative());
    }
}
