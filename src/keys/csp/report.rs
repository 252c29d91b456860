//! The CSP key: forward checking from the partial assignment (the domains array), the heuristics' answers, whether
//! backtracking is needed, and optionally every step of the search, as text or markdown.

use super::forward::State;
use super::heuristics::{degree, most_constrained, most_constraining, value_order};
use super::problem::Problem;
use super::search::{solve, Search, Step};
use crate::keys::table::{Format, Table};

/// Forward checking from the partial assignment and the search from there.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The state after the assignment (up to a conflicting assignment, if there is one).
    pub state: State,
    /// Per variable, the values removed and by which constraint (index), in removal order.
    pub removed: Vec<Vec<(i64, usize)>>,
    /// An assigned value that an earlier assignment (or a unary constraint) had already removed: variable, value,
    /// constraint.
    pub conflict: Option<(usize, i64, usize)>,
    /// The search with forward checking from the state.
    pub search: Search,
}

/// Forward-checks the problem's assignment, in order, and searches from the result (at most `max_steps` steps).
pub fn analyse(problem: &Problem, max_steps: usize) -> Analysis {
    let (mut state, unary) = State::initial(problem);
    let mut removed = vec![Vec::new(); problem.variables.len()];
    let record = |removed: &mut Vec<Vec<(i64, usize)>>, rs: &[super::forward::Removal]| {
        for r in rs {
            removed[r.var].push((r.value, r.constraint));
        }
    };
    record(&mut removed, &unary.removed);
    let mut conflict = None;
    for &(var, value) in &problem.assignment {
        if !state.domains[var].contains(&value) {
            let by = removed[var].iter().find(|(v, _)| *v == value).map_or(0, |&(_, c)| c);
            conflict = Some((var, value, by));
            break;
        }
        let pruning = state.assign(problem, var, value);
        record(&mut removed, &pruning.removed);
    }
    let search = if conflict.is_some() {
        Search { steps: Vec::new(), solution: None, truncated: false }
    } else {
        solve(problem, &state, max_steps)
    };
    Analysis { state, removed, conflict, search }
}

/// `{1, 2}`.
pub fn set(values: &[i64]) -> String {
    let parts: Vec<String> = values.iter().map(ToString::to_string).collect();
    format!("{{{}}}", parts.join(", "))
}

