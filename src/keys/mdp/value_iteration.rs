//! Value iteration from V0 = 0, exactly: V(k+1) = the Bellman backup of V(k).

use num_traits::Zero;

use super::bellman::backup;
use super::model::{Mdp, Policy};
use crate::keys::number::Q;

/// V0 ..= Vk and the actions behind each backup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueIteration {
    /// `values[k][s]` = Vk(s); `values[0]` is all zeros.
    pub values: Vec<Vec<Q>>,
    /// `choices[k]` = the actions that attain V(k+1) (first in file order on ties).
    pub choices: Vec<Policy>,
}

/// `iterations` backups from V0 = 0.
pub fn value_iteration(mdp: &Mdp, iterations: usize) -> ValueIteration {
    let mut values = vec![vec![Q::zero(); mdp.states.len()]];
    let mut choices = Vec::new();
    for k in 0..iterations {
        let (next, policy) = backup(mdp, &values[k]);
        values.push(next);
        choices.push(policy);
    }
    ValueIteration { values, choices }
}
