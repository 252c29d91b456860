//! The tree as a self-contained SVG (no fonts, scripts or links to fetch): leaves evenly spaced left to right,
//! each parent centred over its children; one `<text>` per node (below a leaf, right of other nodes), the
//! minimax value apart in a smaller grey `<tspan>` when the caption is a bound; pruned edges dashed red and
//! crossed; a legend of the symbols at the bottom (its lines are `<text class="legend">`).

use std::fmt::Write as _;

use super::picture::{caption, edge_probability, legend, pruned_edge, unvisited};
use super::trace::Trace;
use crate::game::tree::{Kind, Tree};
use crate::keys::number::Q;

const DX: f64 = 64.0;
const DY: f64 = 90.0;
const MARGIN: f64 = 40.0;
const R: f64 = 14.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Node positions by id: leaves evenly spaced in written order, a parent halfway between its outer children, a
/// level every 90 px from a 40 px margin (also used by the exercise sheets, so both pictures place nodes alike).
pub fn layout(tree: &Tree) -> Vec<(f64, f64)> {
    fn place(tree: &Tree, id: usize, next: &mut f64, at: &mut [(f64, f64)]) {
        let node = tree.node(id);
        let y = MARGIN + DY * tree.depth(id) as f64;
        if node.children.is_empty() {
            at[id] = (MARGIN + DX * *next, y);
            *next += 1.0;
            return;
        }
        for &c in &node.children {
            place(tree, c, next, at);
        }
        let first = at[node.children[0]].0;
        let last = at[node.children[node.children.len() - 1]].0;
        at[id] = ((first + last) / 2.0, y);
    }
    let mut at = vec![(0.0, 0.0); tree.len()];
    let mut next = 0.0;
    if !tree.is_empty() {
        place(tree, tree.root(), &mut next, &mut at);
    }
    at
}

/// Height of one legend line.
const LEGEND_LINE: f64 = 16.0;

/// The SVG text. `trace` is the alpha-beta run, or `None` when there was none (CHANCE trees).
pub fn svg(tree: &Tree, values: &[Q], trace: Option<&Trace>) -> String {
    let visited = trace.map(|t| t.visited.as_slice());
    let at = layout(tree);
    let legend = legend(trace.is_some());
    let width = (at.iter().map(|p| p.0).fold(0.0, f64::max) + MARGIN + DX).max(560.0);
    let bottom = at.iter().map(|p| p.1).fold(0.0, f64::max) + MARGIN + 20.0;
    let height = bottom + LEGEND_LINE * legend.len() as f64 + 10.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    for (id, node) in tree.nodes().iter().enumerate() {
        let Some(parent) = node.parent else { continue };
        let ((x1, y1), (x2, y2)) = (at[parent], at[id]);
        let style = if pruned_edge(tree, visited, id) {
            "stroke=\"#c00\" stroke-dasharray=\"5,4\""
        } else if unvisited(visited, id) {
            "stroke=\"#aaa\" stroke-dasharray=\"5,4\""
        } else {
            "stroke=\"#333\""
        };
        let _ = writeln!(out, "<line x1=\"{x1}\" y1=\"{}\" x2=\"{x2}\" y2=\"{}\" {style}/>", y1 + R, y2 - R);
        if pruned_edge(tree, visited, id) {
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let _ = writeln!(
                out,
                "<path d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"#c00\" stroke-width=\"2\"/>",
                mx - 6.0,
                my - 6.0,
                mx + 6.0,
                my + 6.0,
                mx - 6.0,
                my + 6.0,
                mx + 6.0,
                my - 6.0
            );
        }
    }
    for (id, node) in tree.nodes().iter().enumerate() {
        let (x, y) = at[id];
        let faded = if unvisited(visited, id) { " opacity=\"0.45\"" } else { "" };
        let paint = format!("fill=\"white\" stroke=\"#333\"{faded}");
        let shape = match node.kind {
            Kind::Max => format!("<polygon points=\"{x},{} {},{} {},{}\" {paint}/>", y - R, x - R, y + R, x + R, y + R),
            Kind::Min => format!("<polygon points=\"{x},{} {},{} {},{}\" {paint}/>", y + R, x - R, y - R, x + R, y - R),
            Kind::Chance => format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"{R}\" {paint}/>"),
            Kind::Leaf(_) => {
                format!("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {paint}/>", x - R, y - R, 2.0 * R, 2.0 * R)
            }
        };
        out.push_str(&shape);
        out.push('\n');
        // Leaves are captioned below, other nodes to the right (their edges leave from the bottom).
        let (tx, ty, anchor) =
            if node.children.is_empty() { (x, y + R + 14.0, "middle") } else { (x + R + 4.0, y + 4.0, "start") };
        let caption = caption(tree, values, trace, id);
        let mut text = format!("<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"{anchor}\"{faded}>{}", escape(&caption.main));
        if let Some(minimax) = &caption.minimax {
            let _ =
                write!(text, "<tspan x=\"{tx}\" dy=\"13\" font-size=\"10\" fill=\"#666\">{}</tspan>", escape(minimax));
        }
        if let (Some(p), Some(parent)) = (edge_probability(tree, id), node.parent) {
            let (px, py) = at[parent];
            let _ = write!(
                text,
                "<tspan x=\"{}\" y=\"{}\" fill=\"#06c\">{}</tspan>",
                (px + x) / 2.0 + 8.0,
                (py + y) / 2.0,
                escape(&p)
            );
        }
        text.push_str("</text>\n");
        out.push_str(&text);
    }
    for (i, line) in legend.iter().enumerate() {
        let y = bottom + LEGEND_LINE * (i as f64 + 0.5);
        let _ = writeln!(
            out,
            "<text class=\"legend\" x=\"{MARGIN}\" y=\"{y}\" font-size=\"11\" fill=\"#444\">{}</text>",
            escape(line)
        );
    }
    out.push_str("</svg>\n");
    out
}
