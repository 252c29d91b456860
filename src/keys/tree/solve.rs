//! Every node's value: minimax through [`crate::search::minimax`] for MAX/MIN trees, expectimax (computed here,
//! exactly) when the tree has CHANCE nodes.

use num_traits::Zero;

use crate::game::tree::{Exact, Kind, LeafValue, Tree, TreeGame};
use crate::keys::number::Q;
use crate::search::{self, Limits, NodeExit, Observer};

/// The values of a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// Every node's minimax (or expectimax) value, by id.
    pub values: Vec<Q>,
    /// The root's choice: the position of its first best child; `None` when the root is a leaf or CHANCE.
    pub best: Option<usize>,
    /// Whether CHANCE nodes made this expectimax rather than minimax.
    pub expectimax: bool,
}

/// Records the value every node returns.
struct Record(Vec<Option<Exact>>);

impl Observer<TreeGame<'_>, Exact> for Record {
    fn exit(&mut self, node: &NodeExit<'_, TreeGame<'_>, Exact>) {
        self.0[*node.state] = Some(node.value);
    }
}

/// Solves `tree`.
///
/// # Errors
/// A leaf too large for the search (the notation parser already rejects those).
pub fn solve(tree: &Tree) -> Result<Values, String> {
    if tree.has_chance() {
        let mut values = vec![Q::zero(); tree.len()];
        expectimax(tree, tree.root(), &mut values);
        let best = choose(tree, &values);
        return Ok(Values { values, best, expectimax: true });
    }
    let game = TreeGame::new(tree);
    let mut record = Record(vec![None; tree.len()]);
    let result = search::minimax(&game, &tree.root(), &LeafValue::new(tree)?, Limits::unlimited(), &mut record)
        .map_err(|e| e.to_string())?;
    let values = record
        .0
        .iter()
        .enumerate()
        .map(|(id, v)| v.and_then(Exact::to_q).ok_or_else(|| format!("internal: node {} has no value", tree.name(id))))
        .collect::<Result<Vec<Q>, String>>()?;
    Ok(Values { values, best: result.best, expectimax: false })
}

fn expectimax(tree: &Tree, id: usize, values: &mut [Q]) {
    let node = tree.node(id);
    for &c in &node.children {
        expectimax(tree, c, values);
    }
    let children = node.children.iter().map(|&c| &values[c]);
    values[id] = match &node.kind {
        Kind::Leaf(q) => q.clone(),
        Kind::Max => children.max().cloned().unwrap_or_default(),
        Kind::Min => children.min().cloned().unwrap_or_default(),
        Kind::Chance => {
            node.children.iter().map(|&c| tree.node(c).probability.clone().unwrap_or_default() * &values[c]).sum()
        }
    };
}

/// The position of the root's first best child (ties go to the leftmost, as in the search).
fn choose(tree: &Tree, values: &[Q]) -> Option<usize> {
    let root = tree.node(tree.root());
    let better: fn(&Q, &Q) -> bool = match root.kind {
        Kind::Max => |a, b| a > b,
        Kind::Min => |a, b| a < b,
        _ => return None,
    };
    let mut best = 0;
    for (i, &c) in root.children.iter().enumerate() {
        if better(&values[c], &values[root.children[best]]) {
            best = i;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::number;
    use crate::keys::tree::notation::parse;

    #[test]
    fn minimax_and_expectimax() {
        // AIMA Figure 5.2: the root is worth 3, through its first child.
        let v = solve(&parse("[[3 12 8] [2 4 6] [14 5 2]]").unwrap()).unwrap();
        assert_eq!((number::fraction(&v.values[0]), v.best, v.expectimax), ("3".into(), Some(0), false));
        let v = solve(&parse("[chance [1 2] chance [1/4: 8, 3/4: 4]]").unwrap()).unwrap();
        assert_eq!((number::fraction(&v.values[0]), v.best, v.expectimax), ("5".into(), Some(1), true));
        assert_eq!(number::fraction(&v.values[1]), "3/2");
    }
}
