//! A finite MDP with exact rational probabilities and rewards: states in file order, each with its actions in file
//! order (a state with no action is terminal and has value 0), rewards on transitions R(s, a, s').

use crate::keys::number::Q;

/// One outcome of an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The next state (index into [`Mdp::states`]).
    pub to: usize,
    /// Its probability.
    pub p: Q,
    /// The reward for this transition.
    pub reward: Q,
}

/// An action of a state; its outcomes' probabilities sum to 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The name.
    pub name: String,
    /// The outcomes, in file order.
    pub outcomes: Vec<Outcome>,
}

/// A state and its actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The name.
    pub name: String,
    /// The actions, in file order (the first of equally good actions wins).
    pub actions: Vec<Action>,
}

impl State {
    /// Whether the state has no action (its value is 0 and the process stops there).
    pub fn terminal(&self) -> bool {
        self.actions.is_empty()
    }
}

/// A policy: an action index per state (`None` for terminal states).
pub type Policy = Vec<Option<usize>>;

/// The MDP, its discount and the policy to evaluate, if the file gives one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mdp {
    /// States in file order.
    pub states: Vec<State>,
    /// The discount, 0 <= discount <= 1.
    pub discount: Q,
    /// The policy given in the file.
    pub policy: Option<Policy>,
}

impl Mdp {
    /// The first action of every non-terminal state (where policy iteration starts when the file has no policy).
    pub fn first_actions(&self) -> Policy {
        self.states.iter().map(|s| if s.terminal() { None } else { Some(0) }).collect()
    }

    /// `cool: slow, warm: fast` (terminal states left out).
    pub fn describe(&self, policy: &Policy) -> String {
        let parts: Vec<String> = self
            .states
            .iter()
            .zip(policy)
            .filter_map(|(s, a)| a.map(|a| format!("{}: {}", s.name, s.actions[a].name)))
            .collect();
        parts.join(", ")
    }

    /// The action name `policy` picks in state `s`, or `-` for a terminal state.
    pub fn action_name(&self, policy: &Policy, s: usize) -> &str {
        policy[s].map_or("-", |a| self.states[s].actions[a].name.as_str())
    }
}
