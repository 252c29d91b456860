//! Forward checking: after each assignment, remove from every unassigned neighbour the values that the constraints
//! between them now rule out. Unary constraints prune the declared domains once, before anything is assigned.

use super::problem::Problem;

/// The search state: remaining values per variable and the values assigned so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Remaining values per variable (an assigned variable keeps just its value), in declared order.
    pub domains: Vec<Vec<i64>>,
    /// The assigned value per variable.
    pub values: Vec<Option<i64>>,
}

/// A value removed from a variable's domain, and the constraint that removed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removal {
    /// The variable that lost a value.
    pub var: usize,
    /// The value.
    pub value: i64,
    /// The constraint (index into [`Problem::constraints`]).
    pub constraint: usize,
}

/// What one assignment did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pruning {
    /// Every value removed, in constraint order.
    pub removed: Vec<Removal>,
    /// The unassigned variables left with no value, in declared order.
    pub emptied: Vec<usize>,
}

impl State {
    /// The declared domains, less the values a unary constraint rules out; nothing assigned.
    pub fn initial(problem: &Problem) -> (State, Pruning) {
        let mut domains: Vec<Vec<i64>> = problem.variables.iter().map(|v| v.domain.clone()).collect();
        let mut pruning = Pruning::default();
        for (c, constraint) in problem.constraints.iter().enumerate() {
            if let [var] = constraint.scope[..] {
                domains[var].retain(|&value| {
                    let keep = constraint.relation.holds(&[value]);
                    if !keep {
                        pruning.removed.push(Removal { var, value, constraint: c });
                    }
                    keep
                });
            }
        }
        pruning.emptied = (0..domains.len()).filter(|&v| domains[v].is_empty()).collect();
        (State { values: vec![None; domains.len()], domains }, pruning)
    }

    /// The unassigned variables, in declared order.
    pub fn unassigned(&self) -> Vec<usize> {
        (0..self.values.len()).filter(|&v| self.values[v].is_none()).collect()
    }

    /// Whether every variable has a value.
    pub fn complete(&self) -> bool {
        self.values.iter().all(Option::is_some)
    }

    /// Assigns `var = value` and forward-checks its unassigned neighbours.
    pub fn assign(&mut self, problem: &Problem, var: usize, value: i64) -> Pruning {
        self.values[var] = Some(value);
        self.domains[var] = vec![value];
        let mut pruning = Pruning::default();
        for (c, constraint) in problem.constraints.iter().enumerate() {
            let Some(other) = constraint.other(var) else { continue };
            if self.values[other].is_some() {
                continue;
            }
            self.domains[other].retain(|&w| {
                let keep = constraint.allows(var, value, other, w);
                if !keep {
                    pruning.removed.push(Removal { var: other, value: w, constraint: c });
                }
                keep
            });
        }
        pruning.emptied = self.unassigned().into_iter().filter(|&v| self.domains[v].is_empty()).collect();
        pruning
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::csp::parse::parse;

    #[test]
    fn prunes_neighbours_only() {
        let p = parse("A B C in {0,1,2}\nA < B\nB != C\nA != 1\n").unwrap();
        let (mut s, unary) = State::initial(&p);
        assert_eq!(s.domains[0], [0, 2]);
        assert_eq!(unary.removed, [Removal { var: 0, value: 1, constraint: 2 }]);
        let pr = s.assign(&p, 1, 0);
        assert_eq!(s.domains, [vec![], vec![0], vec![1, 2]]);
        assert_eq!(pr.emptied, [0]);
        assert_eq!(s.unassigned(), [0, 2]);
    }
}
