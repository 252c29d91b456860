//! Looking inside a function that is wrong on its own: what the calls it made itself ([`super::isolate::Logged`])
//! say about its parts. Each reading compares one thing the student's code did with what the template does at that
//! point (what a leaf returns, which function it calls for the replies, with which board, color, limit and window,
//! in which order, when it stops, and which value and move it keeps) and stops at the first difference, since later
//! ones follow from it. A [`Finding`] says what differs in one sentence and what the call showed.

use serde_json::Value;

use super::function::Function;
use super::isolate::{color_number, Logged};
use super::judge::{self, python_text};
use super::reference;
use crate::game::othello::{Board, Grid, Move};
use crate::game::Player;

/// One part of a function found to differ from the template.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The part: `leaf`, `terminal`, `limit`, `recursion`, `moves`, `color`, `order`, `window`, `cut`, `best`,
    /// `ties`, `utility`, `cache-key`.
    pub component: &'static str,
    /// Which difference of that part (findings with the same key are the same finding on other calls).
    pub key: &'static str,
    /// What the code does, for the student.
    pub sentence: String,
    /// What the call showed (values and calls, in Python's words).
    pub shown: String,
}

/// One call of a function on its own, as [`node`] and [`select`] read it.
#[derive(Clone, Copy, Debug)]
pub struct Seen<'a> {
    /// The function.
    pub function: Function,
    /// The board asked about.
    pub grid: &'a Grid,
    /// The root player.
    pub color: Player,
    /// The window asked with (the full window for a call without one).
    pub window: (f64, f64),
    /// The limit asked with (`None`: the form without `limit`).
    pub limit: Option<u32>,
    /// Whether `ordering` was on (the order of the moves is then the student's to choose).
    pub ordering: bool,
    /// What it returned.
    pub reply: &'a Value,
    /// The calls it made itself.
    pub log: &'a [Logged],
}

