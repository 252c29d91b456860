//! The CSP input format, one statement per line (`#` starts a comment):
//!
//! ```text
//! A B C D in {0, 1, 2}     # variables and their domain (values tried in this order)
//! E in 0..2                # or an inclusive range
//! E > C                    # a constraint on one or two variables
//! |C - G| == 1             # + - * unary minus, parentheses, |absolute value|; = is the same as ==
//! assign G = 0             # the partial assignment to start from (also: assign A = 1, B = 2)
//! ```
//!
//! Declarations, constraints and assignments may come in any order.

use super::expr::{parse_relation, Mention, Relation};
use super::lex::{lex, Tok, Token};
use super::problem::{Constraint, Problem, Variable};
use crate::keys::source::SourceError;

/// The most values one variable may have (the keys are for hand-sized problems).
pub const MAX_DOMAIN: usize = 10_000;

/// Parses a CSP file.
///
/// # Errors
/// The first mistake, at its line and column.
pub fn parse(text: &str) -> Result<Problem, SourceError> {
    let err = |at: usize, msg: String| SourceError::at(text, at, msg);
    let mut problem = Problem::default();
    let mut constraints: Vec<(String, Relation, Vec<Mention>, usize)> = Vec::new();
    let mut assigns: Vec<(Mention, i64, usize)> = Vec::new();
    let mut base = 0;
    for line in text.split_inclusive('\n') {
        let start = base;
        base += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let tokens = lex(body, start).map_err(|(at, m)| err(at, m))?;
        let Some(first) = tokens.first() else { continue };
        let end = start + body.split('#').next().unwrap_or("").trim_end().len();
        if first.tok == Tok::Name("assign".into()) {
            assigns.extend(assignments(&tokens[1..], end).map_err(|(at, m)| err(at, m))?);
        } else if let Some(k) = tokens.iter().position(|t| t.tok == Tok::Name("in".into())) {
            for v in declaration(&tokens, k, end).map_err(|(at, m)| err(at, m))? {
                if problem.index(&v.0.name).is_some() {
                    return Err(err(v.0.at, format!("variable {} is declared twice", v.0.name)));
                }
                problem.variables.push(Variable { name: v.0.name, domain: v.1 });
            }
        } else {
            let (relation, vars) = parse_relation(&tokens, end).map_err(|(at, m)| err(at, m))?;
            let written = text[first.at..end].split_whitespace().collect::<Vec<_>>().join(" ");
            constraints.push((written, relation, vars, first.at));
        }
    }
    if problem.variables.is_empty() {
        // Constraints or assignments on variables never declared: name the first one as such.
        let first =
            constraints.iter().flat_map(|c| c.2.first()).chain(assigns.iter().map(|a| &a.0)).min_by_key(|m| m.at);
        return Err(match first {
            Some(m) => err(
                m.at,
                format!(
                    "undeclared variable {0}: no variable is declared (declare them first, e.g. '{0} in {{0, 1, 2}}')",
                    m.name
                ),
            ),
            None => err(0, "no variables: declare some, e.g. 'A B C in {0, 1, 2}'".into()),
        });
    }
    for (text_of, relation, vars, at) in constraints {
        if vars.is_empty() {
            return Err(err(at, format!("'{text_of}' names no variable")));
        }
        if let Some(third) = vars.get(2) {
            return Err(err(third.at, format!("constraints are binary, but '{text_of}' also uses {}", third.name)));
        }
        let scope = vars.iter().map(|m| resolve(&problem, m).map_err(|(a, m)| err(a, m))).collect::<Result<_, _>>()?;
        problem.constraints.push(Constraint { text: text_of, scope, relation });
    }
    for (mention, value, at) in assigns {
        let var = resolve(&problem, &mention).map_err(|(a, m)| err(a, m))?;
        if !problem.variables[var].domain.contains(&value) {
            return Err(err(at, format!("{value} is not in the domain of {}", mention.name)));
        }
        if problem.assignment.iter().any(|&(v, _)| v == var) {
            return Err(err(mention.at, format!("{} is assigned twice", mention.name)));
        }
        problem.assignment.push((var, value));
    }
    Ok(problem)
}

