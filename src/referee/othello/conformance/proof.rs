//! The proof gate of an Othello module: a function is named as located (`wrong-on-its-own`) only when the
//! reference with that one function replaced by the student's reproduces every answer the check observed, of
//! every function it checked, on every case it ran. Isolation alone ([`super::isolate`]) only shows that a function
//! disagrees over the reference's others; two wrong functions both disagree that way, and neither is the cause of
//! the other's answers.
//!
//! A function whose reference search never reaches the replaced one answers as the reference does, so its observed
//! answers must all be right; every other function is asked again of the helper as the reference over the
//! student's replaced function (a request with `replaced`), and must give back what it gave in the check (the same
//! wrong answer, the same exception, or a right answer where it was right).

use serde::Serialize;
use serde_json::Value;

use super::cases::Case;
use super::function::Function;
use super::helper::{Helper, Reply};
use super::judge;
use super::locate::Checked;
use super::report::FunctionReport;

/// The proof that one function accounts for every answer observed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proof {
    /// The student's function put in place of the reference's.
    pub replaced: Function,
    /// Per function checked: the answers the changed reference reproduced.
    pub reproduced: Vec<Reproduced>,
}

/// The answers of one function the changed reference reproduced.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reproduced {
    /// The function.
    pub function: Function,
    /// Calls whose observed answer it gave back.
    pub calls: usize,
    /// Of those, answers that differ from the template's.
    pub wrong: usize,
    /// Calls the changed reference did not answer in time (or could not be made), so not compared.
    pub unanswered: usize,
}

/// Why a function is not proven: the first observed answer the changed reference does not give back.
#[derive(Clone, Debug, PartialEq)]
pub struct Miss {
    /// The function whose answer it is.
    pub function: Function,
    /// The call, as Python (`minimax_min_node(board, 1, 2)`), with its case's label.
    pub call: String,
    /// What the student's module answered.
    pub observed: String,
    /// What the reference with the one function replaced answered.
    pub changed: String,
}

impl Proof {
    /// The proof in one line, for the cause's evidence.
    pub fn line(&self) -> String {
        let calls: usize = self.reproduced.iter().map(|r| r.calls).sum();
        let wrong: usize = self.reproduced.iter().map(|r| r.wrong).sum();
        format!(
            "proof: the reference with only {} replaced by yours reproduces all {calls} answers of the {} functions \
             checked ({wrong} of them wrong)",
            self.replaced.name(),
            self.reproduced.len()
        )
    }

    /// The proof function by function (`--explain`).
    pub fn detail(&self) -> Vec<String> {
        let mut out = vec![format!("changed: the reference's {} replaced by yours", self.replaced.name())];
        for r in &self.reproduced {
            let unanswered = if r.unanswered > 0 {
                format!("; {} not answered in time, not compared", r.unanswered)
            } else {
                String::new()
            };
            out.push(format!("reproduced: {}: {} calls ({} wrong{unanswered})", r.function.name(), r.calls, r.wrong));
        }
        out
    }
}

/// Whether the reference's `function` reaches `replaced` in its search (its own recursion included).
pub fn reaches(function: Function, replaced: Function) -> bool {
    use Function::*;
    if function == replaced || replaced == ComputeUtility {
        return true;
    }
    let family: &[Function] = match function {
        ComputeUtility => &[],
        SelectMoveMinimax | MinimaxMaxNode | MinimaxMinNode => &[MinimaxMaxNode, MinimaxMinNode],
        SelectMoveAlphabeta | AlphabetaMaxNode | AlphabetaMinNode => &[AlphabetaMaxNode, AlphabetaMinNode],
    };
    family.contains(&replaced)
}

