//! Locating a bug the catalog cannot name: the submission is run on probe positions built so that each one
//! isolates one component, and the components whose probes disagree with the reference are named.
//!
//! - Evaluation: depth-1 positions whose root has a single legal move (or the moves 1 and one other), so the
//!   printed value is the program's static evaluation of one known state: last move 1, a prime, a composite with a
//!   given largest prime factor, stone 1 still there, an end-of-game state; with either side to move.
//! - Ties: positions whose best root moves tie (a larger-stone tie-break would change the move).
//! - Counters (stats edition): tiny positions searched to the end and cut by a depth limit, read only where the
//!   move and the value already agree, so a difference can only come from the counter itself.
//!
//! Probes are ordinary positions in the course's input format, small enough to answer at once.

use super::hypothesis;
use super::mutant::MutantSolver;
pub use super::outcome::Located;
use super::outcome::{accepted, Ran};
use super::variant::Variant;
use std::collections::HashMap;

use crate::game::takestones::{follows, Position};
use crate::harness::cause::{Cause, CauseKind};
use crate::harness::compare::first_difference;
use crate::reference::takestones::Edition;

/// Most probes of one evaluation class.
const PER_CLASS: usize = 2;

/// What the state after the probe's move is, as the heuristic sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// No legal move: the end of the game.
    Terminal,
    /// Stone 1 is still on the table.
    StoneOne,
    /// The last move was 1.
    LastOne,
    /// The last move was a prime.
    Prime,
    /// The last move was composite, with this largest prime factor.
    Composite(u32),
}

impl Kind {
    fn phrase(self) -> String {
        match self {
            Kind::Terminal => "with no legal move (the end of the game)".into(),
            Kind::StoneOne => "where stone 1 is still on the table".into(),
            Kind::LastOne => "whose last move is 1".into(),
            Kind::Prime => "whose last move is a prime".into(),
            Kind::Composite(_) => "whose last move is composite".into(),
        }
    }
}

/// One probe of the evaluation: the root, and the state after its (scored) move.
#[derive(Clone, Debug)]
struct EvalProbe {
    root: Position,
    child: Position,
    kind: Kind,
    max_to_move: bool,
}

fn largest_prime_factor(mut x: u32) -> u32 {
    let mut largest = 1;
    let mut i = 2;
    while i * i <= x {
        while x % i == 0 {
            largest = i;
            x /= i;
        }
        i += 1;
    }
    if x > 1 {
        largest = x;
    }
    largest
}

fn available(p: &Position) -> Vec<u32> {
    (1..=p.n()).filter(|s| !p.taken().contains(s)).collect()
}

fn legal(p: &Position) -> Vec<u32> {
    available(p).into_iter().filter(|&s| follows(p.n(), p.last(), s)).collect()
}

/// The heuristic's class of `p` (the state a leaf would be scored in).
fn kind_of(p: &Position) -> Kind {
    if legal(p).is_empty() {
        return Kind::Terminal;
    }
    match p.last() {
        None => Kind::StoneOne,
        Some(_) if !p.taken().contains(&1) => Kind::StoneOne,
        Some(1) => Kind::LastOne,
        Some(m) if largest_prime_factor(m) == m => Kind::Prime,
        Some(m) => Kind::Composite(largest_prime_factor(m)),
    }
}

/// Every legal history of up to `plies` moves on `n` stones, in order (shortest and smallest stones first).
fn positions(n: u32, plies: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut layer = vec![Vec::<u32>::new()];
    for _ in 0..=plies {
        let mut next = Vec::new();
        for taken in &layer {
            let Ok(p) = Position::new(u64::from(n), taken.iter().map(|&s| u64::from(s)).collect()) else { continue };
            for s in legal(&p) {
                let mut t = taken.clone();
                t.push(s);
                next.push(t);
            }
            out.push(p);
        }
        layer = next;
    }
    out
}

