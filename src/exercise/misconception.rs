//! The known wrong methods a wrong answer is compared with. Each is implemented for real ([`super::wrong`], or
//! the key solvers run on a transformed problem), so a misconception is named only when the student's answer is
//! what that method really gives on their own variant.

use crate::harness::cause::{Cause, CauseKind};

/// A known wrong method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Misconception {
    /// Alpha-beta cutting only when `v > beta` (MAX) or `v < alpha` (MIN), not on equality.
    StrictPruning,
    /// Alpha-beta searching children right to left.
    RightToLeft,
    /// MIN and MAX swapped at every level (the root taken for MIN).
    MinMaxSwapped,
    /// The value alpha-beta returned at a cut-off node (a bound) given as its minimax value.
    CutBoundAsValue,
    /// Chance nodes averaged with equal weights, the probabilities ignored.
    IgnoresProbabilities,
    /// Value iteration updated in place, state by state (Gauss-Seidel), instead of from the previous values.
    GaussSeidel,
    /// The discount applied to the reward too: `gamma * (R + V)` instead of `R + gamma * V`.
    DiscountOnReward,
    /// Forward checking pruning only the neighbours after the assigned variable, not all of them.
    ForwardCheckingSomeNeighbours,
    /// MRV ties broken alphabetically instead of by degree.
    MrvTiesAlphabetical,
    /// Hill climbing moving to the first shorter neighbour instead of the shortest.
    FirstImprovement,
}

impl Misconception {
    /// Every known wrong method.
    pub const ALL: [Misconception; 10] = [
        Misconception::StrictPruning,
        Misconception::RightToLeft,
        Misconception::MinMaxSwapped,
        Misconception::CutBoundAsValue,
        Misconception::IgnoresProbabilities,
        Misconception::GaussSeidel,
        Misconception::DiscountOnReward,
        Misconception::ForwardCheckingSomeNeighbours,
        Misconception::MrvTiesAlphabetical,
        Misconception::FirstImprovement,
    ];

    /// The stable name class reports count by.
    pub fn name(self) -> &'static str {
        match self {
            Misconception::StrictPruning => "strict-inequality-pruning",
            Misconception::RightToLeft => "right-to-left-pruning",
            Misconception::MinMaxSwapped => "min-max-swapped",
            Misconception::CutBoundAsValue => "cut-node-bound-as-minimax-value",
            Misconception::IgnoresProbabilities => "expectimax-ignores-probabilities",
            Misconception::GaussSeidel => "gauss-seidel-value-iteration",
            Misconception::DiscountOnReward => "discount-applied-to-reward",
            Misconception::ForwardCheckingSomeNeighbours => "forward-checking-misses-neighbours",
            Misconception::MrvTiesAlphabetical => "mrv-ties-alphabetical",
            Misconception::FirstImprovement => "first-improvement-hill-climbing",
        }
    }

    /// One sentence for the student: what the method did instead of the right one.
    pub fn sentence(self) -> &'static str {
        match self {
            Misconception::StrictPruning => {
                "this is what alpha-beta gives when it prunes only on a strict inequality (v > beta at MAX, v < alpha \
                 at MIN); AIMA Figure 5.7 prunes on v >= beta and v <= alpha"
            }
            Misconception::RightToLeft => {
                "this is what alpha-beta gives when it searches children right to left; the sheet says left to right"
            }
            Misconception::MinMaxSwapped => {
                "this is what the tree gives with MIN and MAX swapped at every level; the root is MAX"
            }
            Misconception::CutBoundAsValue => {
                "these are the values alpha-beta returned at the nodes it cut off, which are only bounds; a node's \
                 minimax value counts all of its children"
            }
            Misconception::IgnoresProbabilities => {
                "this is what expectimax gives when a chance node averages its children with equal weights; each \
                 child counts with its probability"
            }
            Misconception::GaussSeidel => {
                "this is what value iteration gives when it updates the values in place, state by state \
                 (Gauss-Seidel); V(k+1) is computed from V(k) alone"
            }
            Misconception::DiscountOnReward => {
                "this is what the Bellman backup gives with the discount applied to the reward too, gamma * (R + V); \
                 the backup is R + gamma * V"
            }
            Misconception::ForwardCheckingSomeNeighbours => {
                "this is what forward checking gives when it prunes only the neighbours that come after the assigned \
                 variable; it prunes every unassigned neighbour"
            }
            Misconception::MrvTiesAlphabetical => {
                "this is what MRV gives when ties are broken alphabetically; the sheet breaks them by degree (most \
                 constraints on other unassigned variables)"
            }
            Misconception::FirstImprovement => {
                "this is what hill climbing gives when it moves to the first shorter neighbour; steepest descent \
                 moves to the shortest one"
            }
        }
    }

    /// The cause a report shows, with the evidence: what the student wrote, what the method gives, what is right.
    pub fn cause(self, given: &str, method: &str, right: &str) -> Cause {
        Cause::new(self.name(), CauseKind::Bug, self.sentence())
            .with_evidence(format!("your answer: {given}"))
            .with_evidence(format!("the wrong method gives: {method}"))
            .with_evidence(format!("the right answer: {right}"))
    }
}
