//! Which function is faulty, and where inside it: run only after some function disagreed.
//!
//! Every function that disagreed is called again on its own ([`super::isolate`]). One that still disagrees is
//! faulty (`wrong-on-its-own`); one that agrees once the functions it calls are the reference's is only wrong
//! through them (`right-once-others-are`, naming them). A faulty function is then probed: asked at the leaf
//! (`limit` 0 and 1, and a position without moves), and its own calls read ([`super::inside`]) on the probes and on
//! the calls it got wrong; each part found to differ is a cause, with the smallest call that shows it written as
//! Python to paste.

use serde_json::Value;

use super::cases::Case;
use super::function::{Form, Function};
use super::helper::{Helper, Reply};
use super::inside::{self, Finding, Seen};
use super::isolate::{self, Alone, Answered, Logged, Verdict};
use super::judge::{self, Expected};
use super::plan::Call;
use super::proof::{self, Miss, Proof};
use super::reference;
use super::report::FunctionReport;
use crate::game::othello::Grid;
use crate::harness::cause::{Cause, CauseKind};

/// Parts named per function at most (the first ones found; later ones often follow from them).
pub const MAX_FINDINGS: usize = 3;

/// Wrong calls read per function.
pub const MAX_READ: usize = 8;

/// Boards asked at `limit` 0 per function (instant to answer: a leaf).
pub const LEAF_BOARDS: usize = 8;

/// One function's calls and answers from the check.
pub struct Checked {
    /// How it is called.
    pub form: Form,
    /// The calls made (and planned).
    pub calls: Vec<Call>,
    /// Per call: what it returned, or the exception it raised; `None` when it timed out or was not called.
    pub replies: Vec<Option<Result<Value, String>>>,
}

/// Isolates every function of `reports` that disagreed and adds what isolation and probing found to its causes.
/// `checked` holds each function's calls (in `reports` order), `cases` the boards they index.
pub fn locate(helper: &mut Helper, reports: &mut [FunctionReport], checked: &[Checked], cases: &[Case]) {
    let disagreed = |f: &FunctionReport| f.form.callable() && f.mismatches + f.errors > 0;
    let mut alone: Vec<Option<Alone>> = vec![None; reports.len()];
    for (k, f) in reports.iter().enumerate() {
        if !disagreed(f) {
            continue;
        }
        let c = &checked[k];
        alone[k] = Some(if f.function == Function::ComputeUtility {
            // It calls nothing of the template: its answers are its own already.
            utility_alone(c)
        } else {
            isolate::alone(helper, f.function, c.form, &c.calls, cases, &c.replies)
        });
    }
    let failing: Vec<Function> = reports.iter().filter(|f| f.failed()).map(|f| f.function).collect();
    // A function wrong on its own is named only with its proof: the reference with it replaced by the student's
    // reproduces every answer observed ([`proof`]).
    let mut proofs: Vec<Option<Result<Proof, Miss>>> = vec![None; reports.len()];
    for k in 0..reports.len() {
        if !alone[k].as_ref().is_some_and(|a| a.verdict() == Verdict::WrongAlone) {
            continue;
        }
        proofs[k] = Some(proof::prove(helper, reports[k].function, reports, checked, cases));
    }
    let faulty: Vec<Function> =
        reports.iter().zip(&proofs).filter(|(_, p)| matches!(p, Some(Ok(_)))).map(|(f, _)| f.function).collect();
    // What a function right on its own is wrong through: the faulty functions under it, through any number of
    // functions that are themselves only wrong through others.
    let functions: Vec<Function> = reports.iter().map(|r| r.function).collect();
    let under = |function: Function| -> Vec<Function> {
        let mut seen = vec![function];
        let mut stack = vec![function];
        let mut out = Vec::new();
        while let Some(f) = stack.pop() {
            let Some(k) = functions.iter().position(|g| *g == f) else { continue };
            let Some(a) = &alone[k] else { continue };
            for &callee in a.callees.iter().filter(|c| failing.contains(c)) {
                if seen.contains(&callee) {
                    continue;
                }
                seen.push(callee);
                if faulty.contains(&callee) {
                    out.push(callee);
                } else {
                    stack.push(callee);
                }
            }
        }
        out.sort_by_key(|f| Function::ALL.iter().position(|g| g == f));
        out
    };
    for k in 0..reports.len() {
        let Some(a) = &alone[k] else { continue };
        let function = reports[k].function;
        match (a.verdict(), proofs[k].take()) {
            (Verdict::WrongAlone, Some(Ok(proof))) => {
                let cause = wrong_alone(function, a, &checked[k], cases).with_evidence(proof.line());
                reports[k].causes.push(cause);
                reports[k].proof = Some(proof);
                let findings = probe(helper, function, &checked[k], a, cases);
                add_findings(&mut reports[k], &findings);
            }
            (Verdict::WrongAlone, miss) => {
                let symptom = unproven(function, a, miss.and_then(Result::err).as_ref());
                reports[k].symptoms.push(symptom);
            }
            (Verdict::RightAlone, _) => {
                let through = under(function);
                if through.is_empty() {
                    let callees = and_list(&beneath(function));
                    reports[k].symptoms.push(format!(
                        "your {} agrees on every call once the reference's {callees} are under it, so what differs \
                         is in the functions it calls; no one of them alone reproduces your answers, so none is \
                         named: check each of them on its own",
                        function.name()
                    ));
                }
                if let Some(cause) = right_alone(function, a, &through) {
                    reports[k].causes.push(cause);
                }
                // The catalogued tie bug is proven by its convention changing every node: say which of them keep
                // the last tie, proven one by one or not.
                let direct: Vec<Function> = a.callees.iter().copied().filter(|c| failing.contains(c)).collect();
                ties_through(&mut reports[k], if through.is_empty() { &direct } else { &through });
            }
            (Verdict::Unclear, _) => {}
        }
    }
    let verdicts: Vec<Option<Verdict>> = alone.iter().map(|a| a.as_ref().map(Alone::verdict)).collect();
    fit_catalog(reports, &verdicts);
}

