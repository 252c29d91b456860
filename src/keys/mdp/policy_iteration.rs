//! Policy iteration: evaluate the policy exactly, improve it greedily (ties: first action in file order), until it
//! no longer changes.

use super::bellman::{first_best, q_values};
use super::evaluate::{evaluate, EvalError};
use super::model::{Mdp, Policy};
use crate::keys::number::Q;

/// One round: the policy, its values, the Q-values behind the improvement, and the improved policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// The policy evaluated.
    pub policy: Policy,
    /// Its values, or why it has none (then the round has no Q-values and iteration stops).
    pub values: Result<Vec<Q>, EvalError>,
    /// Q(s, a) under those values.
    pub q: Vec<Vec<Q>>,
    /// The greedy policy with respect to those values.
    pub improved: Policy,
}

/// All rounds; `converged` when the last round's improvement left the policy unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyIteration {
    /// The rounds in order.
    pub rounds: Vec<Round>,
    /// Whether the last policy is stable (and so optimal).
    pub converged: bool,
}

/// Runs at most `max_rounds` rounds from `start`.
pub fn policy_iteration(mdp: &Mdp, start: Policy, max_rounds: usize) -> PolicyIteration {
    let mut rounds = Vec::new();
    let mut policy = start;
    for _ in 0..max_rounds {
        let values = evaluate(mdp, &policy);
        let Ok(v) = &values else {
            rounds.push(Round { policy: policy.clone(), values, q: Vec::new(), improved: policy });
            return PolicyIteration { rounds, converged: false };
        };
        let q = q_values(mdp, v);
        let improved: Policy = q.iter().map(|qs| first_best(qs)).collect();
        let stable = improved == policy;
        rounds.push(Round { policy, values, q, improved: improved.clone() });
        if stable {
            return PolicyIteration { rounds, converged: true };
        }
        policy = improved;
    }
    PolicyIteration { rounds, converged: false }
}