fn names(problem: &Problem, vars: &[usize]) -> String {
    vars.iter().map(|&v| problem.variables[v].name.as_str()).collect::<Vec<_>>().join(", ")
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The key, ending with a newline; `steps` adds the search's steps.
pub fn render(problem: &Problem, a: &Analysis, steps: bool, format: Format) -> String {
    let mut out = String::new();
    let gap = "\n";
    let from = if problem.assignment.is_empty() {
        "Domains (nothing assigned)".to_string()
    } else {
        format!("Forward checking from {}", problem.describe(&problem.assignment))
    };
    out.push_str(&format.label(&from));
    out.push_str(&domains_table(problem, a).render(format));
    out.push_str(gap);
    if let Some((var, value, by)) = a.conflict {
        let c = &problem.constraints[by].text;
        out.push_str(&format!(
            "Conflict: {} = {value} was already ruled out by {c}; the assignment is inconsistent.\n",
            problem.variables[var].name
        ));
    }
    out.push_str(&heuristics(problem, &a.state, format));
    out.push_str(&format!("Backtracking: {}\n", backtracking(problem, a)));
    if let Some(solution) = &a.search.solution {
        let pairs: Vec<(usize, i64)> = solution.iter().copied().enumerate().collect();
        out.push_str(&format!("Solution: {}\n", problem.describe(&pairs)));
    }
    if steps {
        out.push_str(gap);
        out.push_str(&format.label("Backtracking search with forward checking (MRV, then degree, then LCV)"));
        out.push_str(&steps_table(problem, &a.search).render(format));
        out.push_str(gap);
        out.push_str(&outcome(problem, &a.search));
    }
    out
}

fn domains_table(problem: &Problem, a: &Analysis) -> Table {
    let mut t =
        Table::new(["variable", "remaining", "values", "constraints on unassigned", "removed (by)"]).right(2).right(3);
    for (v, var) in problem.variables.iter().enumerate() {
        let mut groups: Vec<(usize, Vec<i64>)> = Vec::new();
        for &(value, c) in &a.removed[v] {
            match groups.iter_mut().find(|(g, _)| *g == c) {
                Some((_, vals)) => vals.push(value),
                None => groups.push((c, vec![value])),
            }
        }
        let removed: Vec<String> = groups
            .iter()
            .map(|(c, vals)| {
                let vals: Vec<String> = vals.iter().map(ToString::to_string).collect();
                format!("{} ({})", vals.join(", "), problem.constraints[*c].text)
            })
            .collect();
        let removed = if removed.is_empty() { "-".to_string() } else { removed.join("; ") };
        match a.state.values[v] {
            Some(x) => t.row([var.name.clone(), format!("= {x} (assigned)"), String::new(), String::new(), removed]),
            None => t.row([
                var.name.clone(),
                set(&a.state.domains[v]),
                a.state.domains[v].len().to_string(),
                degree(problem, &a.state, v).to_string(),
                removed,
            ]),
        }
    }
    t
}

fn heuristics(problem: &Problem, state: &State, format: Format) -> String {
    let mut out = String::new();
    let constrained = most_constrained(state);
    let Some(&first) = constrained.first() else {
        return "Every variable is assigned.\n".into();
    };
    let left = state.domains[first].len();
    out.push_str(&format!(
        "Most constrained (fewest values left): {} ({})\n",
        names(problem, &constrained),
        plural(left, "value", "values")
    ));
    let constraining = most_constraining(problem, state);
    let Some(&pick) = constraining.first() else { return out };
    out.push_str(&format!(
        "Most constraining (most constraints on other unassigned variables): {} ({})\n",
        names(problem, &constraining),
        plural(degree(problem, state, pick), "constraint", "constraints")
    ));
    let effects = value_order(problem, state, pick);
    if let Some(best) = effects.first() {
        let tie = if constraining.len() > 1 { " (the first of them)" } else { "" };
        let verdict = if best.emptied.is_empty() { "" } else { ", but every value empties a domain" };
        out.push_str(&format!(
            "Least-constraining value for {}{tie}: {}{verdict}\n",
            problem.variables[pick].name, best.value
        ));
    }
    out.push('\n');
    let mut t = Table::new(["value", "removes", "leaves"]).right(0).right(1);
    for e in &effects {
        let neighbours: Vec<String> = state
            .unassigned()
            .into_iter()
            .filter(|&v| v != pick && e.after.domains[v].len() < state.domains[v].len())
            .map(|v| format!("{} {}", problem.variables[v].name, set(&e.after.domains[v])))
            .collect();
        let mut leaves = if neighbours.is_empty() { "-".to_string() } else { neighbours.join(", ") };
        if !e.emptied.is_empty() {
            leaves.push_str(&format!(" ({} emptied)", names(problem, &e.emptied)));
        }
        t.row([e.value.to_string(), e.removed.to_string(), leaves]);
    }
    out.push_str(&format.label(&format!("Values of {}, least constraining first", problem.variables[pick].name)));
    out.push_str(&t.render(format));
    out.push('\n');
    out
}

fn backtracking(problem: &Problem, a: &Analysis) -> String {
    if a.conflict.is_some() {
        return "needed: the assignment itself breaks a constraint.".into();
    }
    let emptied: Vec<usize> = a.state.unassigned().into_iter().filter(|&v| a.state.domains[v].is_empty()).collect();
    if !emptied.is_empty() {
        return format!("needed: forward checking left {} with no value.", names(problem, &emptied));
    }
    let s = &a.search;
    if s.truncated {
        return format!("unknown: the search from here did not finish within {} steps.", s.steps.len());
    }
    match (&s.solution, s.failed_tries()) {
        (Some(_), 0) if a.state.complete() => {
            "not needed: every variable is assigned and no constraint is broken.".into()
        }
        (Some(_), 0) => "not needed: no domain is empty, and the search from here reaches a solution without \
                         undoing a value."
            .into(),
        (Some(_), n) => format!(
            "needed: no domain is empty yet, but the search from here undoes {} before it finds a solution.",
            plural(n, "value", "values")
        ),
        (None, _) => "needed: no domain is empty yet, but no solution extends this assignment.".into(),
    }
}

fn steps_table(problem: &Problem, search: &Search) -> Table {
    let mut t = Table::new(["step", "depth", "action", "forward checking", "result"]).right(0).right(1);
    for (i, step) in search.steps.iter().enumerate() {
        let n = (i + 1).to_string();
        match step {
            Step::Try { depth, var, value, shrunk, emptied } => {
                let fc: Vec<String> =
                    shrunk.iter().map(|(v, d)| format!("{} {}", problem.variables[*v].name, set(d))).collect();
                let fc = if fc.is_empty() { "-".to_string() } else { fc.join(", ") };
                let result = if emptied.is_empty() {
                    String::new()
                } else {
                    format!("{} emptied: undo", names(problem, emptied))
                };
                t.row([n, depth.to_string(), format!("{} = {value}", problem.variables[*var].name), fc, result]);
            }
            Step::Exhausted { depth, var } => {
                let name = &problem.variables[*var].name;
                t.row([
                    n,
                    depth.to_string(),
                    format!("back from {name}"),
                    String::new(),
                    format!("no value of {name} left"),
                ]);
            }
        }
    }
    t
}

fn outcome(problem: &Problem, search: &Search) -> String {
    let steps = plural(search.steps.len(), "step", "steps");
    let undone = plural(search.failed_tries(), "value", "values");
    match &search.solution {
        _ if search.truncated => format!("Stopped after {steps} (raise --max-steps to go on).\n"),
        Some(solution) => {
            let pairs: Vec<(usize, i64)> = solution.iter().copied().enumerate().collect();
            format!("Solution after {steps} ({undone} undone): {}\n", problem.describe(&pairs))
        }
        None => format!("No solution: the search ends after {steps} with nothing left to try.\n"),
    }
}
