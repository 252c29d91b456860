//! The search-shaped hypotheses: one component of the reference changed in one way ([`Probe`]): the first-move
//! rule, the order a node visits its children in, pruning at all, the cut condition on each side, the evaluation
//! class by class, the depth limit, a counter at another place. Each is tried on probe positions where it prints
//! something else than the spec (for a cut, positions where one pruning decision goes the other way), so that the
//! program's answers there can prove or refute it. What is run here only gathers evidence: a component is named
//! as located only when [`super::proof`] finds the changed reference reproducing every case run.

use super::mutant::{MutantSolver, Probe};
use super::outcome::{Located, Ran};
use super::variant::Variant;
use crate::game::takestones::{follows, Position};
use crate::harness::cause::{Cause, CauseKind};
use crate::harness::compare::first_difference;
use crate::reference::takestones::Edition;

/// Probes tried per hypothesis at most (the smallest positions where it shows).
const PROBES: usize = 6;

/// A hypothesis must be seen on at least this many probes.
const AT_LEAST: usize = 2;

/// One way of writing a part, and what to tell the student who wrote it.
pub(super) struct Hypothesis {
    /// The component changed (`child-order`, `evaluation`): the cause's name.
    pub(super) component: &'static str,
    /// The change, as the mutant solver makes it.
    pub(super) probe: Probe,
    /// What to tell the student.
    pub(super) sentence: &'static str,
}

const FIRST_MOVE: [Hypothesis; 3] = [
    Hypothesis {
        component: "first-move",
        probe: Probe::FirstMoveFloor,
        sentence:
            "Your first move allows the odd stones below n / 2 in integer division (`i < n / 2`), which leaves out \
                   (n - 1) / 2 when it is odd; the rule is 2i < n (stone 3 of 7 may be taken first).",
    },
    Hypothesis {
        component: "first-move",
        probe: Probe::FirstMoveAnyOdd,
        sentence: "Your first move allows every odd stone; only the odd stones below n/2 may be taken first.",
    },
    Hypothesis {
        component: "first-move",
        probe: Probe::FirstMoveAnyParity,
        sentence: "Your first move allows every stone below n/2, even ones too; only odd stones may be taken first.",
    },
];

const ORDER: [Hypothesis; 1] = [Hypothesis {
    component: "child-order",
    probe: Probe::Descending,
    sentence: "Your search visits a node's children from the largest stone down; the spec visits them smallest \
               first, which decides where alpha-beta cuts (so the counters) and which of equal moves is kept.",
}];

const CUTS: [Hypothesis; 2] = [
    Hypothesis {
        component: "cut-condition",
        probe: Probe::StrictCutMax,
        sentence: "Your Max nodes cut only when the value exceeds beta (`v > beta`); the spec cuts on `v >= beta` \
                   (AIMA Figure 5.7), so where a value equals beta your search visits more children.",
    },
    Hypothesis {
        component: "cut-condition",
        probe: Probe::StrictCutMin,
        sentence: "Your Min nodes cut only when the value is below alpha (`v < alpha`); the spec cuts on `v <= alpha` \
                   (AIMA Figure 5.7), so where a value equals alpha your search visits more children.",
    },
];