/// A number as Python prints it: `3`, `-inf`, `2.5`.
pub fn show(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn show_move(m: Move) -> String {
    format!("({}, {})", m.col, m.row)
}

/// The node function a node calls for the replies: the other side's node of the same family.
pub fn partner(f: Function) -> Function {
    match f {
        Function::MinimaxMaxNode | Function::SelectMoveMinimax => Function::MinimaxMinNode,
        Function::MinimaxMinNode => Function::MinimaxMaxNode,
        Function::AlphabetaMaxNode | Function::SelectMoveAlphabeta => Function::AlphabetaMinNode,
        Function::AlphabetaMinNode => Function::AlphabetaMaxNode,
        Function::ComputeUtility => Function::ComputeUtility,
    }
}

fn finding(component: &'static str, key: &'static str, sentence: String, shown: String) -> Option<Finding> {
    Some(Finding { component, key, sentence, shown })
}

/// A call as it was made: `alphabeta_max_node(<board after (1, 0)>, 1, -inf, 3, 0)`.
fn call_text(l: &Logged, board: &str) -> String {
    let name = l.function.map_or("?", Function::name);
    let mut args = vec![board.to_string(), l.color.map_or("?".into(), |c| c.to_string())];
    if l.function.is_some_and(Function::takes_window) {
        args.extend([show(l.window.0), show(l.window.1)]);
    }
    if let Some(limit) = l.limit {
        args.push(limit.to_string());
    }
    format!("{name}({})", args.join(", "))
}

/// What a node function returns at a leaf (`limit` 0, or no legal move for the side to move), read from `seen`;
/// `None` when it is right there.
fn leaf(seen: &Seen<'_>, moves: &[Move], nodes: &[&Logged]) -> Option<Finding> {
    let name = seen.function.name();
    let utility = f64::from(reference::utility(seen.grid, seen.color));
    let value = judge::reply_value(seen.reply);
    if let Some(first) = nodes.first() {
        let callee = first.function.map_or("another node function", Function::name);
        let shown =
            format!("it calls {} and returns {}", call_text(first, "<a board after a move>"), python_text(seen.reply));
        if moves.is_empty() {
            return finding(
                "terminal",
                "terminal:passes",
                format!(
                    "When the side to move has no legal move your {name} searches on (it calls {callee}); in this game \
                     that position is terminal and its utility is returned."
                ),
                shown,
            );
        }
        return finding(
            "limit",
            "limit:searches-at-0",
            format!("At limit 0 your {name} still searches instead of returning compute_utility(board, color)."),
            shown,
        );
    }
    if value == Some(utility) {
        return None;
    }
    let got = value.map_or_else(|| python_text(seen.reply), show);
    let utilities: Vec<&Logged> = seen.log.iter().filter(|l| l.function == Some(Function::ComputeUtility)).collect();
    let own = color_number(seen.color);
    let at = if moves.is_empty() { "a position where the side to move has no move" } else { "limit 0" };
    if let Some(other) = utilities.iter().find(|u| u.color.is_some_and(|c| c != own)) {
        return finding(
            "leaf",
            "leaf:color",
            format!("At the leaf your {name} scores the board for the other player: it calls compute_utility(board, {}) where color is {own}.", other.color.unwrap_or(0)),
            format!("at {at} it returns {got}; compute_utility(board, {own}) is {}", show(utility)),
        );
    }
    if utilities.is_empty() {
        return finding(
            "leaf",
            "leaf:not-utility",
            format!("At the leaf your {name} returns another score than compute_utility(board, color): it does not call compute_utility there."),
            format!("at {at} it returns {got}; compute_utility(board, {own}) is {}", show(utility)),
        );
    }
    finding(
        "leaf",
        "leaf:ignores-utility",
        format!("At the leaf your {name} returns another value than the compute_utility(board, color) it computes."),
        format!("at {at} it calls compute_utility, which gives {}, and returns {got}", show(utility)),
    )
}

/// The side to move at `f`'s node for root player `color`.
fn side_of(f: Function, color: Player) -> Player {
    if f.is_min() {
        color.opponent()
    } else {
        color
    }
}

fn side_words(side: Player, color: Player) -> &'static str {
    if side == color {
        "`color`"
    } else {
        "the opponent"
    }
}

/// Reads one call of a node function.
pub fn node(seen: &Seen<'_>) -> Option<Finding> {
    let f = seen.function;
    let side = side_of(f, seen.color);
    let moves: Vec<Move> = seen.grid.moves(side).collect();
    let nodes: Vec<&Logged> = seen.log.iter().filter(|l| l.function.is_some_and(Function::is_node)).collect();
    if moves.is_empty() || seen.limit == Some(0) {
        return leaf(seen, &moves, &nodes);
    }
    if nodes.is_empty() {
        let utility = f64::from(reference::utility(seen.grid, seen.color));
        return match seen.limit {
            Some(limit) if judge::reply_value(seen.reply) == Some(utility) => finding(
                "limit",
                "limit:stops-early",
                format!(
                    "Your {} returns compute_utility(board, color) before limit 0, without searching: only at limit 0 \
                     is a node a leaf.",
                    f.name()
                ),
                format!(
                    "at limit {limit} it returns {} without calling {}",
                    python_text(seen.reply),
                    partner(f).name()
                ),
            ),
            // It searches with helpers of its own: nothing to read.
            _ => None,
        };
    }
    interior(seen, &moves, side, &nodes, true)
}

