//! The tree as Graphviz DOT: MAX nodes as triangles, MIN as upside-down triangles, CHANCE as circles, leaves as
//! boxes, each with its value; pruned edges dashed red, nodes never visited grey.

use std::fmt::Write as _;

use super::picture::{caption, edge_probability, pruned_edge, unvisited};
use crate::game::tree::{Kind, Tree};
use crate::keys::number::Q;

fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The DOT text. `visited` is the alpha-beta run's (by id), or `None` when there was none.
pub fn dot(tree: &Tree, values: &[Q], visited: Option<&[bool]>) -> String {
    let mut out = String::from("digraph tree {\n  graph [ordering=out];\n  node [fontname=\"Helvetica\"];\n");
    for (id, node) in tree.nodes().iter().enumerate() {
        let shape = match node.kind {
            Kind::Max => "triangle",
            Kind::Min => "invtriangle",
            Kind::Chance => "circle",
            Kind::Leaf(_) => "box",
        };
        let grey = if unvisited(visited, id) { ", style=dashed, color=gray, fontcolor=gray" } else { "" };
        let _ = writeln!(out, "  n{id} [label={}, shape={shape}{grey}];", quote(&caption(tree, values, id)));
    }
    for (id, node) in tree.nodes().iter().enumerate() {
        let Some(parent) = node.parent else { continue };
        let mut attrs = Vec::new();
        if let Some(p) = edge_probability(tree, id) {
            attrs.push(format!("label={}", quote(&p)));
        }
        if pruned_edge(tree, visited, id) {
            attrs.push("style=dashed, color=red, xlabel=\"pruned\"".to_string());
        } else if unvisited(visited, id) {
            attrs.push("style=dashed, color=gray".to_string());
        }
        let attrs = if attrs.is_empty() { String::new() } else { format!(" [{}]", attrs.join(", ")) };
        let _ = writeln!(out, "  n{parent} -> n{id}{attrs};");
    }
    out.push_str("}\n");
    out
}
