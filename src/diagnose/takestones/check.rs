//! The self-check loop: a suite's cases (the official ones, or the TA's), then seeded random positions, each judged
//! exactly as `referee grade` judges it against that suite (its comparison policy and the spec-silent readings it
//! accepts); the first divergence is shrunk and diagnosed. A program that failed the same way on every one of the
//! suite's cases never ran at all: the check stops there instead of shrinking a crash.

use super::diagnosis::{diagnose, Diagnosis, Observation};
use super::generate::{position, Rng, Shape};
use super::locate::{locate, Findings};
use super::mutant::MutantSolver;
pub use super::outcome::{accepted, Failure, Ran};
use super::proof::Case;
use super::shrink::shrink;
use super::variant::Variant;
use crate::game::takestones::Position;
use crate::harness::compare::{first_difference, judge, Candidate, ComparePolicy};
use crate::harness::model::Visibility;
use crate::harness::suite::readings::candidates;
use crate::harness::suite::{Expected, Reading, Suite, SuiteCase};
use crate::reference::takestones::{parse_numbers, Edition};

/// How much to check, and against what.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The edition.
    pub edition: Edition,
    /// The random positions' seed.
    pub seed: u64,
    /// How many random positions after the suite's cases.
    pub cases: usize,
    /// Their shape.
    pub shape: Shape,
    /// Most submission runs spent on shrinking.
    pub shrink_runs: usize,
    /// The cases run first, and the policy every output is judged by (`accept`, `compare`). Its `reference` must
    /// be set and every case's arguments must be a Take-Stones position ([`CheckConfig::problem`] says).
    pub suite: Suite,
    /// What the suite's cases are called in reports: `official` or `suite`.
    pub fixed: &'static str,
}

impl CheckConfig {
    /// Why the suite cannot drive a check, naming the case, or `None` when it can.
    pub fn problem(&self) -> Option<String> {
        if self.suite.reference.is_none() {
            return Some("the suite names no [reference]".into());
        }
        self.suite.cases.iter().find_map(|case| match parse_numbers(&case.args) {
            Err(e) => Some(format!("case '{}': its arguments are not a Take-Stones position: {e}", case.name)),
            Ok(_) => candidates(&self.suite, case).err().map(|e| format!("case '{}': {e}", case.name)),
        })
    }
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
    /// When no known variant does: the components a changed reference proves (each with its proof), or the
    /// symptoms and where to look when nothing is proven.
    pub findings: Findings,
}

/// The program failed the same way on every one of the suite's cases: it never got as far as printing an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeverRan {
    /// How every run ended.
    pub failure: Failure,
    /// The first case's arguments (for the reproduce line).
    pub first: (Position, u32),
}

/// The whole check.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The suite's cases run.
    pub fixed_run: usize,
    /// Of those, the ones that matched.
    pub fixed_passed: usize,
    /// Random positions run (the last one diverged when there is a divergence among them).
    pub random_run: usize,
    /// Random positions that matched.
    pub random_passed: usize,
    /// Per spec-silent reading: in how many matched cases the program was seen to use it.
    pub readings: Vec<(Reading, usize)>,
    /// Set when the program failed the same way on every suite case; nothing else was run.
    pub never_ran: Option<NeverRan>,
    /// The first divergence, if any.
    pub divergence: Option<Divergence>,
}

/// A case the reference answers, judged by the suite's policy.
fn reference_case(position: &Position, depth: u32) -> SuiteCase {
    let mut args = position.to_args();
    args.push(depth.to_string());
    SuiteCase {
        name: String::new(),
        args,
        stdin: None,
        expected: Expected::Reference,
        points: crate::harness::model::Points::whole(1),
        timeout: None,
        tags: Vec::new(),
        visibility: Visibility::Visible,
        show: crate::harness::model::Show::Full,
        compare: None,
    }
}

/// A case to run: where it comes from, the position, its accepted outputs and the comparison.
struct Planned {
    found_at: String,
    position: Position,
    depth: u32,
    accepted: Vec<Candidate>,
    policy: ComparePolicy,
}

/// `Ok(reading label)` when `ran` is accepted (the label when it matched a non-default reading).
fn verdict(ran: &Ran, planned: &Planned) -> Result<Option<String>, ()> {
    let Ran::Printed(text) = ran else { return Err(()) };
    let v = judge(&planned.accepted, text.as_bytes(), &planned.policy);
    if v.passed {
        Ok(v.reading)
    } else {
        Err(())
    }
}