/// Reads the replies a node (or a select that loops over the root's moves) asked for: callee, boards, color, limit,
/// order, window, cut, and the value and move kept. `returns_value`: a node returns (move, value), a select the move.
fn interior(seen: &Seen<'_>, moves: &[Move], side: Player, nodes: &[&Logged], returns_value: bool) -> Option<Finding> {
    let f = seen.function;
    let name = f.name();
    let want = partner(f);
    let maximizing = side == seen.color;
    if let Some(other) = nodes.iter().find(|l| l.function != Some(want)) {
        let callee = other.function.map_or("?", Function::name);
        let sentence = if other.own {
            format!("Your {name} calls itself for the replies to its moves; it must call {}.", want.name())
        } else {
            format!("Your {name} calls {callee} for the replies to its moves; it must call {}.", want.name())
        };
        return finding("recursion", "recursion:callee", sentence, format!("it calls {}", call_text(other, "<board>")));
    }
    // The move each call searches, by the board it was given.
    let mut visited: Vec<usize> = Vec::new();
    for l in nodes {
        let at = l.grid.and_then(|g| moves.iter().position(|m| seen.grid.play(side, *m) == g));
        let Some(at) = at else {
            let theirs: Vec<Move> = seen.grid.moves(side.opponent()).collect();
            let other_side = l.grid.is_some_and(|g| theirs.iter().any(|m| seen.grid.play(side.opponent(), *m) == g));
            let (key, sentence) = if other_side {
                (
                    "moves:other-side",
                    format!(
                        "Your {name} plays the moves of {} where {} is to move.",
                        side_words(side.opponent(), seen.color),
                        side_words(side, seen.color)
                    ),
                )
            } else if l.grid.as_ref() == Some(seen.grid) {
                (
                    "moves:same-board",
                    format!("Your {name} hands its own board down instead of the board after each move."),
                )
            } else {
                (
                    "moves:unknown",
                    format!("Your {name} searches boards that no legal move of the side to move leads to."),
                )
            };
            let board = if other_side { "<the board after a move of the other side>" } else { "<board>" };
            return finding("moves", key, sentence, format!("it calls {}", call_text(l, board)));
        };
        visited.push(at);
    }
    let own = color_number(seen.color);
    if let Some(l) = nodes.iter().find(|l| l.color != Some(own)) {
        return finding(
            "color",
            "color:passed",
            format!("Your {name} hands another color than `color` down; every node gets the root player's color."),
            format!("called with color {own}, it calls {}", call_text(l, "<board>")),
        );
    }
    let below = seen.limit.map(|l| i64::from(l) - 1);
    if let Some(l) = nodes.iter().find(|l| l.limit != below) {
        let (key, sentence) = if l.limit == seen.limit.map(i64::from) {
            ("limit:unchanged", format!("Your {name} hands its own limit down; one ply down it must be limit - 1."))
        } else {
            ("limit:other", format!("Your {name} hands a limit other than limit - 1 down."))
        };
        let limit = seen.limit.map_or("no limit".into(), |l| format!("limit {l}"));
        return finding("limit", key, sentence, format!("with {limit} it calls {}", call_text(l, "<board>")));
    }
    let shown_order = |v: &[usize]| v.iter().map(|&i| show_move(moves[i])).collect::<Vec<_>>().join(", ");
    if !seen.ordering {
        let natural: Vec<usize> = (0..visited.len()).collect();
        if visited != natural {
            let reversed: Vec<usize> = (0..moves.len()).rev().take(visited.len()).collect();
            let increasing = visited.windows(2).all(|w| w[0] < w[1]);
            let (key, sentence) = if visited == reversed && visited.len() > 1 {
                (
                    "order:reversed",
                    format!(
                        "Your {name} visits the moves from last to first; the template visits them in \
                         get_possible_moves order, so of equal moves the first wins."
                    ),
                )
            } else if increasing {
                ("order:skips", format!("Your {name} skips some of its moves."))
            } else {
                ("order:other", format!("Your {name} visits the moves in another order than get_possible_moves gives them (with ordering off)."))
            };
            return finding(
                "order",
                key,
                sentence,
                format!(
                    "it visits {}; get_possible_moves gives {}",
                    shown_order(&visited),
                    shown_order(&(0..moves.len()).collect::<Vec<_>>())
                ),
            );
        }
    }
    let values: Vec<f64> = nodes.iter().filter_map(|l| l.value()).collect();
    if values.len() != nodes.len() {
        return None;
    }
    let pruning = f.takes_window() || f == Function::SelectMoveAlphabeta;
    let (a0, b0) = seen.window;
    if pruning {
        let (mut a, mut b) = (a0, b0);
        let mut best = if maximizing { f64::NEG_INFINITY } else { f64::INFINITY };
        for (k, (l, &v)) in nodes.iter().zip(&values).enumerate() {
            let (ga, gb) = l.window;
            let wider = ga <= a && gb >= b;
            if !wider {
                let (key, sentence) = if ga == b && gb == a {
                    (
                        "window:swapped",
                        format!("Your {name} hands (beta, alpha) to {}: the bounds are swapped.", want.name()),
                    )
                } else if f == Function::SelectMoveAlphabeta && k == 0 {
                    ("window:start", format!("Your {name} starts the search from a narrower window than (-inf, inf)."))
                } else if maximizing && k > 0 && ga == a0 && gb == b0.min(best) && gb < b0 {
                    (
                        "window:beta-in-max",
                        format!(
                            "Your {name} lowers beta after a move; a max node raises alpha (alpha = max(alpha, value)) \
                             and hands beta down unchanged."
                        ),
                    )
                } else if !maximizing && k > 0 && gb == b0 && ga == a0.max(best) && ga > a0 {
                    (
                        "window:alpha-in-min",
                        format!(
                            "Your {name} raises alpha after a move; a min node lowers beta (beta = min(beta, value)) \
                             and hands alpha down unchanged."
                        ),
                    )
                } else {
                    (
                        "window:other",
                        format!("Your {name} hands {} a narrower window than the template's.", want.name()),
                    )
                };
                let ordinal = ordinal(k);
                return finding(
                    "window",
                    key,
                    sentence,
                    format!(
                        "called with ({}, {}), it hands its {ordinal} move's reply the window ({}, {}); the template \
                         hands it ({}, {})",
                        show(a0),
                        show(b0),
                        show(ga),
                        show(gb),
                        show(a),
                        show(b)
                    ),
                );
            }
            best = if maximizing { best.max(v) } else { best.min(v) };
            if maximizing {
                a = a.max(best);
            } else {
                b = b.min(best);
            }
        }
    }
    let best = values.iter().copied().fold(if maximizing { f64::NEG_INFINITY } else { f64::INFINITY }, |m, v| {
        if maximizing {
            m.max(v)
        } else {
            m.min(v)
        }
    });
    if visited.len() < moves.len() {
        let reached = if maximizing { best >= b0 } else { best <= a0 };
        if !pruning || !reached {
            let (key, sentence) = if pruning {
                let bound = if maximizing { "beta" } else { "alpha" };
                let side = if maximizing {
                    "a max node stops once its value is at least beta"
                } else {
                    "a min node stops once its value is at most alpha"
                };
                ("cut:early", format!("Your {name} stops before its value reaches {bound}: {side}."))
            } else {
                (
                    "cut:minimax",
                    format!("Your {name} stops before it has searched every move; minimax searches them all."),
                )
            };
            return finding(
                "cut",
                key,
                sentence,
                format!(
                    "called with ({}, {}), it stops after {} of its {} moves with the value {} so far",
                    show(a0),
                    show(b0),
                    visited.len(),
                    moves.len(),
                    show(best)
                ),
            );
        }
    }
    let value = if returns_value { judge::reply_value(seen.reply) } else { Some(best) };
    let value = value?;
    let mut accepted = vec![best];
    if pruning {
        if best >= b0 {
            accepted.push(b0);
        }
        if best <= a0 {
            accepted.push(a0);
        }
    }
    if !accepted.contains(&value) {
        let worst = values.iter().copied().fold(best, |m, v| if maximizing { m.min(v) } else { m.max(v) });
        let (key, sentence) = if value == worst {
            let (kept, right) = if maximizing {
                ("smallest", "a max node keeps the largest")
            } else {
                ("largest", "a min node keeps the smallest")
            };
            ("best:opposite", format!("Your {name} keeps the {kept} of its moves' values; {right}."))
        } else {
            ("best:value", format!("Your {name} returns a value that is not the best of its moves' values."))
        };
        let got: Vec<String> = values.iter().map(|&v| show(v)).collect();
        return finding(
            "best",
            key,
            sentence,
            format!("its moves got {} and it returns {}", got.join(", "), show(value)),
        );
    }
    let full = a0 == f64::NEG_INFINITY && b0 == f64::INFINITY;
    if !full || value != best {
        return None;
    }
    let mv = if returns_value {
        seen.reply.as_array().and_then(|pair| pair.first()).and_then(judge::as_move)
    } else {
        judge::as_move(seen.reply)
    };
    let tied: Vec<usize> = (0..visited.len()).filter(|&k| values[k] == best).collect();
    let (Some(&first), Some(&last)) = (tied.first(), tied.last()) else { return None };
    if mv == Some(moves[visited[first]]) {
        return None;
    }
    let shown = format!(
        "{} are worth {} in the order it visits them; it returns {}",
        tied.iter().map(|&k| show_move(moves[visited[k]])).collect::<Vec<_>>().join(", "),
        show(best),
        python_text(seen.reply)
    );
    if mv == Some(moves[visited[last]]) {
        return finding(
            "ties",
            "ties:last",
            format!(
                "On equal values your {name} keeps the last best move (it replaces the best on `>=` or `<=`); the \
                 template keeps the first in get_possible_moves order (strict `>` and `<`)."
            ),
            shown,
        );
    }
    if tied.iter().any(|&k| mv == Some(moves[visited[k]])) {
        return finding(
            "ties",
            "ties:other",
            format!("Of equal best moves your {name} returns another than the first."),
            shown,
        );
    }
    let sentence = if returns_value {
        format!("Your {name} returns a move that is not worth the value it returns.")
    } else {
        format!("Your {name} returns a move that is not the best of the moves it searched.")
    };
    finding("best", "best:move", sentence, shown)
}

