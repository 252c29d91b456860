//! Which calls the check makes: each callable function on each case it applies to, with the right answer.
//!
//! A select function is only asked when `color` has a move (as the game manager does). The form without `limit`
//! searches to the end, so it is only asked on small 4x4 boards ([`Case::full_depth`]). Alpha-beta node functions
//! are asked once with the full window (exact comparison) and once with a narrowed window around, below or above
//! the true value (any correct bound accepted). Functions with `caching`/`ordering` are asked again with each switch
//! on alone ([`switched_on`]).

use serde_json::{json, Value};

use super::cases::Case;
use super::function::{Form, Function};
use super::judge::{Expected, MoveSet};
use super::reference::{self, NodeAnswer};
use crate::game::othello::SizeError;

/// One call of a student function.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The function.
    pub function: Function,
    /// Index of the case in the case list.
    pub case: usize,
    /// The limit passed (`None`: the form without `limit`, or `compute_utility`).
    pub limit: Option<u32>,
    /// The window passed to an alpha-beta node (`None`: the full window, or not an alpha-beta node).
    pub window: Option<(i32, i32)>,
    /// The right answer.
    pub expected: Expected,
    /// The switches (`caching`, `ordering`) passed as 1; empty: every switch the function has gets 0.
    pub switches: Vec<String>,
}

impl Call {
    /// The call as Python source, the board written `board`: `select_move_minimax(board, 1, 3)`.
    pub fn describe(&self, case: &Case) -> String {
        let mut args = vec!["board".to_string(), case.color_number().to_string()];
        if self.function.takes_window() {
            let (a, b) = self.window.map_or(("-inf".into(), "inf".into()), |(a, b)| (a.to_string(), b.to_string()));
            args.extend([a, b]);
        }
        if let Some(limit) = self.limit {
            args.push(limit.to_string());
        }
        args.extend(self.switches.iter().map(|s| format!("{s}=1")));
        format!("{}({})", self.function.name(), args.join(", "))
    }

    /// The call as Python a student can paste after `board = ...`: `alphabeta_min_node(board, 1, float("-inf"),
    /// float("inf"), 0, caching=1)`.
    pub fn python(&self, case: &Case) -> String {
        let bound = |x: Option<i32>, inf: &str| x.map_or_else(|| format!("float(\"{inf}\")"), |v| v.to_string());
        let mut args = vec!["board".to_string(), case.color_number().to_string()];
        if self.function.takes_window() {
            args.push(bound(self.window.map(|w| w.0), "-inf"));
            args.push(bound(self.window.map(|w| w.1), "inf"));
        }
        if let Some(limit) = self.limit {
            args.push(limit.to_string());
        }
        args.extend(self.switches.iter().map(|s| format!("{s}=1")));
        format!("{}({})", self.function.name(), args.join(", "))
    }

    /// The request line for the helper (without its id).
    pub fn request(&self, case: &Case) -> Value {
        let n = case.grid.size();
        let board: Vec<Vec<u8>> = (0..n).map(|r| (0..n).map(|c| case.grid.get(r, c)).collect()).collect();
        let mut request = json!({ "call": self.function.name(), "board": board, "color": case.color_number() });
        if let Some(limit) = self.limit {
            request["limit"] = json!(limit);
        }
        if self.function.takes_window() {
            let (alpha, beta) = self.window.map_or((json!("-inf"), json!("inf")), |(a, b)| (json!(a), json!(b)));
            request["alpha"] = alpha;
            request["beta"] = beta;
        }
        if !self.switches.is_empty() {
            request["switches"] = json!(self.switches);
        } else if self.function == Function::SelectMoveAlphabeta {
            // Its node calls are counted, to tell alpha-beta from minimax.
            request["count"] = json!(true);
        }
        request
    }
}

/// The calls of `function` in `form` over `cases`, in case order.
///
/// # Errors
/// [`SizeError`] if a case's board is not one the rules support (the check's cases always are).
pub fn calls(function: Function, form: Form, cases: &[Case]) -> Result<Vec<Call>, SizeError> {
    let mut out = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        out.extend(calls_on(function, form, index, case)?);
    }
    Ok(out)
}

/// The calls of `function` in `form` on one case (`index` in the case list): none, one, or for an alpha-beta node
/// the full window and a narrowed one.
///
/// # Errors
/// [`SizeError`] if the board is not one the rules support.
pub fn calls_on(function: Function, form: Form, index: usize, case: &Case) -> Result<Vec<Call>, SizeError> {
    let mut out = Vec::new();
    if !form.callable() || (function.selects() && !case.can_move()) {
        return Ok(out);
    }
    let limit = match (function.searches(), form) {
        (false, _) => None,
        (true, Form::WithLimit) => Some(case.limit),
        (true, _) if case.full_depth() => None,
        (true, _) => return Ok(out),
    };
    let call = |expected, window| Call { function, case: index, limit, window, expected, switches: Vec::new() };
    if !function.searches() {
        out.push(call(Expected::Utility(reference::utility(&case.grid, case.color)), None));
        return Ok(out);
    }
    let answer = reference::node(&case.grid, case.color, function.is_min(), limit)?;
    if function.selects() {
        out.extend(answer.best.map(|best| call(Expected::Move(best), None)));
        return Ok(out);
    }
    out.push(call(Expected::Node(answer), None));
    if function.takes_window() && answer.best.is_some() {
        let (alpha, beta) = narrowed(answer, index);
        out.push(call(Expected::Bound { value: answer.value, alpha, beta }, Some((alpha, beta))));
    }
    Ok(out)
}

