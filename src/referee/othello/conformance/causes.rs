//! Why a search function disagrees: the catalog of conventions and bugs replayed ([`super::variant`]) against
//! every answer the function gave, alone or in pairs, plus what only other evidence shows (node-call counts for a
//! missing pruning, bounds for fail-hard, the shape of a node's reply).
//!
//! A catalog entry is named only when it reproduces *all* of the function's answers. Conventions the template
//! leaves open come back as [`CauseKind::AcceptedReading`] and make the function pass; bugs as [`CauseKind::Bug`],
//! with one sentence for the student and the first call that shows it.

use serde_json::Value;

use super::cases::Case;
use super::function::{Form, Function};
use super::judge::{python_text, reply_value, Expected, MoveSet};
use super::plan::Call;
use super::reference::NodeAnswer;
use super::variant::{Convention, Leaf};
use crate::harness::cause::{Cause, CauseKind};

/// One catalog entry: a name, what it changes, and its sentence for the student.
struct Entry {
    name: &'static str,
    apply: fn(&mut Convention),
    sentence: &'static str,
}

/// The catalog, in the order causes are listed.
const CATALOG: [Entry; 7] = [
    Entry {
        name: "min-node-color-is-mover",
        apply: |c| c.mover_color = true,
        sentence: "Your Min node reads `color` as the player to move there and scores from the other side, while the \
                   template passes the root player's color to every node.",
    },
    Entry {
        name: "limit-at-root",
        apply: |c| c.root_deeper = true,
        sentence: "Your select function searches limit + 1 plies: it hands `limit` instead of `limit - 1` to the \
                   nodes below the root.",
    },
    Entry {
        name: "limit-in-nodes",
        apply: |c| c.stops_early = true,
        sentence: "The search stops a ply early: a node returns the utility when `limit` is 1 instead of 0.",
    },
    Entry {
        name: "utility-wrong-side",
        apply: |c| c.leaf = Leaf::Opponent,
        sentence: "Your utility is scored from the wrong side: the opponent's discs minus `color`'s.",
    },
    Entry {
        name: "utility-dark-minus-light",
        apply: |c| c.leaf = Leaf::DarkMinusLight,
        sentence: "Your utility is always dark minus light; it must be `color`'s discs minus the opponent's.",
    },
    Entry {
        name: "ties-to-last-move",
        apply: |c| c.ties_last = true,
        sentence: "On equal values you return the last of the best moves; the template keeps the first in \
                   get_possible_moves order.",
    },
    Entry {
        name: "pass-not-terminal",
        apply: |c| c.pass = true,
        sentence: "When the side to move has no legal move you pass the turn; in this game that position is \
                   terminal and its utility is returned.",
    },
];

/// The sentence of the min-node color convention where the template leaves it open.
const MOVER_READING: &str = "Your Min node reads `color` as the player to move there, an internally consistent \
                             convention the template without `limit` leaves open: accepted.";

/// What the catalog found for one function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Explained {
    /// Every entry (or pair) that reproduces all the answers, as causes.
    pub causes: Vec<Cause>,
    /// Whether some explanation is accepted readings only (the function then passes).
    pub accepted: bool,
}

/// What the function answered to each call (`None`: it raised, timed out or was not asked).
pub struct Answers<'a> {
    /// The function.
    pub function: Function,
    /// Its form.
    pub form: Form,
    /// The calls made, in order.
    pub calls: &'a [Call],
    /// The cases they index.
    pub cases: &'a [Case],
    /// One reply per call.
    pub replies: &'a [Option<Value>],
}

