//! A cache that answers from a search it should not: wrong answers that come right when asked of a freshly
//! imported module, and then, each on a fresh import, the same board asked twice with one thing changed (the
//! color, the limit, the window) to tell which part its key leaves out.

use serde_json::Value;

use super::cases::Case;
use super::causes::Answers;
use super::function::Form;
use super::helper::{Helper, Reply};
use super::judge;
use super::plan::{self, Call};
use crate::game::othello::literal::format_board;
use crate::harness::cause::{Cause, CauseKind};

/// Wrong answers asked again of a fresh import to tell a stale cache from a wrong search.
pub const STALE_REPLAYS: usize = 4;

/// Whether `call` on `case` answers right (`Some(true)`), wrong, or not at all.
fn right(helper: &mut Helper, answers: &Answers<'_>, call: &Call, case: &Case, fresh: bool) -> Option<(bool, Value)> {
    let mut request = call.request(case);
    if fresh {
        request["fresh"] = Value::Bool(true);
    }
    match helper.call(&request) {
        Reply::Ok(value) => {
            let ok = call.expected.accepts(&value) && judge::shape_ok(answers.form, answers.function, &value);
            Some((ok, value))
        }
        _ => None,
    }
}

/// The calls of the function on `case` with the switches of `like` (the full-window call first).
fn calls_like(answers: &Answers<'_>, like: &Call, case: &Case) -> Vec<Call> {
    let form = if like.limit.is_some() { Form::WithLimit } else { answers.form };
    let mut calls = plan::calls_on(answers.function, form, like.case, case).unwrap_or_default();
    for c in &mut calls {
        c.switches.clone_from(&like.switches);
    }
    calls
}

/// One key probe: on a fresh import, `first` and then `second`; evidence when the second is wrong.
fn twice(
    helper: &mut Helper,
    answers: &Answers<'_>,
    first: (&Call, &Case),
    second: (&Call, &Case),
) -> Option<Vec<String>> {
    right(helper, answers, first.0, first.1, true)?;
    let (ok, got) = right(helper, answers, second.0, second.1, false)?;
    if ok {
        return None;
    }
    // The second call alone, on a fresh import, must be right: only then is the first call to blame.
    let (alone, _) = right(helper, answers, second.0, second.1, true)?;
    alone.then(|| {
        vec![
            format!("in a fresh Python: board = {}", format_board(&first.1.grid)),
            first.0.python(first.1),
            format!(
                "{}  # gives {}; the template gives {} (and so does this call on its own)",
                second.0.python(second.1),
                judge::python_text(&got),
                second.0.expected.describe()
            ),
        ]
    })
}

/// Wrong answers that come right when asked of a freshly imported module (at most [`STALE_REPLAYS`] are asked
/// again), with what the cache key leaves out when the probes can tell.
pub fn stale(helper: &mut Helper, answers: &Answers<'_>) -> Option<Cause> {
    let wrong: Vec<usize> = (0..answers.calls.len())
        .filter(|&i| answers.replies[i].as_ref().is_some_and(|got| !answers.calls[i].expected.accepts(got)))
        .take(STALE_REPLAYS)
        .collect();
    let first = *wrong.first()?;
    let mut fresh_answer = None;
    for &i in &wrong {
        let call = &answers.calls[i];
        match right(helper, answers, call, &answers.cases[call.case], true) {
            Some((true, value)) => {
                fresh_answer.get_or_insert(value);
            }
            _ => return None,
        }
    }
    let call = &answers.calls[first];
    let case = &answers.cases[call.case];
    let got = answers.replies[first].as_ref().map(judge::python_text).unwrap_or_default();
    let fresh = fresh_answer.as_ref().map(judge::python_text).unwrap_or_default();
    let seen = format!(
        "{} on {}: you gave {got} after earlier calls, and {fresh} (right) as the first call of a fresh import",
        call.describe(case),
        case.label
    );
    let (mut color, mut limit, mut window) = (None, None, None);
    for &i in &wrong {
        let like = &answers.calls[i];
        let base = &answers.cases[like.case];
        let other = Case { color: base.color.opponent(), ..base.clone() };
        let deeper = Case { limit: if base.limit < 4 { base.limit + 1 } else { base.limit - 1 }, ..base.clone() };
        let (here, there, deep) =
            (calls_like(answers, like, base), calls_like(answers, like, &other), calls_like(answers, like, &deeper));
        let full = |calls: &[Call]| calls.iter().find(|c| c.window.is_none()).cloned();
        if let (None, Some(a), Some(b)) = (&color, full(&here), full(&there)) {
            color = twice(helper, answers, (&a, base), (&b, &other));
        }
        if let (None, Some(a), Some(b)) = (&limit, full(&here), full(&deep)) {
            if like.limit.is_some() {
                limit = twice(helper, answers, (&a, base), (&b, &deeper));
            }
        }
        let narrow = here.iter().find(|c| c.window.is_some()).cloned();
        if let (None, Some(a), Some(b)) = (&window, narrow, full(&here)) {
            window = twice(helper, answers, (&a, base), (&b, base));
        }
    }
    let (name, sentence, probe) = match (color, limit, window) {
        (Some(c), Some(_), _) => (
            "cache-keyed-by-board",
            "Your cache outlives the search that filled it and is keyed by the board alone, so a board met again with \
             the other player to move or another limit returns a stale value.",
            Some(c),
        ),
        (Some(c), None, _) => (
            "cache-key-without-color",
            "Your cache key leaves out the color: the same board asked for the other player (at the same limit) \
             returns the value stored for the first.",
            Some(c),
        ),
        (None, Some(l), _) => (
            "cache-key-without-limit",
            "Your cache key leaves out the limit: the same board searched to another depth returns the value stored \
             for the first.",
            Some(l),
        ),
        (None, None, Some(w)) => (
            "cache-key-without-window",
            "Your alpha-beta cache returns a value found under one window for another window: a bound found with a \
             narrow window is not the node's value.",
            Some(w),
        ),
        (None, None, None) => (
            "stale-cache",
            "Your functions keep state between calls (a cache that outlives the search that filled it): the answers \
             come right when asked of a freshly imported module.",
            None,
        ),
    };
    let mut cause = Cause::new(name, CauseKind::Bug, sentence).with_evidence(seen);
    for line in probe.into_iter().flatten() {
        cause = cause.with_evidence(line);
    }
    Some(cause)
}
