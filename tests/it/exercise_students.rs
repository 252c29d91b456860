//! Synthetic students for the exercise tests. Every answer is computed on the student's own variant (read back
//! from the problem text the key tools read), by the key solvers for a right answer or by a wrong method's
//! implementation for a misconception, never typed in; and it is written the way students write (lowercase
//! labels, decimals where they are exact, spaces instead of commas), not the way the key prints it.

use std::collections::HashMap;

use referee::exercise::misconception::Misconception;
use referee::exercise::wrong::{alphabeta as wrong_ab, csp as wrong_csp, hillclimb as wrong_hc, mdp as wrong_mdp};
use referee::exercise::{file, tree as ex_tree, Kind, Variant};
use referee::game::tree::{Exact, Kind as NodeKind, Tree, TreeGame};
use referee::keys::csp::forward::State;
use referee::keys::csp::heuristics::next_variable;
use referee::keys::hillclimb::matrix::{self, Notation};
use referee::keys::mdp::bellman::greedy;
use referee::keys::mdp::evaluate::evaluate;
use referee::keys::mdp::value_iteration::value_iteration;
use referee::keys::number::{self, Q};
use referee::keys::tree::{notation, solve, trace};

use Misconception::*;

/// A number as a student writes it: a decimal when that is exact and short, else a fraction.
fn num(q: &Q) -> String {
    for places in 0..=3 {
        let scaled = q * number::int(10i64.pow(places));
        if scaled.is_integer() {
            return number::decimal(q, places as usize);
        }
    }
    number::fraction(q)
}

fn exact(e: Exact) -> String {
    match e.to_q() {
        Some(q) => num(&q),
        None if e == Exact::NegInf => "-inf".into(),
        None => "inf".into(),
    }
}

/// Every part's answer (by key) of `variant` worked with `method` (`None`: the right method).
pub fn answers(variant: &Variant, method: Option<Misconception>) -> HashMap<&'static str, String> {
    match variant.kind {
        Kind::Alphabeta => alphabeta(variant, method),
        Kind::Expectimax => expectimax(variant, method),
        Kind::Mdp => mdp(variant, method),
        Kind::Csp => csp(variant, method),
        Kind::Hillclimb => hillclimb(variant, method),
    }
}

fn prompt<'a>(variant: &'a Variant, key: &str) -> &'a str {
    &variant.parts.iter().find(|p| p.spec.key == key).unwrap().prompt
}

fn lower(tree: &Tree, id: usize) -> String {
    tree.name(id).to_lowercase()
}

