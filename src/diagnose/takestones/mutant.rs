//! A Take-Stones solver with every catalog variant as a switch: with no switch on it prints exactly what the
//! reference prints (a property test holds it to that), and each switch reproduces one known departure.
//!
//! It is written out plainly (separate MAX and MIN nodes, one flag test per variant) rather than built on the
//! generic search, so that the reference and the search it shares with every game stay free of bug switches.
//! Diagnosis runs it on small shrunk positions; `gen` runs it on hundreds of positions per variant, so the move
//! rules are precomputed as bit masks per search (a node's legal moves are one `and`).

use super::variant::Variant;
use crate::game::takestones::Position;
use crate::reference::number::{format_fixed, NegativeZero, Rounding};
use crate::reference::takestones::Edition;

/// The solver for one edition and one set of variants, on boards of up to 127 stones.
#[derive(Clone, Debug)]
pub struct MutantSolver {
    edition: Edition,
    switches: u32,
    probes: u32,
}

/// Departures the probes test one at a time ([`super::locate`] names them as located parts, not as catalogued
/// bugs: each is a way of writing one part of the search, checked on positions built to show it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// A node visits its children from the largest stone down.
    Descending,
    /// Max nodes cut only when the value exceeds beta (`v > beta`).
    StrictCutMax,
    /// Min nodes cut only when the value is below alpha (`v < alpha`).
    StrictCutMin,
    /// The first move allows odd stones `i < n / 2` in integer division.
    FirstMoveFloor,
    /// The first move allows every odd stone.
    FirstMoveAnyOdd,
    /// The first move allows every stone below n/2, odd or even.
    FirstMoveAnyParity,
    /// No node ever cuts: plain minimax (the bounds are still passed down and raised).
    NoPruning,
    /// After a prime last move, the multiples are counted among all the stones, taken ones too (`n / p`).
    PrimeCountsTaken,
    /// After a prime last move, the sign rule is reversed (an odd count scores negative).
    PrimeSignFlipped,
    /// After last move 1, the sign rule is reversed.
    LastOneSignFlipped,
    /// After a composite last move, the sign rule is reversed.
    CompositeSignFlipped,
    /// The largest prime factor tries divisors up to the square root only and drops the factor left over.
    CompositeFactorDropsLast,
    /// After a composite last move, the count includes the stone just taken.
    CompositeCountsLast,
    /// The depth limit is one ply deeper than the argument says.
    DepthLimitPlusOne,
    /// An end-of-game leaf raises the max depth one ply below itself.
    MaxDepthEndPlusOne,
    /// Only leaves cut by the depth limit are counted as evaluated (end-of-game leaves are not).
    EvaluatedLimitOnly,
}

impl Probe {
    /// The change in a few words, as a proof names it.
    pub fn words(self) -> &'static str {
        match self {
            Probe::Descending => "children visited from the largest stone down",
            Probe::StrictCutMax => "Max nodes cut on v > beta",
            Probe::StrictCutMin => "Min nodes cut on v < alpha",
            Probe::FirstMoveFloor => "first move: odd stones i < n / 2 in integer division",
            Probe::FirstMoveAnyOdd => "first move: every odd stone",
            Probe::FirstMoveAnyParity => "first move: every stone below n/2",
            Probe::NoPruning => "no cut at all (plain minimax)",
            Probe::PrimeCountsTaken => "after a prime, multiples counted among all stones, taken ones too",
            Probe::PrimeSignFlipped => "after a prime, the sign reversed",
            Probe::LastOneSignFlipped => "after 1, the sign reversed",
            Probe::CompositeSignFlipped => "after a composite, the sign reversed",
            Probe::CompositeFactorDropsLast => "largest prime factor without the factor left over",
            Probe::CompositeCountsLast => "after a composite, the stone just taken counted",
            Probe::DepthLimitPlusOne => "the depth limit one ply deeper",
            Probe::MaxDepthEndPlusOne => "max depth one below end-of-game leaves",
            Probe::EvaluatedLimitOnly => "end-of-game leaves not counted as evaluated",
        }
    }
}

