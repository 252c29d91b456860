//! Naming the bug: which catalog variants (alone, or two together) reproduce a submission's output exactly.

use super::mutant::MutantSolver;
use super::variant::{Kind, Variant};
use crate::game::takestones::Position;
use crate::harness::cause::{Cause, CauseKind};
use crate::harness::compare::first_difference;
use crate::harness::suite::Reading;
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
    /// Some lines carry another label than the spec's (`Number of nodes visited: 12`); with the labels put right
    /// the output is explained by `rest` (empty: by the reference itself).
    Labels {
        /// One entry per wrong label: line number, what was printed, what the spec says.
        typos: Vec<String>,
        /// What explains the output once the labels are right.
        rest: Vec<Vec<Variant>>,
    },
    /// The output is the other edition's: its shape (`NEXT MOVE` and a node trace, or the six stats lines), or
    /// exactly what the reference prints in that edition (`exact`).
    OtherEdition {
        /// The edition the output belongs to.
        edition: Edition,
        /// Whether it is exactly that edition's reference output for every observation.
        exact: bool,
    },
    /// No variant or pair reproduces the output: a bug the catalog does not know.
    Unknown,
}

/// The edition's name as the options spell it.
fn edition_name(edition: Edition) -> &'static str {
    match edition {
        Edition::Stats => "stats",
        Edition::Trace => "trace",
    }
}

/// The other edition.
fn other(edition: Edition) -> Edition {
    match edition {
        Edition::Stats => Edition::Trace,
        Edition::Trace => Edition::Stats,
    }
}

/// Whether `text` has the shape of `edition`'s output: the six stats lines, or a trace ending in `NEXT MOVE`.
fn shaped_like(edition: Edition, text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    match edition {
        Edition::Stats => {
            lines.first().is_some_and(|l| l.starts_with("Move:"))
                && lines.iter().any(|l| l.starts_with("Number of Nodes"))
        }
        Edition::Trace => {
            lines.iter().any(|l| l.trim() == "NEXT MOVE") && !lines.iter().any(|l| l.starts_with("Move:"))
        }
    }
}

/// When every observation is the other edition's output (and not this one's shape), which it is.
pub fn other_edition(edition: Edition, observations: &[Observation]) -> Option<Diagnosis> {
    let theirs = other(edition);
    let all = !observations.is_empty()
        && observations.iter().all(|o| shaped_like(theirs, &o.printed) && !shaped_like(edition, &o.printed));
    if !all {
        return None;
    }
    let readings = [Variant::CompositeLegalOnly, Variant::HalfEven, Variant::NegativeZero];
    let exact = observations.iter().all(|o| {
        (0..1u32 << readings.len()).any(|mask| {
            let on: Vec<Variant> =
                readings.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, v)| *v).collect();
            MutantSolver::new(theirs, &on)
                .output(&o.position, o.depth)
                .is_some_and(|r| first_difference(&r, &o.printed).is_none())
        })
    });
    Some(Diagnosis::OtherEdition { edition: theirs, exact })
}

impl Diagnosis {
    /// Whether every explanation consists only of spec-silent readings.
    pub fn only_readings(&self) -> bool {
        match self {
            Diagnosis::Explained(sets) => sets.iter().all(|s| s.iter().all(|v| v.kind() == Kind::Reading)),
            Diagnosis::Labels { .. } | Diagnosis::OtherEdition { .. } | Diagnosis::Unknown => false,
        }
    }

    /// The diagnosis in the shared cause vocabulary: one cause per variant of every explanation (a variant that
    /// only explains the output together with another says so), wrong labels as `label-typo`; none when unknown.
    /// A spec-silent reading is an accepted reading only when `accept` (the suite's policy) lists it; otherwise it
    /// is a bug that says the suite does not accept it.
    pub fn causes(&self, accept: &[Reading]) -> Vec<Cause> {
        let mut out: Vec<Cause> = Vec::new();
        let sets = match self {
            Diagnosis::Unknown => return out,
            Diagnosis::OtherEdition { edition, exact } => {
                let (theirs, ours) = (edition_name(*edition), edition_name(other(*edition)));
                let how = if *exact { "exactly what the reference prints" } else { "the shape of the output" };
                out.push(Cause::new(
                    "other-edition",
                    CauseKind::Bug,
                    format!("This looks like the {theirs} edition's output ({how} there); this is checked as the {ours} edition."),
                ));
                return out;
            }
            Diagnosis::Explained(sets) => sets.as_slice(),
            Diagnosis::Labels { typos, rest } => {
                let mut cause =
                    Cause::new("label-typo", CauseKind::Bug, "Some output lines carry another label than the spec's.");
                cause.evidence = typos.clone();
                out.push(cause);
                rest.as_slice()
            }
        };
        for set in sets {
            for v in set {
                let accepted = v.reading().is_some_and(|r| accept.contains(&r));
                let kind = if accepted { CauseKind::AcceptedReading } else { CauseKind::Bug };
                let explain = v.explain();
                let mut sentence = format!("{}{}.", explain[..1].to_uppercase(), &explain[1..]);
                if v.kind() == Kind::Reading && !accepted {
                    sentence.push_str(" Not accepted by this suite.");
                }
                let mut cause = Cause::new(v.name(), kind, sentence);
                if let Some(other) = set.iter().find(|o| *o != v) {
                    cause = cause.with_evidence(format!("(only together with {other} does it reproduce the output)"));
                }
                if !out.contains(&cause) {
                    out.push(cause);
                }
            }
        }
        out
    }

