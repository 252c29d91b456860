//! The reference's stand-ins of an isolated call ([`super::isolate`]), answered by the grader: the helper in the
//! student's Python holds no reference, so a stand-in the function under test calls asks here (`{"ref": ...}`),
//! and the answer is computed in this process the way the template's node functions compute it, asking back
//! (`{"child": ...}`) whenever that search calls the function under test, so the function is checked at every
//! level of the search. Only an isolated call is answered, and never about the function under test itself: a
//! module that forges a request outside one gets an exception, not an answer.
//!
//! Values cross as handles: the helper numbers every object it hands over (with its number value and type), and
//! gets back the same objects, so the student's code sees what the template would have given it; comparisons
//! follow Python's (an object that is not a real number cannot be compared: `TypeError`).

use std::time::Instant;

use serde_json::{json, Value};

use super::function::Function;
use super::helper::{died, Reply};
use super::isolate::grid_of;
use super::judge;
use crate::game::othello::{Grid, Move};
use crate::game::Player;
use crate::referee::process::{AgentProcess, Incoming};

/// Stand-in requests answered inside one another at most (each is a frame of the student's recursion).
pub const MAX_NESTING: usize = 200;

/// A value of the search: an object of the helper's, or one the reference made.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// One of the helper's objects.
    Object {
        /// Its number in the helper's table.
        handle: u64,
        /// Its value, when it is a real number.
        number: Option<f64>,
        /// Its Python type's name.
        type_name: String,
    },
    /// A whole number of the reference's (a utility, a limit minus one).
    Int(i64),
    /// A float of the reference's (the search's starting infinities, a float limit minus one).
    Float(f64),
}

impl Val {
    /// Reads a handle the helper sent.
    pub fn parse(v: &Value) -> Option<Val> {
        let handle = v.get("h")?.as_u64()?;
        let number = v.get("n").and_then(judge::number);
        let type_name = v.get("t").and_then(Value::as_str).unwrap_or("object").to_string();
        Some(Val::Object { handle, number, type_name })
    }

    /// How the helper is sent it back.
    pub fn to_json(&self) -> Value {
        match self {
            Val::Object { handle, .. } => json!({ "h": handle }),
            Val::Int(n) => json!({ "i": n }),
            Val::Float(x) if x.is_nan() => json!({ "f": "nan" }),
            Val::Float(x) if x.is_infinite() => json!({ "f": if *x > 0.0 { "inf" } else { "-inf" } }),
            Val::Float(x) => json!({ "f": x }),
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            Val::Object { number, .. } => *number,
            Val::Int(n) => Some(*n as f64),
            Val::Float(x) => Some(*x),
        }
    }

    fn type_name(&self) -> &str {
        match self {
            Val::Object { type_name, .. } => type_name,
            Val::Int(_) => "int",
            Val::Float(_) => "float",
        }
    }
}

/// Why a stand-in's search stopped early.
#[derive(Debug)]
enum Stop {
    /// The stand-in raises in the helper: this message (`{"reraise": n}`, `{"raise": kind, "message": ...}`).
    Raise(Value),
    /// The call is over: it overstayed, or the helper died or broke the protocol.
    End(Reply),
}

fn raise(kind: &str, message: String) -> Stop {
    Stop::Raise(json!({ "raise": kind, "message": message }))
}

/// `a op b` as Python compares numbers.
fn compare(op: &str, a: &Val, b: &Val) -> Result<bool, Stop> {
    let (Some(x), Some(y)) = (a.number(), b.number()) else {
        return Err(raise(
            "TypeError",
            format!("'{op}' not supported between instances of '{}' and '{}'", a.type_name(), b.type_name()),
        ));
    };
    Ok(match op {
        ">" => x > y,
        "<" => x < y,
        ">=" => x >= y,
        _ => x <= y,
    })
}

/// One stand-in call's arguments.
struct Args {
    grid: Grid,
    color: Val,
    player: Player,
    alpha: Val,
    beta: Val,
    limit: Option<Val>,
}

/// The grader's side of one isolated call: the process, the function under test, the request's id and deadline.
pub struct Oracle<'a> {
    process: &'a mut AgentProcess,
    tested: Function,
    id: u64,
    deadline: Instant,
    nesting: usize,
}

