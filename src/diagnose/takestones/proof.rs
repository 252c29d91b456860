//! The proof gate: a component is named as located only when the reference, changed in exactly that component
//! in the way the cause describes, reproduces the program's output on every case the check ran (the shrunk case
//! first, then every other case it ran: the suite's, the probes). Single changes are tried first; pairs (two
//! hypotheses, or one hypothesis and one catalogued bug) only when no single change reproduces everything.
//! Each candidate is a simulation of the reference engine, so hundreds are tried per case in well under a second.

use super::hypothesis::{catalog, Hypothesis};
use super::mutant::MutantSolver;
use super::outcome::Proof;
use super::variant::{Kind, Variant};
use crate::game::takestones::Position;
use crate::harness::compare::first_difference;
use crate::reference::takestones::Edition;

/// One case the check ran, and what the program printed there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The position.
    pub position: Position,
    /// The depth argument.
    pub depth: u32,
    /// What the program printed.
    pub printed: String,
}

/// One change to the reference: a search-shaped hypothesis or a catalogued bug.
#[derive(Clone, Copy)]
pub(super) enum Change {
    /// A hypothesis of [`super::hypothesis`].
    Hypothesis(&'static Hypothesis),
    /// A catalogued bug (only tried together with a hypothesis: alone the catalog diagnosis has tried it).
    Variant(Variant),
}

impl Change {
    /// The cause's name: the component, or the bug's name.
    pub(super) fn name(self) -> &'static str {
        match self {
            Change::Hypothesis(h) => h.component,
            Change::Variant(v) => v.name(),
        }
    }

    /// What to tell the student.
    pub(super) fn sentence(self) -> String {
        match self {
            Change::Hypothesis(h) => h.sentence.to_string(),
            Change::Variant(v) => {
                let e = v.explain();
                format!("{}{}.", e[..1].to_uppercase(), &e[1..])
            }
        }
    }

    /// Whether it is a catalogued bug rather than a located component.
    pub(super) fn is_bug(self) -> bool {
        matches!(self, Change::Variant(_))
    }
}

/// The spec-silent readings: a program follows one combination of them throughout.
const READINGS: [Variant; 3] = [Variant::CompositeLegalOnly, Variant::HalfEven, Variant::NegativeZero];

/// The reading combination (a bit mask over [`READINGS`]) under which `changes` reproduce every case, the first
/// (the shrunk case) with an answer; `None` when no combination does.
fn reproduces(edition: Edition, changes: &[Change], cases: &[Case]) -> Option<u32> {
    (0..1u32 << READINGS.len()).find(|mask| {
        let mut variants: Vec<Variant> =
            READINGS.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, v)| *v).collect();
        variants.extend(changes.iter().filter_map(|c| match c {
            Change::Variant(v) => Some(*v),
            Change::Hypothesis(_) => None,
        }));
        let solver = changes.iter().fold(MutantSolver::new(edition, &variants), |s, c| match c {
            Change::Hypothesis(h) => s.probing(h.probe),
            Change::Variant(_) => s,
        });
        cases.iter().enumerate().all(|(i, c)| match solver.output(&c.position, c.depth) {
            Some(out) => first_difference(&out, &c.printed).is_none(),
            // A change that makes the root a leaf predicts no answer: it proves nothing there, and it may not be
            // the shrunk case, which the proof must reproduce.
            None => i != 0,
        })
    })
}

/// What was tried, and what reproduced everything.
pub(super) struct Proven {
    /// Each reproducing set of changes with its proof (empty: nothing reproduced).
    pub sets: Vec<(Vec<Change>, Proof)>,
    /// How many single changes and pairs were tried.
    pub tried: usize,
    /// How many cases each was tried on.
    pub cases: usize,
}

/// The changes that reproduce `cases` (`cases[0]` is the shrunk case). Cases are tried smallest first after the
/// shrunk case, so a wrong change is refuted quickly.
pub(super) fn prove(edition: Edition, cases: &[Case]) -> Proven {
    let mut ordered: Vec<Case> = Vec::new();
    for c in cases {
        if !ordered.iter().any(|o| o.position == c.position && o.depth == c.depth) {
            ordered.push(c.clone());
        }
    }
    if let Some((_, rest)) = ordered.split_first_mut() {
        rest.sort_by_key(|c| (c.position.n(), if c.depth == 0 { u32::MAX } else { c.depth }));
    }
    let count = ordered.len();
    if ordered.is_empty() {
        return Proven { sets: Vec::new(), tried: 0, cases: 0 };
    }
    let hypotheses: Vec<Change> = catalog().map(Change::Hypothesis).collect();
    let bugs: Vec<Change> = Variant::ALL
        .into_iter()
        .filter(|v| v.applies_to(edition) && v.kind() != Kind::Reading)
        .map(Change::Variant)
        .collect();
    let mut tried = 0;
    let mut sets = Vec::new();
    let attempt = |set: Vec<Change>, tried: &mut usize| {
        *tried += 1;
        reproduces(edition, &set, &ordered).map(|mask| {
            let proof = proof_of(edition, &set, mask, &ordered);
            (set, proof)
        })
    };
    for h in &hypotheses {
        sets.extend(attempt(vec![*h], &mut tried));
    }
    if sets.is_empty() {
        for (i, a) in hypotheses.iter().enumerate() {
            for b in hypotheses[i + 1..].iter().chain(&bugs) {
                sets.extend(attempt(vec![*a, *b], &mut tried));
            }
        }
    }
    Proven { sets, tried, cases: count }
}

/// The proof of `set` (reproducing under the readings `mask`) on `cases`.
fn proof_of(edition: Edition, set: &[Change], mask: u32, cases: &[Case]) -> Proof {
    let readings: Vec<Variant> =
        READINGS.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, v)| *v).collect();
    let spec = MutantSolver::new(edition, &readings);
    let differing = cases
        .iter()
        .filter(|c| match spec.output(&c.position, c.depth) {
            Some(o) => first_difference(&o, &c.printed).is_some(),
            None => true,
        })
        .count();
    let changes = set
        .iter()
        .map(|c| match c {
            Change::Hypothesis(h) => format!("{}: {}", h.component, h.probe.words()),
            Change::Variant(v) => format!("{} (catalogued bug)", v.name()),
        })
        .collect();
    Proof { changes, cases: cases.iter().map(|c| (c.position.clone(), c.depth)).collect(), differing }
}
