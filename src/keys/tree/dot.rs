//! The tree as Graphviz DOT: MAX nodes as triangles, MIN as upside-down triangles, CHANCE as circles, leaves as
//! boxes, each with what alpha-beta knows of its value (the minimax value on a second line when that is only a
//! bound); pruned edges dashed red, nodes never visited grey; the legend as the graph's label.

use std::fmt::Write as _;

use super::picture::{caption, edge_probability, legend, pruned_edge, unvisited};
use super::trace::Trace;
use crate::game::tree::{Kind, Tree};
use crate::keys::number::Q;

fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The DOT text. `trace` is the alpha-beta run, or `None` when there was none (CHANCE trees).
pub fn dot(tree: &Tree, values: &[Q], trace: Option<&Trace>) -> String {
    let visited = trace.map(|t| t.visited.as_slice());
    let mut out = String::from("digraph tree {\n  graph [ordering=out];\n  node [fontname=\"Helvetica\"];\n");
    // `\l` ends a left-justified line in a DOT label (the legend's lines hold no quotes or backslashes).
    let key: String = legend(trace.is_some()).iter().map(|line| format!("{line}\\l")).collect();
    let _ = writeln!(out, "  graph [labelloc=b, labeljust=l, fontname=\"Helvetica\", fontsize=10, label=\"{key}\"];");
    for (id, node) in tree.nodes().iter().enumerate() {
        let shape = match node.kind {
            Kind::Max => "triangle",
            Kind::Min => "invtriangle",
            Kind::Chance => "circle",
            Kind::Leaf(_) => "box",
        };
        let grey = if unvisited(visited, id) { ", style=dashed, color=gray, fontcolor=gray" } else { "" };
        let caption = caption(tree, values, trace, id);
        let label = match &caption.minimax {
            Some(minimax) => format!("{}\n{minimax}", caption.main),
            None => caption.main,
        };
        let _ = writeln!(out, "  n{id} [label={}, shape={shape}{grey}];", quote(&label).replace('\n', "\\n"));
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
