//! The constraint language: `expr OP expr` where OP is one of `== = != < <= > >=` and an expression is built from
//! integers, variable names, `+ - *`, unary minus, parentheses and absolute value bars `|X - Y|`.
//!
//! Variables are numbered by first appearance ("slots"), so a constraint is evaluated on the values of its own
//! variables, in slot order.

use super::lex::{Tok, Token};

/// An integer expression over a constraint's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A literal.
    Num(i64),
    /// The constraint's variable in this slot.
    Var(usize),
    /// `-e`.
    Neg(Box<Expr>),
    /// `|e|`.
    Abs(Box<Expr>),
    /// `a + b`, `a - b` or `a * b` (the operator as written).
    Bin(&'static str, Box<Expr>, Box<Expr>),
}

/// `left OP right`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    /// Left side.
    pub left: Expr,
    /// `==`, `!=`, `<`, `<=`, `>` or `>=`.
    pub op: &'static str,
    /// Right side.
    pub right: Expr,
}

/// A variable name as it appears in a constraint, with the offset of its first appearance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    /// The name.
    pub name: String,
    /// Byte offset of the first appearance.
    pub at: usize,
}

const RELATIONS: [&str; 6] = ["==", "!=", "<=", ">=", "<", ">"];

impl Relation {
    /// Whether the relation holds when slot `i` has value `values[i]`. Arithmetic that overflows counts as not
    /// holding.
    pub fn holds(&self, values: &[i64]) -> bool {
        let (Some(l), Some(r)) = (eval(&self.left, values), eval(&self.right, values)) else {
            return false;
        };
        match self.op {
            "==" => l == r,
            "!=" => l != r,
            "<" => l < r,
            "<=" => l <= r,
            ">" => l > r,
            _ => l >= r,
        }
    }
}

fn eval(e: &Expr, values: &[i64]) -> Option<i128> {
    Some(match e {
        Expr::Num(n) => i128::from(*n),
        Expr::Var(slot) => i128::from(*values.get(*slot)?),
        Expr::Neg(a) => eval(a, values)?.checked_neg()?,
        Expr::Abs(a) => eval(a, values)?.checked_abs()?,
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(a, values)?, eval(b, values)?);
            match *op {
                "+" => a.checked_add(b)?,
                "-" => a.checked_sub(b)?,
                _ => a.checked_mul(b)?,
            }
        }
    })
}

/// Parses a whole relation from `tokens`; `end` is the offset just past the line (for "expected ... at end").
/// Returns the relation and its variables in slot order.
///
/// # Errors
/// The offset of the offending token and what was expected there.
pub fn parse_relation(tokens: &[Token], end: usize) -> Result<(Relation, Vec<Mention>), (usize, String)> {
    let mut p = Parser { tokens, pos: 0, end, vars: Vec::new() };
    let left = p.sum()?;
    let op = match p.peek() {
        Some(Tok::Sym(s)) if RELATIONS.contains(s) => *s,
        _ => return Err(p.expected("a comparison (==, !=, <, <=, >, >=)")),
    };
    p.pos += 1;
    let right = p.sum()?;
    if p.pos < tokens.len() {
        return Err(p.expected("the end of the constraint"));
    }
    Ok((Relation { left, op, right }, p.vars))
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    end: usize,
    vars: Vec<Mention>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    fn at(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.end, |t| t.at)
    }

    fn expected(&self, what: &str) -> (usize, String) {
        let found = match self.peek() {
            None => "the end of the line".to_string(),
            Some(Tok::Name(n)) => format!("'{n}'"),
            Some(Tok::Num(n)) => format!("'{n}'"),
            Some(Tok::Sym(s)) => format!("'{s}'"),
        };
        (self.at(), format!("expected {what}, found {found}"))
    }

    fn eat(&mut self, sym: &str) -> bool {
        let hit = matches!(self.peek(), Some(Tok::Sym(s)) if *s == sym);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn sum(&mut self) -> Result<Expr, (usize, String)> {
        let mut e = self.term()?;
        loop {
            let op = if self.eat("+") {
                "+"
            } else if self.eat("-") {
                "-"
            } else {
                return Ok(e);
            };
            e = Expr::Bin(op, Box::new(e), Box::new(self.term()?));
        }
    }

    fn term(&mut self) -> Result<Expr, (usize, String)> {
        let mut e = self.unary()?;
        while self.eat("*") {
            e = Expr::Bin("*", Box::new(e), Box::new(self.unary()?));
        }
        Ok(e)
    }

    fn unary(&mut self) -> Result<Expr, (usize, String)> {
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, (usize, String)> {
        let Some(token) = self.tokens.get(self.pos) else {
            return Err(self.expected("a number, a variable, '(' or '|'"));
        };
        match &token.tok {
            Tok::Num(n) => {
                self.pos += 1;
                Ok(Expr::Num(*n))
            }
            Tok::Name(name) => {
                self.pos += 1;
                let slot = match self.vars.iter().position(|m| &m.name == name) {
                    Some(slot) => slot,
                    None => {
                        self.vars.push(Mention { name: name.clone(), at: token.at });
                        self.vars.len() - 1
                    }
                };
                Ok(Expr::Var(slot))
            }
            Tok::Sym("(") => {
                self.pos += 1;
                let e = self.sum()?;
                if !self.eat(")") {
                    return Err(self.expected("')'"));
                }
                Ok(e)
            }
            Tok::Sym("|") => {
                self.pos += 1;
                let e = self.sum()?;
                if !self.eat("|") {
                    return Err(self.expected("'|' closing the absolute value"));
                }
                Ok(Expr::Abs(Box::new(e)))
            }
            _ => Err(self.expected("a number, a variable, '(' or '|'")),
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::csp::lex::lex;

    fn rel(text: &str) -> (Relation, Vec<Mention>) {
        parse_relation(&lex(text, 0).unwrap(), text.len()).unwrap()
    }

    #[test]
    fn evaluates_with_precedence_and_abs() {
        let (r, vars) = rel("|X - Y| != 1");
        assert_eq!(vars.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["X", "Y"]);
        assert!(r.holds(&[3, 1]));
        assert!(!r.holds(&[1, 2]));
        assert!(rel("A >= G + 2").0.holds(&[2, 0]));
        assert!(!rel("A >= G + 2").0.holds(&[1, 0]));
        assert!(rel("2 * A - -B == 7").0.holds(&[3, 1]));
        assert!(rel("A + 2 * B == 7").0.holds(&[1, 3]));
        assert!(rel("||A| - |B|| = 1").0.holds(&[-3, 2]));
        assert!(!rel("A * A * A > 0").0.holds(&[i64::MAX]), "overflow holds nowhere");
    }

    #[test]
    fn points_at_what_is_wrong() {
        let err = |t: &str| parse_relation(&lex(t, 0).unwrap(), t.len()).unwrap_err();
        assert_eq!(err("A + > 1"), (4, "expected a number, a variable, '(' or '|', found '>'".into()));
        assert_eq!(err("A B"), (2, "expected a comparison (==, !=, <, <=, >, >=), found 'B'".into()));
        assert_eq!(err("|A - B != 1"), (7, "expected '|' closing the absolute value, found '!='".into()));
        assert_eq!(err("(A"), (2, "expected ')', found the end of the line".into()));
        assert_eq!(err("A < B < C"), (6, "expected the end of the constraint, found '<'".into()));
    }
}