const OTHERS: [Hypothesis; 10] = [
    Hypothesis {
        component: "pruning",
        probe: Probe::NoPruning,
        sentence: "Your search never prunes (plain minimax): every child of every node is visited, so the counts \
                   are larger than alpha-beta's while the move and the value agree.",
    },
    Hypothesis {
        component: "evaluation",
        probe: Probe::PrimeCountsTaken,
        sentence: "After a prime last move your evaluation counts the multiples among all the stones, taken ones \
                   too; the spec counts only the legal moves (the multiples still on the table).",
    },
    Hypothesis {
        component: "evaluation",
        probe: Probe::PrimeSignFlipped,
        sentence: "After a prime last move your evaluation has the sign the wrong way round: the spec scores an odd \
                   count of multiples 0.7 (to the player to move) and an even count -0.7.",
    },
    Hypothesis {
        component: "evaluation",
        probe: Probe::LastOneSignFlipped,
        sentence: "After last move 1 your evaluation has the sign the wrong way round: the spec scores an odd count \
                   of legal moves 0.5 and an even count -0.5.",
    },
    Hypothesis {
        component: "evaluation",
        probe: Probe::CompositeSignFlipped,
        sentence: "After a composite last move your evaluation has the sign the wrong way round: the spec scores an \
                   odd count of multiples of the largest prime factor 0.6 and an even count -0.6.",
    },
    Hypothesis {
        component: "evaluation",
        probe: Probe::CompositeFactorDropsLast,
        sentence: "Your largest prime factor stops at the square root and drops the factor left over (of 6 it gives \
                   2, not 3), so composite last moves are scored with the wrong factor.",
    },
    Hypothesis {
        component: "evaluation",
        probe: Probe::CompositeCountsLast,
        sentence: "After a composite last move your evaluation also counts the stone just taken among the multiples \
                   of its largest prime factor; the spec counts only the stones still on the table.",
    },
    Hypothesis {
        component: "depth-limit",
        probe: Probe::DepthLimitPlusOne,
        sentence: "Your search goes one ply deeper than the depth argument: the spec scores nodes at the depth \
                   limit as leaves.",
    },
    Hypothesis {
        component: "max-depth",
        probe: Probe::MaxDepthEndPlusOne,
        sentence: "Your max depth counts one ply below an end-of-game leaf; the spec counts the depth of the \
                   deepest node visited.",
    },
    Hypothesis {
        component: "evaluated-count",
        probe: Probe::EvaluatedLimitOnly,
        sentence: "Your evaluated count leaves out end-of-game leaves; the spec counts every leaf scored, those \
                   cut by the depth limit and those where the game is over.",
    },
];

/// Every hypothesis, in the order they are tried.
pub(super) fn catalog() -> impl Iterator<Item = &'static Hypothesis> {
    FIRST_MOVE.iter().chain(ORDER.iter()).chain(CUTS.iter()).chain(OTHERS.iter())
}

/// The spec-silent readings a program may follow anywhere (its outputs are compared under each combination).
const READINGS: [Variant; 3] = [Variant::CompositeLegalOnly, Variant::HalfEven, Variant::NegativeZero];

/// What `probe` (or the spec, for `None`) prints on `(p, depth)` under each combination of the readings.
fn predictions(edition: Edition, probe: Option<Probe>, p: &Position, depth: u32) -> Vec<Option<String>> {
    (0..1u32 << READINGS.len())
        .map(|mask| {
            let on: Vec<Variant> =
                READINGS.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, v)| *v).collect();
            let solver = MutantSolver::new(edition, &on);
            let solver = match probe {
                Some(probe) => solver.probing(probe),
                None => solver,
            };
            solver.output(p, depth)
        })
        .collect()
}

/// Whether `printed` is one of `outputs`.
fn among(outputs: &[Option<String>], printed: &str) -> bool {
    outputs.iter().flatten().any(|o| first_difference(o, printed).is_none())
}

/// Positions with at least one stone taken (so the first-move rule plays no part), `n` from 5 to 10 stones and up
/// to two stones taken, searched 2 to 4 plies deep and to the end: smallest first.
fn search_positions() -> Vec<(Position, u32)> {
    let mut out = Vec::new();
    for n in 5u32..=10 {
        let mut layer: Vec<Vec<u64>> = vec![Vec::new()];
        for _ in 0..2 {
            let mut next = Vec::new();
            for taken in &layer {
                let Ok(p) = Position::new(u64::from(n), taken.clone()) else { continue };
                for s in (1..=n).filter(|s| !p.taken().contains(s) && follows(n, p.last(), *s)) {
                    let mut t = taken.clone();
                    t.push(u64::from(s));
                    next.push(t);
                }
            }
            layer = next;
            for taken in &layer {
                if let Ok(p) = Position::new(u64::from(n), taken.clone()) {
                    for depth in [2, 3, 4, 0] {
                        out.push((p.clone(), depth));
                    }
                }
            }
        }
    }
    out
}

/// The first move searched one ply deep, on 3 to 16 stones: the root's children are the legal first moves.
fn first_positions() -> Vec<(Position, u32)> {
    (3u64..=16).filter_map(|n| Position::new(n, Vec::new()).ok().map(|p| (p, 1))).collect()
}

