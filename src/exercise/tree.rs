//! Trees for the tree problems (alpha-beta, expectimax): built from a drawn shape, labelled the way a sheet
//! names them (inner nodes `A`, `B`, ... level by level, leaves `h`, `i`, ... left to right, so no two labels
//! differ only in case), rewritten for a wrong method (MIN and MAX swapped, probabilities ignored), and written
//! in the notation `referee tree` reads.

use std::collections::VecDeque;
use std::fmt::Write as _;

use num_traits::One;

use crate::game::tree::{Kind, Node, Tree};
use crate::keys::number::{self, Q};

/// A tree as drawn, before it is labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A leaf and its value.
    Leaf(Q),
    /// An inner node: its kind and its children, each with the edge's probability under a CHANCE node.
    Inner(Kind, Vec<(Option<Q>, Shape)>),
}

/// The `i`-th name of the sequence A, B, ..., Z, AA, AB, ... (uppercase).
pub fn letters(i: usize) -> String {
    let mut n = i + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(char::from(b'A' + (n % 26) as u8));
        n /= 26;
    }
    out.iter().rev().collect()
}

/// Builds the labelled tree of `shape`: ids in pre-order, as [`Tree`] wants them.
pub fn build(shape: &Shape) -> Tree {
    fn add(tree: &mut Tree, parent: Option<usize>, p: Option<Q>, shape: &Shape) {
        match shape {
            Shape::Leaf(v) => {
                tree.add(parent, None, Kind::Leaf(v.clone()), p);
            }
            Shape::Inner(kind, children) => {
                let id = tree.add(parent, None, kind.clone(), p);
                for (p, child) in children {
                    add(tree, Some(id), p.clone(), child);
                }
            }
        }
    }
    let mut bare = Tree::new();
    add(&mut bare, None, None, shape);
    let labels = labels(&bare);
    copy(&bare, |id, node| (Some(labels[id].clone()), node.kind.clone(), node.probability.clone()))
}

/// The sheet's labels by node id: inner nodes in breadth-first order from `A`, then leaves left to right in
/// lowercase, continuing the sequence.
fn labels(tree: &Tree) -> Vec<String> {
    let mut out = vec![String::new(); tree.len()];
    let mut next = 0;
    let mut queue = VecDeque::from([tree.root()]);
    while let Some(id) = queue.pop_front() {
        let node = tree.node(id);
        if node.children.is_empty() {
            continue;
        }
        out[id] = letters(next);
        next += 1;
        queue.extend(node.children.iter().copied());
    }
    for (id, slot) in out.iter_mut().enumerate() {
        if tree.node(id).children.is_empty() {
            *slot = letters(next).to_ascii_lowercase();
            next += 1;
        }
    }
    out
}

/// What a copied node becomes: its label, its kind and the probability of the edge into it.
pub type Rewritten = (Option<String>, Kind, Option<Q>);

/// A copy of `tree` with each node's label, kind and edge probability given by `f(id, node)`; ids unchanged.
pub fn copy(tree: &Tree, f: impl Fn(usize, &Node) -> Rewritten) -> Tree {
    fn walk(from: &Tree, id: usize, parent: Option<usize>, to: &mut Tree, f: &dyn Fn(usize, &Node) -> Rewritten) {
        let node = from.node(id);
        let (label, kind, p) = f(id, node);
        let new = to.add(parent, label, kind, p);
        for &c in &node.children {
            walk(from, c, Some(new), to, f);
        }
    }
    let mut out = Tree::new();
    if !tree.is_empty() {
        walk(tree, tree.root(), None, &mut out, &f);
    }
    out
}

/// The tree with MIN and MAX swapped at every node.
pub fn swapped(tree: &Tree) -> Tree {
    copy(tree, |_, n| {
        let kind = match &n.kind {
            Kind::Max => Kind::Min,
            Kind::Min => Kind::Max,
            other => other.clone(),
        };
        (n.label.clone(), kind, n.probability.clone())
    })
}

/// The tree with every CHANCE node's children equally likely.
pub fn uniform(tree: &Tree) -> Tree {
    copy(tree, |_, n| {
        let p = n.parent.filter(|&p| tree.node(p).kind == Kind::Chance).map(|p| {
            let siblings = tree.node(p).children.len();
            Q::one() / number::int(siblings as i64)
        });
        (n.label.clone(), n.kind.clone(), p)
    })
}

/// The node labelled `label`.
pub fn find(tree: &Tree, label: &str) -> Option<usize> {
    (0..tree.len()).find(|&id| tree.node(id).label.as_deref() == Some(label))
}

/// The tree in `referee tree`'s notation, one inner node a line, every kind written out.
pub fn notation(tree: &Tree) -> String {
    fn walk(tree: &Tree, id: usize, depth: usize, out: &mut String) {
        let node = tree.node(id);
        let indent = "  ".repeat(depth);
        let p = node.probability.as_ref().map(|p| format!("{}: ", number::fraction(p))).unwrap_or_default();
        let label = node.label.as_ref().map(|l| format!("{l}: ")).unwrap_or_default();
        match &node.kind {
            Kind::Leaf(v) => {
                let _ = write!(out, "{p}{label}{}", number::fraction(v));
            }
            kind => {
                let all_leaves = node.children.iter().all(|&c| tree.node(c).children.is_empty());
                let _ = write!(out, "{indent}{p}{label}{} [", kind.name().to_ascii_lowercase());
                if all_leaves {
                    for (i, &c) in node.children.iter().enumerate() {
                        out.push_str(if i == 0 { " " } else { ", " });
                        walk(tree, c, 0, out);
                    }
                    out.push_str(" ]");
                } else {
                    out.push('\n');
                    for &c in &node.children {
                        walk(tree, c, depth + 1, out);
                        out.push('\n');
                    }
                    let _ = write!(out, "{indent}]");
                }
            }
        }
    }
    let mut out = String::new();
    if !tree.is_empty() {
        walk(tree, tree.root(), 0, &mut out);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::tree::notation::parse;

    fn leaf(v: i64) -> (Option<Q>, Shape) {
        (None, Shape::Leaf(number::int(v)))
    }

    #[test]
    fn labels_go_level_by_level_then_leaves_and_the_notation_reads_back() {
        let shape = Shape::Inner(
            Kind::Max,
            vec![
                (None, Shape::Inner(Kind::Min, vec![leaf(3), leaf(5)])),
                (
                    None,
                    Shape::Inner(
                        Kind::Chance,
                        vec![
                            (Some(number::parse("1/4").unwrap()), Shape::Leaf(number::int(8))),
                            (Some(number::parse("3/4").unwrap()), Shape::Leaf(number::int(4))),
                        ],
                    ),
                ),
            ],
        );
        let tree = build(&shape);
        let names: Vec<String> = (0..tree.len()).map(|i| tree.name(i)).collect();
        assert_eq!(names, ["A", "B", "d", "e", "C", "f", "g"]);
        assert_eq!(letters(25), "Z");
        assert_eq!(letters(26), "AA");
        let text = notation(&tree);
        assert_eq!(parse(&text).unwrap(), tree, "{text}");
        let u = uniform(&tree);
        assert_eq!(u.node(find(&u, "f").unwrap()).probability, Some(number::parse("1/2").unwrap()));
        assert_eq!(swapped(&tree).node(0).kind, Kind::Min);
    }
}
