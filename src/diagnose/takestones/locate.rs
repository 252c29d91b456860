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
use super::proof::{prove, Case};
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

/// What probing found: the located causes, each with its proof; or, when no change the tool knows reproduces the
/// output, the symptoms (what differs) and where to look. A component is never named without its proof.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    /// Causes proven by a changed reference reproducing every case run (each carries its [`Located::proof`]).
    pub located: Vec<Located>,
    /// What differs, when nothing is proven: never named as a cause.
    pub symptoms: Vec<Located>,
    /// How to look, when nothing is proven (`your search visits 6 nodes where ...`).
    pub look: Option<String>,
    /// How many single changes and pairs were tried.
    pub tried: usize,
    /// How many cases each was tried on.
    pub cases: usize,
}

/// Probes the submission component by component, then names only what a changed reference reproduces on every
/// case run: `shrunk` (the smallest diverging case, what the program did there) and `also` (the other cases the
/// check ran) with every probe. Each probe position is run once, however many components ask for it.
pub fn locate(
    edition: Edition,
    submission: &mut impl FnMut(&Position, u32) -> Ran,
    shrunk: Option<(&Position, u32, &Ran)>,
    also: &[Case],
) -> Findings {
    let mut seen: Vec<((Position, u32), Ran)> = Vec::new();
    let mut index: HashMap<(Position, u32), usize> = HashMap::new();
    let mut run = |p: &Position, d: u32| {
        let key = (p.clone(), d);
        if let Some(&i) = index.get(&key) {
            return seen[i].1.clone();
        }
        let ran = submission(p, d);
        index.insert(key.clone(), seen.len());
        seen.push((key, ran.clone()));
        ran
    };
    let candidates = candidates(edition, &mut run, shrunk);
    let mut ran: Vec<Case> = also.to_vec();
    ran.extend(seen.into_iter().filter_map(|((position, depth), ran)| match ran {
        Ran::Printed(printed) => Some(Case { position, depth, printed }),
        Ran::Failed(_) => None,
    }));
    // The proof leads with the smallest diverging case; when that printed nothing (a first-move rule that finds no
    // move there), with the smallest case that printed something the spec does not accept. Every case that printed
    // takes part either way.
    let lead = match shrunk {
        Some((p, d, Ran::Printed(printed))) => Some(Case { position: p.clone(), depth: d, printed: printed.clone() }),
        Some(_) => ran
            .iter()
            .filter(|c| {
                accepted(&c.position, c.depth, edition).is_some_and(|a| !a.iter().any(|(t, _)| *t == c.printed))
            })
            .min_by_key(|c| (c.position.n(), c.depth))
            .cloned(),
        None => None,
    };
    let Some(lead) = lead else {
        return Findings { symptoms: candidates, ..Findings::default() };
    };
    let (sp, sd, printed) = (&lead.position, lead.depth, &lead.printed);
    let mut cases = vec![lead.clone()];
    cases.extend(ran);
    let proven = prove(edition, &cases);
    let mut findings = Findings { tried: proven.tried, cases: proven.cases, ..Findings::default() };
    if proven.sets.is_empty() {
        findings.look = Some(look(edition, sp, sd, printed));
        findings.symptoms = candidates;
        return findings;
    }
    let reference = MutantSolver::new(edition, &[]).output(sp, sd).unwrap_or_default();
    for (set, proof) in proven.sets {
        for change in &set {
            let kind = if change.is_bug() { CauseKind::Bug } else { CauseKind::LocatedComponent };
            let mut cause = Cause::new(change.name(), kind, change.sentence());
            let like = candidates.iter().find(|c| c.cause.name == change.name());
            match like {
                Some(c) => cause.evidence.extend(c.cause.evidence.iter().cloned()),
                None => {
                    cause = cause.with_evidence(format!("on `{} {sd}` {}", args(sp), contrast(printed, &reference)));
                }
            }
            if let Some(other) = set.iter().find(|o| o.name() != change.name()) {
                cause =
                    cause.with_evidence(format!("(only together with {} does it reproduce the output)", other.name()));
            }
            let (position, depth) = like.map_or((sp.clone(), sd), |c| (c.position.clone(), c.depth));
            if !findings.located.iter().any(|l| l.cause == cause) {
                findings.located.push(Located { cause, position, depth, proof: Some(proof.clone()) });
            }
        }
    }
    findings
}

