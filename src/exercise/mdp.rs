//! MDP problems: a chain (1 x 5, 1 x 6 or 1 x 7, exits at both ends) or a 2 x 3 grid (two exits) of states named
//! A, B, ... in reading order. An action moves to the neighbouring cell in its direction with probability p (1/2,
//! 2/3, 3/4, 4/5 or 1) and otherwise leaves the agent where it is; into the edge it stays. Every state has a reward
//! (from -2 to 3 for the others, an exit's from -10 to 20) earned on entering it, staying put included; entering an
//! exit ends the episode. Asked, exactly: V_k after k synchronous sweeps of value iteration from 0, the greedy
//! policy with respect to V_k, and the value of a given policy by exact evaluation.
//!
//! The problem is written as `referee mdp`'s TOML and read by its parser, so the key is that command's own. A
//! drawn MDP is kept only when the greedy policy has no tie, every right value is a fraction with a denominator
//! of at most 160, and the wrong methods (in-place sweeps, discount on the reward) each change V_k and differ from
//! each other.

use std::fmt::Write as _;

use num_traits::Signed;

use super::answer::{Answer, Form, Vocabulary};
use super::misconception::Misconception;
use super::part::{Part, PartSpec};
use super::seed::Draw;
use super::sheet::svg::Cell;
use super::sheet::{Block, Figure, Sheet};
use super::wrong::mdp::{discounted_rewards, value_iteration as sweeps};
use super::Drawn;
use crate::keys::mdp::bellman::{first_best, greedy, q_values};
use crate::keys::mdp::evaluate::evaluate;
use crate::keys::mdp::model::{Mdp, Policy};
use crate::keys::mdp::parse::parse;
use crate::keys::mdp::value_iteration::value_iteration;
use crate::keys::number::{self, Q};
use crate::rng::Rng;

const VK: PartSpec = PartSpec { key: "vk", title: "values after k sweeps", form: Form::NumberMap, points: 4 };
const POLICY: PartSpec = PartSpec { key: "policy", title: "greedy policy", form: Form::LabelMap, points: 2 };
const EVALUATION: PartSpec =
    PartSpec { key: "evaluation", title: "exact policy evaluation", form: Form::NumberMap, points: 4 };

/// The parts, in the order asked.
pub const PARTS: &[PartSpec] = &[VK, POLICY, EVALUATION];

/// The largest denominator a right answer may have (W4701's worked answers have 5 and 10).
const MAX_DENOMINATOR: i64 = 160;

/// A drawn grid world.
#[derive(Clone, Debug, PartialEq, Eq)]
struct World {
    rows: usize,
    cols: usize,
    /// The exit reward of each cell, `None` for a non-terminal one.
    exits: Vec<Option<i64>>,
    /// The reward of entering each cell (an exit's is its exit reward).
    rewards: Vec<i64>,
    p: (i64, i64),
    discount: (i64, i64),
    k: usize,
    /// The policy to evaluate: an action index per cell (unused for exits).
    policy: Vec<usize>,
}

fn label(i: usize) -> String {
    super::tree::letters(i)
}

impl World {
    fn actions(&self) -> &'static [&'static str] {
        if self.rows == 1 {
            &["left", "right"]
        } else {
            &["up", "down", "left", "right"]
        }
    }

    /// Where action `a` leads from cell `i` if it succeeds.
    fn target(&self, i: usize, a: &str) -> usize {
        let (r, c) = (i / self.cols, i % self.cols);
        let (r, c) = match a {
            "up" if r > 0 => (r - 1, c),
            "down" if r + 1 < self.rows => (r + 1, c),
            "left" if c > 0 => (r, c - 1),
            "right" if c + 1 < self.cols => (r, c + 1),
            _ => (r, c),
        };
        r * self.cols + c
    }

    fn toml(&self) -> String {
        let frac = |(n, d): (i64, i64)| if d == 1 { n.to_string() } else { format!("\"{n}/{d}\"") };
        let mut out = format!("discount = {}\n", frac(self.discount));
        for i in 0..self.exits.len() {
            let _ = writeln!(out, "\n[states.{}]", label(i));
            if let Some(r) = self.exits[i] {
                let _ = writeln!(out, "# exit: entering it earns {r}");
                continue;
            }
            for a in self.actions() {
                let t = self.target(i, a);
                let (reward, stay) = (self.rewards[t], self.rewards[i]);
                let outcomes = if t == i {
                    format!("{{ to = \"{}\", p = 1, reward = {stay} }}", label(i))
                } else if self.p.0 == self.p.1 {
                    format!("{{ to = \"{}\", p = 1, reward = {reward} }}", label(t))
                } else {
                    format!(
                        "{{ to = \"{}\", p = {}, reward = {reward} }}, {{ to = \"{}\", p = {}, reward = {stay} }}",
                        label(t),
                        frac(self.p),
                        label(i),
                        frac((self.p.1 - self.p.0, self.p.1)),
                    )
                };
                let _ = writeln!(out, "{a} = [{outcomes}]");
            }
        }
        out.push_str("\n[policy]\n");
        for i in (0..self.exits.len()).filter(|&i| self.exits[i].is_none()) {
            let _ = writeln!(out, "{} = \"{}\"", label(i), self.actions()[self.policy[i]]);
        }
        out
    }
}

