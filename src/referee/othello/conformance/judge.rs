//! Whether a student's reply is the right answer: what is expected of each call, and the verdict on a reply.

use serde_json::Value;

use super::function::{Form, Function};
use super::reference::NodeAnswer;
use crate::game::othello::Move;

/// Whether a reply has the shape the function's form returns: a node function of the template with `limit`
/// returns (move, value); only the older template may return the value alone.
pub fn shape_ok(form: Form, function: Function, got: &Value) -> bool {
    !(form == Form::WithLimit && function.is_node() && !got.is_array())
}

/// The value of a node's reply: the second of (move, value), or a bare number.
pub fn reply_value(got: &Value) -> Option<f64> {
    match got.as_array().map(Vec::as_slice) {
        Some([_, v]) => number(v),
        _ => number(got),
    }
}

/// A set of moves on a board of at most 8x8, in board order (`get_possible_moves` order is column-major, so the
/// set is listed that way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveSet(u64);

impl MoveSet {
    /// The set of `moves` (moves off an 8x8 board are left out: the check never asks such boards).
    pub fn of(moves: &[Move]) -> MoveSet {
        MoveSet(moves.iter().filter(|m| m.col < 8 && m.row < 8).fold(0, |set, m| set | 1 << (m.col * 8 + m.row)))
    }

    /// Whether `m` is in the set.
    pub fn contains(self, m: Move) -> bool {
        m.col < 8 && m.row < 8 && self.0 >> (m.col * 8 + m.row) & 1 == 1
    }

    /// The moves, column-major (the order `get_possible_moves` lists them).
    pub fn moves(self) -> Vec<Move> {
        (0..64u8).filter(|b| self.0 >> b & 1 == 1).map(|b| Move { col: b / 8, row: b % 8 }).collect()
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `(1, 0), (3, 2)`.
    pub fn describe(self) -> String {
        self.moves().iter().map(|m| format!("({}, {})", m.col, m.row)).collect::<Vec<_>>().join(", ")
    }
}

/// The right answer to one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// `compute_utility`: this number.
    Utility(i32),
    /// `select_move_*`: this move, as (i, j).
    Move(Move),
    /// A node function with the full window: this value, and this move unless the node is a leaf.
    Node(NodeAnswer),
    /// A node function with a switch on (caching or ordering may change which of equal moves is met first): this
    /// value, and any of these moves (each worth the value; empty at a leaf, where any move goes).
    Tied {
        /// The value.
        value: i32,
        /// The moves worth it.
        moves: MoveSet,
    },
    /// A select function with a switch the course's own tests do not hold to the same move: any of these moves
    /// (each worth the best value).
    AnyMove(MoveSet),
    /// An alpha-beta node function with a narrowed window: any value that bounds the true `value` correctly
    /// (at most `alpha` when it is at most `alpha`, at least `beta` when it is at least `beta`, else exact).
    Bound {
        /// The true value.
        value: i32,
        /// The window's low end.
        alpha: i32,
        /// The window's high end.
        beta: i32,
    },
}

impl Expected {
    /// The answer as Python would print it: `3`, `(1, 0)`, `((1, 0), 3)`, `(None, 3)`, or the bound's condition.
    pub fn describe(&self) -> String {
        match *self {
            Expected::Utility(v) => v.to_string(),
            Expected::Move(m) => format!("({}, {})", m.col, m.row),
            Expected::Node(NodeAnswer { best: Some(m), value }) => format!("(({}, {}), {value})", m.col, m.row),
            Expected::Node(NodeAnswer { best: None, value }) => format!("(None, {value}) (a leaf: any move)"),
            Expected::Tied { value, moves } if moves.is_empty() => format!("(None, {value}) (a leaf: any move)"),
            Expected::Tied { value, moves } => {
                format!("the value {value} with a move worth it ({})", moves.describe())
            }
            Expected::AnyMove(moves) => format!("a move worth the best value ({})", moves.describe()),
            Expected::Bound { value, alpha, beta } => {
                let rule = if value <= alpha {
                    format!("a value <= {alpha}")
                } else if value >= beta {
                    format!("a value >= {beta}")
                } else {
                    format!("exactly {value}")
                };
                format!("{rule} (the true value is {value}; fail-hard and fail-soft both accepted)")
            }
        }
    }