/// Where to look when nothing is proven: the search's size against alpha-beta's in the spec's order when the move
/// and the value agree, else the first line that differs.
fn look(edition: Edition, p: &Position, depth: u32, printed: &str) -> String {
    let expected = MutantSolver::new(edition, &[]).output(p, depth).unwrap_or_default();
    match edition {
        Edition::Stats => {
            let agree = RESULT.iter().all(|l| field(printed, l) == field(&expected, l));
            let count = |t: &str, l: &str| field(t, l).unwrap_or("nothing").to_string();
            let (v, e) = ("Number of Nodes Visited:", "Number of Nodes Evaluated:");
            if agree {
                format!(
                    "your search visits {} nodes and evaluates {} where alpha-beta in the spec's order visits {} and \
                     evaluates {}: check the order of children, the cut condition and where each counter is \
                     incremented",
                    count(printed, v),
                    count(printed, e),
                    count(&expected, v),
                    count(&expected, e)
                )
            } else {
                format!(
                    "{}: check the evaluation of each kind of leaf, then the depth limit and the order of children",
                    contrast(printed, &expected)
                )
            }
        }
        Edition::Trace => {
            let nodes = |t: &str| t.lines().take_while(|l| l.trim() != "NEXT MOVE").count() / 3;
            format!(
                "your trace shows {} nodes where alpha-beta in the spec's order shows {}; {}: check the order of \
                 children, the cut condition and the bounds passed down",
                nodes(printed),
                nodes(&expected),
                contrast(printed, &expected)
            )
        }
    }
}