/// Runs the check with `submission` producing the program's output for a case.
pub fn check(config: &CheckConfig, mut submission: impl FnMut(&Position, u32) -> Ran) -> CheckReport {
    let suite = &config.suite;
    let mut report = CheckReport {
        fixed_run: 0,
        fixed_passed: 0,
        random_run: 0,
        random_passed: 0,
        readings: Reading::ALL.iter().map(|&r| (r, 0)).collect(),
        never_ran: None,
        divergence: None,
    };
    let fixed: Vec<Planned> = suite
        .cases
        .iter()
        .filter_map(|case| {
            let (position, depth) = parse_numbers(&case.args).ok()?;
            Some(Planned {
                found_at: format!("{} {}", config.fixed, case.name),
                position,
                depth,
                accepted: candidates(suite, case).ok()?,
                policy: case.compare.unwrap_or(suite.compare),
            })
        })
        .collect();
    // Every suite case runs, even after a divergence: the counts are honest, and a program that never ran shows.
    let mut first: Option<(Planned, Ran)> = None;
    let mut passes: Vec<Observation> = Vec::new();
    let mut failures: Vec<Failure> = Vec::new();
    for planned in fixed {
        let ran = submission(&planned.position, planned.depth);
        report.fixed_run += 1;
        match verdict(&ran, &planned) {
            Ok(reading) => {
                report.fixed_passed += 1;
                note_reading(&mut report, reading);
                keep_pass(&mut passes, &planned, &ran);
            }
            Err(()) => {
                if let Ran::Failed(f) = &ran {
                    failures.push(f.clone());
                }
                if first.is_none() {
                    first = Some((planned, ran));
                }
            }
        }
    }
    if let Some((planned, _)) = &first {
        let same = failures.len() == report.fixed_run && failures.windows(2).all(|w| w[0].how == w[1].how);
        if same {
            let failure = failures.swap_remove(0);
            report.never_ran = Some(NeverRan { failure, first: (planned.position.clone(), planned.depth) });
            return report;
        }
    }
    if let Some((planned, ran)) = first {
        report.divergence = Some(explain(config, planned, ran, passes, &mut submission));
        return report;
    }
    let mut rng = Rng::new(config.seed);
    for i in 0..config.cases {
        let (p, d) = position(&mut rng, &config.shape);
        let Ok(accepted) = candidates(suite, &reference_case(&p, d)) else { continue };
        let planned =
            Planned { found_at: format!("random #{}", i + 1), position: p, depth: d, accepted, policy: suite.compare };
        let ran = submission(&planned.position, planned.depth);
        report.random_run += 1;
        match verdict(&ran, &planned) {
            Ok(reading) => {
                report.random_passed += 1;
                note_reading(&mut report, reading);
                keep_pass(&mut passes, &planned, &ran);
            }
            Err(()) => {
                report.divergence = Some(explain(config, planned, ran, passes, &mut submission));
                return report;
            }
        }
    }
    report
}

fn note_reading(report: &mut CheckReport, label: Option<String>) {
    let Some(label) = label else { return };
    for (reading, seen) in &mut report.readings {
        if label.split(", ").any(|part| part == reading.label()) {
            *seen += 1;
        }
    }
}

fn investigate(
    config: &CheckConfig,
    planned: Planned,
    ran: Ran,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Divergence {
    let edition = config.edition;
    let suite = &config.suite;
    let Planned { found_at, position: p, depth: d, .. } = planned;
    let mut last = ran.clone();
    let (sp, sd) = shrink(&p, d, config.shrink_runs, |cand, depth| {
        // A position the reference has no answer for (no legal move at the root) shows nothing.
        let Ok(accepted) = candidates(suite, &reference_case(cand, depth)) else { return false };
        let r = submission(cand, depth);
        // Stay with the kind of divergence found: a wrong output shrinks to a smaller wrong output (which the
        // diagnosis can read), not to a crash.
        let same_kind = matches!((&r, &ran), (Ran::Printed(_), Ran::Printed(_)) | (Ran::Failed(_), Ran::Failed(_)));
        let shrunk =
            Planned { found_at: String::new(), position: cand.clone(), depth, accepted, policy: suite.compare };
        let diverges = same_kind && verdict(&r, &shrunk).is_err();
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
    let expected = candidates(suite, &reference_case(&sp, sd))
        .ok()
        .and_then(|c| c.into_iter().next())
        .map(|c| c.text)
        .unwrap_or_default();
    Divergence {
        found_at,
        original: (p, d),
        shrunk: (sp, sd),
        expected,
        actual,
        diagnosis,
        findings: Findings::default(),
    }
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
        if p.n() > MAX_PASS_STONES || candidates(&config.suite, &reference_case(&p, d)).is_err() {
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

/// Investigates a divergence, then drops the explanations the program's other answers rule out and, when no
/// known variant is left, locates the component that differs by probing.
fn explain(
    config: &CheckConfig,
    planned: Planned,
    ran: Ran,
    passes: Vec<Observation>,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Divergence {
    let original = match &ran {
        Ran::Printed(printed) => {
            Some(Case { position: planned.position.clone(), depth: planned.depth, printed: printed.clone() })
        }
        Ran::Failed(_) => None,
    };
    let mut also: Vec<Case> = original.into_iter().collect();
    also.extend(passes.iter().map(|o| Case {
        position: o.position.clone(),
        depth: o.depth,
        printed: o.printed.clone(),
    }));
    let mut divergence = investigate(config, planned, ran, submission);
    divergence.diagnosis = verify(config, divergence.diagnosis, passes, submission);
    if divergence.diagnosis == Diagnosis::Unknown {
        let shrunk = (&divergence.shrunk.0, divergence.shrunk.1, &divergence.actual);
        divergence.findings = locate(config.edition, submission, Some(shrunk), &also);
    }
    divergence
}

/// Keeps a passed case (small boards, up to [`MAX_PASSES`]) to test explanations against.
fn keep_pass(passes: &mut Vec<Observation>, planned: &Planned, ran: &Ran) {
    if let Ran::Printed(printed) = ran {
        if passes.len() < MAX_PASSES && planned.position.n() <= MAX_PASS_STONES {
            passes.push(Observation {
                position: planned.position.clone(),
                depth: planned.depth,
                printed: printed.clone(),
            });
        }
    }
}