    /// Whether `got` (the reply decoded from JSON) is right.
    pub fn accepts(&self, got: &Value) -> bool {
        match *self {
            Expected::Utility(v) => number(got) == Some(f64::from(v)),
            Expected::Move(m) => as_move(got) == Some(m),
            Expected::AnyMove(moves) => as_move(got).is_some_and(|m| moves.contains(m)),
            Expected::Tied { value, moves } => {
                if let Some(v) = number(got) {
                    return v == f64::from(value);
                }
                let Some([mv, v]) = got.as_array().map(Vec::as_slice) else { return false };
                let move_ok = moves.is_empty() || as_move(mv).is_some_and(|m| moves.contains(m));
                number(v) == Some(f64::from(value)) && move_ok
            }
            Expected::Node(answer) => {
                // The older template's node functions return the value alone.
                if let Some(v) = number(got) {
                    return v == f64::from(answer.value);
                }
                let Some([mv, v]) = got.as_array().map(Vec::as_slice) else { return false };
                let value_ok = number(v) == Some(f64::from(answer.value));
                let move_ok = answer.best.map_or(true, |best| as_move(mv) == Some(best));
                value_ok && move_ok
            }
            Expected::Bound { value, alpha, beta } => {
                let Some(got) = reply_value(got) else { return false };
                let (value, alpha, beta) = (f64::from(value), f64::from(alpha), f64::from(beta));
                if value <= alpha {
                    got <= alpha
                } else if value >= beta {
                    got >= beta
                } else {
                    got == value
                }
            }
        }
    }
}

/// A number, including the helper's `"inf"` and `"-inf"`.
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) if s == "inf" => Some(f64::INFINITY),
        Value::String(s) if s == "-inf" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// A move given as a pair of whole numbers (a tuple or a list).
pub fn as_move(v: &Value) -> Option<Move> {
    let [i, j] = v.as_array()?.as_slice() else { return None };
    let coordinate = |v: &Value| v.as_u64().and_then(|n| u8::try_from(n).ok());
    Some(Move { col: coordinate(i)?, row: coordinate(j)? })
}

/// A reply as Python would print it: lists as tuples, `null` as `None`, strings bare.
pub fn python_text(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(python_text).collect();
            if inner.len() == 1 {
                format!("({},)", inner[0])
            } else {
                format!("({})", inner.join(", "))
            }
        }
        Value::Object(_) => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const M: Move = Move { col: 1, row: 0 };

    #[test]
    fn values_moves_and_nodes_compare_as_python_would() {
        assert!(Expected::Utility(3).accepts(&json!(3)));
        assert!(Expected::Utility(3).accepts(&json!(3.0)));
        assert!(!Expected::Utility(3).accepts(&json!(-3)));
        assert!(!Expected::Utility(3).accepts(&json!("3")));
        assert!(Expected::Move(M).accepts(&json!([1, 0])));
        assert!(!Expected::Move(M).accepts(&json!([0, 1])));
        assert!(!Expected::Move(M).accepts(&json!(null)));
        let node = Expected::Node(NodeAnswer { best: Some(M), value: -2 });
        assert!(node.accepts(&json!([[1, 0], -2])));
        assert!(node.accepts(&json!(-2)), "the older template returns the value alone");
        assert!(!node.accepts(&json!([[0, 1], -2])));
        assert!(!node.accepts(&json!([[1, 0], 2])));
        let leaf = Expected::Node(NodeAnswer { best: None, value: 0 });
        assert!(leaf.accepts(&json!([null, 0])) && leaf.accepts(&json!([[3, 3], 0])));
        assert_eq!(python_text(&json!([[1, 0], "-inf", null])), "((1, 0), -inf, None)");
    }

    #[test]
    fn with_a_switch_on_any_move_worth_the_value_is_right() {
        let other = Move { col: 3, row: 2 };
        let moves = MoveSet::of(&[M, other]);
        assert_eq!(moves.moves(), [M, other]);
        let tied = Expected::Tied { value: 0, moves };
        assert!(tied.accepts(&json!([[1, 0], 0])) && tied.accepts(&json!([[3, 2], 0])));
        assert!(!tied.accepts(&json!([[0, 1], 0])), "a move not worth the value");
        assert!(!tied.accepts(&json!([[3, 2], 1])), "the value is still exact");
        assert!(Expected::Tied { value: 2, moves: MoveSet::default() }.accepts(&json!([null, 2])));
        let select = Expected::AnyMove(moves);
        assert!(select.accepts(&json!([3, 2])) && !select.accepts(&json!([0, 1])) && !select.accepts(&json!(null)));
        assert_eq!(tied.describe(), "the value 0 with a move worth it ((1, 0), (3, 2))");
    }

    #[test]
    fn a_narrowed_window_accepts_any_correct_bound() {
        let below = Expected::Bound { value: -5, alpha: -3, beta: 4 };
        assert!(below.accepts(&json!([null, -3])) && below.accepts(&json!([[1, 0], -5])));
        assert!(below.accepts(&json!("-inf")));
        assert!(!below.accepts(&json!([null, -2])));
        let above = Expected::Bound { value: 6, alpha: -3, beta: 4 };
        assert!(above.accepts(&json!([null, 4])) && above.accepts(&json!([null, 9])));
        assert!(!above.accepts(&json!([null, 3])));
        let inside = Expected::Bound { value: 1, alpha: -3, beta: 4 };
        assert!(inside.accepts(&json!([null, 1])) && !inside.accepts(&json!([null, -3])));
    }
}