/// Draws worlds from `rng` until one is well posed.
pub fn draw(rng: &mut Rng) -> Drawn {
    loop {
        let world = world(rng);
        if let Some(drawn) = pose(&world) {
            return drawn;
        }
    }
}

fn world(rng: &mut Rng) -> World {
    let (rows, cols) = *rng.pick(&[(1, 5), (1, 6), (1, 7), (2, 3), (2, 3), (2, 3)]);
    let n = rows * cols;
    let mut exits = vec![None; n];
    let goal = rng.int(5, 20);
    let other = if rng.chance(2, 3) { rng.int(-10, -1) } else { rng.int(1, 4) };
    if rows == 1 {
        let (a, b) = if rng.chance(1, 2) { (0, n - 1) } else { (n - 1, 0) };
        exits[a] = Some(goal);
        exits[b] = Some(other);
    } else {
        let a = rng.below(n);
        let mut b = rng.below(n - 1);
        if b >= a {
            b += 1;
        }
        exits[a] = Some(goal);
        exits[b] = Some(other);
    }
    let rewards = (0..n).map(|i| exits[i].unwrap_or_else(|| *rng.pick(&[-2, -1, -1, 0, 0, 0, 1, 2, 3]))).collect();
    let p = *rng.pick(&[(1, 2), (2, 3), (3, 4), (4, 5), (1, 1)]);
    let discount = *rng.pick(&[(1, 2), (2, 3), (3, 4), (4, 5), (9, 10)]);
    let k = if rows == 1 { rng.int(2, 3) as usize } else { 2 };
    let actions = if rows == 1 { 2 } else { 4 };
    let policy = (0..n).map(|_| rng.below(actions)).collect();
    World { rows, cols, exits, rewards, p, discount, k, policy }
}

fn small(q: &Q) -> bool {
    q.denom() <= &num_bigint::BigInt::from(MAX_DENOMINATOR) && q.abs() <= number::int(100)
}

/// The greedy policy with respect to `v` (as [`greedy`] gives it), or `None` when some state has two best actions.
fn strict_greedy(mdp: &Mdp, v: &[Q]) -> Option<Policy> {
    let q = q_values(mdp, v);
    for qs in q.iter().filter(|qs| !qs.is_empty()) {
        let best = qs.iter().max()?;
        if qs.iter().filter(|x| *x == best).count() != 1 {
            return None;
        }
    }
    Some(q.iter().map(|qs| first_best(qs)).collect())
}

fn pose(world: &World) -> Option<Drawn> {
    let input = world.toml();
    let mdp = parse(&input).ok()?;
    let policy = mdp.policy.clone()?;
    let live: Vec<usize> = (0..mdp.states.len()).filter(|&s| !mdp.states[s].terminal()).collect();
    let k = world.k;
    // The checks only reject, so their order changes no variant: the cheapest go first (most draws fail them).
    let vk = value_iteration(&mdp, k).values.pop()?;
    if !live.iter().all(|&s| small(&vk[s])) {
        return None;
    }
    let greedy_k = strict_greedy(&mdp, &vk)?;
    let v_pi = evaluate(&mdp, &policy).ok()?;
    if !live.iter().all(|&s| small(&v_pi[s])) {
        return None;
    }
    let in_place = sweeps(&mdp, k, true);
    let discounted = discounted_rewards(&mdp);
    let vk_disc = value_iteration(&discounted, k).values.pop()?;
    let on_live = |v: &[Q]| live.iter().map(|&s| v[s].clone()).collect::<Vec<_>>();
    let (right, gs, disc) = (on_live(&vk), on_live(&in_place), on_live(&vk_disc));
    if right == gs || right == disc || gs == disc {
        return None;
    }
    let v_pi_disc = evaluate(&discounted, &policy).ok()?;
    let names: Vec<String> = live.iter().map(|&s| mdp.states[s].name.clone()).collect();
    let numbers = |v: &[Q]| Answer::Numbers(live.iter().map(|&s| (mdp.states[s].name.clone(), v[s].clone())).collect());
    let actions = |p: &Policy| {
        Answer::Labels(live.iter().map(|&s| (mdp.states[s].name.clone(), mdp.action_name(p, s).to_string())).collect())
    };
    let vocab = Vocabulary { keys: names.clone(), values: world.actions().iter().map(|a| a.to_string()).collect() };
    let list = names.join(", ");
    let parts = vec![
        Part::new(
            VK,
            format!(
                "Run value iteration from V0 = 0 for {k} sweeps, each computing V(i+1) from V(i). Give V{k} of every \
                 non-terminal state: {list} (the exits stay 0)."
            ),
            vocab.clone(),
            "a non-terminal state",
            numbers(&vk),
        )
        .wrong(Misconception::GaussSeidel, Some(numbers(&in_place)))
        .wrong(Misconception::DiscountOnReward, Some(numbers(&vk_disc))),
        Part::new(
            POLICY,
            format!("Which action is greedy with respect to V{k} in each of {list}?"),
            vocab.clone(),
            "a non-terminal state",
            actions(&greedy_k),
        )
        .wrong(Misconception::GaussSeidel, Some(actions(&greedy(&mdp, &in_place))))
        .wrong(Misconception::DiscountOnReward, Some(actions(&greedy(&discounted, &vk_disc)))),
        Part::new(
            EVALUATION,
            format!(
                "Evaluate the policy pi in the table exactly: solve its Bellman equations and give V^pi of {list}."
            ),
            vocab,
            "a non-terminal state",
            numbers(&v_pi),
        )
        .wrong(Misconception::DiscountOnReward, Some(numbers(&v_pi_disc))),
    ];
    let canonical = format!("{input}k = {k}");
    Some(Drawn {
        canonical,
        input: format!("# value iteration: {k} sweeps\n{input}"),
        sheet: sheet(world, &mdp),
        parts,
    })
}

