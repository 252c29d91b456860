//! The catalog of known ways a Take-Stones submission departs from the reference: real bugs seen in public student
//! solutions, and the readings the spec leaves open.

use std::fmt;

/// One departure from the reference. Each is a single switch in [`super::MutantSolver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// The first move allows odd stones `i <= n/2` instead of `i < n/2`.
    FirstMoveAtMostHalf,
    /// The composite rule counts only the legal moves divisible by the largest prime factor (spec-silent).
    CompositeLegalOnly,
    /// The stats heuristic is not negated when Min is to move.
    NoNegationForMin,
    /// Cuts use strict comparisons (`v > beta`, `v < alpha`).
    StrictCuts,
    /// A node updates its own alpha (beta) before testing for the cut.
    BoundBeforeCut,
    /// The largest-prime-factor helper stops trial division at `i * i < x`, so `p * p` comes back as itself.
    WrongLargestPrime,
    /// Max depth is counted from 1 (the root at depth 1).
    MaxDepthFromOne,
    /// Nodes become leaves one ply early (at `limit - 1`).
    DepthLimitOffByOne,
    /// A later move replaces the best on a tie, so ties go to the larger stone.
    TieTowardLarger,
    /// The root is not counted as visited.
    VisitedExcludesRoot,
    /// Only terminal nodes are counted as evaluated.
    EvaluatedTerminalOnly,
    /// Doubles rounded HALF_EVEN on the binary value (`DecimalFormat`; spec-silent).
    HalfEven,
    /// Doubles printed raw (`System.out.println(x)`: `1.3333333333333333`).
    RawDouble,
    /// Doubles printed with `DecimalFormat("#.#")` (`2`, `1.2`, `-1`).
    HashFormat,
    /// A negated zero prints as `-0.0` (spec-silent).
    NegativeZero,
}

/// Whether a variant is a real bug or an acceptable reading of the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A mistake: the spec and the official files rule it out.
    Bug,
    /// A reading the spec allows; graders accept it.
    Reading,
}

impl Variant {
    /// Every variant, in catalog order.
    pub const ALL: [Variant; 15] = [
        Variant::FirstMoveAtMostHalf,
        Variant::CompositeLegalOnly,
        Variant::NoNegationForMin,
        Variant::StrictCuts,
        Variant::BoundBeforeCut,
        Variant::WrongLargestPrime,
        Variant::MaxDepthFromOne,
        Variant::DepthLimitOffByOne,
        Variant::TieTowardLarger,
        Variant::VisitedExcludesRoot,
        Variant::EvaluatedTerminalOnly,
        Variant::HalfEven,
        Variant::RawDouble,
        Variant::HashFormat,
        Variant::NegativeZero,
    ];

    /// A short stable name (`strict-cuts`), used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Variant::FirstMoveAtMostHalf => "first-move-at-most-half",
            Variant::CompositeLegalOnly => "composite-legal-only",
            Variant::NoNegationForMin => "no-negation-for-min",
            Variant::StrictCuts => "strict-cuts",
            Variant::BoundBeforeCut => "bound-before-cut",
            Variant::WrongLargestPrime => "wrong-largest-prime",
            Variant::MaxDepthFromOne => "max-depth-from-one",
            Variant::DepthLimitOffByOne => "depth-limit-off-by-one",
            Variant::TieTowardLarger => "tie-toward-larger",
            Variant::VisitedExcludesRoot => "visited-excludes-root",
            Variant::EvaluatedTerminalOnly => "evaluated-terminal-only",
            Variant::HalfEven => "half-even",
            Variant::RawDouble => "raw-double",
            Variant::HashFormat => "hash-format",
            Variant::NegativeZero => "negative-zero",
        }
    }

    /// What the variant means, phrased for the student who has it.
    pub fn explain(self) -> &'static str {
        match self {
            Variant::FirstMoveAtMostHalf => "the first move allows stones up to n/2 inclusive; the rule is strictly less than n/2",
            Variant::CompositeLegalOnly => "after a composite last move, only legal moves are counted as multiples of its largest prime factor (the spec leaves this open)",
            Variant::NoNegationForMin => "the heuristic is not negated when Min is to move",
            Variant::StrictCuts => "cuts use > and < instead of >= and <= (AIMA Figure 5.7 cuts on equality)",
            Variant::BoundBeforeCut => "alpha/beta is updated before the cut test; AIMA returns first",
            Variant::WrongLargestPrime => "the largest-prime-factor helper stops at i*i < x, so squares of primes come back as themselves",
            Variant::MaxDepthFromOne => "max depth counts the root as depth 1; the root is depth 0",
            Variant::DepthLimitOffByOne => "nodes become leaves one ply before the depth limit",
            Variant::TieTowardLarger => "ties between moves go to the larger stone; the spec picks the smaller",
            Variant::VisitedExcludesRoot => "the root is not counted as a visited node",
            Variant::EvaluatedTerminalOnly => "only end-game states are counted as evaluated; depth-limit leaves count too",
            Variant::HalfEven => "doubles are rounded half-even (DecimalFormat) rather than like %.1f (the spec leaves this open)",
            Variant::RawDouble => "doubles are printed raw instead of with one decimal (%.1f)",
            Variant::HashFormat => "doubles are printed with \"#.#\", which drops the \".0\"",
            Variant::NegativeZero => "a zero value negated on Min's turn prints as -0.0 (the spec leaves this open)",
        }
    }

    /// Bug or accepted reading.
    pub fn kind(self) -> Kind {
        match self {
            Variant::CompositeLegalOnly | Variant::HalfEven | Variant::NegativeZero => Kind::Reading,
            _ => Kind::Bug,
        }
    }

    /// The spec-silent reading this variant is, if it is one (a suite's `accept` list names it).
    pub fn reading(self) -> Option<crate::harness::suite::Reading> {
        use crate::harness::suite::Reading;
        match self {
            Variant::CompositeLegalOnly => Some(Reading::Composite),
            Variant::HalfEven => Some(Reading::Rounding),
            Variant::NegativeZero => Some(Reading::NegativeZero),
            _ => None,
        }
    }

    /// The variant named `name`.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether the variant can change `edition`'s output. The trace edition prints no doubles or counters; the
    /// stats edition prints no bounds, and updating a bound before the cut test changes nothing else (the node
    /// returns the same value and has visited the same children).
    pub fn applies_to(self, edition: crate::reference::takestones::Edition) -> bool {
        match edition {
            crate::reference::takestones::Edition::Stats => self != Variant::BoundBeforeCut,
            crate::reference::takestones::Edition::Trace => self.shows_in_trace(),
        }
    }

    fn shows_in_trace(self) -> bool {
        !matches!(
            self,
            Variant::NoNegationForMin
                | Variant::MaxDepthFromOne
                | Variant::VisitedExcludesRoot
                | Variant::EvaluatedTerminalOnly
                | Variant::HalfEven
                | Variant::RawDouble
                | Variant::HashFormat
                | Variant::NegativeZero
        )
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