/// One search in progress.
struct Search<'a> {
    solver: &'a MutantSolver,
    n: u32,
    limit: u32,
    visited: u64,
    evaluated: u64,
    max_depth: u32,
    trace: String,
    /// Stones a move may take after stone `l` was taken (index 0: the first move).
    follows: Vec<u128>,
    /// The multiples of `p` among the stones, for every `p`.
    multiples: Vec<u128>,
}

impl MutantSolver {
    /// A solver for `edition` with `variants` switched on.
    pub fn new(edition: Edition, variants: &[Variant]) -> MutantSolver {
        let switches = variants.iter().fold(0, |m, v| m | 1 << (*v as u32));
        MutantSolver { edition, switches, probes: 0 }
    }

    /// The same solver with one probed departure on as well.
    pub fn probing(mut self, probe: Probe) -> MutantSolver {
        self.probes |= 1 << (probe as u32);
        self
    }

    fn has(&self, v: Variant) -> bool {
        self.switches >> (v as u32) & 1 == 1
    }

    fn probes(&self, p: Probe) -> bool {
        self.probes >> (p as u32) & 1 == 1
    }

    /// What a program with these variants prints for `position` searched to `depth` (0 = to the end); `None` when
    /// it prints no answer (no legal move at the root, more than 127 stones, or a root that is itself a leaf).
    pub fn output(&self, position: &Position, depth: u32) -> Option<String> {
        let n = position.n();
        if n > 127 {
            return None;
        }
        let all = (1..=n).fold(0u128, |m, s| m | 1 << s);
        let available = position.taken().iter().fold(all, |m, &s| m & !(1u128 << s));
        let last = position.last().unwrap_or(0);
        let max = position.taken().len() % 2 == 0;
        let mut s = Search::new(self, n, depth);
        if s.legal(available, last) == 0 {
            return None;
        }
        let (alpha, beta) = match self.edition {
            Edition::Stats => (f64::NEG_INFINITY, f64::INFINITY),
            Edition::Trace => (-1000.0, 1000.0),
        };
        let (value, best) = s.node(available, last, max, None, 0, alpha, beta);
        let best = best?;
        match self.edition {
            Edition::Trace => {
                let after = available & !(1u128 << best);
                Some(format!("{}NEXT MOVE\n{best}\n{}\n", s.trace, stones(after, n)))
            }
            Edition::Stats => {
                let visited = if self.has(Variant::VisitedExcludesRoot) { s.visited - 1 } else { s.visited };
                let depth_shown = s.max_depth + u32::from(self.has(Variant::MaxDepthFromOne));
                let ebf = (visited as f64 - 1.0) / (visited as f64 - s.evaluated as f64);
                Some(format!(
                    "Move: {best}\nValue: {}\nNumber of Nodes Visited: {visited}\nNumber of Nodes Evaluated: {}\n\
                     Max Depth Reached: {depth_shown}\nAvg Effective Branching Factor: {}\n",
                    self.double(value),
                    s.evaluated,
                    self.double(ebf)
                ))
            }
        }
    }

    /// A double as this program prints it.
    fn double(&self, x: f64) -> String {
        if x.is_nan() {
            return "NaN".into();
        }
        if x.is_infinite() {
            return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
        }
        let zero = if self.has(Variant::NegativeZero) { NegativeZero::Keep } else { NegativeZero::Normalize };
        if self.has(Variant::RawDouble) {
            // Java's Double.toString: the shortest repr, always with a fractional part.
            let s = format!("{x}");
            return if s.contains('.') { s } else { format!("{s}.0") };
        }
        if self.has(Variant::HashFormat) {
            // DecimalFormat("#.#"): half-even on the binary value, no trailing ".0", Java keeps "-0".
            let s = format_fixed(x, 1, Rounding::HalfEven, NegativeZero::Keep);
            return s.strip_suffix(".0").map_or(s.clone(), str::to_string);
        }
        let rounding = if self.has(Variant::HalfEven) { Rounding::HalfEven } else { Rounding::HalfUp };
        format_fixed(x, 1, rounding, zero)
    }
}