/// The findings of the probes, before the proof: what each component's probes show.
fn candidates(
    edition: Edition,
    run: &mut impl FnMut(&Position, u32) -> Ran,
    shrunk: Option<(&Position, u32, &Ran)>,
) -> Vec<Located> {
    let mut found = Vec::new();
    // The first-move rule first: it changes the root's children, and with them every count and value probed from
    // an empty table.
    let first_move = hypothesis::first_move(edition, shrunk, run);
    let rule_differs = first_move.is_some();
    found.extend(first_move);
    // Then the order and the cuts (and the other hypotheses, for their evidence); a trace shows the order children
    // are visited in, even one ply deep.
    let parts = hypothesis::order_and_cuts(edition, shrunk, run);
    let order = parts.iter().any(|l| l.cause.name == "child-order");
    found.extend(parts);
    let probes = EvalProbes { empty_roots: !rule_differs, two_children: !order };
    if let Some(evaluation) = locate_evaluation(edition, probes, run) {
        found.push(evaluation);
        return found;
    }
    if !order && !rule_differs {
        found.extend(locate_ties(edition, run));
    }
    if edition == Edition::Stats && found.is_empty() {
        found.extend(locate_counters(run, shrunk));
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
    Some(Located { cause, position: first.root, depth: 1, proof: None })
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
            return Some(Located { cause, position: p, depth, proof: None });
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
        found.push(Located { cause, position: p, depth, proof: None });
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

    /// A program that is the reference with `change` applied to its stats output (or one probe switched on).
    fn simulated(
        edition: Edition,
        change: impl Fn(&Position, u32) -> Option<String>,
    ) -> impl FnMut(&Position, u32) -> Ran {
        move |p: &Position, d: u32| match change(p, d) {
            Some(text) => Ran::Printed(text),
            None => Ran::Failed(super::super::outcome::Failure {
                how: format!("{edition:?} exited 1"),
                stderr: String::new(),
            }),
        }
    }

    /// The first small position where `program` prints something else than the reference: the shrunk case.
    fn shrunk_case(edition: Edition, program: &mut impl FnMut(&Position, u32) -> Ran) -> Option<(Position, u32, Ran)> {
        let reference = MutantSolver::new(edition, &[]);
        for n in 5..=12 {
            for p in positions(n, 2) {
                for d in [1, 2, 3, 0] {
                    let Some(expected) = reference.output(&p, d) else { continue };
                    let ran = program(&p, d);
                    if matches!(&ran, Ran::Printed(t) if first_difference(&expected, t).is_some()) {
                        return Some((p, d, ran));
                    }
                }
            }
        }
        None
    }

    #[test]
    fn each_hypothesis_is_named_with_its_proof_for_the_program_that_has_it() {
        for edition in [Edition::Stats, Edition::Trace] {
            for h in hypothesis::catalog() {
                let solver = MutantSolver::new(edition, &[]).probing(h.probe);
                let mut program = simulated(edition, |p, d| solver.output(p, d));
                // Some changes never show in an edition (the trace prints no counters).
                let Some((p, d, ran)) = shrunk_case(edition, &mut program) else { continue };
                let found = locate(edition, &mut program, Some((&p, d, &ran)), &[]);
                assert!(
                    found.located.iter().any(|l| l.cause.name == h.component),
                    "{edition:?} {:?}: {:#?}",
                    h.probe,
                    found.located
                );
                for l in &found.located {
                    let proof = l.proof.as_ref().unwrap();
                    assert_eq!(proof.cases[0], (p.clone(), d), "the shrunk case comes first");
                    assert!(proof.differing >= 1 && proof.cases.len() >= proof.differing);
                }
            }
        }
    }

    #[test]
    fn a_difference_no_change_reproduces_names_no_component() {
        let reference = MutantSolver::new(Edition::Stats, &[]);
        // The visited count one too many, but only where the search is cut by a depth limit: no hypothesis does it.
        let mut program = simulated(Edition::Stats, |p, d| {
            let text = reference.output(p, d)?;
            if d == 0 {
                return Some(text);
            }
            let count = text.lines().find_map(|l| l.strip_prefix("Number of Nodes Visited: "))?.parse::<u64>().ok()?;
            Some(text.replace(&format!("Visited: {count}\n"), &format!("Visited: {}\n", count + 1)))
        });
        let (p, d, ran) = shrunk_case(Edition::Stats, &mut program).unwrap();
        let found = locate(Edition::Stats, &mut program, Some((&p, d, &ran)), &[]);
        assert!(found.located.is_empty(), "{:#?}", found.located);
        assert!(found.tried > 100 && found.cases > 10, "{} tried on {} cases", found.tried, found.cases);
        let look = found.look.unwrap();
        let (theirs, spec) = (ran_visited(&ran), reference.output(&p, d).and_then(|t| visited(&t)).unwrap());
        assert!(look.contains(&format!("your search visits {theirs} nodes")), "{look}");
        assert!(look.contains(&format!("visits {spec} and")), "{look}");
    }

    fn visited(text: &str) -> Option<u64> {
        text.lines().find_map(|l| l.strip_prefix("Number of Nodes Visited: "))?.parse().ok()
    }

    fn ran_visited(ran: &Ran) -> u64 {
        match ran {
            Ran::Printed(t) => visited(t).unwrap(),
            Ran::Failed(_) => panic!("no output"),
        }
    }

    #[test]
    fn the_reference_itself_locates_nothing() {
        for edition in [Edition::Stats, Edition::Trace] {
            let reference = MutantSolver::new(edition, &[]);
            let mut run = |p: &Position, d: u32| Ran::Printed(reference.output(p, d).unwrap_or_default());
            let found = locate(edition, &mut run, None, &[]);
            assert!(found.located.is_empty() && found.symptoms.is_empty(), "{edition:?}");
        }
    }
}
