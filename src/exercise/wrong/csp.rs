//! Forward checking and MRV as a student may run them: forward checking that prunes only the unassigned
//! neighbours *after* the assigned variable in the declared (alphabetical) order, taking "forward" for "later";
//! and MRV whose ties are broken alphabetically instead of by degree.

use crate::keys::csp::forward::State;
use crate::keys::csp::heuristics::most_constrained;
use crate::keys::csp::problem::Problem;

/// The domains after the problem's assignments, each followed by forward checking; `later_only` prunes only
/// the neighbours declared after the assigned variable (false: every unassigned neighbour, the right way).
pub fn forward_check(problem: &Problem, later_only: bool) -> State {
    let (mut state, _) = State::initial(problem);
    for &(var, value) in &problem.assignment {
        state.values[var] = Some(value);
        state.domains[var] = vec![value];
        for constraint in &problem.constraints {
            let Some(other) = constraint.other(var) else { continue };
            if state.values[other].is_some() || (later_only && other < var) {
                continue;
            }
            state.domains[other].retain(|&w| constraint.allows(var, value, other, w));
        }
    }
    state
}

/// The variable MRV picks when its ties go to the first in declared (alphabetical) order.
pub fn next_alphabetical(state: &State) -> Option<usize> {
    most_constrained(state).first().copied()
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::csp::parse::parse;

    fn key_state(problem: &Problem) -> State {
        let (mut state, _) = State::initial(problem);
        for &(var, value) in &problem.assignment {
            state.assign(problem, var, value);
        }
        state
    }

    #[test]
    fn every_neighbour_is_the_keys_forward_checking_and_later_only_misses_earlier_ones() {
        let p = parse("A B C in {1, 2, 3}\nA != B\nB < C\nassign B = 2\n").unwrap();
        assert_eq!(forward_check(&p, false), key_state(&p));
        let wrong = forward_check(&p, true);
        assert_eq!(wrong.domains[0], [1, 2, 3], "A comes before B: not pruned");
        assert_eq!(wrong.domains[2], [3], "C comes after B: pruned");
    }

    #[test]
    fn alphabetical_ties_ignore_the_degree() {
        let p = parse("A B C D in {1, 2}\nB != C\nB != D\nA != D\n").unwrap();
        let s = key_state(&p);
        assert_eq!(next_alphabetical(&s), Some(0));
        assert_eq!(crate::keys::csp::heuristics::next_variable(&p, &s), Some(1));
    }
}
