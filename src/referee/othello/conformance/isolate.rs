//! Locating a disagreement by isolation, the way a TA debugs: a function that disagreed is called again with every
//! other template function replaced by the reference (the helper's `isolate` mode; the reference's own calls of
//! the function under test go back to the student's, so it is checked at every level of the search). Its answers
//! are then its own: one that still disagrees is faulty, one that agrees is only wrong through what it calls.
//! The calls it makes itself are logged; [`super::inside`] reads them.

use serde_json::Value;

use super::cases::Case;
use super::function::{Form, Function};
use super::helper::{Helper, Reply};
use super::judge;
use super::plan::Call;
use crate::game::othello::Grid;
use crate::game::Player;

/// Calls answered wrong on their own before the run of one function stops (enough to show it and probe it).
pub const MAX_WRONG: usize = 12;

/// One call the function under test made itself, with what it got back.
#[derive(Clone, Debug, PartialEq)]
pub struct Logged {
    /// The template function it called (`None`: a name the check does not know).
    pub function: Option<Function>,
    /// Whether it called itself (its own recursion) rather than a reference stand-in.
    pub own: bool,
    /// The board it passed, when it is a board the rules know.
    pub grid: Option<Grid>,
    /// The color it passed (1 dark, 2 light; anything else as given).
    pub color: Option<i64>,
    /// The window it passed (infinities as such); the full window for a function without one.
    pub window: (f64, f64),
    /// The limit it passed (`None`: no limit, or not a whole number).
    pub limit: Option<i64>,
    /// What came back: (move, value), a value, or a move.
    pub ret: Value,
}

impl Logged {
    /// Reads one log entry of the helper.
    pub fn parse(entry: &Value) -> Logged {
        let function =
            entry.get("f").and_then(Value::as_str).and_then(|n| Function::ALL.into_iter().find(|f| f.name() == n));
        let bound = |key: &str, default: f64| entry.get(key).and_then(judge::number).unwrap_or(default);
        Logged {
            function,
            own: entry.get("own").and_then(Value::as_bool).unwrap_or(false),
            grid: entry.get("board").and_then(grid_of),
            color: entry.get("color").and_then(Value::as_i64),
            window: (bound("alpha", f64::NEG_INFINITY), bound("beta", f64::INFINITY)),
            limit: entry.get("limit").and_then(Value::as_i64),
            ret: entry.get("ret").cloned().unwrap_or(Value::Null),
        }
    }

    /// The value a node call returned (the second of (move, value), or a bare number).
    pub fn value(&self) -> Option<f64> {
        judge::reply_value(&self.ret)
    }
}

/// A board given as rows of cells, when it is square, of a size the rules support, and holds only 0, 1 and 2.
pub fn grid_of(v: &Value) -> Option<Grid> {
    let rows = v.as_array()?;
    let mut grid = Grid::empty(rows.len()).ok()?;
    for (r, row) in rows.iter().enumerate() {
        let cells = row.as_array().filter(|c| c.len() == rows.len())?;
        for (c, cell) in cells.iter().enumerate() {
            let cell = cell.as_u64().filter(|&x| x <= 2)?;
            grid.set(r, c, u8::try_from(cell).ok()?);
        }
    }
    Some(grid)
}

/// One call of the function on its own.
#[derive(Clone, Debug)]
pub struct Answered {
    /// Index of the call in the function's calls.
    pub call: usize,
    /// What it returned.
    pub reply: Value,
    /// Whether that is right.
    pub right: bool,
    /// The calls it made itself.
    pub log: Vec<Logged>,
}

/// The function's run on its own.
#[derive(Clone, Debug, Default)]
pub struct Alone {
    /// Calls made.
    pub asked: usize,
    /// Of those, answered right.
    pub agreed: usize,
    /// Answered wrong, and wrong with its own functions around it too.
    pub wrong: usize,
    /// Raised an exception that it also raised on the same call with its own functions around it.
    pub raised: usize,
    /// Raised, timed out or could not be isolated: nothing can be concluded from these calls.
    pub unclear: usize,
    /// Whether every planned call was made.
    pub complete: bool,
    /// The template functions it called itself.
    pub callees: Vec<Function>,
    /// The calls it answered, in the order made.
    pub answered: Vec<Answered>,
    /// Why it could not be isolated, if so.
    pub not_isolable: Option<String>,
}

/// What isolation says of one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It disagrees even over the reference's other functions: faulty itself.
    WrongAlone,
    /// Over the reference's other functions it agrees on every call: wrong only through what it calls.
    RightAlone,
    /// Nothing can be said (it raised or timed out on its own, or could not be isolated).
    Unclear,
}