impl Answers<'_> {
    /// Whether `got` is what `convention` answers to call `i`.
    fn reproduces(&self, convention: &Convention, i: usize, got: &Value) -> bool {
        let call = &self.calls[i];
        let case = &self.cases[call.case];
        let f = self.function;
        if !super::judge::shape_ok(self.form, f, got) {
            return false;
        }
        let as_i32 = |v: i64| i32::try_from(v).unwrap_or(i32::MAX);
        if !f.searches() {
            return Expected::Utility(as_i32(convention.utility(&case.grid, case.color))).accepts(got);
        }
        // With a switch on, the order equal moves are met in is the student's: only values (and, for a select,
        // a move the check accepts) are compared.
        let switched = !call.switches.is_empty();
        if f.selects() {
            let prune =
                matches!(f, Function::SelectMoveAlphabeta | Function::AlphabetaMaxNode | Function::AlphabetaMinNode);
            let (moves, _) = convention.select(&case.grid, case.color, call.limit, prune);
            return moves.iter().any(|m| match m {
                Some(m) => Expected::Move(*m).accepts(got) || (switched && call.expected.accepts(got)),
                None => got.is_null(),
            });
        }
        let prune = f.takes_window();
        let (answer, _) = convention.node(&case.grid, case.color, f.is_min(), call.limit, prune);
        let value = as_i32(answer.value);
        match call.window {
            None if switched => Expected::Tied { value, moves: MoveSet::default() }.accepts(got),
            None => Expected::Node(NodeAnswer { best: answer.best, value }).accepts(got),
            Some((alpha, beta)) => Expected::Bound { value, alpha, beta }.accepts(got),
        }
    }

    /// Whether `convention` reproduces every answer; the failing calls are tried first.
    fn all_reproduced(&self, convention: &Convention, order: &[usize]) -> bool {
        order.iter().all(|&i| self.replies[i].as_ref().map_or(true, |got| self.reproduces(convention, i, got)))
    }

    /// The first call answered wrong in value or move (its index; a bare value of the right number is not).
    fn first_wrong(&self) -> Option<usize> {
        (0..self.calls.len())
            .find(|&i| self.replies[i].as_ref().is_some_and(|got| !self.calls[i].expected.accepts(got)))
    }
}

/// The catalog entries, alone and then in pairs, that reproduce every answer of a function with wrong answers.
pub fn explain(answers: &Answers<'_>) -> Explained {
    let Some(first) = answers.first_wrong() else { return bare_values(answers) };
    let wrong: Vec<usize> = (0..answers.calls.len())
        .filter(|&i| answers.replies[i].as_ref().is_some_and(|got| !answers.calls[i].expected.accepts(got)))
        .collect();
    let order: Vec<usize> =
        wrong.iter().copied().chain((0..answers.calls.len()).filter(|i| !wrong.contains(i))).collect();
    let with = |entries: &[&Entry]| {
        let mut c = Convention::default();
        for e in entries {
            (e.apply)(&mut c);
        }
        c
    };
    let mut found: Vec<Vec<&Entry>> =
        CATALOG.iter().filter(|e| answers.all_reproduced(&with(&[e]), &order)).map(|e| vec![e]).collect();
    if found.is_empty() {
        for (i, a) in CATALOG.iter().enumerate() {
            for b in &CATALOG[i + 1..] {
                let both_leaves = a.name.starts_with("utility") && b.name.starts_with("utility");
                if !both_leaves && answers.all_reproduced(&with(&[a, b]), &order) {
                    found.push(vec![a, b]);
                }
            }
        }
    }
    let call = &answers.calls[first];
    let case = &answers.cases[call.case];
    let got = answers.replies[first].as_ref().map(python_text).unwrap_or_default();
    let evidence = format!(
        "{} on {} (board = {}): the template gives {}, you gave {got}",
        call.describe(case),
        case.label,
        crate::game::othello::literal::format_board(&case.grid),
        call.expected.describe()
    );
    let mut out = Explained::default();
    for explanation in &found {
        let mut readings_only = true;
        for entry in explanation {
            let reading = entry.name == "min-node-color-is-mover" && answers.form == Form::WithoutLimit;
            readings_only &= reading;
            let (kind, sentence) =
                if reading { (CauseKind::AcceptedReading, MOVER_READING) } else { (CauseKind::Bug, entry.sentence) };
            let mut cause = Cause::new(entry.name, kind, sentence).with_evidence(evidence.clone());
            if explanation.len() == 2 {
                let other = explanation.iter().find(|e| e.name != entry.name).map_or("", |e| e.name);
                cause = cause.with_evidence(format!("(only together with {other} does it reproduce every answer)"));
            }
            if !out.causes.contains(&cause) {
                out.causes.push(cause);
            }
        }
        out.accepted |= readings_only;
    }
    out
}

