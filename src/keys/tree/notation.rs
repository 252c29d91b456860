//! The text notation for game trees: nested lists with optional labels and kinds.
//!
//! ```text
//! # Part 2: A picks a row (MAX), B a column (MIN).
//! Root: max [
//!   A: [6 3 5]        # kind left out: the opposite of the parent's, so MIN here
//!   B: min [2, 0, 8]  # commas are optional
//!   C: chance [1/4: 7, 3/4: x: 4]   # "p: node" gives an edge probability
//! ]
//! ```
//!
//! - A node is a leaf value (an integer, a fraction like `14/3`, or a decimal like `0.5`) or `[ children ]`,
//!   optionally preceded by a kind (`max`, `min`, `chance`, any case) and before that by `label:`.
//! - The root is MAX unless marked; an unmarked node is the opposite of the nearest MAX/MIN node above it.
//! - Under a CHANCE node every child may start with `p:` (all of them or none; none means equal probabilities);
//!   the probabilities must add up to 1.
//! - `#` starts a comment; commas and line breaks separate like spaces. Labels are letters, digits and `_`,
//!   starting with a letter or `_`, and must be unique.

use std::collections::HashMap;

use num_traits::{One, Zero};

use crate::game::tree::{Exact, Kind, Tree};
use crate::keys::number::{self, Q};
use crate::keys::source::{line_col, SourceError};

/// How deep lists may nest (a guard against runaway input, far beyond any homework tree).
const MAX_NESTING: usize = 200;

/// Parses one tree.
///
/// # Errors
/// The first mistake, at its line and column.
pub fn parse(text: &str) -> Result<Tree, SourceError> {
    let mut p = Parser { text, pos: 0, tree: Tree::new(), labels: HashMap::new() };
    p.skip();
    if p.peek().is_none() {
        return Err(p.err(p.pos, "the input holds no tree (write one like: max [ [3 12 8] [2 4 6] ])"));
    }
    p.node(None, Kind::Max, None, None, 0)?;
    p.skip();
    if p.peek().is_some() {
        return Err(p.err(p.pos, "unexpected text after the tree (an input holds one tree)"));
    }
    Ok(p.tree)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    tree: Tree,
    labels: HashMap<String, usize>,
}

fn is_label_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_label_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_number_start(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '-' | '+' | '.')
}

fn is_number_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | '/')
}

fn keyword(word: &str) -> Option<Kind> {
    match word.to_ascii_lowercase().as_str() {
        "max" => Some(Kind::Max),
        "min" => Some(Kind::Min),
        "chance" => Some(Kind::Chance),
        _ => None,
    }
}