/// The evaluation probes: up to [`PER_CLASS`] per class and side to move.
fn eval_probes() -> Vec<EvalProbe> {
    let mut probes: Vec<EvalProbe> = Vec::new();
    for n in 5..=16 {
        for root in positions(n, 5) {
            let moves = legal(&root);
            let scored = match moves.as_slice() {
                [only] => *only,
                [1, other] => *other,
                _ => continue,
            };
            let child = root.with_move(scored);
            let kind = kind_of(&child);
            if matches!(kind, Kind::Composite(q) if q > 7) {
                continue;
            }
            let max_to_move = child.taken().len() % 2 == 0;
            let seen = probes.iter().filter(|p| p.kind == kind && p.max_to_move == max_to_move).count();
            if seen < PER_CLASS {
                probes.push(EvalProbe { root, child, kind, max_to_move });
            }
        }
    }
    probes
}

/// `N K T1 .. TK`, as in the reference's arguments.
fn args(p: &Position) -> String {
    p.to_args().join(" ")
}

/// The submission's verdict on one probe: `None` when it agrees (under any accepted reading) on the `fields`
/// of the stats output (the whole output when `fields` is empty, and always in the trace edition), else what it
/// printed and the reference's output.
fn disagreement(
    edition: Edition,
    p: &Position,
    depth: u32,
    fields: &[&str],
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Option<(String, String)> {
    let outputs = accepted(p, depth, edition)?;
    let Ran::Printed(printed) = submission(p, depth) else { return None };
    let same = |o: &str| {
        if edition == Edition::Stats && !fields.is_empty() {
            fields.iter().all(|f| field(o, f).is_some() && field(o, f) == field(&printed, f))
        } else {
            first_difference(o, &printed).is_none()
        }
    };
    if outputs.iter().any(|(o, _)| same(o)) {
        return None;
    }
    Some((printed, outputs.into_iter().next().map(|(o, _)| o).unwrap_or_default()))
}

/// The lines of the stats output that carry the search's result (the counters aside).
const RESULT: [&str; 2] = ["Move:", "Value:"];

/// The line starting with `label` in `text` (stats edition), without the label.
fn field<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    text.lines().find_map(|l| l.strip_prefix(label)).map(str::trim)
}

/// "you print X where the spec gives Y": the first line that differs.
fn contrast(printed: &str, expected: &str) -> String {
    let first = expected.lines().zip(printed.lines()).find(|(e, p)| e != p);
    match first {
        Some((e, p)) => format!("you print `{p}` where the spec gives `{e}`"),
        None => {
            format!("you print {} line(s) where the spec gives {}", printed.lines().count(), expected.lines().count())
        }
    }
}

