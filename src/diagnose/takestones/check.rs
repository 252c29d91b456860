//! The self-check loop: official cases, then seeded random positions, each compared with the reference (every
//! accepted reading counts as right); the first divergence is shrunk and diagnosed.

use super::diagnosis::{diagnose, Diagnosis, Observation};
use super::generate::{position, Rng, Shape};
use super::locate::{locate, Located};
use super::mutant::MutantSolver;
use super::shrink::shrink;
use super::variant::Variant;
use crate::game::takestones::Position;
use crate::harness::compare::first_difference;
use crate::harness::suite::readings::combinations;
use crate::harness::suite::{builtin, Expected, Reading};
use crate::reference::takestones::{parse_numbers, solve_to_string, Edition, Request};

/// What one run of the submission produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    /// It exited normally with this stdout.
    Printed(String),
    /// It timed out, crashed or exited nonzero: the detail says which.
    Failed(String),
}

/// How much to check.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The edition.
    pub edition: Edition,
    /// The random positions' seed.
    pub seed: u64,
    /// How many random positions after the official cases.
    pub cases: usize,
    /// Their shape.
    pub shape: Shape,
    /// Most submission runs spent on shrinking.
    pub shrink_runs: usize,
}

/// A divergence, shrunk and diagnosed.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Where it was found: `official output2.txt` or `random #17`.
    pub found_at: String,
    /// The case as found.
    pub original: (Position, u32),
    /// The smallest case that still diverges.
    pub shrunk: (Position, u32),
    /// The reference's output for the shrunk case.
    pub expected: String,
    /// What the submission did on the shrunk case.
    pub actual: Ran,
    /// Which known variant explains it (explanations the passed cases rule out are dropped).
    pub diagnosis: Diagnosis,
    /// When no known variant does: the components probing located the difference to.
    pub located: Vec<Located>,
}

/// The whole check.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// Official cases run (all matched when there is no divergence among them).
    pub official: usize,
    /// Random positions that matched.
    pub random_passed: usize,
    /// Accepted spec-silent readings the submission was seen to use (`composite=legal-moves`, ...).
    pub readings: Vec<String>,
    /// The first divergence, if any.
    pub divergence: Option<Divergence>,
}

/// The reference's accepted outputs for a case (default reading first), or `None` at a finished root.
pub fn accepted(position: &Position, depth: u32, edition: Edition) -> Option<Vec<(String, Option<String>)>> {
    let all = [Reading::Composite, Reading::Rounding, Reading::NegativeZero];
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for (options, label) in combinations(&all) {
        let request = Request { position: position.clone(), depth, edition, options };
        let (text, _) = solve_to_string(&request).ok()?;
        if !out.iter().any(|(t, _)| t == &text) {
            out.push((text, label));
        }
    }
    Some(out)
}

/// `Ok(reading)` when `ran` is an accepted output (with the reading's label when not the default).
fn judge(ran: &Ran, position: &Position, depth: u32, edition: Edition) -> Result<Option<String>, ()> {
    let Ran::Printed(text) = ran else { return Err(()) };
    let Some(outputs) = accepted(position, depth, edition) else { return Err(()) };
    outputs.into_iter().find(|(o, _)| first_difference(o, text).is_none()).map(|(_, label)| label).ok_or(())
}

/// Runs the check with `submission` producing the program's output for a case.
pub fn check(config: &CheckConfig, mut submission: impl FnMut(&Position, u32) -> Ran) -> CheckReport {
    let mut report = CheckReport { official: 0, random_passed: 0, readings: Vec::new(), divergence: None };
    let official: Vec<(String, Position, u32)> = builtin::suite(match config.edition {
        Edition::Stats => "takestones-stats-2019",
        Edition::Trace => "takestones-trace-2017",
    })
    .map(|s| s.cases)
    .unwrap_or_default()
    .into_iter()
    .filter(|c| matches!(c.expected, Expected::Text(_)))
    .filter_map(|c| parse_numbers(&c.args).ok().map(|(p, d)| (format!("official {}", c.name), p, d)))
    .collect();
    let mut passes: Vec<Observation> = Vec::new();
    let mut rng = Rng::new(config.seed);
    let random = (0..config.cases).map(|i| {
        let (p, d) = position(&mut rng, &config.shape);
        (format!("random #{}", i + 1), p, d)
    });
    for (found_at, p, d) in official.into_iter().chain(random) {
        let ran = submission(&p, d);
        match judge(&ran, &p, d, config.edition) {
            Ok(reading) => {
                if let Ran::Printed(printed) = &ran {
                    if passes.len() < MAX_PASSES && p.n() <= MAX_PASS_STONES {
                        passes.push(Observation { position: p.clone(), depth: d, printed: printed.clone() });
                    }
                }
                if found_at.starts_with("official") {
                    report.official += 1;
                } else {
                    report.random_passed += 1;
                }
                if let Some(r) = reading.filter(|r| !report.readings.contains(r)) {
                    report.readings.push(r);
                }
            }
            Err(()) => {
                let mut divergence = investigate(config, found_at, p, d, ran, &mut submission);
                divergence.diagnosis = verify(config, divergence.diagnosis, passes, &mut submission);
                if divergence.diagnosis == Diagnosis::Unknown {
                    divergence.located = locate(config.edition, &mut submission);
                }
                report.divergence = Some(divergence);
                return report;
            }
        }
    }
    report
}

