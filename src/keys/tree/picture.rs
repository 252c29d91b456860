//! What both pictures share: each node's caption and which edges alpha-beta pruned.

use crate::game::tree::{Kind, Tree};
use crate::keys::number::{self, Q};

/// A node's caption: its value, after its label when it has one (`A = 3`, `14/3`).
pub fn caption(tree: &Tree, values: &[Q], id: usize) -> String {
    let value = number::fraction(&values[id]);
    match (&tree.node(id).label, &tree.node(id).kind) {
        (Some(label), _) => format!("{label} = {value}"),
        (None, Kind::Leaf(_)) => value,
        (None, _) if id == tree.root() => format!("root = {value}"),
        (None, _) => value,
    }
}

/// Whether the edge into `child` was pruned: its parent was visited and it was not. `visited` is `None` when
/// there was no alpha-beta run (CHANCE nodes), and then nothing is pruned.
pub fn pruned_edge(tree: &Tree, visited: Option<&[bool]>, child: usize) -> bool {
    match (visited, tree.node(child).parent) {
        (Some(v), Some(p)) => v[p] && !v[child],
        _ => false,
    }
}

/// Whether the search never looked at `id` (false when there was no alpha-beta run).
pub fn unvisited(visited: Option<&[bool]>, id: usize) -> bool {
    visited.is_some_and(|v| !v[id])
}

/// The probability on the edge into `id` when its parent is a CHANCE node.
pub fn edge_probability(tree: &Tree, id: usize) -> Option<String> {
    let parent = tree.node(id).parent?;
    if tree.node(parent).kind != Kind::Chance {
        return None;
    }
    tree.node(id).probability.as_ref().map(number::fraction)
}