fn resolve(problem: &Problem, m: &Mention) -> Result<usize, (usize, String)> {
    problem
        .index(&m.name)
        .ok_or_else(|| (m.at, format!("undeclared variable {0} (declare it with '{0} in {{...}}')", m.name)))
}

/// A result whose error is a byte offset and a message.
type Fallible<T> = Result<T, (usize, String)>;

fn expected(tokens: &[Token], i: usize, end: usize, what: &str) -> (usize, String) {
    match tokens.get(i) {
        None => (end, format!("expected {what}, found the end of the line")),
        Some(t) => (t.at, format!("expected {what}, found {}", show(&t.tok))),
    }
}

fn show(tok: &Tok) -> String {
    match tok {
        Tok::Name(n) => format!("'{n}'"),
        Tok::Num(n) => format!("'{n}'"),
        Tok::Sym(s) => format!("'{s}'"),
    }
}

/// A possibly negative integer at `tokens[*i]`, advancing `i`.
fn integer(tokens: &[Token], i: &mut usize, end: usize) -> Fallible<(i64, usize)> {
    let at = tokens.get(*i).map_or(end, |t| t.at);
    let negative = tokens.get(*i).is_some_and(|t| t.tok == Tok::Sym("-"));
    if negative {
        *i += 1;
    }
    match tokens.get(*i) {
        Some(Token { tok: Tok::Num(n), .. }) => {
            *i += 1;
            Ok((if negative { -n } else { *n }, at))
        }
        _ => Err(expected(tokens, *i, end, "an integer")),
    }
}

fn name(tokens: &[Token], i: usize, end: usize) -> Fallible<(usize, String)> {
    match tokens.get(i) {
        Some(Token { tok: Tok::Name(n), at }) if n != "in" && n != "assign" => Ok((*at, n.clone())),
        _ => Err(expected(tokens, i, end, "a variable name")),
    }
}

/// `NAME = VALUE [, NAME = VALUE]*` after `assign`.
fn assignments(tokens: &[Token], end: usize) -> Fallible<Vec<(Mention, i64, usize)>> {
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        let (at, n) = name(tokens, i, end)?;
        i += 1;
        if tokens.get(i).map(|t| &t.tok) != Some(&Tok::Sym("==")) {
            return Err(expected(tokens, i, end, "'='"));
        }
        i += 1;
        let (value, value_at) = integer(tokens, &mut i, end)?;
        out.push((Mention { name: n, at }, value, value_at));
        match tokens.get(i) {
            None => return Ok(out),
            Some(t) if t.tok == Tok::Sym(",") => i += 1,
            Some(_) => return Err(expected(tokens, i, end, "',' or the end of the line")),
        }
    }
}

