//! Value iteration as a student may run it: in place, state by state in the sheet's order (Gauss-Seidel), so a
//! state's backup already sees the new values of the states before it; and the Bellman backup with the discount
//! applied to the reward too, which is the key's own backup on the MDP whose rewards are multiplied by the
//! discount (`gamma * (R + V) = gamma * R + gamma * V`).

use num_traits::Zero;

use crate::keys::mdp::bellman::{first_best, q_value};
use crate::keys::mdp::model::Mdp;
use crate::keys::number::Q;

/// V after `k` sweeps of in-place value iteration from V = 0 (`in_place` false: the synchronous, right one).
pub fn value_iteration(mdp: &Mdp, k: usize, in_place: bool) -> Vec<Q> {
    let mut v = vec![Q::zero(); mdp.states.len()];
    for _ in 0..k {
        let before = v.clone();
        for s in 0..mdp.states.len() {
            let seen = if in_place { &v } else { &before };
            let q = q_values_of(mdp, s, seen);
            v[s] = first_best(&q).map_or_else(Q::zero, |a| q[a].clone());
        }
    }
    v
}

fn q_values_of(mdp: &Mdp, s: usize, v: &[Q]) -> Vec<Q> {
    (0..mdp.states[s].actions.len()).map(|a| q_value(mdp, s, a, v)).collect()
}

/// The MDP whose every reward is multiplied by the discount: the key's solvers on it compute what the backup
/// `sum p * gamma * (R + V)` gives on the original.
pub fn discounted_rewards(mdp: &Mdp) -> Mdp {
    let mut out = mdp.clone();
    for state in &mut out.states {
        for action in &mut state.actions {
            for o in &mut action.outcomes {
                o.reward = &o.reward * &mdp.discount;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::mdp::parse::parse;
    use crate::keys::mdp::value_iteration;
    use crate::keys::number;

    const CHAIN: &str = "discount = 0.5\n[states.a]\nright = [{ to = \"b\", p = 1, reward = 0 }]\n\
                         [states.b]\nright = [{ to = \"c\", p = 1, reward = 8 }]\nleft = [{ to = \"a\", p = 1 }]\n\
                         [states.c]\n";

    #[test]
    fn synchronous_sweeps_are_the_keys_value_iteration() {
        let mdp = parse(CHAIN).unwrap();
        for k in 0..4 {
            assert_eq!(value_iteration(&mdp, k, false), value_iteration::value_iteration(&mdp, k).values[k]);
        }
    }

    #[test]
    fn in_place_sweeps_see_the_new_values_of_earlier_states() {
        // The states in order b, a, c: b backs up first (8); in place, a then already sees b = 8, so 4 at once.
        let mdp = parse(
            "discount = 0.5\n[states.b]\nright = [{ to = \"c\", p = 1, reward = 8 }]\nleft = [{ to = \"a\", p = 1 }]\n\
             [states.a]\nright = [{ to = \"b\", p = 1, reward = 0 }]\n[states.c]\n",
        )
        .unwrap();
        assert_eq!(value_iteration(&mdp, 1, true)[1], number::int(4), "a saw b's new value 8 in the same sweep");
        assert_eq!(value_iteration(&mdp, 1, false)[1], number::int(0));
        assert_eq!(value_iteration(&mdp, 2, true)[0], number::int(8));
    }

    #[test]
    fn the_discount_on_the_reward_scales_rewards() {
        let mdp = parse(CHAIN).unwrap();
        let wrong = discounted_rewards(&mdp);
        assert_eq!(wrong.states[1].actions[0].outcomes[0].reward, number::int(4));
        assert_eq!(value_iteration(&wrong, 1, false)[1], number::int(4));
    }
}