/// The hypotheses among `hypotheses` the program follows, tested on `positions`; `shrunk` is the shrunk case and
/// what the program did there.
fn test(
    edition: Edition,
    hypotheses: &[Hypothesis],
    positions: &[(Position, u32)],
    shrunk: Option<(&Position, u32, &Ran)>,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Vec<Located> {
    let mut found = Vec::new();
    for h in hypotheses {
        let mut shown: Vec<(Position, u32, String, String)> = Vec::new();
        let mut contradicted = false;
        for (p, depth) in positions {
            if shown.len() >= PROBES {
                break;
            }
            let spec = predictions(edition, None, p, *depth);
            let theirs = predictions(edition, Some(h.probe), p, *depth);
            // A probe shows the hypothesis only where no reading of the spec prints what it predicts.
            let shows = theirs.iter().flatten().any(|t| !among(&spec, t));
            if !shows {
                continue;
            }
            let Ran::Printed(printed) = submission(p, *depth) else { continue };
            if !among(&theirs, &printed) {
                contradicted = true;
                break;
            }
            let expected = spec.iter().flatten().next().cloned().unwrap_or_default();
            shown.push((p.clone(), *depth, printed, expected));
        }
        if contradicted || shown.len() < AT_LEAST {
            continue;
        }
        // The shrunk case must not say otherwise: where the program printed there, the hypothesis prints it too
        // (or has no answer, as a program with no legal first move has none).
        if let Some((p, depth, Ran::Printed(printed))) = shrunk {
            let theirs = predictions(edition, Some(h.probe), p, depth);
            if theirs.iter().any(Option::is_some) && !among(&theirs, printed) {
                continue;
            }
        }
        let (p, depth, printed, expected) = shown.swap_remove(0);
        let line = expected
            .lines()
            .zip(printed.lines())
            .find(|(e, t)| e != t)
            .map_or_else(String::new, |(e, t)| format!(": you print `{t}` where the spec gives `{e}`"));
        let cause = Cause::new(h.component, CauseKind::LocatedComponent, h.sentence)
            .with_evidence(format!("on `{} {depth}`{line}", p.to_args().join(" ")))
            .with_evidence(format!(
                "{} probes where this part decides the output: your program prints what it predicts on all of them",
                shown.len() + 1
            ));
        found.push(Located { cause, position: p, depth, proof: None });
    }
    found
}

/// The first-move rule, probed one ply deep from an empty table.
pub fn first_move(
    edition: Edition,
    shrunk: Option<(&Position, u32, &Ran)>,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Option<Located> {
    test(edition, &FIRST_MOVE, &first_positions(), shrunk, submission).into_iter().next()
}

/// The order children are visited in, and the cut condition of each side; then the other hypotheses, run for
/// their evidence (the proof decides what is named).
pub fn order_and_cuts(
    edition: Edition,
    shrunk: Option<(&Position, u32, &Ran)>,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Vec<Located> {
    let positions = search_positions();
    let mut found: Vec<Located> = Vec::new();
    found.extend(test(edition, &ORDER, &positions, shrunk, submission));
    found.extend(test(edition, &CUTS, &positions, shrunk, submission).into_iter().take(1));
    let _ = test(edition, &OTHERS, &positions, shrunk, submission);
    found
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn program(edition: Edition, probe: Option<Probe>) -> impl FnMut(&Position, u32) -> Ran {
        move |p: &Position, d: u32| {
            let solver = MutantSolver::new(edition, &[]);
            let solver = match probe {
                Some(probe) => solver.probing(probe),
                None => solver,
            };
            match solver.output(p, d) {
                Some(text) => Ran::Printed(text),
                None => Ran::Failed(super::super::outcome::Failure { how: "exited 1".into(), stderr: String::new() }),
            }
        }
    }

    #[test]
    fn each_part_is_named_for_the_program_that_has_it_and_not_for_the_spec() {
        for edition in [Edition::Stats, Edition::Trace] {
            assert!(first_move(edition, None, &mut program(edition, None)).is_none());
            assert!(order_and_cuts(edition, None, &mut program(edition, None)).is_empty());
            let floor = first_move(edition, None, &mut program(edition, Some(Probe::FirstMoveFloor))).unwrap();
            assert!(floor.cause.sentence.contains("integer division"), "{:?}", floor.cause);
            let order = order_and_cuts(edition, None, &mut program(edition, Some(Probe::Descending)));
            assert_eq!(order.iter().map(|l| l.cause.name.as_str()).collect::<Vec<_>>(), ["child-order"], "{edition:?}");
            let cuts = order_and_cuts(edition, None, &mut program(edition, Some(Probe::StrictCutMax)));
            assert_eq!(cuts.len(), 1, "{edition:?}: {cuts:?}");
            assert!(cuts[0].cause.sentence.starts_with("Your Max nodes"), "{:?}", cuts[0].cause);
        }
    }
}