impl<'a> Oracle<'a> {
    /// The oracle of request `id`, which isolates `tested`, until `deadline`.
    pub fn new(process: &'a mut AgentProcess, tested: Function, id: u64, deadline: Instant) -> Oracle<'a> {
        Oracle { process, tested, id, deadline, nesting: 0 }
    }

    /// Answers the stand-in request `request` (a `{"ref": ...}` line of the helper).
    ///
    /// # Errors
    /// The call's outcome when it cannot go on (a timeout, a helper that died or broke the protocol).
    pub fn serve(&mut self, request: &Value) -> Result<(), Reply> {
        self.nesting += 1;
        let answer = match self.stand_in(request) {
            Ok((best, value)) => {
                let best = best.map(|m| json!([m.col, m.row]));
                json!({ "answer": [best, value.to_json()] })
            }
            Err(Stop::Raise(message)) => message,
            Err(Stop::End(reply)) => {
                self.nesting -= 1;
                return Err(reply);
            }
        };
        self.nesting -= 1;
        if self.process.send(&answer.to_string()) {
            Ok(())
        } else {
            Err(Reply::Died(format!("Python ended during the call: {}", died(self.process))))
        }
    }

    /// The reference's answer to one stand-in request.
    fn stand_in(&mut self, request: &Value) -> Result<(Option<Move>, Val), Stop> {
        let name = request.get("ref").and_then(Value::as_str).unwrap_or_default();
        let function = Function::ALL.into_iter().find(|f| f.name() == name);
        let Some(function) = function.filter(|f| *f != self.tested && !f.name().starts_with("select_move")) else {
            return Err(raise("RuntimeError", format!("the grader answers no request about {name:?} here")));
        };
        if self.nesting > MAX_NESTING {
            return Err(raise("RecursionError", "the reference's stand-ins nest too deep".into()));
        }
        let grid = request.get("board").and_then(grid_of);
        let Some(grid) = grid else {
            return Err(raise("ValueError", format!("{name}: the board is not a square board of 0, 1 and 2")));
        };
        let val = |key: &str| request.get(key).and_then(Val::parse);
        let (Some(color), Some(alpha), Some(beta)) = (val("color"), val("alpha"), val("beta")) else {
            return Err(Stop::End(Reply::Died(format!("the helper's stand-in request is unreadable: {request}"))));
        };
        let limit = val("limit");
        if function == Function::ComputeUtility {
            let (dark, light) = (grid.count(Player::Max) as i64, grid.count(Player::Min) as i64);
            let utility = if color.number() == Some(1.0) { dark - light } else { light - dark };
            return Ok((None, Val::Int(utility)));
        }
        let player = match color.number() {
            Some(1.0) => Player::Max,
            Some(2.0) => Player::Min,
            _ => return Err(raise("ValueError", format!("{name}: color must be 1 or 2"))),
        };
        self.node(function, &Args { grid, color, player, alpha, beta, limit })
    }

    /// The template's node function `function` (the course's recursion, pruning for alpha-beta).
    fn node(&mut self, function: Function, a: &Args) -> Result<(Option<Move>, Val), Stop> {
        if Instant::now() >= self.deadline {
            return Err(Stop::End(Reply::Timeout));
        }
        let maximizing = !function.is_min();
        let side = if maximizing { a.player } else { a.player.opponent() };
        let moves: Vec<Move> = a.grid.legal_moves(side).collect();
        let at_limit = match &a.limit {
            None => false,
            Some(limit) if !moves.is_empty() => compare("<=", limit, &Val::Int(0))?,
            Some(_) => false,
        };
        if moves.is_empty() || at_limit {
            if self.tested == Function::ComputeUtility {
                // A proof over the student's compute_utility: the reference's leaves are scored by it.
                return Ok((None, self.ask_student(Function::ComputeUtility, a)?));
            }
            let (dark, light) = (a.grid.count(Player::Max) as i64, a.grid.count(Player::Min) as i64);
            return Ok((None, Val::Int(if a.player == Player::Max { dark - light } else { light - dark })));
        }
        let below = a.limit.as_ref().map(|l| match l {
            Val::Int(n) => Val::Int(n.saturating_sub(1)),
            Val::Object { number: Some(x), type_name, .. } if type_name == "int" || type_name == "bool" => {
                Val::Int(*x as i64 - 1)
            }
            other => Val::Float(other.number().unwrap_or(f64::NAN) - 1.0),
        });
        let pruning = matches!(function, Function::AlphabetaMaxNode | Function::AlphabetaMinNode);
        let partner = partner(function);
        let (mut alpha, mut beta) = (a.alpha.clone(), a.beta.clone());
        let mut best: (Option<Move>, Val) =
            (None, Val::Float(if maximizing { f64::NEG_INFINITY } else { f64::INFINITY }));
        for mv in moves {
            let child = Args {
                grid: a.grid.play(side, mv),
                color: a.color.clone(),
                player: a.player,
                alpha: alpha.clone(),
                beta: beta.clone(),
                limit: below.clone(),
            };
            let value =
                if partner == self.tested { self.ask_student(partner, &child)? } else { self.node(partner, &child)?.1 };
            if compare(if maximizing { ">" } else { "<" }, &value, &best.1)? {
                best = (Some(mv), value);
            }
            if pruning && maximizing {
                if compare(">=", &best.1, &beta)? {
                    break;
                }
                // Python's max(alpha, best): alpha unless best is greater.
                if compare(">", &best.1, &alpha)? {
                    alpha = best.1.clone();
                }
            } else if pruning {
                if compare("<=", &best.1, &alpha)? {
                    break;
                }
                if compare("<", &best.1, &beta)? {
                    beta = best.1.clone();
                }
            }
        }
        Ok(best)
    }

    /// The value the function under test gives the node `a` (asked of the helper, which calls it; any stand-in it
    /// calls meanwhile is answered here).
    fn ask_student(&mut self, function: Function, a: &Args) -> Result<Val, Stop> {
        let n = a.grid.size();
        let board: Vec<Vec<u8>> = (0..n).map(|r| (0..n).map(|c| a.grid.get(r, c)).collect()).collect();
        let question = json!({
            "child": function.name(),
            "board": board,
            "color": a.color.to_json(),
            "alpha": a.alpha.to_json(),
            "beta": a.beta.to_json(),
            "limit": a.limit.as_ref().map(Val::to_json),
        });
        if !self.process.send(&question.to_string()) {
            return Err(Stop::End(Reply::Died(format!("Python ended during the call: {}", died(self.process)))));
        }
        loop {
            let line = match self.process.recv(self.deadline) {
                Incoming::Line(line) => line,
                Incoming::Timeout => return Err(Stop::End(Reply::Timeout)),
                Incoming::Closed | Incoming::Bad(_) => {
                    return Err(Stop::End(Reply::Died(format!("Python ended during the call: {}", died(self.process)))))
                }
            };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                return Err(Stop::End(Reply::Died(format!("the helper wrote an unreadable line: {line}"))));
            };
            if message.get("id").and_then(Value::as_u64) != Some(self.id) {
                continue;
            }
            if message.get("ref").is_some() {
                self.serve(&message).map_err(Stop::End)?;
            } else if let Some(value) = message.get("value").and_then(Val::parse) {
                return Ok(value);
            } else if let Some(raised) = message.get("raised").and_then(Value::as_u64) {
                return Err(Stop::Raise(json!({ "reraise": raised })));
            } else {
                return Err(Stop::End(Reply::Died(format!("the helper's answer is not the one asked for: {line}"))));
            }
        }
    }
}