fn alphabeta(variant: &Variant, method: Option<Misconception>) -> HashMap<&'static str, String> {
    let given = notation::parse(&variant.input).unwrap();
    let tree = if method == Some(MinMaxSwapped) { ex_tree::swapped(&given) } else { given.clone() };
    let solved = solve::solve(&tree).unwrap();
    let n = tree.len();
    // What the search saw, by the method: the key's own alpha-beta for the right one.
    let seen: wrong_ab::Run = match method {
        Some(StrictPruning) | Some(RightToLeft) => {
            let how = wrong_ab::Method {
                strict: method == Some(StrictPruning),
                reverse: method == Some(RightToLeft),
                first: None,
            };
            wrong_ab::run(&tree, how)
        }
        _ => {
            let t = trace::trace(&TreeGame::new(&tree)).unwrap();
            let mut run = wrong_ab::Run {
                visited: t.visited.clone(),
                returned: vec![None; n],
                window: vec![None; n],
                value: t.value,
            };
            for s in &t.steps {
                run.window[s.node] = Some(s.window);
                run.returned[s.node] = Some(s.value);
            }
            run
        }
    };
    let (visited, window, returned) = (seen.visited, seen.window, seen.returned);
    let root = tree.root();
    let mut inner: Vec<usize> = (0..n).filter(|&i| i != root && !tree.node(i).children.is_empty()).collect();
    inner.sort_by_key(|&i| (tree.depth(i), i));
    let values: Vec<String> = inner
        .iter()
        .map(|&i| {
            let v = match (method, returned[i].and_then(Exact::to_q)) {
                (Some(CutBoundAsValue), Some(bound)) => bound,
                _ => solved.values[i].clone(),
            };
            format!("{}={}", lower(&tree, i), num(&v))
        })
        .collect();
    let children = &tree.node(root).children;
    let asked_text = prompt(variant, "window").split("at node ").nth(1).unwrap().split(' ').next().unwrap();
    let asked = ex_tree::find(&tree, asked_text).unwrap();
    let (a, b) = window[asked].unwrap_or((Exact::NegInf, Exact::PosInf));
    // The root child that, searched first, leaves the most nodes unvisited, by the method too (`first` takes part
    // in naming a method): the leftmost of several.
    let unvisited_with = |c: usize| -> usize {
        match method {
            Some(StrictPruning) | Some(RightToLeft) => {
                let how = wrong_ab::Method {
                    strict: method == Some(StrictPruning),
                    reverse: method == Some(RightToLeft),
                    first: Some(c),
                };
                wrong_ab::run(&tree, how).visited.iter().filter(|v| !**v).count()
            }
            _ => {
                let game = TreeGame::with_order(&tree, |id, k| {
                    let mut order: Vec<usize> = (0..k).collect();
                    if id == root {
                        order.retain(|&x| x != c);
                        order.insert(0, c);
                    }
                    order
                });
                trace::trace(&game).unwrap().visited.iter().filter(|v| !**v).count()
            }
        }
    };
    let first = (0..children.len()).max_by_key(|&c| (unvisited_with(c), usize::MAX - c)).unwrap();
    HashMap::from([
        ("value", num(&solved.values[root])),
        ("values", values.join(", ")),
        ("move", lower(&tree, children[solved.best.unwrap()])),
        ("pruned", {
            let pruned: Vec<String> = (0..n).filter(|&i| !visited[i]).map(|i| tree.name(i)).collect();
            if pruned.is_empty() {
                "none".to_string()
            } else {
                pruned.join(" ")
            }
        }),
        ("window", format!("alpha = {}, beta = {}", exact(a), exact(b))),
        ("first", tree.name(given.node(root).children[first])),
    ])
}

fn expectimax(variant: &Variant, method: Option<Misconception>) -> HashMap<&'static str, String> {
    let given = notation::parse(&variant.input).unwrap();
    let tree = match method {
        Some(IgnoresProbabilities) => ex_tree::uniform(&given),
        Some(MinMaxSwapped) => ex_tree::swapped(&given),
        _ => given,
    };
    let solved = solve::solve(&tree).unwrap();
    let root = tree.root();
    let children = &tree.node(root).children;
    assert!(children.iter().all(|&c| tree.node(c).kind == NodeKind::Chance));
    let chance: Vec<String> =
        children.iter().map(|&c| format!("{}: {}", tree.name(c), num(&solved.values[c]))).collect();
    HashMap::from([
        ("value", num(&solved.values[root])),
        ("chance", chance.join("; ")),
        ("move", tree.name(children[solved.best.unwrap()])),
    ])
}

fn mdp(variant: &Variant, method: Option<Misconception>) -> HashMap<&'static str, String> {
    let k: usize = variant.input.lines().next().unwrap().split_whitespace().nth(3).unwrap().parse().unwrap();
    let given = referee::keys::mdp::parse::parse(&variant.input).unwrap();
    let policy = given.policy.clone().unwrap();
    let model = if method == Some(DiscountOnReward) { wrong_mdp::discounted_rewards(&given) } else { given.clone() };
    let vk = if method == Some(GaussSeidel) {
        wrong_mdp::value_iteration(&model, k, true)
    } else {
        value_iteration(&model, k).values.pop().unwrap()
    };
    let greedy_k = greedy(&model, &vk);
    let v_pi = evaluate(&model, &policy).unwrap();
    let live: Vec<usize> = (0..given.states.len()).filter(|&s| !given.states[s].terminal()).collect();
    let numbers = |v: &[Q]| {
        live.iter().map(|&s| format!("{} = {}", given.states[s].name, num(&v[s]))).collect::<Vec<_>>().join(", ")
    };
    let actions = live
        .iter()
        .map(|&s| format!("{}: {}", given.states[s].name, given.action_name(&greedy_k, s).to_uppercase()))
        .collect::<Vec<_>>();
    HashMap::from([("vk", numbers(&vk)), ("policy", actions.join(", ")), ("evaluation", numbers(&v_pi))])
}