/// `NAMES in {v, ...}` or `NAMES in LO..HI`; `k` is the position of `in`.
fn declaration(tokens: &[Token], k: usize, end: usize) -> Fallible<Vec<(Mention, Vec<i64>)>> {
    let mut names = Vec::new();
    for i in 0..k {
        if tokens[i].tok == Tok::Sym(",") && i > 0 {
            continue;
        }
        let (at, n) = name(tokens, i, end)?;
        names.push(Mention { name: n, at });
    }
    if names.is_empty() {
        return Err(expected(tokens, 0, end, "a variable name"));
    }
    let mut i = k + 1;
    let mut domain = Vec::new();
    let domain_at = tokens.get(i).map_or(end, |t| t.at);
    if tokens.get(i).map(|t| &t.tok) == Some(&Tok::Sym("{")) {
        i += 1;
        if tokens.get(i).map(|t| &t.tok) != Some(&Tok::Sym("}")) {
            loop {
                let (v, at) = integer(tokens, &mut i, end)?;
                if domain.contains(&v) {
                    return Err((at, format!("{v} is listed twice")));
                }
                domain.push(v);
                match tokens.get(i).map(|t| &t.tok) {
                    Some(Tok::Sym(",")) => i += 1,
                    Some(Tok::Sym("}")) => break,
                    _ => return Err(expected(tokens, i, end, "',' or '}'")),
                }
            }
        }
        i += 1;
    } else {
        let here = i;
        let (lo, _) =
            integer(tokens, &mut i, end).map_err(|_| expected(tokens, here, end, "'{' or a range like 0..2"))?;
        if tokens.get(i).map(|t| &t.tok) != Some(&Tok::Sym("..")) {
            return Err(expected(tokens, i, end, "'..'"));
        }
        i += 1;
        let (hi, hi_at) = integer(tokens, &mut i, end)?;
        if hi < lo {
            return Err((hi_at, format!("the range {lo}..{hi} is empty")));
        }
        if (hi - lo) as u64 >= MAX_DOMAIN as u64 {
            return Err((domain_at, format!("the range {lo}..{hi} has more than {MAX_DOMAIN} values")));
        }
        domain = (lo..=hi).collect();
    }
    if i < tokens.len() {
        return Err(expected(tokens, i, end, "the end of the declaration"));
    }
    if domain.is_empty() {
        return Err((domain_at, "the domain is empty".into()));
    }
    if domain.len() > MAX_DOMAIN {
        return Err((domain_at, format!("more than {MAX_DOMAIN} values")));
    }
    Ok(names.into_iter().map(|m| (m, domain.clone())).collect())
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn reads_declarations_constraints_and_assignments() {
        let p =
            parse("# t\nA, B in {2, 0, -1}\nC in 0..2 # range\nassign C = 1, A = 0\n|A - C| != 1\nB > A\n").unwrap();
        let names: Vec<&str> = p.variables.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        assert_eq!(p.variables[1].domain, [2, 0, -1]);
        assert_eq!(p.variables[2].domain, [0, 1, 2]);
        assert_eq!(p.assignment, [(2, 1), (0, 0)]);
        assert_eq!(p.constraints[0].text, "|A - C| != 1");
        assert_eq!(p.constraints[0].scope, [0, 2]);
        assert_eq!(p.constraints[1].scope, [1, 0]);
    }

    #[test]
    fn errors_point_at_the_mistake() {
        let e = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(e("A in {0,1}\nA > Z\n"), "line 2, column 5: undeclared variable Z (declare it with 'Z in {...}')");
        assert_eq!(
            e("# c\nA > B\n"),
            "line 2, column 1: undeclared variable A: no variable is declared (declare them first, e.g. 'A in {0, 1, 2}')"
        );
        assert_eq!(
            e("A B C in 0..1\nA + B > C\n"),
            "line 2, column 9: constraints are binary, but 'A + B > C' also uses C"
        );
        assert_eq!(e("A in {0,1,0}"), "line 1, column 11: 0 is listed twice");
        assert_eq!(e("A in 3..1"), "line 1, column 9: the range 3..1 is empty");
        assert_eq!(e("A in {0,1}\nassign A = 5"), "line 2, column 12: 5 is not in the domain of A");
        assert_eq!(
            e("A in {0,1}\nA >"),
            "line 2, column 4: expected a number, a variable, '(' or '|', found the end of the line"
        );
        assert_eq!(e("A in {0 1}"), "line 1, column 9: expected ',' or '}', found '1'");
        assert_eq!(e("A in {0}\nA in {1}"), "line 2, column 1: variable A is declared twice");
        assert_eq!(e("A in {0}\n1 > 0"), "line 2, column 1: '1 > 0' names no variable");
        assert_eq!(e("# nothing\n"), "line 1, column 1: no variables: declare some, e.g. 'A B C in {0, 1, 2}'");
    }
}