/// "first", "second", ...
fn ordinal(k: usize) -> String {
    match k {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        n => format!("{}th", n + 1),
    }
}

/// Reads one call of a select function: the node it asks at the root (its limit, window and the move taken from
/// it), or, for a select that loops over the root's moves itself, each reply as a Max node would.
pub fn select(seen: &Seen<'_>) -> Option<Finding> {
    let f = seen.function;
    let name = f.name();
    let nodes: Vec<&Logged> = seen.log.iter().filter(|l| l.function.is_some_and(Function::is_node)).collect();
    let root = match nodes.as_slice() {
        [only] if only.grid.as_ref() == Some(seen.grid) => *only,
        [] => return None,
        _ => {
            let moves: Vec<Move> = seen.grid.moves(seen.color).collect();
            return interior(seen, &moves, seen.color, &nodes, false);
        }
    };
    let want = match f {
        Function::SelectMoveMinimax => Function::MinimaxMaxNode,
        _ => Function::AlphabetaMaxNode,
    };
    let shown = format!("it calls {}", call_text(root, "board"));
    if root.function != Some(want) {
        let callee = root.function.map_or("?", Function::name);
        return finding(
            "recursion",
            "recursion:callee",
            format!("Your {name} asks {callee} at the root; it must ask {}.", want.name()),
            shown,
        );
    }
    if root.color != Some(color_number(seen.color)) {
        return finding(
            "color",
            "color:passed",
            format!("Your {name} hands another color than `color` to {}.", want.name()),
            shown,
        );
    }
    if root.limit != seen.limit.map(i64::from) {
        return finding(
            "limit",
            "limit:root",
            format!(
                "Your {name} hands {} another limit than its own: the root's search is `limit` plies deep.",
                want.name()
            ),
            format!("with limit {} {shown}", seen.limit.map_or("none".into(), |l| l.to_string())),
        );
    }
    if want.takes_window() && !(root.window.0 == f64::NEG_INFINITY && root.window.1 == f64::INFINITY) {
        return finding(
            "window",
            "window:start",
            format!(
                "Your {name} starts {} from the window ({}, {}); the root's window is (-inf, inf).",
                want.name(),
                show(root.window.0),
                show(root.window.1)
            ),
            shown,
        );
    }
    let node_move = root.ret.as_array().and_then(|pair| pair.first()).and_then(judge::as_move);
    let mv = judge::as_move(seen.reply);
    if node_move.is_some() && mv != node_move {
        return finding(
            "best",
            "best:select-move",
            format!("Your {name} returns another move than the one {} found.", want.name()),
            format!("{shown}, which returns {}; it returns {}", python_text(&root.ret), python_text(seen.reply)),
        );
    }
    None
}