fn stones(mask: u128, n: u32) -> String {
    (1..=n).filter(|s| mask >> s & 1 == 1).map(|s| format!("{s} ")).collect()
}

/// AIMA's `alpha = max(alpha, v)` (Max) or `beta = min(beta, v)` (Min), changing the bound only when strictly
/// better, as the reference does.
fn raise(max: bool, v: f64, alpha: &mut f64, beta: &mut f64) {
    if max && v > *alpha {
        *alpha = v;
    } else if !max && v < *beta {
        *beta = v;
    }
}

fn is_prime(x: u32) -> bool {
    x >= 2 && (2..).take_while(|d| d * d <= x).all(|d| x % d != 0)
}

impl<'a> Search<'a> {
    fn new(solver: &'a MutantSolver, n: u32, limit: u32) -> Search<'a> {
        let mask = |keep: &dyn Fn(u32) -> bool| (1..=n).filter(|&s| keep(s)).fold(0u128, |m, s| m | 1 << s);
        let first = mask(&|s| {
            let odd = s % 2 == 1;
            if solver.probes(Probe::FirstMoveFloor) {
                odd && s < n / 2
            } else if solver.probes(Probe::FirstMoveAnyOdd) {
                odd
            } else if solver.probes(Probe::FirstMoveAnyParity) {
                2 * s < n
            } else if solver.has(Variant::FirstMoveAtMostHalf) {
                odd && 2 * s <= n
            } else {
                odd && 2 * s < n
            }
        });
        let multiples: Vec<u128> = (0..=n).map(|p| if p == 0 { 0 } else { mask(&|s| s % p == 0) }).collect();
        let follows =
            (0..=n).map(|l| if l == 0 { first } else { multiples[l as usize] | mask(&|s| l % s == 0) }).collect();
        Search { solver, n, limit, visited: 0, evaluated: 0, max_depth: 0, trace: String::new(), follows, multiples }
    }

    fn legal(&self, available: u128, last: u32) -> u128 {
        available & self.follows.get(last as usize).copied().unwrap_or(0)
    }

    fn largest_prime_factor(&self, x: u32) -> u32 {
        let mut rest = x;
        let mut largest = 1;
        let mut d = 2;
        let wrong = self.solver.has(Variant::WrongLargestPrime);
        while if wrong { d * d < rest } else { d * d <= rest } {
            while rest % d == 0 {
                largest = d;
                rest /= d;
            }
            d += 1;
        }
        if rest > 1 && !self.solver.probes(Probe::CompositeFactorDropsLast) {
            largest = largest.max(rest);
        }
        largest
    }

    fn evaluate(&self, available: u128, last: u32, max: bool, legal: u128) -> f64 {
        let trace = self.solver.edition == Edition::Trace;
        let (terminal, a, b, c) = if trace { (100.0, 5.0, 7.0, 6.0) } else { (1.0, 0.5, 0.7, 0.6) };
        if legal == 0 {
            return if max { -terminal } else { terminal };
        }
        let signed = |count: u32, v: f64| if count % 2 == 1 { v } else { -v };
        let multiples = |mask: u128, p: u32| (mask & self.multiples.get(p as usize).copied().unwrap_or(0)).count_ones();
        let probe = |p: Probe| self.solver.probes(p);
        let flip = |on: bool, v: f64| if on { -v } else { v };
        let value = if available >> 1 & 1 == 1 || last == 0 {
            0.0
        } else if last == 1 {
            flip(probe(Probe::LastOneSignFlipped), signed(legal.count_ones(), a))
        } else if is_prime(last) {
            let count = if probe(Probe::PrimeCountsTaken) { self.n / last } else { multiples(legal, last) };
            flip(probe(Probe::PrimeSignFlipped), signed(count, b))
        } else {
            let p = self.largest_prime_factor(last);
            let mut pool = if self.solver.has(Variant::CompositeLegalOnly) { legal } else { available };
            if probe(Probe::CompositeCountsLast) {
                pool |= 1u128 << last;
            }
            flip(probe(Probe::CompositeSignFlipped), signed(multiples(pool, p), c))
        };
        if !trace && !max && !self.solver.has(Variant::NoNegationForMin) {
            -value
        } else {
            value
        }
    }

    #[expect(clippy::too_many_arguments, reason = "one AIMA node; the arguments are the node")]
    fn node(
        &mut self,
        available: u128,
        last: u32,
        max: bool,
        via: Option<u32>,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
    ) -> (f64, Option<u32>) {
        let has = |v| self.solver.has(v);
        self.visited += 1;
        self.max_depth = self.max_depth.max(depth);
        let legal = self.legal(available, last);
        let leaf_depth = if has(Variant::DepthLimitOffByOne) {
            self.limit.saturating_sub(1)
        } else if self.solver.probes(Probe::DepthLimitPlusOne) {
            self.limit + 1
        } else {
            self.limit
        };
        let at_limit = self.limit != 0 && depth == leaf_depth;
        if legal == 0 || at_limit {
            let counted = if legal == 0 {
                !self.solver.probes(Probe::EvaluatedLimitOnly)
            } else {
                !has(Variant::EvaluatedTerminalOnly)
            };
            if counted {
                self.evaluated += 1;
            }
            if legal == 0 && self.solver.probes(Probe::MaxDepthEndPlusOne) {
                self.max_depth = self.max_depth.max(depth + 1);
            }
            let value = self.evaluate(available, last, max, legal);
            self.record(available, last, via, alpha, beta);
            return (value, None);
        }
        let mut v = if max { f64::NEG_INFINITY } else { f64::INFINITY };
        let mut best = None;
        let strict =
            has(Variant::StrictCuts) || self.solver.probes(if max { Probe::StrictCutMax } else { Probe::StrictCutMin });
        let bound_first = has(Variant::BoundBeforeCut);
        let descending = self.solver.probes(Probe::Descending);
        let prunes = !self.solver.probes(Probe::NoPruning);
        let mut rest = legal;
        while rest != 0 {
            let m = if descending { 127 - rest.leading_zeros() } else { rest.trailing_zeros() };
            rest &= !(1u128 << m);
            let (cv, _) = self.node(available & !(1u128 << m), m, !max, Some(m), depth + 1, alpha, beta);
            let better = if max { cv > v } else { cv < v };
            let tie = cv == v && has(Variant::TieTowardLarger);
            if better || tie || best.is_none() {
                v = cv;
                best = Some(m);
            }
            if bound_first {
                raise(max, v, &mut alpha, &mut beta);
            }
            let cut = match (max, strict) {
                (true, false) => v >= beta,
                (true, true) => v > beta,
                (false, false) => v <= alpha,
                (false, true) => v < alpha,
            };
            if cut && prunes {
                self.record(available, last, via, alpha, beta);
                return (v, best);
            }
            raise(max, v, &mut alpha, &mut beta);
        }
        self.record(available, last, via, alpha, beta);
        (v, best)
    }

    fn record(&mut self, available: u128, last: u32, via: Option<u32>, alpha: f64, beta: f64) {
        if self.solver.edition != Edition::Trace {
            return;
        }
        let stone = via.map_or_else(|| if last == 0 { "-1".to_string() } else { last.to_string() }, |s| s.to_string());
        self.trace.push_str(&format!(
            "{stone}\n{}\nalpha: {}\tbeta: {}\n",
            stones(available, self.n),
            alpha as i64,
            beta as i64
        ));
    }
}