/// Right values returned alone by a node function of the template with `limit`, which must return (move, value).
fn bare_values(answers: &Answers<'_>) -> Explained {
    let bare =
        answers.replies.iter().flatten().find(|got| !super::judge::shape_ok(answers.form, answers.function, got));
    let Some(got) = bare else { return Explained::default() };
    let cause = Cause::new(
        "value-without-move",
        CauseKind::Bug,
        "Your node function returns the value alone; in the template with `limit` it returns (move, value).",
    )
    .with_evidence(format!("{} returned {}", answers.function.name(), python_text(got)));
    Explained { causes: vec![cause], accepted: false }
}

/// Fail-hard bounds, an accepted reading: on the narrowed-window calls of an alpha-beta node that fell outside the
/// window, every answer was the bound itself (at least two such calls, so a coincidence is unlikely).
pub fn fail_hard(answers: &Answers<'_>) -> Option<Cause> {
    let mut outside = 0;
    for (call, reply) in answers.calls.iter().zip(answers.replies) {
        let (Some((alpha, beta)), Expected::Bound { value, .. }, Some(got)) = (call.window, call.expected, reply)
        else {
            continue;
        };
        let bound = if value <= alpha {
            alpha
        } else if value >= beta {
            beta
        } else {
            continue;
        };
        if reply_value(got) != Some(f64::from(bound)) {
            return None;
        }
        outside += 1;
    }
    (outside >= 2).then(|| {
        Cause::new(
            "fail-hard",
            CauseKind::AcceptedReading,
            "On a cutoff your alpha-beta node returns the bound itself (fail-hard); the template accepts that as \
             well as fail-soft.",
        )
    })
}

/// No pruning at all: the values agree, but every call of `select_move_alphabeta` made as many node-function
/// calls as minimax without pruning, and at least one made more than alpha-beta may. `counts` holds the node
/// calls the helper counted for each call (`None`: not counted).
pub fn no_pruning(answers: &Answers<'_>, counts: &[Option<u64>]) -> Option<(usize, Cause)> {
    if answers.function != Function::SelectMoveAlphabeta {
        return None;
    }
    let template = Convention::default();
    let shapes = |calls: super::variant::Calls| {
        let inner = calls.all - calls.limit_leaves;
        [calls.all, inner, calls.all.saturating_sub(1), inner.saturating_sub(1)]
    };
    let mut revealing = None;
    let mut counted = 0;
    for (i, call) in answers.calls.iter().enumerate() {
        let Some(got) = counts.get(i).copied().flatten().filter(|&n| n > 0) else { continue };
        if !call.switches.is_empty() {
            continue;
        }
        let case = &answers.cases[call.case];
        let pruned = shapes(template.select(&case.grid, case.color, call.limit, true).1);
        let plain = shapes(template.select(&case.grid, case.color, call.limit, false).1);
        if !plain.contains(&got) {
            return None;
        }
        counted += 1;
        if revealing.is_none() && !pruned.contains(&got) {
            revealing = Some((i, got, pruned[0]));
        }
    }
    let (i, got, pruned) = revealing.filter(|_| counted > 0)?;
    let call = &answers.calls[i];
    let case = &answers.cases[call.case];
    let cause = Cause::new(
        "no-pruning",
        CauseKind::Bug,
        "Your alpha-beta picks the right moves but prunes nothing: it makes as many node calls as minimax.",
    )
    .with_evidence(format!(
        "{} on {}: {got} node-function calls, as many as minimax makes; alpha-beta needs about {pruned}",
        call.describe(case),
        case.label
    ));
    Some((i, cause))
}