/// What a wrong compute_utility computes, when one formula of the disc counts explains every answer it gave
/// (`answers`: the board, the color asked, and the value returned).
pub fn utility(answers: &[(Grid, Player, f64)]) -> Option<Finding> {
    type Formula = (&'static str, &'static str, fn(i64, i64) -> i64);
    const FORMULAS: [Formula; 5] = [
        ("utility:opponent-minus-own", "the opponent's discs minus `color`'s (the sign is reversed)", |own, opp| {
            opp - own
        }),
        ("utility:own-only", "only `color`'s discs (the opponent's are not subtracted)", |own, _| own),
        ("utility:opponent-only", "only the opponent's discs", |_, opp| opp),
        ("utility:sum", "all the discs on the board (`color`'s plus the opponent's)", |own, opp| own + opp),
        ("utility:negated-own", "minus `color`'s discs", |own, _| -own),
    ];
    let count = |grid: &Grid, p: Player| i64::from(grid.count(p));
    let fits = |f: fn(i64, i64) -> i64| {
        answers.iter().all(|(grid, color, got)| f(count(grid, *color), count(grid, color.opponent())) as f64 == *got)
    };
    let dark_only = answers.iter().all(|(grid, _, got)| count(grid, Player::Max) as f64 == *got);
    let light_only = answers.iter().all(|(grid, _, got)| count(grid, Player::Min) as f64 == *got);
    let example = answers.iter().find(|(grid, color, got)| f64::from(reference::utility(grid, *color)) != *got)?;
    let (grid, color, got) = example;
    let shown = format!(
        "with {} dark and {} light discs, compute_utility(board, {}) returns {}; it is {}",
        grid.count(Player::Max),
        grid.count(Player::Min),
        color_number(*color),
        show(*got),
        reference::utility(grid, *color)
    );
    let mut described: Vec<(&'static str, &'static str)> =
        FORMULAS.iter().filter(|(_, _, f)| fits(*f)).map(|(key, words, _)| (*key, *words)).collect();
    if dark_only {
        described.push(("utility:dark-only", "the dark discs only, whatever `color` is"));
    }
    if light_only {
        described.push(("utility:light-only", "the light discs only, whatever `color` is"));
    }
    // Named only when exactly one reading explains every answer.
    let [(key, words)] = described.as_slice() else { return None };
    let (key, words) = (*key, *words);
    finding(
        "utility",
        key,
        format!("Your compute_utility counts {words}; it must be `color`'s discs minus the opponent's."),
        shown,
    )
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use serde_json::json;

    fn logged(f: Function, grid: Grid, color: i64, window: (f64, f64), limit: i64, ret: Value) -> Logged {
        Logged { function: Some(f), own: false, grid: Some(grid), color: Some(color), window, limit: Some(limit), ret }
    }

    const FULL: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

    /// The reference's replies to a Max node at the 4x4 start (dark, limit 2), each child with `window(k, best)`.
    fn replies(window: impl Fn(usize, f64) -> (f64, f64)) -> (Vec<Logged>, Vec<Move>) {
        let start = Grid::start(4).unwrap();
        let moves: Vec<Move> = start.moves(Player::Max).collect();
        let mut best = f64::NEG_INFINITY;
        let mut log = Vec::new();
        for (k, m) in moves.iter().enumerate() {
            let child = start.play(Player::Max, *m);
            let v = f64::from(reference::node(&child, Player::Max, true, Some(1)).unwrap().value);
            log.push(logged(Function::AlphabetaMinNode, child, 1, window(k, best), 1, json!([null, v])));
            best = best.max(v);
        }
        (log, moves)
    }

    fn seen<'a>(grid: &'a Grid, reply: &'a Value, log: &'a [Logged]) -> Seen<'a> {
        Seen {
            function: Function::AlphabetaMaxNode,
            grid,
            color: Player::Max,
            window: FULL,
            limit: Some(2),
            ordering: false,
            reply,
            log,
        }
    }

    #[test]
    fn the_template_reads_clean_and_each_departure_is_named() {
        let start = Grid::start(4).unwrap();
        let (log, moves) = replies(|_, best| (best, f64::INFINITY));
        let right = json!([[moves[0].col, moves[0].row], 0]);
        assert_eq!(node(&seen(&start, &right, &log)), None);
        // Every first move at the start is worth the same: the last one is a `>=` tie.
        let last = moves[moves.len() - 1];
        let tie = json!([[last.col, last.row], 0]);
        assert_eq!(node(&seen(&start, &tie, &log)).unwrap().key, "ties:last");
        let (swapped, _) = replies(|_, _| (f64::INFINITY, f64::NEG_INFINITY));
        assert_eq!(node(&seen(&start, &right, &swapped)).unwrap().key, "window:swapped");
        let (lowered, _) = replies(|k, best| if k == 0 { FULL } else { (f64::NEG_INFINITY, best) });
        assert_eq!(node(&seen(&start, &right, &lowered)).unwrap().key, "window:beta-in-max");
        let mut reversed = log.clone();
        reversed.reverse();
        assert_eq!(node(&seen(&start, &tie, &reversed)).unwrap().key, "order:reversed");
        let mut deeper = log.clone();
        deeper[0].limit = Some(2);
        assert_eq!(node(&seen(&start, &right, &deeper)).unwrap().key, "limit:unchanged");
        // Stopping after one move with a value below beta.
        assert_eq!(node(&seen(&start, &right, &log[..1])).unwrap().key, "cut:early");
    }

    #[test]
    fn a_leaf_is_read_from_what_it_returns_and_calls() {
        let start = Grid::start(4).unwrap();
        let at_zero = |reply: &Value, log: &[Logged]| {
            let mut s = seen(&start, reply, log);
            s.limit = Some(0);
            node(&s).map(|f| f.key)
        };
        let utility = logged(Function::ComputeUtility, start, 1, FULL, 0, json!(0));
        assert_eq!(at_zero(&json!([null, 0]), std::slice::from_ref(&utility)), None);
        assert_eq!(at_zero(&json!([null, 3]), &[]), Some("leaf:not-utility"));
        let mut other = utility.clone();
        other.color = Some(2);
        assert_eq!(at_zero(&json!([null, 1]), &[other]), Some("leaf:color"));
        let child = logged(Function::AlphabetaMinNode, start, 1, FULL, -1, json!([null, 0]));
        assert_eq!(at_zero(&json!([null, 0]), &[child]), Some("limit:searches-at-0"));
    }

    #[test]
    fn a_utility_formula_is_named_only_when_it_explains_every_answer() {
        let start = Grid::start(4).unwrap();
        let later = start.play(Player::Max, start.moves(Player::Max).next().unwrap());
        let own = |g: &Grid, p: Player| f64::from(g.count(p));
        let answers = [
            (start, Player::Max, own(&start, Player::Max)),
            (later, Player::Max, own(&later, Player::Max)),
            (later, Player::Min, own(&later, Player::Min)),
        ];
        assert_eq!(utility(&answers).unwrap().key, "utility:own-only");
        let dark = [(later, Player::Max, own(&later, Player::Max)), (later, Player::Min, own(&later, Player::Max))];
        assert_eq!(utility(&dark).unwrap().key, "utility:dark-only");
        let noise = [(later, Player::Max, 7.0), (later, Player::Min, -2.0)];
        assert_eq!(utility(&noise), None);
    }
}
