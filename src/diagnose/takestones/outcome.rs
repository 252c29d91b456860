//! What one run of a submission produced, and every output the reference accepts for a position: shared by the
//! check loop ([`super::check`]) and the probes ([`super::locate`]), so neither reaches into the other.

use crate::game::takestones::Position;
use crate::harness::cause::Cause;
use crate::harness::suite::readings::combinations;
use crate::harness::suite::Reading;
use crate::reference::takestones::{solve_to_string, Edition, Request};

/// What one run of the submission produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    /// It exited normally with this stdout.
    Printed(String),
    /// It timed out, crashed, exited nonzero or could not be started.
    Failed(Failure),
}

/// A run that printed nothing to judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// How it ended, worded the same for every run that ended the same way: `exited 1`, `was killed by SIGSEGV
    /// (segmentation fault)`, `gave no answer within 10s`, `could not be started`.
    pub how: String,
    /// What it wrote on stderr (for a program that could not be started: why).
    pub stderr: String,
}

/// Every output the reference accepts for a position under some combination of the spec-silent readings, each with
/// its reading label (`None` for the default); `None` when the position has no answer. Probing uses all of them:
/// it locates a difference, it does not judge one.
pub fn accepted(position: &Position, depth: u32, edition: Edition) -> Option<Vec<(String, Option<String>)>> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for (options, label) in combinations(&Reading::ALL) {
        let request = Request { position: position.clone(), depth, edition, options };
        let (text, _) = solve_to_string(&request).ok()?;
        if !out.iter().any(|(t, _)| t == &text) {
            out.push((text, label));
        }
    }
    Some(out)
}

/// A located difference: the cause and the probe that shows it (the command reproducing it runs this position).
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// The component and what differs, with evidence.
    pub cause: Cause,
    /// The probe position.
    pub position: Position,
    /// The probe's depth argument.
    pub depth: u32,
    /// What makes it located: the changed reference and the cases it reproduced (`None` only for a finding that
    /// was never named as located, a symptom).
    pub proof: Option<Proof>,
}

/// The proof behind a located cause: the reference changed in the named component(s) reproduces the program's
/// output on every case the check ran.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    /// Each change made to the reference, in words (`child-order: children visited from the largest stone down`).
    pub changes: Vec<String>,
    /// Every case reproduced, the shrunk case first.
    pub cases: Vec<(Position, u32)>,
    /// How many of them the spec itself answers otherwise.
    pub differing: usize,
}
