//! Naming the bug: which catalog variants (alone, or two together) reproduce a submission's output exactly.

use super::mutant::MutantSolver;
use super::variant::{Kind, Variant};
use crate::game::takestones::Position;
use crate::harness::compare::first_difference;
use crate::reference::takestones::Edition;

/// One diverging case: the position, the depth, and what the submission printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The position.
    pub position: Position,
    /// The depth argument.
    pub depth: u32,
    /// What the submission printed on stdout.
    pub printed: String,
}

/// What the diagnosis found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diagnosis {
    /// These variant sets (each a single variant, or two together) reproduce every observation exactly.
    Explained(Vec<Vec<Variant>>),
    /// No variant or pair reproduces the output: a bug the catalog does not know.
    Unknown,
}

impl Diagnosis {
    /// Whether every explanation consists only of spec-silent readings (an accepted output).
    pub fn only_readings(&self) -> bool {
        match self {
            Diagnosis::Explained(sets) => sets.iter().all(|s| s.iter().all(|v| v.kind() == Kind::Reading)),
            Diagnosis::Unknown => false,
        }
    }

    /// One paragraph for people: the matched variants with what each means, or an honest "unknown".
    pub fn describe(&self) -> String {
        match self {
            Diagnosis::Unknown => {
                "no known bug reproduces this output: compare the two outputs line by line from the first difference"
                    .into()
            }
            Diagnosis::Explained(sets) => {
                let mut lines = Vec::new();
                for set in sets {
                    let names: Vec<&str> = set.iter().map(|v| v.name()).collect();
                    let kinds = if set.iter().all(|v| v.kind() == Kind::Reading) { "accepted reading" } else { "bug" };
                    let why: Vec<&str> = set.iter().map(|v| v.explain()).collect();
                    lines.push(format!(
                        "matches the reference with {} ({kinds}): {}",
                        names.join(" + "),
                        why.join("; and ")
                    ));
                }
                lines.join("\n")
            }
        }
    }
}

/// Names every variant (or pair) of the catalog that reproduces all `observations` for `edition`.
pub fn diagnose(edition: Edition, observations: &[Observation]) -> Diagnosis {
    let relevant: Vec<Variant> = Variant::ALL.into_iter().filter(|v| v.applies_to(edition)).collect();
    let reproduces = |set: &[Variant]| {
        let solver = MutantSolver::new(edition, set);
        observations.iter().all(|o| {
            solver.output(&o.position, o.depth).is_some_and(|out| first_difference(&out, &o.printed).is_none())
        })
    };
    let singles: Vec<Vec<Variant>> = relevant.iter().map(|&v| vec![v]).filter(|s| reproduces(s)).collect();
    if !singles.is_empty() {
        return Diagnosis::Explained(singles);
    }
    let mut pairs = Vec::new();
    for (i, &a) in relevant.iter().enumerate() {
        for &b in &relevant[i + 1..] {
            if reproduces(&[a, b]) {
                pairs.push(vec![a, b]);
            }
        }
    }
    if pairs.is_empty() {
        Diagnosis::Unknown
    } else {
        Diagnosis::Explained(pairs)
    }
}