/// The calls again with each switch on alone (`switches`: the ones the function takes), on the first `fixed`
/// cases of `cases` that are 4x4 (cheap to search twice). With `caching` on, each board is asked again right away
/// with the other color at the same limit (`twins` pairs a case with that twin), so a cache whose key leaves
/// something out answers the second call from the first.
///
/// A switch may change which of equal moves is met first, so any move worth the right value is right, and a
/// window call's bound rules are as without it. The one exception is the course's own test: it holds
/// `select_move_alphabeta` with caching on to the move it picks without.
///
/// # Errors
/// [`SizeError`] if a case's board is not one the rules support.
pub fn switched_on(
    function: Function,
    form: Form,
    switches: &[String],
    cases: &[Case],
    fixed: usize,
    twins: &[(usize, usize)],
) -> Result<Vec<Call>, SizeError> {
    let mut out = Vec::new();
    for switch in switches {
        for index in (0..fixed.min(cases.len())).filter(|&i| cases[i].grid.size() == 4) {
            let twin = twins.iter().find(|(of, _)| *of == index).map(|&(_, twin)| twin);
            let asked = std::iter::once(index).chain(twin.filter(|_| switch == "caching"));
            for at in asked {
                let mut on = calls_on(function, form, at, &cases[at])?;
                if switch == "caching" {
                    // The narrowed window first: a cache that keeps a bound found under it as the node's value
                    // then answers the full window wrong.
                    on.reverse();
                }
                for call in on {
                    let expected = relaxed(function, switch, &call, &cases[at])?;
                    out.push(Call { switches: vec![switch.clone()], expected, ..call });
                }
            }
        }
    }
    Ok(out)
}

/// What is right for `call` with `switch` on (see [`switched_on`]).
fn relaxed(function: Function, switch: &str, call: &Call, case: &Case) -> Result<Expected, SizeError> {
    let tied = || reference::tied_moves(&case.grid, case.color, function.is_min(), call.limit).map(|m| MoveSet::of(&m));
    Ok(match call.expected {
        Expected::Node(answer) => Expected::Tied { value: answer.value, moves: tied()? },
        Expected::Move(_) if function == Function::SelectMoveAlphabeta && switch == "caching" => call.expected,
        Expected::Move(_) => Expected::AnyMove(tied()?),
        other => other,
    })
}

/// A window around the true value, entirely above it, or entirely below it, in turn by case index.
fn narrowed(answer: NodeAnswer, index: usize) -> (i32, i32) {
    let v = answer.value;
    match index % 3 {
        0 => (v - 2, v + 2),
        1 => (v + 1, v + 5),
        _ => (v - 5, v - 1),
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::othello::literal::format_board;

    #[test]
    fn forms_decide_which_cases_are_asked() {
        let cases = super::super::cases::fixed();
        let with = calls(Function::SelectMoveMinimax, Form::WithLimit, &cases).unwrap();
        let without = calls(Function::SelectMoveMinimax, Form::WithoutLimit, &cases).unwrap();
        assert_eq!(with.len(), cases.iter().filter(|c| c.can_move()).count());
        assert!(!without.is_empty() && without.len() < with.len());
        assert!(without.iter().all(|c| c.limit.is_none() && cases[c.case].full_depth()));
        assert!(calls(Function::MinimaxMaxNode, Form::Unsupported, &cases).unwrap().is_empty());
        let ab = calls(Function::AlphabetaMinNode, Form::WithLimit, &cases).unwrap();
        assert!(ab.iter().any(|c| c.window.is_some()) && ab.iter().any(|c| c.window.is_none()));
    }

    #[test]
    fn calls_read_as_python_and_requests_carry_the_board() {
        let cases = super::super::cases::fixed();
        let ab = calls(Function::AlphabetaMaxNode, Form::WithLimit, &cases).unwrap();
        let first = &ab[0];
        assert_eq!(first.describe(&cases[0]), "alphabeta_max_node(board, 1, -inf, inf, 1)");
        assert_eq!(first.python(&cases[0]), "alphabeta_max_node(board, 1, float(\"-inf\"), float(\"inf\"), 1)");
        let request = first.request(&cases[0]);
        assert_eq!(request["board"][1], json!([0, 2, 1, 0]));
        assert_eq!((request["alpha"].clone(), request["limit"].clone()), (json!("-inf"), json!(1)));
        assert_eq!(format_board(&cases[0].grid), "((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))");
    }
}