fn show((n, d): (i64, i64)) -> String {
    if d == 1 {
        n.to_string()
    } else {
        format!("{n}/{d}")
    }
}

fn sheet(world: &World, mdp: &Mdp) -> Sheet {
    let cells: Vec<Cell> = (0..world.exits.len())
        .map(|i| Cell {
            label: label(i),
            note: Some(match world.exits[i] {
                Some(r) => format!("exit {r:+}"),
                None => format!("R = {}", world.rewards[i]),
            }),
            exit: world.exits[i].is_some(),
        })
        .collect();
    let shape = if world.rows == 1 { format!("a chain of {} states", world.cols) } else { "a 2 x 3 grid".to_string() };
    let rewards: Vec<String> = (0..world.exits.len())
        .filter(|&i| world.exits[i].is_none())
        .map(|i| format!("{} {}", label(i), world.rewards[i]))
        .collect();
    let actions = world.actions().join(", ");
    let p = show(world.p);
    let exits: Vec<String> =
        (0..world.exits.len()).filter_map(|i| world.exits[i].map(|r| format!("{} (reward {r:+})", label(i)))).collect();
    let moves = if world.p.0 == world.p.1 {
        "An action always moves the agent to the neighbouring state in its direction.".to_string()
    } else {
        format!(
            "An action moves the agent to the neighbouring state in its direction with probability {p}; otherwise \
             (probability {}) the agent stays where it is.",
            show((world.p.1 - world.p.0, world.p.1))
        )
    };
    let mut intro = vec![
        format!(
            "The states form {shape}, named A, B, ... in reading order. The actions are {actions}. {moves} An action \
             toward the edge leaves the agent where it is."
        ),
        format!(
            "Every state has a reward, earned each time the agent enters it (staying put included): {}. The grey \
             states {} are exits: entering one earns its reward and ends the episode (an exit's value is 0). The \
             discount is gamma = {}.",
            rewards.join(", "),
            exits.join(" and "),
            show(world.discount)
        ),
    ];
    intro.push("Rewards are earned on the move: R(s, a, s') is the reward of s', the state the agent lands in.".into());
    let policy: Vec<Vec<String>> = (0..mdp.states.len())
        .filter(|&s| !mdp.states[s].terminal())
        .map(|s| {
            vec![mdp.states[s].name.clone(), mdp.policy.as_ref().map_or("-", |p| mdp.action_name(p, s)).to_string()]
        })
        .collect();
    Sheet {
        intro,
        figure: Some(Figure {
            svg: super::sheet::svg::grid(world.rows, world.cols, &cells),
            alt: format!("The states drawn as {shape}, exits shaded with their rewards."),
        }),
        blocks: vec![Block::Table {
            caption: "The policy pi to evaluate:".into(),
            headers: vec!["state".into(), "pi(state)".into()],
            rows: policy,
        }],
        conventions: vec![
            "V(s) = max over actions a of the sum over s' of P(s' | s, a) * (R(s, a, s') + gamma * V(s')).".into(),
            "Value iteration is synchronous: every V(i+1)(s) is computed from V(i) alone.".into(),
            "Give values exactly, as integers or fractions in lowest terms (14/3, not 4.67).".into(),
            "No state has two greedy actions: the greedy policy is unique.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn worlds_are_written_as_the_key_reads_them() {
        let mut rng = Rng::new(5);
        for _ in 0..50 {
            let w = world(&mut rng);
            // The key's parser checks every action's probabilities sum to 1 and every policy entry exists.
            let mdp = parse(&w.toml()).unwrap();
            assert_eq!(mdp.states.len(), w.rows * w.cols);
            assert_eq!(mdp.states.iter().filter(|s| s.terminal()).count(), 2);
        }
    }
}
