//! The known wrong methods, implemented for real, so a misconception is named from what the method does on the
//! student's own variant, never from a hand-made list of wrong numbers. Each module's tests run the method with
//! its mistake switched off and check it gives what the key solvers give, so only the mistake differs.
//!
//! Wrong methods that are the right solver on a changed problem are not here but where the problem is drawn:
//! MIN and MAX swapped, probabilities ignored ([`super::tree`]), the discount applied to the reward ([`mdp`]
//! changes the rewards and runs the key's own value iteration and evaluation).

pub mod alphabeta;
pub mod csp;
pub mod hillclimb;
pub mod mdp;