/// `1 multiple`, `3 multiples`.
fn several(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Why the spec scores the probe's state as it does.
fn reason(probe: &EvalProbe) -> String {
    let child = &probe.child;
    let left = available(child);
    let moves = legal(child);
    let side = if probe.max_to_move { "Max" } else { "Min" };
    match probe.kind {
        Kind::Terminal => format!("{side} is to move with no legal move and loses"),
        Kind::StoneOne => "stone 1 is still on the table, so the state scores 0".into(),
        Kind::LastOne => {
            format!(
                "the last move is 1 and {} left; {side} is to move",
                several(moves.len(), "legal move is", "legal moves are")
            )
        }
        Kind::Prime => {
            let m = child.last().unwrap_or(0);
            let count = moves.iter().filter(|s| *s % m == 0).count();
            format!(
                "{m} is prime and {} multiples of {m}; {side} is to move",
                several(count, "legal move is", "legal moves are")
            )
        }
        Kind::Composite(q) => {
            let m = child.last().unwrap_or(0);
            let count = left.iter().filter(|s| *s % q == 0).count();
            let remain = if count == 1 {
                format!("1 multiple of {q} remains")
            } else {
                format!("{count} multiples of {q} remain")
            };
            format!("the largest prime factor of {m} is {q}, and {remain} on the table; {side} is to move")
        }
    }
}

/// Probes the submission component by component; the causes of what differs (empty when every probe agrees).
/// `shrunk` is the smallest diverging case and what the program did there: no cause is named that it contradicts.
/// Each probe position is run once, however many components ask for it.
pub fn locate(
    edition: Edition,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
    shrunk: Option<(&Position, u32, &Ran)>,
) -> Vec<Located> {
    let mut seen: HashMap<(Position, u32), Ran> = HashMap::new();
    let mut run = |p: &Position, d: u32| seen.entry((p.clone(), d)).or_insert_with(|| submission(p, d)).clone();
    let mut found = Vec::new();
    // The first-move rule first: it changes the root's children, and with them every count and value probed from
    // an empty table.
    let first_move = hypothesis::first_move(edition, shrunk, &mut run);
    let rule_differs = first_move.is_some();
    found.extend(first_move);
    // Then the order and the cuts: a hypothesis is named only where the program prints exactly what it predicts
    // (with the spec's evaluation), and a trace shows the order children are visited in, even one ply deep.
    let parts = hypothesis::order_and_cuts(edition, shrunk, &mut run);
    let order = parts.iter().any(|l| l.cause.name == "child-order");
    found.extend(parts);
    let probes = EvalProbes { empty_roots: !rule_differs, two_children: !order };
    if let Some(evaluation) = locate_evaluation(edition, probes, &mut run) {
        found.push(evaluation);
        return found;
    }
    if !order && !rule_differs {
        found.extend(locate_ties(edition, &mut run));
    }
    if edition == Edition::Stats && found.is_empty() {
        found.extend(locate_counters(&mut run, shrunk));
    }
    found
}

/// Which evaluation probes can be read: those from an empty table only when the first-move rule is the spec's,
/// those with two children only when the children are visited in the spec's order.
#[derive(Clone, Copy, Debug)]
struct EvalProbes {
    empty_roots: bool,
    two_children: bool,
}

/// The evaluation probes' verdict.
fn locate_evaluation(
    edition: Edition,
    which: EvalProbes,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
) -> Option<Located> {
    let mut differ: Vec<(EvalProbe, String, String)> = Vec::new();
    let mut agree: Vec<EvalProbe> = Vec::new();
    let readable = |p: &EvalProbe| {
        (which.empty_roots || !p.root.taken().is_empty()) && (which.two_children || legal(&p.root).len() == 1)
    };
    for probe in eval_probes().into_iter().filter(readable) {
        match disagreement(edition, &probe.root, 1, &RESULT, submission) {
            Some((printed, expected)) => differ.push((probe, printed, expected)),
            None => agree.push(probe),
        }
    }
    let (first, printed, expected) = differ.first()?.clone();
    let mut kinds: Vec<Kind> = differ.iter().map(|(p, _, _)| p.kind).collect();
    kinds.sort();
    kinds.dedup_by(|a, b| std::mem::discriminant(a) == std::mem::discriminant(b));
    let phrases: Vec<String> = kinds.iter().map(|k| k.phrase()).collect();
    let same_kind = |a: Kind, b: Kind| std::mem::discriminant(&a) == std::mem::discriminant(&b);
    // One side only, when the other side's probes of the same classes agree.
    let side = [true, false].into_iter().find(|&max| {
        differ.iter().all(|(p, _, _)| p.max_to_move == max)
            && agree.iter().any(|a| a.max_to_move != max && kinds.iter().any(|k| same_kind(*k, a.kind)))
    });
    let side = side.map_or(String::new(), |max| format!(" with {} to move", if max { "Max" } else { "Min" }));
    let only = if agree.is_empty() { "" } else { "only " };
    let sentence = format!("Your evaluation differs {only}for states {}{side}.", phrases.join(" and for states "));
    let score = |text: &str| match edition {
        Edition::Stats => field(text, "Value:").map(String::from),
        Edition::Trace => None,
    };
    let shown = match (score(&printed), score(&expected)) {
        (Some(x), Some(y)) if x != y => format!("you score {x} where the spec gives {y}"),
        _ => contrast(&printed, &expected),
    };
    let cause = Cause::new("evaluation", CauseKind::LocatedComponent, sentence)
        .with_evidence(format!("after `{}` {shown} ({})", args(&first.child), reason(&first)))
        .with_evidence(format!(
            "{} of {} evaluation probes differ, {} agree",
            differ.len(),
            differ.len() + agree.len(),
            agree.len()
        ));
    Some(Located { cause, position: first.root, depth: 1 })
}

/// Positions whose best root moves tie: a larger-stone tie-break would print another move.
fn tie_probes(edition: Edition) -> Vec<(Position, u32)> {
    let reference = MutantSolver::new(edition, &[]);
    let larger = MutantSolver::new(edition, &[Variant::TieTowardLarger]);
    let mut out = Vec::new();
    for n in 5..=12 {
        for p in positions(n, 2) {
            if out.len() >= 3 {
                return out;
            }
            let (Some(a), Some(b)) = (reference.output(&p, 2), larger.output(&p, 2)) else { continue };
            if a != b {
                out.push((p, 2));
            }
        }
    }
    out
}

fn locate_ties(edition: Edition, submission: &mut impl FnMut(&Position, u32) -> Ran) -> Option<Located> {
    let label = match edition {
        Edition::Stats => "Move:",
        Edition::Trace => "NEXT MOVE",
    };
    for (p, depth) in tie_probes(edition) {
        let Some((printed, expected)) = disagreement(edition, &p, depth, &RESULT, submission) else { continue };
        let moves_differ = match edition {
            Edition::Stats => field(&printed, label) != field(&expected, label),
            Edition::Trace => {
                let after = |t: &str| t.lines().skip_while(|l| !l.starts_with(label)).nth(1).map(String::from);
                after(&printed) != after(&expected)
            }
        };
        let values_agree = edition == Edition::Trace || field(&printed, "Value:") == field(&expected, "Value:");
        if moves_differ && values_agree {
            let cause = Cause::new(
                "tie-break",
                CauseKind::LocatedComponent,
                "Your choice among equally good moves differs: the spec keeps the first (smallest) best stone.",
            )
            .with_evidence(format!(
                "on `{} {depth}`, where best moves tie, {}",
                args(&p),
                contrast(&printed, &expected)
            ));
            return Some(Located { cause, position: p, depth });
        }
    }
    None
}

/// The counters of the stats output, with their cause names.
const COUNTERS: [(&str, &str, &str); 4] = [
    ("Number of Nodes Visited:", "visited-count", "number of nodes visited"),
    ("Number of Nodes Evaluated:", "evaluated-count", "number of nodes evaluated"),
    ("Max Depth Reached:", "max-depth", "max depth reached"),
    ("Avg Effective Branching Factor:", "branching-factor", "average effective branching factor"),
];

/// The counters, read where the move and the value agree. None is named when the shrunk case's move or value
/// differs (a counter cannot explain that), and the shrunk case counts among the probes, so a difference "only on
/// positions searched to the end" is never claimed under a shrunk case with a depth limit.
fn locate_counters(
    submission: &mut impl FnMut(&Position, u32) -> Ran,
    shrunk: Option<(&Position, u32, &Ran)>,
) -> Vec<Located> {
    let mut probes: Vec<(Position, u32)> = Vec::new();
    if let Some((p, depth, Ran::Printed(printed))) = shrunk {
        let expected = accepted(p, depth, Edition::Stats).and_then(|o| o.into_iter().next()).map(|(o, _)| o);
        let head = |text: &str| RESULT.map(|l| field(text, l).map(String::from));
        if expected.is_some_and(|e| head(&e) != head(printed)) {
            return Vec::new();
        }
        probes.push((p.clone(), depth));
    }
    // Searched to the end (every leaf an end of game) and cut by a depth limit of 2.
    for n in [5u32, 6, 7, 8, 9] {
        if let Ok(p) = Position::new(u64::from(n), Vec::new()) {
            probes.push((p.clone(), 0));
            probes.push((p, 2));
        }
    }
    let mut found: Vec<Located> = Vec::new();
    let mut differs: Vec<(&str, bool)> = Vec::new();
    let mut agrees: Vec<(&str, bool)> = Vec::new();
    let mut first: Vec<(&str, Position, u32, String, String)> = Vec::new();
    for (p, depth) in probes {
        let outputs = accepted(&p, depth, Edition::Stats);
        let Some(expected) = outputs.and_then(|o| o.into_iter().next()).map(|(o, _)| o) else { continue };
        let printed = match disagreement(Edition::Stats, &p, depth, &[], submission) {
            Some((printed, _)) => printed,
            None => {
                agrees.extend(COUNTERS.iter().map(|c| (c.1, depth == 0)));
                continue;
            }
        };
        let head_agrees = ["Move:", "Value:"].iter().all(|l| field(&printed, l) == field(&expected, l));
        if !head_agrees {
            continue;
        }
        for (label, name, _) in COUNTERS {
            let (x, y) = (field(&printed, label), field(&expected, label));
            if x == y {
                agrees.push((name, depth == 0));
            } else {
                differs.push((name, depth == 0));
                if !first.iter().any(|f| f.0 == name) {
                    let mut y: String = y.unwrap_or("").into();
                    if name == "branching-factor" {
                        // The exact value, which one decimal may hide (1.75 prints as 1.8).
                        let count = |l: &str| field(&expected, l).and_then(|v| v.parse::<f64>().ok());
                        if let (Some(v), Some(e)) = (count(COUNTERS[0].0), count(COUNTERS[1].0)) {
                            y = format!("{y} (exactly ({v} - 1) / ({v} - {e}) = {})", (v - 1.0) / (v - e));
                        }
                    }
                    first.push((name, p.clone(), depth, x.unwrap_or("nothing").into(), y));
                }
            }
        }
    }
    let visited_or_evaluated = first.iter().any(|f| f.0 == "visited-count" || f.0 == "evaluated-count");
    for (name, p, depth, x, y) in first {
        // The branching factor follows from the two counts: name it only when they agree.
        if name == "branching-factor" && visited_or_evaluated {
            continue;
        }
        let what = COUNTERS.iter().find(|c| c.1 == name).map_or(name, |c| c.2);
        let whole = differs.iter().filter(|d| d.0 == name).all(|d| d.1);
        let limited = differs.iter().filter(|d| d.0 == name).all(|d| !d.1);
        let other_agrees = |end: bool| agrees.iter().any(|a| a.0 == name && a.1 != end);
        let scope = if whole && other_agrees(true) {
            " only on positions searched to the end of the game (depth 0), where every leaf is an end-of-game state"
        } else if limited && other_agrees(false) {
            " only when the depth limit cuts the search"
        } else {
            ""
        };
        let cause = Cause::new(
            name,
            CauseKind::LocatedComponent,
            format!("Your {what} differs{scope}, while the move and the value agree."),
        )
        .with_evidence(format!("on `{} {depth}` you print {x} where the spec gives {y}", args(&p)));
        found.push(Located { cause, position: p, depth });
    }
    found
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn probes_cover_every_class_with_both_sides() {
        let probes = eval_probes();
        for kind in [Kind::Terminal, Kind::StoneOne, Kind::LastOne, Kind::Prime, Kind::Composite(2), Kind::Composite(3)]
        {
            for max in [true, false] {
                assert!(probes.iter().any(|p| p.kind == kind && p.max_to_move == max), "{kind:?} max={max}");
            }
        }
        assert!(probes.iter().all(|p| accepted(&p.root, 1, Edition::Stats).is_some()));
        assert!(!tie_probes(Edition::Stats).is_empty() && !tie_probes(Edition::Trace).is_empty());
    }

    #[test]
    fn the_reference_itself_locates_nothing() {
        for edition in [Edition::Stats, Edition::Trace] {
            let reference = MutantSolver::new(edition, &[]);
            let mut run = |p: &Position, d: u32| Ran::Printed(reference.output(p, d).unwrap_or_default());
            assert!(locate(edition, &mut run, None).is_empty(), "{edition:?}");
        }
    }
}