/// Drops a catalogued cause whose sentence is about code the check found right: a cause about the node functions
/// or compute_utility named on a select whose nodes and compute_utility all agree, the Min node's color reading
/// named where that Min node agrees, and a select's own limit bug on a select that is right on its own.
fn fit_catalog(reports: &mut [FunctionReport], verdicts: &[Option<Verdict>]) {
    let failed: Vec<Function> = reports.iter().filter(|r| r.failed()).map(|r| r.function).collect();
    for (r, verdict) in reports.iter_mut().zip(verdicts) {
        let f = r.function;
        let nodes: Vec<Function> = beneath(f).into_iter().filter(|g| g.is_node()).collect();
        let nodes_fail = nodes.iter().any(|g| failed.contains(g));
        let min = nodes.iter().copied().find(|g| g.is_min());
        r.causes.retain(|c| match c.name.as_str() {
            "limit-in-nodes" | "pass-not-terminal" => f.is_node() || nodes_fail,
            "utility-wrong-side" | "utility-dark-minus-light" => {
                !f.selects() || nodes_fail || failed.contains(&Function::ComputeUtility)
            }
            "min-node-color-is-mover" => f.is_min() || min.is_some_and(|m| failed.contains(&m)),
            "limit-at-root" => *verdict != Some(Verdict::RightAlone),
            _ => true,
        });
    }
}

/// The catalog's tie cause on a function right on its own: its answers keep the last of equal moves, but only
/// because the functions under it do, so the sentence says so instead of blaming its own comparison.
fn ties_through(report: &mut FunctionReport, through: &[Function]) {
    if through.is_empty() {
        return;
    }
    let name = report.function.name();
    let Some(cause) = report.causes.iter_mut().find(|c| c.name == "ties-to-last-move") else { return };
    let them = and_list(through);
    let verb = if through.len() == 1 { "does" } else { "do" };
    cause.sentence = format!(
        "On equal values your {name} returns the last of the best moves because {them} {verb}; its own choice is \
         right, and the template keeps the first in get_possible_moves order."
    );
}

/// compute_utility's own answers, as an isolated run.
fn utility_alone(c: &Checked) -> Alone {
    let mut a = Alone { complete: true, ..Alone::default() };
    for (i, reply) in c.replies.iter().enumerate() {
        match reply {
            Some(Ok(value)) => {
                let right = c.calls[i].expected.accepts(value);
                a.asked += 1;
                if right {
                    a.agreed += 1;
                } else {
                    a.wrong += 1;
                }
                a.answered.push(Answered { call: i, reply: value.clone(), right, log: Vec::new() });
            }
            Some(Err(_)) => {
                a.asked += 1;
                a.raised += 1;
            }
            None => a.complete = false,
        }
    }
    a
}