/// Tries the reference with `replaced` (found wrong on its own) swapped for the student's on every call of every
/// callable function in `reports` (`checked` in the same order). Where the student's function asks the reference
/// about a limit below 0, which the template leaves undefined, the module's own function answers (the helper's
/// proof mode), so nothing but the replaced function differs from the module.
///
/// # Errors
/// The first answer the changed reference does not reproduce.
pub fn prove(
    helper: &mut Helper,
    replaced: Function,
    reports: &[FunctionReport],
    checked: &[Checked],
    cases: &[Case],
) -> Result<Proof, Miss> {
    let mut proof = Proof { replaced, reproduced: Vec::new() };
    let mut fresh = true;
    for (report, c) in reports.iter().zip(checked) {
        if !report.form.callable() {
            continue;
        }
        let function = report.function;
        let right = |v: &Value, i: usize| c.calls[i].expected.accepts(v) && judge::shape_ok(c.form, function, v);
        // The answers it got wrong first: a miss shows soonest there.
        let mut order: Vec<usize> = (0..c.calls.len()).collect();
        order.sort_by_key(|&i| matches!(&c.replies[i], Some(Ok(v)) if right(v, i)));
        let mut tally = Reproduced { function, calls: 0, wrong: 0, unanswered: 0 };
        let reached = reaches(function, replaced);
        if !reached && report.timeouts + report.skipped > 0 {
            // The reference answers in time what the student's function did not.
            let i = (0..c.calls.len()).find(|&i| c.replies[i].is_none()).unwrap_or(0);
            return Err(miss(function, c, i, cases, "no answer in time".into(), "an answer".into()));
        }
        for i in order {
            let Some(observed) = &c.replies[i] else { continue };
            let observed_right = matches!(observed, Ok(v) if right(v, i));
            if !reached {
                // The reference's own answer: only a right one is reproduced.
                if !observed_right {
                    let expected = c.calls[i].expected.describe();
                    return Err(miss(function, c, i, cases, text(observed), expected));
                }
            } else {
                let changed = if function == replaced && !replaced.searches() {
                    // compute_utility calls nothing of the template: replaced, it answers as it did.
                    observed.clone()
                } else if tally.unanswered >= super::MAX_TIMEOUTS {
                    continue;
                } else {
                    match ask(helper, replaced, &c.calls[i], &cases[c.calls[i].case], std::mem::take(&mut fresh)) {
                        Some(answer) => answer,
                        // The changed reference, slower through the grader than the module alone, gave no answer:
                        // nothing is shown either way by this call.
                        None => {
                            tally.unanswered += 1;
                            continue;
                        }
                    }
                };
                let same = match (observed, &changed) {
                    (Ok(o), Ok(v)) => (observed_right && right(v, i)) || equal(o, v),
                    (Err(o), Err(e)) => o == e,
                    _ => false,
                };
                if !same {
                    return Err(miss(function, c, i, cases, text(observed), text(&changed)));
                }
            }
            tally.calls += 1;
            tally.wrong += usize::from(!observed_right);
        }
        proof.reproduced.push(tally);
    }
    Ok(proof)
}

/// An answer as the student reads it.
fn text(r: &Result<Value, String>) -> String {
    match r {
        Ok(v) => judge::python_text(v),
        Err(e) => format!("raised {e}"),
    }
}

/// The miss at call `i` of `c` (a call of `function`).
fn miss(function: Function, c: &Checked, i: usize, cases: &[Case], observed: String, changed: String) -> Miss {
    let call = match c.calls.get(i) {
        Some(call) => {
            let case = &cases[call.case];
            format!("{} [{}]", call.describe(case), case.label)
        }
        None => function.name().to_string(),
    };
    Miss { function, call, observed, changed }
}

/// The reference's answer to `call` over the student's `replaced` (the helper's `replaced` request); `None` when it
/// gave none in time or the call could not be made.
fn ask(
    helper: &mut Helper,
    replaced: Function,
    call: &super::plan::Call,
    case: &Case,
    fresh: bool,
) -> Option<Result<Value, String>> {
    let mut request = call.request(case);
    request["isolate"] = Value::Bool(true);
    request["replaced"] = Value::from(replaced.name());
    if fresh {
        request["fresh"] = Value::Bool(true);
    }
    if let Some(object) = request.as_object_mut() {
        object.remove("count");
    }
    match helper.call(&request) {
        Reply::Ok(v) => Some(Ok(v)),
        Reply::Raised(why) => Some(Err(why)),
        Reply::Died(_) | Reply::Timeout => None,
    }
}

/// Two answers alike as Python compares them: numbers by value (3 and 3.0), sequences element by element.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q)),
        _ => match (judge::number(a), judge::number(b)) {
            (Some(x), Some(y)) => x == y || (x.is_nan() && y.is_nan()),
            _ => a == b,
        },
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use serde_json::json;
    use Function::*;

    #[test]
    fn a_function_reaches_only_what_the_reference_search_calls() {
        assert!(reaches(SelectMoveMinimax, ComputeUtility));
        assert!(reaches(SelectMoveMinimax, MinimaxMinNode));
        assert!(reaches(MinimaxMaxNode, MinimaxMinNode));
        assert!(!reaches(SelectMoveMinimax, AlphabetaMaxNode));
        assert!(!reaches(MinimaxMaxNode, SelectMoveMinimax));
        assert!(!reaches(ComputeUtility, MinimaxMaxNode));
        assert!(reaches(SelectMoveAlphabeta, SelectMoveAlphabeta));
    }

    #[test]
    fn answers_compare_as_python_does() {
        assert!(equal(&json!([[0, 1], 3]), &json!([[0, 1], 3.0])));
        assert!(!equal(&json!([[0, 1], 3]), &json!([[1, 0], 3])));
        assert!(!equal(&json!([0, 1]), &json!([0, 1, 2])));
        assert!(equal(&json!(null), &json!(null)));
        assert!(!equal(&json!(null), &json!(0)));
    }
}
