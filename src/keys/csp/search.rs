//! Backtracking search with forward checking, recording every step: variables by [`next_variable`] (most
//! constrained, then most constraining, then declared order), values least constraining first.

use super::forward::State;
use super::heuristics::{next_variable, value_order};
use super::problem::Problem;

/// One step of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `var = value` was tried at `depth` (1 = the first variable the search assigns).
    Try {
        /// Variables assigned by the search, this one included.
        depth: usize,
        /// The variable.
        var: usize,
        /// The value.
        value: i64,
        /// The unassigned variables whose domain forward checking shrank, with what is left.
        shrunk: Vec<(usize, Vec<i64>)>,
        /// The variables left with no value (the value is then undone at once).
        emptied: Vec<usize>,
    },
    /// Every value of `var` failed: the search goes back to the previous variable.
    Exhausted {
        /// The depth `var` was assigned at.
        depth: usize,
        /// The variable.
        var: usize,
    },
}

/// The whole search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The first solution found (a value per variable), if any.
    pub solution: Option<Vec<i64>>,
    /// Whether the search stopped at the step limit before finishing.
    pub truncated: bool,
}

impl Search {
    /// Tries that were undone (they emptied a domain, or nothing below them worked).
    pub fn failed_tries(&self) -> usize {
        let tries = self.steps.iter().filter(|s| matches!(s, Step::Try { .. })).count();
        let kept = self.steps.iter().rev().find_map(|s| match s {
            Step::Try { depth, .. } if self.solution.is_some() => Some(*depth),
            _ => None,
        });
        tries - kept.unwrap_or(0)
    }
}

/// Searches from `start` (which may hold a partial assignment), stopping after `max_steps` steps.
pub fn solve(problem: &Problem, start: &State, max_steps: usize) -> Search {
    let mut search = Search { steps: Vec::new(), solution: None, truncated: false };
    if start.unassigned().iter().all(|&v| !start.domains[v].is_empty()) {
        search.solution = go(problem, start, 1, max_steps, &mut search);
    }
    search
}

fn go(problem: &Problem, state: &State, depth: usize, max: usize, search: &mut Search) -> Option<Vec<i64>> {
    if state.complete() {
        return Some(state.values.iter().map(|v| v.unwrap_or_default()).collect());
    }
    let var = next_variable(problem, state)?;
    for effect in value_order(problem, state, var) {
        if search.steps.len() >= max {
            search.truncated = true;
            return None;
        }
        let shrunk = state
            .unassigned()
            .into_iter()
            .filter(|&v| v != var && effect.after.domains[v].len() < state.domains[v].len())
            .map(|v| (v, effect.after.domains[v].clone()))
            .collect();
        search.steps.push(Step::Try { depth, var, value: effect.value, shrunk, emptied: effect.emptied.clone() });
        if effect.emptied.is_empty() {
            if let Some(solution) = go(problem, &effect.after, depth + 1, max, search) {
                return Some(solution);
            }
            if search.truncated {
                return None;
            }
        }
    }
    if search.steps.len() >= max {
        search.truncated = true;
        return None;
    }
    search.steps.push(Step::Exhausted { depth, var });
    None
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::csp::parse::parse;

    const QUEENS: &str = "Q1 Q2 Q3 Q4 in 1..4\nQ1 != Q2\nQ1 != Q3\nQ1 != Q4\nQ2 != Q3\nQ2 != Q4\nQ3 != Q4\n\
        |Q1 - Q2| != 1\n|Q1 - Q3| != 2\n|Q1 - Q4| != 3\n|Q2 - Q3| != 1\n|Q2 - Q4| != 2\n|Q3 - Q4| != 1\n";

    #[test]
    fn backtracks_out_of_a_dead_end() {
        // Four queens: Q1 = 1 (the first of two values that each remove 6) has no solution below it.
        let p = parse(QUEENS).unwrap();
        let (start, _) = State::initial(&p);
        let s = solve(&p, &start, 100);
        let solution = s.solution.clone().unwrap();
        assert!(p.constraints.iter().all(|c| c.satisfied_by(&solution)));
        assert_eq!(solution, [2, 4, 1, 3]);
        assert!(s.failed_tries() > 0);
        assert!(matches!(s.steps[0], Step::Try { depth: 1, var: 0, value: 1, .. }));
        let cut = solve(&p, &start, 1);
        assert!(cut.truncated && cut.solution.is_none() && cut.steps.len() == 1);
    }

    #[test]
    fn exhausts_an_impossible_problem() {
        let p = parse("A B C in {0, 1}\nA != B\nB != C\nA != C\n").unwrap();
        let (start, _) = State::initial(&p);
        let s = solve(&p, &start, 100);
        assert!(s.solution.is_none() && !s.truncated);
        assert_eq!(s.steps.last(), Some(&Step::Exhausted { depth: 1, var: 0 }));
    }
}