/// `alphabeta_max_node and compute_utility`.
fn and_list(functions: &[Function]) -> String {
    let names: Vec<&str> = functions.iter().map(|f| f.name()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The template functions a function's search rests on, which isolation replaced.
fn beneath(function: Function) -> Vec<Function> {
    let family: &[Function] = match function {
        Function::ComputeUtility => &[],
        Function::SelectMoveMinimax | Function::MinimaxMaxNode | Function::MinimaxMinNode => {
            &[Function::MinimaxMaxNode, Function::MinimaxMinNode, Function::ComputeUtility]
        }
        Function::SelectMoveAlphabeta | Function::AlphabetaMaxNode | Function::AlphabetaMinNode => {
            &[Function::AlphabetaMaxNode, Function::AlphabetaMinNode, Function::ComputeUtility]
        }
    };
    family.iter().copied().filter(|f| *f != function).collect()
}

fn wrong_alone(function: Function, a: &Alone, c: &Checked, cases: &[Case]) -> Cause {
    let name = function.name();
    let sentence = if function == Function::ComputeUtility {
        format!("Your {name} is wrong on its own: it calls no other function of the template.")
    } else {
        format!(
            "Your {name} is wrong on its own: with the reference's {} under it, it still disagrees.",
            and_list(&beneath(function))
        )
    };
    let tally = if a.complete {
        format!("on its own: {} of {} calls disagree", a.wrong + a.raised, a.asked)
    } else {
        format!("on its own: {} of the {} calls made disagree (stopped there)", a.wrong + a.raised, a.asked)
    };
    let mut cause = Cause::new("wrong-on-its-own", CauseKind::LocatedComponent, sentence).with_evidence(tally);
    if let Some(first) = a.answered.iter().find(|x| !x.right) {
        let call = &c.calls[first.call];
        let case = &cases[call.case];
        cause = cause.with_evidence(format!(
            "{} [{}]: the template gives {}, yours gives {}",
            call.describe(case),
            case.label,
            call.expected.describe(),
            judge::python_text(&first.reply)
        ));
    }
    cause
}

/// What is said of a function wrong on its own whose replacement in the reference does not reproduce every answer
/// (`miss`: the first answer it does not give back): the symptom and how to look, naming nothing as the cause.
fn unproven(function: Function, a: &Alone, miss: Option<&Miss>) -> String {
    let name = function.name();
    let callees = and_list(&beneath(function));
    let over = if callees.is_empty() { String::new() } else { format!(" with the reference's {callees} under it") };
    let head = format!(
        "your {name} disagrees{over} ({} of {} calls), but the reference with only {name} replaced by yours does \
         not reproduce every answer of your module",
        a.wrong + a.raised,
        a.asked
    );
    match miss {
        Some(m) => {
            let then = if m.function == function {
                "then what it asks of the functions it calls".to_string()
            } else {
                format!("then {}", m.function.name())
            };
            format!(
                "{head}: on {} yours gives {}, it gives {}. More than one function differs and no single one \
                 accounts for your answers, so none is named: check {name} on its own, {then}, each against the \
                 template",
                m.call, m.observed, m.changed
            )
        }
        None => format!("{head}; none is named: check {name} on its own against the template"),
    }
}

fn right_alone(function: Function, a: &Alone, through: &[Function]) -> Option<Cause> {
    if through.is_empty() {
        return None;
    }
    let name = function.name();
    let them = and_list(through);
    let verb = if through.len() == 1 { "is" } else { "are" };
    let sentence = format!(
        "Your {name} is right once {them} {verb}: with the reference's {} under it, it agrees on every call; fix {them} \
         first.",
        and_list(&beneath(function))
    );
    Some(
        Cause::new("right-once-others-are", CauseKind::LocatedComponent, sentence)
            .with_evidence(format!("on its own: {} of {} calls agree", a.agreed, a.asked)),
    )
}

/// One probe call: the call, its board, and whether its answer on its own was right.
struct Probed<'a> {
    call: Call,
    case: &'a Case,
    reply: Value,
    log: Vec<Logged>,
}

/// The findings inside a function wrong on its own: from the leaf probes first, then from the calls it got wrong,
/// each with the smallest call that shows it.
fn probe(helper: &mut Helper, function: Function, c: &Checked, a: &Alone, cases: &[Case]) -> Vec<(Finding, String)> {
    let mut found: Vec<(Finding, (usize, u32, u32), String)> = Vec::new();
    let mut note = |finding: Finding, call: &Call, case: &Case, reply: &Value| {
        let size = (case.grid.size(), call.limit.unwrap_or(u32::MAX), discs(&case.grid));
        let text = paste(call, case, reply, &finding);
        match found.iter_mut().find(|(f, _, _)| f.key == finding.key) {
            Some(slot) if size < slot.1 => *slot = (finding, size, text),
            Some(_) => {}
            None => found.push((finding, size, text)),
        }
    };
    if function == Function::ComputeUtility {
        let answers: Vec<(Grid, crate::game::Player, f64)> = a
            .answered
            .iter()
            .filter_map(|x| {
                let case = &cases[c.calls[x.call].case];
                judge::number(&x.reply).map(|v| (case.grid, case.color, v))
            })
            .collect();
        if let Some(finding) = inside::utility(&answers) {
            let wrong = a.answered.iter().filter(|x| !x.right).min_by_key(|x| discs(&cases[c.calls[x.call].case].grid));
            if let Some(x) = wrong {
                let call = &c.calls[x.call];
                note(finding, call, &cases[call.case], &x.reply);
            }
        }
    } else {
        if function.is_node() && c.form == Form::WithLimit {
            let wrong: Vec<usize> = a.answered.iter().filter(|x| !x.right).map(|x| c.calls[x.call].case).collect();
            for p in leaf_probes(helper, function, cases, &wrong) {
                if let Some(finding) = read(function, &p.call, p.case, &p.reply, &p.log) {
                    note(finding, &p.call, p.case, &p.reply);
                }
            }
        }
        // Each wrong call is read as a fresh import answers it, so nothing a cache kept can stand in for the search;
        // one a fresh import answers right is a cache's doing, which the cache probes name.
        for x in a.answered.iter().filter(|x| !x.right).take(MAX_READ) {
            let call = &c.calls[x.call];
            let case = &cases[call.case];
            let Some((reply, log)) = isolated(helper, call, case) else { continue };
            if call.expected.accepts(&reply) {
                continue;
            }
            if let Some(finding) = read(function, call, case, &reply, &log) {
                note(finding, call, case, &reply);
            }
        }
    }
    found.into_iter().take(MAX_FINDINGS).map(|(f, _, text)| (f, text)).collect()
}

/// Reads one call made on its own ([`inside`]).
fn read(function: Function, call: &Call, case: &Case, reply: &Value, log: &[Logged]) -> Option<Finding> {
    let seen = Seen {
        function,
        grid: &case.grid,
        color: case.color,
        window: call.window.map_or((f64::NEG_INFINITY, f64::INFINITY), |(a, b)| (f64::from(a), f64::from(b))),
        limit: call.limit,
        ordering: call.switches.iter().any(|s| s == "ordering"),
        reply,
        log,
    };
    if function.selects() {
        inside::select(&seen)
    } else {
        inside::node(&seen)
    }
}

fn discs(grid: &Grid) -> u32 {
    grid.count(crate::game::Player::Max) + grid.count(crate::game::Player::Min)
}

/// `call` asked of a fresh import, on its own: what it returned and the calls it made (`None`: it raised or timed
/// out).
fn isolated(helper: &mut Helper, call: &Call, case: &Case) -> Option<(Value, Vec<Logged>)> {
    let mut request = call.request(case);
    request["isolate"] = Value::Bool(true);
    request["fresh"] = Value::Bool(true);
    if let Some(object) = request.as_object_mut() {
        object.remove("count");
    }
    match helper.call_logged(&request) {
        (Reply::Ok(reply), log) => Some((reply, log.iter().map(Logged::parse).collect())),
        _ => None,
    }
}

/// The node at the leaf, each asked on its own: `limit` 0 on up to [`LEAF_BOARDS`] 4x4 boards where its side has
/// a move (those it got wrong first, then the smallest), `limit` 1 on the two smallest, and `limit` 2 on the
/// smallest board where its side has no move. Only the wrong answers are kept.
fn leaf_probes<'a>(helper: &mut Helper, function: Function, cases: &'a [Case], wrong: &[usize]) -> Vec<Probed<'a>> {
    let side = |case: &Case| if function.is_min() { case.color.opponent() } else { case.color };
    // 4x4 boards only: a node that does not stop at its leaf searches on to the end of the game, which a 4x4
    // board reaches at once and a 6x6 one only after the timeout.
    let mut by_size: Vec<usize> = (0..cases.len()).filter(|&i| cases[i].grid.size() == 4).collect();
    by_size.sort_by_key(|&i| (cases[i].grid.size(), discs(&cases[i].grid)));
    let mut moving: Vec<usize> = Vec::new();
    for i in wrong.iter().filter(|&&i| cases[i].grid.size() == 4).chain(&by_size) {
        let case = &cases[*i];
        let known = moving.iter().any(|&m| cases[m].grid == case.grid && cases[m].color == case.color);
        if case.grid.has_move(side(case)) && !known && moving.len() < LEAF_BOARDS {
            moving.push(*i);
        }
    }
    let mut smallest: Vec<usize> = moving.clone();
    smallest.sort_by_key(|&i| (cases[i].grid.size(), discs(&cases[i].grid)));
    let stuck = by_size.iter().copied().find(|&i| !cases[i].grid.has_move(side(&cases[i])));
    let mut asked: Vec<(usize, u32)> = moving.iter().map(|&i| (i, 0)).collect();
    asked.extend(smallest.iter().take(2).map(|&i| (i, 1)));
    asked.extend(stuck.map(|i| (i, 2)));
    let mut out = Vec::new();
    for (index, limit) in asked {
        let case = &cases[index];
        let Ok(answer) = reference::node(&case.grid, case.color, function.is_min(), Some(limit)) else { continue };
        let call = Call {
            function,
            case: index,
            limit: Some(limit),
            window: None,
            expected: Expected::Node(answer),
            switches: Vec::new(),
        };
        if let Some((reply, log)) = isolated(helper, &call, case) {
            if !call.expected.accepts(&reply) {
                out.push(Probed { call, case, reply, log });
            }
        }
    }
    out
}

