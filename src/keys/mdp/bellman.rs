//! One-step lookahead: Q-values, the Bellman backup, and the greedy policy (ties go to the first action in file
//! order).

use num_traits::Zero;

use super::model::{Mdp, Policy};
use crate::keys::number::Q;

/// Q(s, a) = sum over outcomes of p * (reward + discount * V(next)).
pub fn q_value(mdp: &Mdp, s: usize, a: usize, v: &[Q]) -> Q {
    mdp.states[s].actions[a]
        .outcomes
        .iter()
        .map(|o| &o.p * (&o.reward + &mdp.discount * &v[o.to]))
        .fold(Q::zero(), |acc, x| acc + x)
}

/// The Q-values of every action of every state (empty for terminal states).
pub fn q_values(mdp: &Mdp, v: &[Q]) -> Vec<Vec<Q>> {
    (0..mdp.states.len()).map(|s| (0..mdp.states[s].actions.len()).map(|a| q_value(mdp, s, a, v)).collect()).collect()
}

/// The index of the largest value, the first one on ties.
pub fn first_best(values: &[Q]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, x) in values.iter().enumerate() {
        if best.map_or(true, |b| x > &values[b]) {
            best = Some(i);
        }
    }
    best
}

/// One backup: V'(s) = max over actions of Q(s, a) (0 for terminal states), and the actions that attain it.
pub fn backup(mdp: &Mdp, v: &[Q]) -> (Vec<Q>, Policy) {
    let q = q_values(mdp, v);
    let policy: Policy = q.iter().map(|qs| first_best(qs)).collect();
    let values = q.iter().zip(&policy).map(|(qs, a)| a.map_or_else(Q::zero, |a| qs[a].clone())).collect();
    (values, policy)
}

/// The policy that is greedy with respect to `v`.
pub fn greedy(mdp: &Mdp, v: &[Q]) -> Policy {
    backup(mdp, v).1
}