impl Parser<'_> {
    fn err(&self, at: usize, message: impl Into<String>) -> SourceError {
        SourceError::at(self.text, at, message)
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// Skips spaces, line breaks, commas and comments.
    fn skip(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == ',' {
                self.pos += c.len_utf8();
            } else if c == '#' {
                self.pos = self.text[self.pos..].find('\n').map_or(self.text.len(), |n| self.pos + n);
            } else {
                break;
            }
        }
    }

    /// Reads characters while `keep` holds; returns where they started and the text.
    fn take(&mut self, keep: fn(char) -> bool) -> (usize, String) {
        let start = self.pos;
        while let Some(c) = self.peek().filter(|&c| keep(c)) {
            self.pos += c.len_utf8();
        }
        (start, self.text[start..self.pos].to_string())
    }

    fn value(&self, at: usize, token: &str) -> Result<Q, SourceError> {
        let q = number::parse(token).map_err(|e| self.err(at, e))?;
        if Exact::from_q(&q).is_none() {
            return Err(self.err(at, format!("'{token}' is too large (at most 18 digits above and below the bar)")));
        }
        Ok(q)
    }

    /// One node (label, kind, body) under `parent`; `above` is the nearest MAX/MIN kind above it.
    fn node(
        &mut self,
        parent: Option<usize>,
        default: Kind,
        probability: Option<Q>,
        above: Option<Kind>,
        nesting: usize,
    ) -> Result<usize, SourceError> {
        self.skip();
        let mut label = None;
        let mut kind = None;
        if let Some(c) = self.peek().filter(|&c| is_label_start(c)) {
            let _ = c;
            let (at, word) = self.take(is_label_char);
            self.skip();
            if self.peek() == Some(':') {
                self.pos += 1;
                if let Some(&first) = self.labels.get(&word) {
                    let (line, _) = line_col(self.text, first);
                    return Err(self.err(at, format!("label '{word}' is already used on line {line}")));
                }
                self.labels.insert(word.clone(), at);
                label = Some(word);
                self.skip();
                if self.peek().is_some_and(is_label_start) {
                    let (at, word) = self.take(is_label_char);
                    kind = Some(keyword(&word).ok_or_else(|| {
                        self.err(at, format!("unknown node kind '{word}' (expected max, min or chance)"))
                    })?);
                }
            } else {
                kind = Some(keyword(&word).ok_or_else(|| {
                    self.err(
                        at,
                        format!(
                            "'{word}' is neither a node kind (max, min, chance) nor a label (a label ends with ':')"
                        ),
                    )
                })?);
            }
        }
        self.skip();
        let at = self.pos;
        match self.peek() {
            Some('[') => {
                let kind = kind.unwrap_or(default);
                let id = self.tree.add(parent, label, kind.clone(), probability);
                self.children(id, &kind, above, nesting)?;
                Ok(id)
            }
            Some(c) if is_number_start(c) => {
                if let Some(kind) = kind {
                    return Err(self.err(at, format!("a {} node needs its children in [ ]", kind.name())));
                }
                let (at, token) = self.take(is_number_char);
                let q = self.value(at, &token)?;
                Ok(self.tree.add(parent, label, Kind::Leaf(q), probability))
            }
            None => Err(self.err(at, "the input ended where a node was expected (a number or [ children ])")),
            Some(c) => {
                Err(self.err(at, format!("unexpected '{c}' where a node was expected (a number or [ children ])")))
            }
        }
    }

    /// The error for the `[` at `open` that the input ends inside. A `[` missing its `]` further down makes the
    /// `]` meant for an enclosing list close it instead, so the input ends inside that enclosing list: when a `[`
    /// after `open` holds something on its line but is not closed there, that is where the missing `]` belongs,
    /// and the error points at it.
    fn unclosed(&self, open: usize) -> SourceError {
        match self.open_on_its_line(open) {
            Some(at) => {
                let (line, col) = line_col(self.text, open);
                self.err(
                    at,
                    format!(
                        "this '[' is not closed on its line, so the '[' on line {line}, column {col} is never closed"
                    ),
                )
            }
            None => self.err(open, "this '[' is never closed"),
        }
    }

    /// The first `[` after `open` that has something after it on its line and no `]` closing it on that line.
    fn open_on_its_line(&self, open: usize) -> Option<usize> {
        let mut line_start = self.text[..open].rfind('\n').map_or(0, |n| n + 1);
        for line in self.text[line_start..].split('\n') {
            let code = line.split('#').next().unwrap_or("");
            let mut pending: Vec<usize> = Vec::new();
            for (i, c) in code.char_indices() {
                match c {
                    '[' => pending.push(i),
                    ']' => {
                        pending.pop();
                    }
                    _ => {}
                }
            }
            let found = pending
                .into_iter()
                .filter(|&i| line_start + i > open && !code[i + 1..].trim().is_empty())
                .map(|i| line_start + i)
                .next();
            if found.is_some() {
                return found;
            }
            line_start += line.len() + 1;
        }
        None
    }

    /// The `[ ... ]` of node `id`, which is of `kind`.
    fn children(&mut self, id: usize, kind: &Kind, above: Option<Kind>, nesting: usize) -> Result<(), SourceError> {
        let open = self.pos;
        if nesting >= MAX_NESTING {
            return Err(self.err(open, format!("lists nest deeper than {MAX_NESTING} levels")));
        }
        self.pos += 1;
        let side = if *kind == Kind::Chance { above } else { Some(kind.clone()) };
        let default = if side == Some(Kind::Max) { Kind::Min } else { Kind::Max };
        let mut probabilities: Vec<Option<Q>> = Vec::new();
        loop {
            self.skip();
            let start = self.pos;
            let mut probability = None;
            match self.peek() {
                None => return Err(self.unclosed(open)),
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                Some(c) if is_number_start(c) => {
                    let (at, token) = self.take(is_number_char);
                    self.skip();
                    if self.peek() == Some(':') {
                        if *kind != Kind::Chance {
                            return Err(
                                self.err(at, "an edge probability ('p: node') is only allowed under a chance node")
                            );
                        }
                        self.pos += 1;
                        let p = number::parse(&token).map_err(|e| self.err(at, e))?;
                        if p < Q::zero() || p > Q::one() {
                            return Err(self.err(at, format!("probability {token} is not between 0 and 1")));
                        }
                        probability = Some(p);
                    } else {
                        self.pos = start;
                    }
                }
                Some(_) => {}
            }
            probabilities.push(probability.clone());
            self.node(Some(id), default.clone(), probability, side.clone(), nesting + 1)?;
        }
        if probabilities.is_empty() {
            return Err(self.err(open, "'[ ]' has no children: a node needs at least one (a leaf is a number)"));
        }
        if *kind == Kind::Chance {
            let given = probabilities.iter().filter(|p| p.is_some()).count();
            if given == 0 {
                let n = probabilities.len();
                let each = Q::new(1.into(), n.into());
                self.tree.set_probabilities(id, vec![each; n]);
            } else if given < probabilities.len() {
                return Err(self.err(
                    open,
                    "give every child of this chance node a probability ('p: node'), or none (equal chances)",
                ));
            } else {
                let sum: Q = probabilities.into_iter().flatten().sum();
                if !sum.is_one() {
                    return Err(self.err(
                        open,
                        format!("the probabilities of this chance node add up to {}, not 1", number::fraction(&sum)),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn reads_kinds_labels_and_probabilities() {
        let tree = parse("# c\nR: [A: [1, 2/3]  chance [1/4: 5 3/4: x: 0.5] min[7]]").unwrap();
        assert_eq!(tree.len(), 9);
        assert_eq!(tree.node(0).kind, Kind::Max);
        assert_eq!(tree.node(1).kind, Kind::Min);
        assert_eq!(tree.name(3), "2/3");
        let chance = tree.node(0).children[1];
        assert_eq!(tree.node(chance).kind, Kind::Chance);
        let x = tree.node(chance).children[1];
        assert_eq!(tree.name(x), "x");
        assert_eq!(tree.node(x).probability, Some(number::parse("3/4").unwrap()));
        assert_eq!(tree.name(chance), "root.2", "an unnamed inner node's name is no number");
        assert_eq!(tree.node(tree.node(0).children[2]).kind, Kind::Min);
        let uniform = parse("chance [min [1] [2] 3]").unwrap();
        assert_eq!(uniform.node(1).kind, Kind::Min);
        assert_eq!(uniform.node(3).kind, Kind::Max, "under a root CHANCE node unmarked children are MAX");
        assert_eq!(uniform.node(5).probability, Some(number::parse("1/3").unwrap()));
    }

    #[test]
    fn points_at_mistakes() {
        let at = |t: &str| parse(t).unwrap_err().to_string();
        assert_eq!(at(""), "line 1, column 1: the input holds no tree (write one like: max [ [3 12 8] [2 4 6] ])");
        assert!(at("[1 2\n").starts_with("line 1, column 1: this '[' is never closed"));
        assert_eq!(
            at("max [\n  [3 12 8]\n  [2 4 6\n  [14 5 2]   # a comment [\n]\n"),
            "line 3, column 3: this '[' is not closed on its line, so the '[' on line 1, column 5 is never closed"
        );
        assert!(at("[[3 12 8] [2 4 6] [14 5 2]").starts_with("line 1, column 1: this '[' is never closed"));
        assert!(at("[1\n  x]").starts_with("line 2, column 3: 'x' is neither"));
        assert!(at("[1 2/0]").starts_with("line 1, column 4: '2/0' divides by zero"));
        assert!(at("[1/2: 3]").contains("only allowed under a chance node"));
        assert!(at("chance [1/2: 3 1/3: 4]").contains("add up to 5/6, not 1"));
        assert!(at("chance [1/2: 3 4]").contains("or none"));
        assert!(at("[A: 1 A: 2]").starts_with("line 1, column 7: label 'A' is already used on line 1"));
        assert!(at("[]").contains("no children"));
        assert!(at("[1] 2").contains("after the tree"));
        assert!(at("A: foo [1]").contains("unknown node kind 'foo'"));
        assert!(at("min 3").contains("a MIN node needs its children in [ ]"));
        assert!(at(&"[".repeat(300)).contains("nest deeper"));
    }
}