/// The call as Python to paste, what the template gives, what it gave and what it did.
fn paste(call: &Call, case: &Case, reply: &Value, finding: &Finding) -> String {
    format!(
        "board = {}\n{}\nthe template gives {}; yours gives {}: {}",
        crate::game::othello::literal::format_board(&case.grid),
        call.python(case),
        call.expected.describe(),
        judge::python_text(reply),
        finding.shown
    )
}

/// Adds each finding as a located cause (the catalog's tie cause gets the sentence the code fits).
fn add_findings(report: &mut FunctionReport, findings: &[(Finding, String)]) {
    for (finding, text) in findings {
        // Two findings of one part (a node that stops at limit 1 and searches on at 0) make one cause.
        let at =
            report.causes.iter().position(|c| c.name == finding.component && c.kind == CauseKind::LocatedComponent);
        let cause = match at {
            Some(k) => {
                let cause = &mut report.causes[k];
                cause.sentence = format!("{} {}", cause.sentence, finding.sentence);
                cause
            }
            None => {
                report.causes.push(Cause::new(
                    finding.component,
                    CauseKind::LocatedComponent,
                    finding.sentence.clone(),
                ));
                let last = report.causes.len() - 1;
                &mut report.causes[last]
            }
        };
        cause.evidence.extend(text.lines().map(String::from));
        let ties = match finding.key {
            "order:reversed" => Some(format!(
                "On equal values your {} returns the last of the best moves: it visits the moves from last to first, \
                 and the template keeps the first in get_possible_moves order.",
                report.function.name()
            )),
            "ties:last" => Some(format!(
                "On equal values your {} keeps the last best move (`>=` or `<=`); the template keeps the first in \
                 get_possible_moves order (strict `>` and `<`).",
                report.function.name()
            )),
            _ => None,
        };
        if let Some(sentence) = ties {
            match report.causes.iter_mut().find(|c| c.name == "ties-to-last-move") {
                Some(cause) => cause.sentence = sentence,
                None => report.causes.push(Cause::new("ties-to-last-move", CauseKind::Bug, sentence)),
            }
        }
    }
}