fn investigate(
    config: &CheckConfig,
    found_at: String,
    p: Position,
    d: u32,
    ran: Ran,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Divergence {
    let edition = config.edition;
    let mut last = ran.clone();
    let (sp, sd) = shrink(&p, d, config.shrink_runs, |cand, depth| {
        // A position the reference has no answer for (no legal move at the root) shows nothing.
        if accepted(cand, depth, edition).is_none() {
            return false;
        }
        let r = submission(cand, depth);
        // Stay with the kind of divergence found: a wrong output shrinks to a smaller wrong output (which the
        // diagnosis can read), not to a crash.
        let same_kind = matches!((&r, &ran), (Ran::Printed(_), Ran::Printed(_)) | (Ran::Failed(_), Ran::Failed(_)));
        let diverges = same_kind && judge(&r, cand, depth, edition).is_err();
        if diverges {
            last = r;
        }
        diverges
    });
    // `last` holds the run of the final accepted shrink step, or the original run when nothing shrank.
    let actual = if (sp.clone(), sd) == (p.clone(), d) { ran.clone() } else { last };
    let observations: Vec<Observation> = [(&p, d, &ran), (&sp, sd, &actual)]
        .into_iter()
        .filter_map(|(position, depth, r)| match r {
            Ran::Printed(text) => Some(Observation { position: position.clone(), depth, printed: text.clone() }),
            Ran::Failed(_) => None,
        })
        .collect();
    let diagnosis = if observations.is_empty() { Diagnosis::Unknown } else { diagnose(edition, &observations) };
    let expected = accepted(&sp, sd, edition).and_then(|o| o.into_iter().next()).map(|(t, _)| t).unwrap_or_default();
    Divergence { found_at, original: (p, d), shrunk: (sp, sd), expected, actual, diagnosis, located: Vec::new() }
}

/// Passed cases kept to test explanations against (a bug must not predict a difference where there was none).
const MAX_PASSES: usize = 60;

/// Passed cases larger than this are not kept (the mutant solver replays them).
const MAX_PASS_STONES: u32 = 40;

/// Fresh positions an explanation must also reproduce before it is trusted.
const VERIFY: usize = 12;

/// The diagnosis without the explanations that mispredict the submission elsewhere: on the cases it passed and on
/// [`VERIFY`] fresh positions (with any accepted reading added). A bug that shows only on some positions (max depth
/// wrong only at end-of-game nodes) is then not mistaken for the catalog variant that shows on all of them.
fn verify(
    config: &CheckConfig,
    diagnosis: Diagnosis,
    mut seen: Vec<Observation>,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Diagnosis {
    let Diagnosis::Explained(sets) = diagnosis else { return diagnosis };
    let mut rng = Rng::new(config.seed ^ 0x7e57_ab1e);
    for _ in 0..VERIFY {
        let (p, d) = position(&mut rng, &config.shape);
        if p.n() > MAX_PASS_STONES || accepted(&p, d, config.edition).is_none() {
            continue;
        }
        if let Ran::Printed(printed) = submission(&p, d) {
            seen.push(Observation { position: p, depth: d, printed });
        }
    }
    let readings = [Variant::CompositeLegalOnly, Variant::HalfEven, Variant::NegativeZero];
    let kept: Vec<Vec<Variant>> = sets
        .into_iter()
        .filter(|set| {
            seen.iter().all(|o| {
                (0..1u32 << readings.len()).any(|mask| {
                    let mut with = set.clone();
                    with.extend(readings.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, v)| *v));
                    MutantSolver::new(config.edition, &with)
                        .output(&o.position, o.depth)
                        .map_or(true, |out| first_difference(&out, &o.printed).is_none())
                })
            })
        })
        .collect();
    if kept.is_empty() {
        Diagnosis::Unknown
    } else {
        Diagnosis::Explained(kept)
    }
}
