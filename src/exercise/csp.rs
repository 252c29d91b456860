//! Constraint problems: 5 to 7 variables A, B, ..., each with its own domain drawn from {1, 2, 3} or {1, ..., 4}
//! (some with a value left out), a connected
//! constraint graph of binary constraints (`A != B`, `A < C`, `|B - D| == 1`), and one or two assignments. Asked:
//! the domains forward checking leaves after the assignments, and the variable backtracking assigns next under
//! MRV with ties broken by degree.
//!
//! The problem is written in `referee csp`'s format and read by its parser, so the key is that command's own. A
//! drawn problem is kept only when no domain is emptied, MRV ties between at least two variables and the degree
//! breaks the tie in favour of one that is not the alphabetically first, and forward checking that prunes only
//! later neighbours leaves other domains.

use std::fmt::Write as _;

use super::answer::{Answer, Form, Vocabulary};
use super::misconception::Misconception;
use super::part::{Part, PartSpec};
use super::seed::Draw;
use super::sheet::{Block, Figure, Sheet};
use super::wrong::csp::{forward_check, next_alphabetical};
use super::Drawn;
use crate::keys::csp::forward::State;
use crate::keys::csp::heuristics::{degree, most_constrained, next_variable};
use crate::keys::csp::parse::parse;
use crate::keys::csp::problem::Problem;
use crate::rng::Rng;

const DOMAINS: PartSpec =
    PartSpec { key: "domains", title: "domains after forward checking", form: Form::DomainMap, points: 6 };
const NEXT: PartSpec = PartSpec { key: "next", title: "next variable (MRV, degree)", form: Form::Label, points: 4 };

/// The parts, in the order asked.
pub const PARTS: &[PartSpec] = &[DOMAINS, NEXT];

/// Draws problems from `rng` until one is well posed.
pub fn draw(rng: &mut Rng) -> Drawn {
    loop {
        let text = problem_text(rng);
        let Ok(mut problem) = parse(&text) else { continue };
        let Some(assignment) = assignment(&problem, rng) else { continue };
        let pairs: Vec<String> =
            assignment.iter().map(|&(v, x)| format!("{} = {x}", problem.variables[v].name)).collect();
        problem.assignment = assignment;
        let full = format!("{text}assign {}\n", pairs.join(", "));
        if let Some(drawn) = pose(&problem, full) {
            return drawn;
        }
    }
}

/// Declarations and constraints (no assignment yet).
fn problem_text(rng: &mut Rng) -> String {
    let n = rng.int(5, 7) as usize;
    let top = if rng.chance(3, 4) { 3 } else { 4 };
    let names: Vec<String> = (0..n).map(super::tree::letters).collect();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for i in 1..n {
        edges.push((rng.below(i), i));
    }
    let extra = rng.int(1, 3) as usize;
    let mut tries = 0;
    while edges.len() < n - 1 + extra && tries < 50 {
        tries += 1;
        let (a, b) = (rng.below(n), rng.below(n));
        let (a, b) = (a.min(b), a.max(b));
        if a != b && !edges.contains(&(a, b)) {
            edges.push((a, b));
        }
    }
    edges.sort_unstable();
    let mut out = String::new();
    for name in &names {
        let mut domain: Vec<i64> = (1..=top).collect();
        if rng.chance(1, 3) {
            domain.remove(rng.below(domain.len()));
        }
        let values: Vec<String> = domain.iter().map(i64::to_string).collect();
        let _ = writeln!(out, "{name} in {{{}}}", values.join(", "));
    }
    for (a, b) in edges {
        let (x, y) = if rng.chance(1, 2) { (&names[a], &names[b]) } else { (&names[b], &names[a]) };
        let roll = rng.int(1, 20);
        let _ = match roll {
            1..=12 => writeln!(out, "{x} != {y}"),
            13..=17 => writeln!(out, "{x} < {y}"),
            _ => writeln!(out, "|{x} - {y}| == 1"),
        };
    }
    out
}

/// One or two assignments, each value still allowed by forward checking from the ones before.
fn assignment(problem: &Problem, rng: &mut Rng) -> Option<Vec<(usize, i64)>> {
    let count = if rng.chance(1, 2) { 1 } else { 2 };
    let (mut state, _) = State::initial(problem);
    let mut pairs = Vec::new();
    for _ in 0..count {
        let free = state.unassigned();
        let var = *rng.pick(&free);
        let value = *rng.pick(&state.domains[var]);
        let pruning = state.assign(problem, var, value);
        if !pruning.emptied.is_empty() {
            return None;
        }
        pairs.push((var, value));
    }
    Some(pairs)
}