impl Alone {
    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        if self.wrong + self.raised > 0 {
            Verdict::WrongAlone
        } else if self.complete && self.unclear == 0 && self.asked > 0 {
            Verdict::RightAlone
        } else {
            Verdict::Unclear
        }
    }
}

/// The order isolated calls are made in: small boards and shallow limits first, so a function that never ends on
/// a large board has shown itself on the small ones before the timeouts stop its run.
pub fn cheap_first(calls: &[Call], cases: &[Case]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..calls.len()).collect();
    order.sort_by_key(|&i| (cases[calls[i].case].grid.size(), calls[i].limit.unwrap_or(u32::MAX)));
    order
}

/// Calls `function` on its own for `calls` (`replies` are its answers with its own functions around it, so an
/// exception it raises either way is its own), stopping after [`MAX_WRONG`] wrong answers or
/// [`super::MAX_TIMEOUTS`] timeouts. The first request imports the module afresh, so nothing a cache kept from the
/// earlier calls can answer.
pub fn alone(
    helper: &mut Helper,
    function: Function,
    form: Form,
    calls: &[Call],
    cases: &[Case],
    before: &[Option<Result<Value, String>>],
) -> Alone {
    let mut out = Alone { complete: true, ..Alone::default() };
    let mut timeouts = 0;
    let mut fresh = true;
    for i in cheap_first(calls, cases) {
        if out.wrong >= MAX_WRONG || timeouts >= super::MAX_TIMEOUTS {
            out.complete = false;
            break;
        }
        let call = &calls[i];
        let mut request = call.request(&cases[call.case]);
        request["isolate"] = Value::Bool(true);
        if let Some(object) = request.as_object_mut() {
            object.remove("count");
        }
        if std::mem::take(&mut fresh) {
            request["fresh"] = Value::Bool(true);
        }
        out.asked += 1;
        match helper.call_logged(&request) {
            (Reply::Ok(reply), log) => {
                let right = call.expected.accepts(&reply) && judge::shape_ok(form, function, &reply);
                let right_before = matches!(&before[i], Some(Ok(earlier))
                    if call.expected.accepts(earlier) && judge::shape_ok(form, function, earlier));
                if right {
                    out.agreed += 1;
                } else if right_before {
                    // Right with its own functions around it, wrong over the reference's: it leans on something of
                    // theirs the reference does not do (an extra argument, a shared global). Not held against it.
                    out.unclear += 1;
                } else {
                    out.wrong += 1;
                }
                let log: Vec<Logged> = log.iter().map(Logged::parse).collect();
                for callee in log.iter().filter_map(|l| l.function) {
                    if callee != function && !out.callees.contains(&callee) {
                        out.callees.push(callee);
                    }
                }
                out.answered.push(Answered { call: i, reply, right, log });
            }
            (Reply::Raised(why), _) if why.starts_with("HelperError:") => {
                out.not_isolable = Some(why.trim_start_matches("HelperError: ").to_string());
                out.unclear += 1;
                out.complete = false;
                break;
            }
            (Reply::Raised(why), _) => {
                // Its own exception when it raised the same way with its own functions around it; else it may come
                // from a stand-in it used differently from the student's function it replaced.
                let same = matches!(&before[i], Some(Err(earlier)) if *earlier == why);
                if same {
                    out.raised += 1;
                } else {
                    out.unclear += 1;
                }
            }
            (Reply::Timeout, _) => {
                timeouts += 1;
                out.unclear += 1;
            }
            (Reply::Died(_), _) => out.unclear += 1,
        }
    }
    out.callees.sort_by_key(|f| Function::ALL.iter().position(|g| g == f));
    out
}

/// `color` as the course numbers it.
pub fn color_number(color: Player) -> i64 {
    match color {
        Player::Max => 1,
        Player::Min => 2,
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use serde_json::json;

    #[test]
    fn log_entries_are_read_leniently() {
        let entry = json!({"f": "alphabeta_min_node", "board": [[0, 0, 0, 0], [0, 2, 1, 0], [0, 1, 2, 0], [0, 0, 0, 0]],
            "color": 1, "alpha": "-inf", "beta": 3, "limit": 2, "ret": [[0, 1], -2]});
        let logged = Logged::parse(&entry);
        assert_eq!(logged.function, Some(Function::AlphabetaMinNode));
        assert_eq!(logged.grid, Some(Grid::start(4).unwrap()));
        assert_eq!((logged.window, logged.limit, logged.value()), ((f64::NEG_INFINITY, 3.0), Some(2), Some(-2.0)));
        let odd = Logged::parse(&json!({"f": "helper", "board": [[0, 3]], "color": "x", "limit": 1.5}));
        assert_eq!((odd.function, odd.grid, odd.color, odd.limit), (None, None, None, None));
        assert!(!odd.own);
    }
}
