//! A suite made ready to grade against: every case's accepted outputs computed once, before any student runs.

use crate::harness::compare::Candidate;
use crate::harness::suite::{readings, Suite};

/// A suite with the accepted outputs of each case (or why the reference could not produce them).
#[derive(Clone, Debug)]
pub struct PreparedSuite {
    /// The suite.
    pub suite: Suite,
    /// Per case, in order: the accepted outputs, default first.
    pub candidates: Vec<Result<Vec<Candidate>, String>>,
}

impl PreparedSuite {
    /// Computes every case's accepted outputs (asking the reference where the suite says so).
    pub fn new(suite: Suite) -> PreparedSuite {
        let candidates = suite.cases.iter().map(|case| readings::candidates(&suite, case)).collect();
        PreparedSuite { suite, candidates }
    }

    /// The first case whose expected output could not be computed, as `(name, reason)`.
    pub fn first_problem(&self) -> Option<(&str, &str)> {
        self.suite
            .cases
            .iter()
            .zip(&self.candidates)
            .find_map(|(case, c)| c.as_ref().err().map(|e| (case.name.as_str(), e.as_str())))
    }
}
