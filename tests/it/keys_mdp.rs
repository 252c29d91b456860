//! `referee mdp`: the W4701 Part 3 answers from the spec, the classic racing MDP checked by hand, exact Bellman
//! equations, snapshots of both formats, and malformed input pointing at its line and column with exit 2.

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use referee::app::keys::mdp::run;
use referee::cli::MdpArgs;
use referee::keys::mdp::bellman::q_value;
use referee::keys::mdp::evaluate::{evaluate, EvalError};
use referee::keys::mdp::model::{Action, Mdp, Outcome, State};
use referee::keys::mdp::parse::parse;
use referee::keys::mdp::policy_iteration::policy_iteration;
use referee::keys::mdp::report::show;
use referee::keys::mdp::value_iteration::value_iteration;
use referee::keys::number::{int, parse as q, Q};
use referee::keys::table::Format;

const PART3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testcases/written/w4701-part3-racecar.toml");
const BERKELEY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testcases/written/berkeley-racecar.toml");

fn load(path: &str) -> Mdp {
    parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn shown(values: &[Q]) -> Vec<String> {
    values.iter().map(show).collect()
}

fn actions(m: &Mdp, policy: &[Option<usize>]) -> Vec<String> {
    (0..m.states.len()).map(|s| m.action_name(&policy.to_vec(), s).to_string()).collect()
}

/// Spec, Part 3 answer 2: V(Cool) = 10, V(Warm) = 10, V(Off) = 5 for the policy slow, slow, wait.
#[test]
fn part3_policy_evaluation() {
    let m = load(PART3);
    let v = evaluate(&m, m.policy.as_ref().unwrap()).unwrap();
    assert_eq!(v, [int(10), int(10), int(5)]);
}

/// Spec, Part 3 answer 3: one step of policy iteration: Cool max(10, 12) = 12 (fast), Warm max(10, 9) = 10
/// (slow), Off 5 (wait).
#[test]
fn part3_one_step_of_policy_iteration() {
    let m = load(PART3);
    let pi = policy_iteration(&m, m.policy.clone().unwrap(), 1);
    let round = &pi.rounds[0];
    assert_eq!(round.q, [vec![int(10), int(12)], vec![int(10), int(9)], vec![int(5)]]);
    assert_eq!(actions(&m, &round.improved), ["fast", "slow", "wait"]);
}

/// Spec, Part 3 answer 4: V1 = 4, 3, 0 and V2 = 6.6, 5.2, 0.6 from V0 = 0.
#[test]
fn part3_value_iteration() {
    let m = load(PART3);
    let vi = value_iteration(&m, 2);
    assert_eq!(shown(&vi.values[1]), ["4", "3", "0"]);
    assert_eq!(shown(&vi.values[2]), ["6.6", "5.2", "0.6"]);
    assert_eq!(vi.values[2], [q("6.6").unwrap(), q("5.2").unwrap(), q("0.6").unwrap()]);
}

/// Spec, Part 3 answer 5: the optimal policy goes fast when cool, slow when warm, waits when off; policy iteration
/// from answer 2's policy is stable after its second evaluation.
#[test]
fn part3_optimal_policy() {
    let m = load(PART3);
    let pi = policy_iteration(&m, m.policy.clone().unwrap(), 100);
    assert!(pi.converged);
    assert_eq!(pi.rounds.len(), 2);
    let last = pi.rounds.last().unwrap();
    assert_eq!(actions(&m, &last.policy), ["fast", "slow", "wait"]);
    // By hand: V(C) = 4 + 0.8 (0.25 V(C) + 0.75 V(W)), V(W) = 2 + 0.8 V(C), V(O) = 0.8 (0.25 V(W) + 0.75 V(O)):
    // 0.32 V(C) = 5.2 so V(C) = 16.25, V(W) = 15, V(O) = 7.5.
    assert_eq!(shown(last.values.as_ref().unwrap()), ["16.25", "15", "7.5"]);
}

/// The classic racing MDP, undiscounted, by hand:
/// V1: cool max(slow 1, fast 2) = 2; warm max(slow 1, fast -10) = 1; overheated 0.
/// V2: cool max(1 + 2, 2 + 0.5*2 + 0.5*1 = 3.5) = 3.5; warm max(1 + 0.5*2 + 0.5*1 = 2.5, -10) = 2.5.
#[test]
fn berkeley_value_iteration() {
    let m = load(BERKELEY);
    let vi = value_iteration(&m, 2);
    assert_eq!(shown(&vi.values[1]), ["2", "1", "0"]);
    assert_eq!(shown(&vi.values[2]), ["3.5", "2.5", "0"]);
    assert_eq!(actions(&m, &vi.choices[1]), ["fast", "slow", "-"]);
}

/// Policy fast everywhere, discount 1, by hand: V(warm) = -10 + V(overheated) = -10;
/// V(cool) = 2 + 0.5 V(cool) + 0.5 V(warm), so 0.5 V(cool) = -3 and V(cool) = -6. Going slow everywhere never
/// overheats, so the system is singular: both cool and warm are named.
#[test]
fn berkeley_policy_evaluation_with_discount_1() {
    let m = load(BERKELEY);
    let v = evaluate(&m, m.policy.as_ref().unwrap()).unwrap();
    assert_eq!(v, [int(-6), int(-10), int(0)]);
    let slow = vec![Some(0), Some(0), None];
    assert_eq!(evaluate(&m, &slow), Err(EvalError::NeverTerminates(vec![0, 1])));
    // Policy iteration improves fast/fast to slow/slow (Q(cool, slow) = 1 - 6 = -5 > -6, Q(warm, slow) = 1 - 3
    // - 5 = -7 > -10) and then stops: that policy has no finite value.
    let pi = policy_iteration(&m, m.policy.clone().unwrap(), 10);
    assert!(!pi.converged);
    assert_eq!(pi.rounds[0].q[0], [int(-5), int(-6)]);
    assert_eq!(pi.rounds[0].q[1], [int(-7), int(-10)]);
    assert!(pi.rounds[1].values.is_err());
}

fn assert_bellman(m: &Mdp, policy: &[Option<usize>]) -> Result<(), TestCaseError> {
    let v = evaluate(m, &policy.to_vec()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    for (s, a) in policy.iter().enumerate() {
        match a {
            Some(a) => prop_assert_eq!(&v[s], &q_value(m, s, *a, &v)),
            None => prop_assert_eq!(&v[s], &int(0)),
        }
    }
    Ok(())
}

#[test]
fn spec_values_satisfy_the_bellman_equations_exactly() {
    let m = load(PART3);
    assert_bellman(&m, m.policy.as_ref().unwrap()).unwrap();
    let b = load(BERKELEY);
    assert_bellman(&b, b.policy.as_ref().unwrap()).unwrap();
}

/// Random MDPs: up to 4 states (the last terminal when asked), up to 3 actions each, probabilities in 1/6ths,
/// rewards -3..=3, a discount in 0..1 (exclusive, so every policy has values).
fn mdp() -> impl Strategy<Value = (Mdp, Vec<Option<usize>>)> {
    let outcome = (0usize..4, 0i64..=6, -3i64..=3);
    let action = proptest::collection::vec(outcome, 1..4);
    let state = proptest::collection::vec(action, 1..4);
    (2usize..=4, proptest::collection::vec(state, 4), any::<bool>(), 0i64..6, proptest::collection::vec(0usize..3, 4))
        .prop_map(|(n, raw, terminal_last, d, picks)| {
            let states = (0..n)
                .map(|s| {
                    let actions = if terminal_last && s == n - 1 {
                        Vec::new()
                    } else {
                        raw[s]
                            .iter()
                            .enumerate()
                            .map(|(i, outs)| {
                                let weights: Vec<i64> = outs.iter().map(|o| o.1 + 1).collect();
                                let total: i64 = weights.iter().sum();
                                let outcomes = outs
                                    .iter()
                                    .zip(&weights)
                                    .map(|(o, w)| Outcome {
                                        to: o.0 % n,
                                        p: Q::new((*w).into(), total.into()),
                                        reward: int(o.2),
                                    })
                                    .collect();
                                Action { name: format!("a{i}"), outcomes }
                            })
                            .collect()
                    };
                    State { name: format!("s{s}"), actions }
                })
                .collect::<Vec<_>>();
            let policy = states
                .iter()
                .enumerate()
                .map(|(s, st)| if st.terminal() { None } else { Some(picks[s] % st.actions.len()) })
                .collect();
            (Mdp { states, discount: Q::new(d.into(), 6.into()), policy: None }, policy)
        })
}

proptest! {
    /// Exact policy evaluation satisfies V(s) = sum p (r + discount V(s')) exactly, in every state.
    #[test]
    fn evaluation_satisfies_bellman((m, policy) in mdp()) {
        assert_bellman(&m, &policy)?;
    }

    /// Policy iteration converges (discount < 1) and its policy is greedy for its own values.
    #[test]
    fn policy_iteration_ends_stable((m, policy) in mdp()) {
        let pi = policy_iteration(&m, policy, 100);
        prop_assert!(pi.converged);
        let last = pi.rounds.last().unwrap();
        prop_assert_eq!(&last.improved, &last.policy);
    }
}

fn key(file: &str, format: Format) -> String {
    let args = MdpArgs { file: file.into(), iterations: 2, policy_iteration_steps: None, format };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(run(&args, &mut out, &mut err), 0);
    String::from_utf8(out).unwrap()
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn key_snapshots() {
    let text = key(PART3, Format::Text);
    assert!(text.contains("Optimal policy: cool: fast, warm: slow, off: wait"));
    snapshot("keys_mdp_w4701_part3_text", &text);
    let md = key(PART3, Format::Md);
    assert!(md.contains("| cool | 0 | 4 | 6.6 |"));
    snapshot("keys_mdp_w4701_part3_md", &md);
    let berkeley = key(BERKELEY, Format::Text);
    assert!(berkeley.contains("from cool, warm the policy never reaches a terminal state"));
    snapshot("keys_mdp_berkeley_text", &berkeley);
}

fn referee_mdp(input: &str) -> assert_cmd::assert::Assert {
    Command::cargo_bin("referee").unwrap().args(["mdp", "-"]).write_stdin(input).assert()
}

#[test]
fn malformed_input_points_at_line_and_column() {
    let head = "discount = 0.9\n\n[states.a]\n";
    referee_mdp(&format!("{head}go = [{{ to = \"a\", p = 0.5 }}, {{ to = \"a\", p = 0.4 }}]\n")).code(2).stderr(
        predicate::str::starts_with(
            "referee mdp: <stdin>: line 4, column 1: the probabilities of a/go sum to 9/10, not 1",
        ),
    );
    referee_mdp(&format!("{head}go = [{{ to = \"b\", p = 1 }}]\n"))
        .code(2)
        .stderr(predicate::str::contains("line 4, column 14: unknown state 'b'"));
    referee_mdp(&format!("{head}go = [{{ to = \"a\", p = 1.5 }}]\n"))
        .code(2)
        .stderr(predicate::str::contains("line 4, column 23: a probability must be between 0 and 1, not 3/2"));
    referee_mdp(&format!("{head}go = [{{ to = \"a\" p = 1 }}]\n"))
        .code(2)
        .stderr(predicate::str::contains("line 4, column "));
    referee_mdp(&format!("{head}go = [{{ to = \"a\", p = 1 }}]\n[policy]\na = \"stay\"\n"))
        .code(2)
        .stderr(predicate::str::contains("line 6, column 5: a has no action 'stay' (it has go)"));
    referee_mdp("discount = \"1/0\"\n[states.a]\n")
        .code(2)
        .stderr(predicate::str::contains("line 1, column 12: '1/0' divides by zero"));
    referee_mdp(&format!("{head}go = [{{ to = \"a\", p = 1 }}]\n")).code(0).stdout(predicate::str::contains("V0"));
    Command::cargo_bin("referee")
        .unwrap()
        .args(["mdp", PART3, "--iterations", "5000"])
        .assert()
        .code(2)
        .stderr("referee mdp: --iterations: at most 1000, not 5000\n");
}
