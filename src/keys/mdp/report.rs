//! The MDP key: exact evaluation of the file's policy, the value-iteration table, the rounds of policy iteration
//! with the Q-values behind each choice, and the optimal policy, as text or markdown.

use num_bigint::BigInt;

use super::bellman::q_values;
use super::evaluate::evaluate;
use super::model::{Mdp, Policy};
use super::policy_iteration::{policy_iteration, PolicyIteration};
use super::value_iteration::value_iteration;
use crate::keys::number::{self, Q};
use crate::keys::table::{Format, Table};

/// What the key shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Value-iteration backups (the table has V0 ..= Vk).
    pub iterations: usize,
    /// The most policy-iteration rounds (0 skips policy iteration).
    pub policy_rounds: usize,
    /// Text or markdown.
    pub format: Format,
}

/// A value as the keys print it: the decimal when it is exact within 6 places (`6.6`, `16.25`), otherwise the
/// fraction and a rounded decimal (`14/3 (4.667)`).
pub fn show(q: &Q) -> String {
    let scale = Q::from_integer(num_traits::pow(BigInt::from(10), 6));
    if (q * scale).is_integer() {
        number::decimal(q, 6)
    } else {
        number::both(q)
    }
}

/// The whole key, ending with a newline.
pub fn render(mdp: &Mdp, options: Options) -> String {
    let f = options.format;
    let mut out = String::new();
    let terminals: Vec<&str> = mdp.states.iter().filter(|s| s.terminal()).map(|s| s.name.as_str()).collect();
    let terminals = if terminals.is_empty() { "none".to_string() } else { terminals.join(", ") };
    out.push_str(&format!(
        "{} states, discount {}, terminal states: {terminals}. Ties go to the first action in file order.\n\n",
        mdp.states.len(),
        show(&mdp.discount)
    ));
    if let Some(policy) = &mdp.policy {
        out.push_str(&evaluation(mdp, policy, f));
        out.push('\n');
    }
    out.push_str(&values_section(mdp, options.iterations, f));
    if options.policy_rounds > 0 {
        let start = mdp.policy.clone().unwrap_or_else(|| mdp.first_actions());
        let pi = policy_iteration(mdp, start, options.policy_rounds);
        out.push('\n');
        out.push_str(&rounds_section(mdp, &pi, f));
        out.push('\n');
        out.push_str(&optimal(mdp, &pi, f));
    }
    out
}

fn evaluation(mdp: &Mdp, policy: &Policy, f: Format) -> String {
    let mut out = f.label(&format!("Policy evaluation, solved exactly: {}", mdp.describe(policy)));
    match evaluate(mdp, policy) {
        Ok(v) => {
            let mut t = Table::new(["state", "action", "V"]).right(2);
            for (s, state) in mdp.states.iter().enumerate() {
                t.row([state.name.clone(), mdp.action_name(policy, s).to_string(), show(&v[s])]);
            }
            out.push_str(&t.render(f));
        }
        Err(e) => out.push_str(&format!("No finite values: {}.\n", e.describe(mdp))),
    }
    out
}

fn values_section(mdp: &Mdp, k: usize, f: Format) -> String {
    let vi = value_iteration(mdp, k);
    let mut out = f.label("Value iteration from V0 = 0");
    let headers: Vec<String> = std::iter::once("state".to_string()).chain((0..=k).map(|i| format!("V{i}"))).collect();
    let mut t = Table::new(headers);
    for i in 1..=k + 1 {
        t = t.right(i);
    }
    for (s, state) in mdp.states.iter().enumerate() {
        let cells: Vec<String> =
            std::iter::once(state.name.clone()).chain(vi.values.iter().map(|v| show(&v[s]))).collect();
        t.row(cells);
    }
    out.push_str(&t.render(f));
    if k > 0 {
        out.push('\n');
        out.push_str(&f.label("Actions attaining each backup"));
        let headers: Vec<String> =
            std::iter::once("state".to_string()).chain((1..=k).map(|i| format!("V{i}"))).collect();
        let mut t = Table::new(headers);
        for (s, state) in mdp.states.iter().enumerate() {
            let cells: Vec<String> = std::iter::once(state.name.clone())
                .chain(vi.choices.iter().map(|p| mdp.action_name(p, s).to_string()))
                .collect();
            t.row(cells);
        }
        out.push_str(&t.render(f));
    }
    out
}

fn q_cell(mdp: &Mdp, s: usize, qs: &[Q]) -> String {
    let parts: Vec<String> =
        mdp.states[s].actions.iter().zip(qs).map(|(a, q)| format!("{} {}", a.name, show(q))).collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

fn rounds_section(mdp: &Mdp, pi: &PolicyIteration, f: Format) -> String {
    let mut out = String::new();
    for (i, round) in pi.rounds.iter().enumerate() {
        let title =
            format!("Policy iteration, step {}: evaluate pi{i} = {}, then improve", i + 1, mdp.describe(&round.policy));
        out.push_str(&f.label(&title));
        let values = match &round.values {
            Ok(v) => v,
            Err(e) => {
                out.push_str(&format!("pi{i} has no finite values: {}; policy iteration stops.\n", e.describe(mdp)));
                return out;
            }
        };
        let next = format!("pi{}", i + 1);
        let mut t =
            Table::new(["state".to_string(), format!("pi{i}"), format!("V^pi{i}"), "Q(s, a)".into(), next]).right(2);
        for (s, state) in mdp.states.iter().enumerate() {
            let changed = if round.improved[s] == round.policy[s] { "" } else { " (changed)" };
            t.row([
                state.name.clone(),
                mdp.action_name(&round.policy, s).to_string(),
                show(&values[s]),
                q_cell(mdp, s, &round.q[s]),
                format!("{}{changed}", mdp.action_name(&round.improved, s)),
            ]);
        }
        out.push_str(&t.render(f));
        out.push('\n');
    }
    let n = pi.rounds.len();
    if pi.converged {
        out.push_str(&format!("The policy is stable after {n} step(s): pi{} = pi{}.\n", n, n - 1));
    } else {
        out.push_str(&format!("Stopped after {n} step(s) before the policy was stable.\n"));
    }
    out
}

fn optimal(mdp: &Mdp, pi: &PolicyIteration, f: Format) -> String {
    let Some(last) = pi.rounds.last().filter(|_| pi.converged) else {
        let why = if pi.rounds.last().is_some_and(|r| r.values.is_err()) {
            "policy iteration reached a policy with no finite values"
        } else {
            "policy iteration stopped before the policy was stable"
        };
        return format!("Optimal policy: not established ({why}).\n");
    };
    let Ok(v) = &last.values else { return String::new() };
    let mut out = f.label(&format!("Optimal policy: {}", mdp.describe(&last.policy)));
    let q = q_values(mdp, v);
    let mut t = Table::new(["state", "action", "V*", "Q(s, a)"]).right(2);
    for (s, state) in mdp.states.iter().enumerate() {
        t.row([state.name.clone(), mdp.action_name(&last.policy, s).to_string(), show(&v[s]), q_cell(mdp, s, &q[s])]);
    }
    out.push_str(&t.render(f));
    out
}