    /// One paragraph for people: the matched variants with what each means, or an honest "unknown". A reading is
    /// called accepted only when `accept` (the suite's policy) lists it.
    pub fn describe(&self, accept: &[Reading]) -> String {
        match self {
            Diagnosis::Labels { typos, rest } => {
                let mut text = format!("labels differ from the spec: {}", typos.join("; "));
                if !rest.is_empty() && rest.iter().any(|s| !s.is_empty()) {
                    text.push('\n');
                    text.push_str(&Diagnosis::Explained(rest.clone()).describe(accept));
                }
                text
            }
            Diagnosis::Unknown => {
                "no known bug reproduces this output: compare the two outputs line by line from the first difference"
                    .into()
            }
            Diagnosis::OtherEdition { edition, exact } => {
                let (theirs, ours) = (edition_name(*edition), edition_name(other(*edition)));
                if *exact {
                    format!(
                        "this looks like the other edition's output: it is exactly what the {theirs} edition prints \
                         here, and this check is of the {ours} edition (give --edition {theirs} if that is your \
                         assignment)"
                    )
                } else {
                    format!(
                        "this looks like the other edition's output: it has the {theirs} edition's shape, and this \
                         check is of the {ours} edition (give --edition {theirs} if that is your assignment)"
                    )
                }
            }
            Diagnosis::Explained(sets) => {
                let mut lines = Vec::new();
                for set in sets {
                    let names: Vec<&str> = set.iter().map(|v| v.name()).collect();
                    let kinds = kinds(set, accept);
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

/// What a set of variants is: a bug, a reading this suite accepts, or one it does not.
fn kinds(set: &[Variant], accept: &[Reading]) -> &'static str {
    let readings: Vec<Option<Reading>> = set.iter().map(|v| v.reading()).collect();
    if readings.iter().any(Option::is_none) {
        "bug"
    } else if readings.iter().flatten().all(|r| accept.contains(r)) {
        "a reading this suite accepts"
    } else {
        "a reading the spec leaves open, not accepted by this suite"
    }
}

/// The text before `: ` on a stats line (`Number of Nodes Visited`), and the rest.
fn split_label(line: &str) -> (&str, &str) {
    line.rsplit_once(": ").unwrap_or(("", line))
}

/// Puts the spec's labels on a stats output whose lines otherwise line up with the reference's; returns the
/// relabeled text and the typos, or `None` when the labels are already right or the lines do not line up.
fn relabel(reference: &str, printed: &str) -> Option<(String, Vec<String>)> {
    let (r, p): (Vec<&str>, Vec<&str>) = (reference.lines().collect(), printed.lines().collect());
    if r.len() != p.len() {
        return None;
    }
    let mut typos = Vec::new();
    let mut fixed = String::new();
    for (i, (rl, pl)) in r.iter().zip(&p).enumerate() {
        let ((rlabel, _), (plabel, pvalue)) = (split_label(rl), split_label(pl));
        if rlabel != plabel {
            typos.push(format!("line {} says {plabel:?}, the spec {rlabel:?}", i + 1));
        }
        fixed.push_str(&format!("{rlabel}: {pvalue}\n"));
    }
    (!typos.is_empty()).then_some((fixed, typos))
}

/// Names every variant (or pair) of the catalog that reproduces all `observations` for `edition`; an output of the
/// other edition is said to be so first, and wrong labels (stats edition) are named next and the rest of the output
/// diagnosed with the labels put right.
pub fn diagnose(edition: Edition, observations: &[Observation]) -> Diagnosis {
    if let Some(other) = other_edition(edition, observations) {
        return other;
    }
    if edition == Edition::Stats {
        let reference = MutantSolver::new(edition, &[]);
        let mut typos = Vec::new();
        let mut fixed = Vec::new();
        for o in observations {
            match reference.output(&o.position, o.depth).and_then(|r| relabel(&r, &o.printed)) {
                Some((text, t)) => {
                    typos.extend(t.into_iter().filter(|t| !typos.contains(t)).collect::<Vec<_>>());
                    fixed.push(Observation { printed: text, ..o.clone() });
                }
                None => fixed.push(o.clone()),
            }
        }
        if !typos.is_empty() {
            let rest = if fixed.iter().all(|o| {
                reference.output(&o.position, o.depth).is_some_and(|r| first_difference(&r, &o.printed).is_none())
            }) {
                vec![vec![]]
            } else {
                match variants(edition, &fixed) {
                    Diagnosis::Explained(sets) => sets,
                    _ => Vec::new(),
                }
            };
            return Diagnosis::Labels { typos, rest };
        }
    }
    variants(edition, observations)
}

fn variants(edition: Edition, observations: &[Observation]) -> Diagnosis {
    let relevant: Vec<Variant> = Variant::ALL.into_iter().filter(|v| v.applies_to(edition)).collect();
    // A set that makes the root itself a leaf (nodes leaf a ply early, searched one ply deep) predicts no answer
    // there: whatever such a program prints at that depth (`Move: 0`) neither confirms nor refutes it. Every other
    // observation must be reproduced exactly, and at least one must be.
    let reproduces = |set: &[Variant]| {
        let solver = MutantSolver::new(edition, set);
        let mut shown = false;
        let all = observations.iter().all(|o| match solver.output(&o.position, o.depth) {
            Some(out) => {
                let same = first_difference(&out, &o.printed).is_none();
                shown |= same;
                same
            }
            None => true,
        });
        all && shown
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
