//! The ordering heuristics: most-constrained variable (fewest remaining values), most-constraining variable (most
//! constraints on other unassigned variables), least-constraining value (removes the fewest values from the
//! unassigned neighbours). Ties keep declared order, for variables and for values.

use super::forward::State;
use super::problem::Problem;

/// The unassigned variables with the fewest remaining values, in declared order.
pub fn most_constrained(state: &State) -> Vec<usize> {
    let free = state.unassigned();
    let least = free.iter().map(|&v| state.domains[v].len()).min();
    free.into_iter().filter(|&v| Some(state.domains[v].len()) == least).collect()
}

/// How many constraints tie `var` to another unassigned variable (the degree heuristic).
pub fn degree(problem: &Problem, state: &State, var: usize) -> usize {
    problem
        .constraints
        .iter()
        .filter_map(|c| c.other(var))
        .filter(|&other| other != var && state.values[other].is_none())
        .count()
}

/// The unassigned variables with the highest [`degree`], in declared order.
pub fn most_constraining(problem: &Problem, state: &State) -> Vec<usize> {
    let free = state.unassigned();
    let most = free.iter().map(|&v| degree(problem, state, v)).max();
    free.into_iter().filter(|&v| Some(degree(problem, state, v)) == most).collect()
}

/// The variable backtracking assigns next: most constrained, ties by most constraining, then declared order.
pub fn next_variable(problem: &Problem, state: &State) -> Option<usize> {
    let candidates = most_constrained(state);
    let best = candidates.iter().map(|&v| degree(problem, state, v)).max()?;
    candidates.into_iter().find(|&v| degree(problem, state, v) == best)
}

/// What assigning one value would do to the unassigned neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueEffect {
    /// The value.
    pub value: i64,
    /// How many values it removes from the other unassigned variables.
    pub removed: usize,
    /// The unassigned variables it would leave with no value.
    pub emptied: Vec<usize>,
    /// The state after assigning it (with forward checking).
    pub after: State,
}

/// The remaining values of `var`, least constraining first: values that empty no domain before those that do, then
/// fewest removals, then declared order.
pub fn value_order(problem: &Problem, state: &State, var: usize) -> Vec<ValueEffect> {
    let mut effects: Vec<ValueEffect> = state.domains[var]
        .iter()
        .map(|&value| {
            let mut after = state.clone();
            let pruning = after.assign(problem, var, value);
            ValueEffect { value, removed: pruning.removed.len(), emptied: pruning.emptied, after }
        })
        .collect();
    effects.sort_by_key(|e| (!e.emptied.is_empty(), e.removed));
    effects
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::csp::parse::parse;

    #[test]
    fn orders_variables_and_values() {
        let p = parse("A B C D in {0,1,2}\nA != B\nA != C\nA < D\nB != 2\n").unwrap();
        let (s, _) = State::initial(&p);
        assert_eq!(most_constrained(&s), [1]);
        assert_eq!(most_constraining(&p, &s), [0]);
        assert_eq!(next_variable(&p, &s), Some(1));
        let order: Vec<(i64, usize)> = value_order(&p, &s, 0).iter().map(|e| (e.value, e.removed)).collect();
        // A=0 removes 0 from B, C and D: 3; A=1 removes 1 from B and C, 0 and 1 from D: 4; A=2 removes 2 from C
        // and all of D (4, but D is emptied, so it comes last).
        assert_eq!(order, [(0, 3), (1, 4), (2, 4)]);
    }
}
