//! The sheets' figures as SVG to put inline in an HTML page (so without a namespace URL; no script, font or link
//! to fetch; every text escaped): a game tree
//! as a question (labels, leaf values and edge probabilities, nothing solved), a grid or chain of MDP states,
//! and a constraint graph.

use std::fmt::Write as _;

use crate::game::tree::{Kind, Tree};
use crate::keys::number;
use crate::keys::tree::svg::layout;

/// Half the size of a node's shape.
const R: f64 = 14.0;

fn escape(text: &str) -> String {
    crate::harness::render::html::escape::text(text)
}

fn open(width: f64, height: f64, label: &str) -> String {
    format!(
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} \
         {height}\" role=\"img\" aria-label=\"{}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        escape(label)
    )
}

/// The tree as a question: MAX a triangle up, MIN a triangle down, CHANCE a circle, a leaf a square holding its
/// value with its label below; inner labels beside their shape; probabilities on the edges below CHANCE nodes.
pub fn tree(tree: &Tree) -> String {
    let at = layout(tree);
    let width = (at.iter().map(|p| p.0).fold(0.0, f64::max) + 60.0).max(320.0);
    let height = at.iter().map(|p| p.1).fold(0.0, f64::max) + 50.0;
    let mut out = open(width, height, "game tree");
    for (id, node) in tree.nodes().iter().enumerate() {
        let Some(parent) = node.parent else { continue };
        let ((x1, y1), (x2, y2)) = (at[parent], at[id]);
        let _ = writeln!(out, "<line x1=\"{x1}\" y1=\"{}\" x2=\"{x2}\" y2=\"{}\" stroke=\"#333\"/>", y1 + R, y2 - R);
        if let (Kind::Chance, Some(p)) = (&tree.node(parent).kind, &node.probability) {
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let anchor = if x2 < x1 { "end" } else { "start" };
            let dx = if x2 < x1 { -4.0 } else { 4.0 };
            let _ = writeln!(
                out,
                "<text class=\"p\" x=\"{}\" y=\"{my}\" text-anchor=\"{anchor}\" fill=\"#06c\">{}</text>",
                mx + dx,
                escape(&number::fraction(p))
            );
        }
    }
    for (id, node) in tree.nodes().iter().enumerate() {
        let (x, y) = at[id];
        let paint = "fill=\"white\" stroke=\"#333\" stroke-width=\"1.5\"";
        let name = escape(&tree.name(id));
        match &node.kind {
            Kind::Leaf(v) => {
                let _ = writeln!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {paint}/>\n<text x=\"{x}\" y=\"{}\" \
                     text-anchor=\"middle\" font-weight=\"bold\">{}</text>\n<text class=\"label\" x=\"{x}\" y=\"{}\" \
                     text-anchor=\"middle\" fill=\"#555\" font-style=\"italic\">{name}</text>",
                    x - R,
                    y - R,
                    2.0 * R,
                    2.0 * R,
                    y + 4.5,
                    escape(&number::fraction(v)),
                    y + R + 15.0
                );
            }
            kind => {
                let shape = match kind {
                    Kind::Max => {
                        format!("<polygon points=\"{x},{} {},{} {},{}\" {paint}/>", y - R, x - R, y + R, x + R, y + R)
                    }
                    Kind::Min => {
                        format!("<polygon points=\"{x},{} {},{} {},{}\" {paint}/>", y + R, x - R, y - R, x + R, y - R)
                    }
                    _ => format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"{R}\" {paint}/>"),
                };
                let _ = writeln!(
                    out,
                    "{shape}\n<text class=\"label\" x=\"{}\" y=\"{}\" font-weight=\"bold\">{name}</text>",
                    x + R + 4.0,
                    y + 4.5
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// One cell of an MDP grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The state's label.
    pub label: String,
    /// What the cell says below the label (`exit +10`, `R = -1`).
    pub note: Option<String>,
    /// Whether it is an exit (drawn shaded).
    pub exit: bool,
}

/// A `rows` x `cols` grid of cells in reading order, exits shaded.
pub fn grid(rows: usize, cols: usize, cells: &[Cell]) -> String {
    let (w, h) = (96.0, 64.0);
    let width = 20.0 + w * cols as f64;
    let height = 20.0 + h * rows as f64;
    let mut out = open(width, height, "grid of states");
    for (i, cell) in cells.iter().enumerate() {
        let (r, c) = (i / cols.max(1), i % cols.max(1));
        let (x, y) = (10.0 + w * c as f64, 10.0 + h * r as f64);
        let fill = if cell.exit { "#e0e0e0" } else { "white" };
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{fill}\" stroke=\"#333\" \
             stroke-width=\"1.5\"/>\n<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"18\" \
             font-weight=\"bold\">{}</text>",
            x + w / 2.0,
            y + 28.0,
            escape(&cell.label)
        );
        if let Some(note) = &cell.note {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                x + w / 2.0,
                y + 50.0,
                escape(note)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// A constraint graph: variables on a circle (an assigned one shaded, with its value), an edge per binary
/// constraint labelled with it.
pub fn graph(nodes: &[(String, Option<i64>)], edges: &[(usize, usize, String)]) -> String {
    let n = nodes.len().max(1) as f64;
    let (cx, cy, radius) = (260.0, 190.0, 140.0);
    let at: Vec<(f64, f64)> = (0..nodes.len())
        .map(|i| {
            let angle = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * i as f64 / n;
            ((cx + radius * angle.cos()).round(), (cy + radius * angle.sin()).round())
        })
        .collect();
    let mut out = open(520.0, 380.0, "constraint graph");
    for (a, b, text) in edges {
        let ((x1, y1), (x2, y2)) = (at[*a], at[*b]);
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#333\"/>\n<text x=\"{}\" y=\"{}\" \
             text-anchor=\"middle\" fill=\"#06c\" font-size=\"12\" stroke=\"white\" stroke-width=\"3\" \
             paint-order=\"stroke\">{}</text>",
            (x1 + x2) / 2.0,
            (y1 + y2) / 2.0 + 4.0,
            escape(text)
        );
    }
    for (i, (name, value)) in nodes.iter().enumerate() {
        let (x, y) = at[i];
        let fill = if value.is_some() { "#e8e8e8" } else { "white" };
        let _ = writeln!(
            out,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"20\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1.5\"/>\n<text \
             class=\"label\" x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            y + 5.0,
            escape(name)
        );
        if let Some(v) = value {
            let _ = writeln!(out, "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">= {v}</text>", y + 36.0);
        }
    }
    out.push_str("</svg>\n");
    out
}