/// The node function each node calls for the replies to its moves.
fn partner(function: Function) -> Function {
    match function {
        Function::MinimaxMaxNode => Function::MinimaxMinNode,
        Function::MinimaxMinNode => Function::MinimaxMaxNode,
        Function::AlphabetaMaxNode => Function::AlphabetaMinNode,
        _ => Function::AlphabetaMaxNode,
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn the_helper_holds_no_game_logic_to_borrow() {
        // No rules (moves, flips, scores) and no search: a module that reads or finds the helper learns nothing.
        for word in ["othello_shared", "get_possible_moves", "play_move", "get_score", "PARTNERS"] {
            assert!(!super::super::HELPER_PY.contains(word), "the helper holds {word}");
        }
    }

    #[test]
    fn values_cross_as_handles_and_compare_as_python_does() {
        let object = Val::parse(&json!({"h": 3, "n": "-inf", "t": "float"})).unwrap();
        assert_eq!(object.to_json(), json!({"h": 3}));
        assert_eq!(Val::Float(f64::INFINITY).to_json(), json!({"f": "inf"}));
        assert_eq!(Val::Int(-2).to_json(), json!({"i": -2}));
        assert!(compare("<", &object, &Val::Int(-5)).unwrap());
        let none = Val::parse(&json!({"h": 4, "n": null, "t": "NoneType"})).unwrap();
        match compare(">", &none, &Val::Float(1.0)) {
            Err(Stop::Raise(message)) => {
                assert_eq!(message["message"], json!("'>' not supported between instances of 'NoneType' and 'float'"))
            }
            other => panic!("{other:?}"),
        }
        assert!(Val::parse(&json!({"n": 1})).is_none());
    }
}