fn csp(variant: &Variant, method: Option<Misconception>) -> HashMap<&'static str, String> {
    let problem = referee::keys::csp::parse::parse(&variant.input).unwrap();
    let state = if method == Some(ForwardCheckingSomeNeighbours) {
        wrong_csp::forward_check(&problem, true)
    } else {
        let (mut s, _) = State::initial(&problem);
        for &(var, value) in &problem.assignment {
            s.assign(&problem, var, value);
        }
        s
    };
    let next = if method == Some(MrvTiesAlphabetical) {
        wrong_csp::next_alphabetical(&state)
    } else {
        next_variable(&problem, &state)
    };
    let domains: Vec<String> = state
        .unassigned()
        .into_iter()
        .map(|v| {
            let values: Vec<String> = state.domains[v].iter().map(i64::to_string).collect();
            format!("{} = {{{}}}", problem.variables[v].name.to_lowercase(), values.join(" "))
        })
        .collect();
    HashMap::from([("domains", domains.join("; ")), ("next", problem.variables[next.unwrap()].name.clone())])
}

fn hillclimb(variant: &Variant, method: Option<Misconception>) -> HashMap<&'static str, String> {
    let m = matrix::parse(&variant.input, Notation::Csv).unwrap();
    let tour_text = variant.input.lines().next().unwrap().rsplit(' ').next().unwrap();
    let start = referee::keys::hillclimb::tour::parse(tour_text, &m).unwrap();
    let climb: Vec<(Vec<usize>, Q)> = if method == Some(FirstImprovement) {
        wrong_hc::climb(&m, &start, true, 100)
    } else {
        let key = referee::keys::hillclimb::climb::climb(&m, &start, false);
        key.steps
            .iter()
            .filter_map(|s| s.next.map(|i| (s.neighbours[i].tour.clone(), s.neighbours[i].length.clone())))
            .collect()
    };
    let steps: Vec<String> = climb
        .iter()
        .map(|(t, len)| format!("{} {}", t.iter().map(|&i| m.labels[i].as_str()).collect::<String>(), num(len)))
        .collect();
    HashMap::from([
        ("length", num(&referee::keys::hillclimb::tour::length(&m, &start, false))),
        ("climb", steps.join("; ")),
    ])
}

/// A student's answer file: every part answered by `method` on problems of `wrong_kinds` and rightly on the
/// others; `garbage` replaces the answers of some parts (by kind and key) with text that cannot be read.
pub fn answer_file(
    id: &str,
    variants: &[Variant],
    methods: &[Misconception],
    garbage: &[(Kind, &str, &str)],
) -> String {
    let worked: Vec<HashMap<&str, String>> = variants
        .iter()
        .map(|v| {
            let method = methods.iter().copied().find(|m| kind_of(*m).contains(&v.kind));
            answers(v, method)
        })
        .collect();
    file::answered(id, variants, |v, part| {
        if let Some((_, _, text)) = garbage.iter().find(|(k, key, _)| *k == v.kind && *key == part.spec.key) {
            return Some(text.to_string());
        }
        let i = variants.iter().position(|x| x.code == v.code).unwrap();
        worked[i].get(part.spec.key).cloned()
    })
}

/// The kinds a misconception belongs to.
pub fn kind_of(m: Misconception) -> &'static [Kind] {
    match m {
        StrictPruning | RightToLeft | CutBoundAsValue => &[Kind::Alphabeta],
        MinMaxSwapped => &[Kind::Alphabeta],
        IgnoresProbabilities => &[Kind::Expectimax],
        GaussSeidel | DiscountOnReward => &[Kind::Mdp],
        ForwardCheckingSomeNeighbours | MrvTiesAlphabetical => &[Kind::Csp],
        FirstImprovement => &[Kind::Hillclimb],
    }
}

/// Every misconception.
pub const ALL: [Misconception; 10] = Misconception::ALL;