fn pose(problem: &Problem, text: String) -> Option<Drawn> {
    let right = forward_check(problem, false);
    let unassigned = right.unassigned();
    if unassigned.iter().any(|&v| right.domains[v].is_empty()) {
        return None;
    }
    let tied = most_constrained(&right);
    if tied.len() < 2 {
        return None;
    }
    let most = tied.iter().map(|&v| degree(problem, &right, v)).max()?;
    if tied.iter().filter(|&&v| degree(problem, &right, v) == most).count() != 1 {
        return None;
    }
    let next = next_variable(problem, &right)?;
    let alphabetical = next_alphabetical(&right)?;
    if next == alphabetical {
        return None;
    }
    let partial = forward_check(problem, true);
    let domains = |s: &State| {
        Answer::Domains(unassigned.iter().map(|&v| (problem.variables[v].name.clone(), s.domains[v].clone())).collect())
    };
    if domains(&partial) == domains(&right) {
        return None;
    }
    let name = |v: usize| problem.variables[v].name.clone();
    let names: Vec<String> = unassigned.iter().map(|&v| name(v)).collect();
    let vocab = Vocabulary { keys: names.clone(), values: Vec::new() };
    let order = problem.describe(&problem.assignment);
    let parts = vec![
        Part::new(
            DOMAINS,
            format!(
                "Make the assignment{} {order} in this order, each followed by forward checking. What is left in \
                 the domain of every unassigned variable: {}?",
                if problem.assignment.len() > 1 { "s" } else { "" },
                names.join(", ")
            ),
            vocab.clone(),
            "an unassigned variable",
            domains(&right),
        )
        .wrong(Misconception::ForwardCheckingSomeNeighbours, Some(domains(&partial))),
        Part::new(
            NEXT,
            "Which variable does backtracking search assign next, by the minimum-remaining-values heuristic with \
             ties broken by degree?"
                .to_string(),
            vocab,
            "an unassigned variable",
            Answer::Label(name(next)),
        )
        .wrong(Misconception::MrvTiesAlphabetical, Some(Answer::Label(name(alphabetical))))
        .wrong(
            Misconception::ForwardCheckingSomeNeighbours,
            next_variable(problem, &partial).map(|v| Answer::Label(name(v))),
        ),
    ];
    Some(Drawn { canonical: text.clone(), input: text, sheet: sheet(problem), parts })
}

fn sheet(problem: &Problem) -> Sheet {
    let names: Vec<String> = problem.variables.iter().map(|v| v.name.clone()).collect();
    let assigned = |v: usize| problem.assignment.iter().find(|&&(a, _)| a == v).map(|&(_, x)| x);
    let nodes: Vec<(String, Option<i64>)> = (0..names.len()).map(|v| (names[v].clone(), assigned(v))).collect();
    let edges: Vec<(usize, usize, String)> = problem
        .constraints
        .iter()
        .filter(|c| c.scope.len() == 2)
        .map(|c| (c.scope[0], c.scope[1], c.text.clone()))
        .collect();
    Sheet {
        intro: vec![format!(
            "The variables are {}, each with the domain in the table. The constraints are drawn as the edges of the \
             graph below and listed under it; the shaded variables are assigned, in the order {}.",
            names.join(", "),
            problem.describe(&problem.assignment)
        )],
        figure: Some(Figure {
            svg: super::sheet::svg::graph(&nodes, &edges),
            alt: "The constraint graph: one circle per variable, one labelled edge per constraint.".into(),
        }),
        blocks: vec![
            Block::Table {
                caption: "Domains:".into(),
                headers: vec!["variable".into(), "domain".into()],
                rows: problem
                    .variables
                    .iter()
                    .map(|v| vec![v.name.clone(), crate::keys::csp::report::set(&v.domain)])
                    .collect(),
            },
            Block::List {
                caption: "Constraints:".into(),
                items: problem.constraints.iter().map(|c| c.text.clone()).collect(),
            },
        ],
        conventions: vec![
            "Forward checking: after a variable is assigned, remove from the domain of every unassigned variable \
             that shares a constraint with it each value that violates that constraint."
                .into(),
            "MRV picks the unassigned variable with the fewest values left; a tie goes to the one with the most \
             constraints on other unassigned variables (the degree)."
                .into(),
            "Write a domain as its values in braces, such as {1, 3}; an empty domain is {}.".into(),
        ],
    }
}
