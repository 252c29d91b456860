//! Exact policy evaluation: V(s) = sum over outcomes of p * (r + discount * V(s')) for every non-terminal state,
//! V = 0 at terminal states, solved as one linear system over the rationals.

use std::collections::VecDeque;

use num_traits::{One, Zero};

use super::linear::solve;
use super::model::{Mdp, Policy};
use crate::keys::number::Q;

/// Why a policy has no finite value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// With discount 1, these states never reach a terminal state under the policy: the system is singular.
    NeverTerminates(Vec<usize>),
    /// The system is singular for another reason (not expected: kept so no case goes unreported).
    Singular,
}

impl EvalError {
    /// One sentence naming the states.
    pub fn describe(&self, mdp: &Mdp) -> String {
        match self {
            EvalError::NeverTerminates(states) => {
                let names: Vec<&str> = states.iter().map(|&s| mdp.states[s].name.as_str()).collect();
                format!(
                    "from {} the policy never reaches a terminal state, so with discount 1 the linear system is \
                     singular (those values are unbounded)",
                    names.join(", ")
                )
            }
            EvalError::Singular => "the linear system is singular".into(),
        }
    }
}

/// The non-terminal states from which no terminal state can be reached under `policy`.
pub fn never_terminating(mdp: &Mdp, policy: &Policy) -> Vec<usize> {
    let n = mdp.states.len();
    let mut reaches = vec![false; n];
    let mut queue: VecDeque<usize> = (0..n).filter(|&s| mdp.states[s].terminal()).collect();
    for &s in &queue {
        reaches[s] = true;
    }
    while let Some(t) = queue.pop_front() {
        for s in 0..n {
            if reaches[s] {
                continue;
            }
            let Some(a) = policy[s] else { continue };
            if mdp.states[s].actions[a].outcomes.iter().any(|o| o.to == t && !o.p.is_zero()) {
                reaches[s] = true;
                queue.push_back(s);
            }
        }
    }
    (0..n).filter(|&s| !reaches[s]).collect()
}

/// The value of every state under `policy` (terminal states 0).
///
/// # Errors
/// When the values are not finite (discount 1 and a state that never terminates).
pub fn evaluate(mdp: &Mdp, policy: &Policy) -> Result<Vec<Q>, EvalError> {
    if mdp.discount.is_one() {
        let stuck = never_terminating(mdp, policy);
        if !stuck.is_empty() {
            return Err(EvalError::NeverTerminates(stuck));
        }
    }
    let live: Vec<usize> = (0..mdp.states.len()).filter(|&s| policy[s].is_some()).collect();
    let row_of = |s: usize| live.iter().position(|&x| x == s);
    let mut a = vec![vec![Q::zero(); live.len()]; live.len()];
    let mut b = vec![Q::zero(); live.len()];
    for (r, &s) in live.iter().enumerate() {
        a[r][r] += Q::one();
        let Some(act) = policy[s] else { continue };
        for o in &mdp.states[s].actions[act].outcomes {
            b[r] += &o.p * &o.reward;
            if let Some(c) = row_of(o.to) {
                a[r][c] -= &mdp.discount * &o.p;
            }
        }
    }
    let x = solve(a, b).ok_or(EvalError::Singular)?;
    let mut v = vec![Q::zero(); mdp.states.len()];
    for (r, &s) in live.iter().enumerate() {
        v[s] = x[r].clone();
    }
    Ok(v)
}
