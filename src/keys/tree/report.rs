//! The key as tables: every node's value, the alpha-beta step table, the move at the root and what was pruned.

use super::order::ChildOrder;
use super::solve::Values;
use super::trace::{Step, Trace};
use crate::game::tree::{Exact, Kind, Tree};
use crate::keys::number;
use crate::keys::table::{Format, Table};

/// Everything `referee tree` prints.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    /// The tree.
    pub tree: &'a Tree,
    /// Its values.
    pub values: &'a Values,
    /// The alpha-beta run, or why there is none (CHANCE nodes).
    pub trace: &'a Result<Trace, String>,
    /// The order children were searched in.
    pub order: ChildOrder,
}

/// A node's value as a fraction with its decimal: `14/3 (4.667)`, `4`.
fn both(q: &number::Q) -> String {
    number::both(q)
}

/// Every node with its kind and value, in pre-order.
pub fn values_table(tree: &Tree, values: &Values) -> Table {
    let mut t = Table::new(["node", "kind", "parent", "value", "decimal"]).right(3).right(4);
    for (id, node) in tree.nodes().iter().enumerate() {
        let parent = node.parent.map(|p| tree.name(p)).unwrap_or_default();
        let q = &values.values[id];
        t.row([tree.name(id), node.kind.name().to_string(), parent, number::fraction(q), number::decimal(q, 3)]);
    }
    t
}

/// The step table: step, node, final alpha and beta, value, children skipped, and the window it entered with.
pub fn steps_table(tree: &Tree, steps: &[Step]) -> Table {
    let mut t = Table::new(["step", "node", "α", "β", "value", "children skipped", "entered with (α, β)"])
        .right(0)
        .right(2)
        .right(3)
        .right(4);
    for (i, s) in steps.iter().enumerate() {
        let skipped = if s.skipped.is_empty() {
            "-".to_string()
        } else {
            s.skipped.iter().map(|&c| tree.name(c)).collect::<Vec<_>>().join(", ")
        };
        t.row([
            (i + 1).to_string(),
            tree.name(s.node),
            s.window.0.to_string(),
            s.window.1.to_string(),
            s.value.to_string(),
            skipped,
            format!("({}, {})", s.entry.0, s.entry.1),
        ]);
    }
    t
}

/// The whole key.
pub fn render(r: &Report<'_>, format: Format) -> String {
    let tree = r.tree;
    let mut out = String::new();
    let count = |f: fn(&Kind) -> bool| tree.nodes().iter().filter(|n| f(&n.kind)).count();
    out.push_str(&format.item(&format!(
        "Tree: {} nodes ({} MAX, {} MIN, {} CHANCE, {} leaves).\n",
        tree.len(),
        count(|k| *k == Kind::Max),
        count(|k| *k == Kind::Min),
        count(|k| *k == Kind::Chance),
        count(|k| matches!(k, Kind::Leaf(_)))
    )));
    let method = if r.values.expectimax { "Expectimax" } else { "Minimax" };
    out.push_str(&format.section(&format!("{method} value of every node")));
    out.push_str(&values_table(tree, r.values).render(format));
    out.push('\n');
    let root = &r.values.values[tree.root()];
    match r.trace {
        Err(why) => {
            out.push_str(&format.item(&format!("No alpha-beta table: {why}.\n")));
        }
        Ok(trace) => {
            let title = format!("Alpha-beta (AIMA Figure 5.7), children {}", r.order.describe());
            out.push_str(&format.section(&title));
            out.push_str(&steps_table(tree, &trace.steps).render(format));
            out.push('\n');
            pruned(&mut out, format, tree, trace);
            let ab = trace.value.to_q();
            let agree = if ab.as_ref() == Some(root) { "they agree" } else { "THEY DISAGREE" };
            out.push_str(&format.item(&format!(
                "Root value: alpha-beta {}, minimax {} ({agree}).",
                Exact::to_q(trace.value).map_or(trace.value.to_string(), |q| both(&q)),
                both(root)
            )));
        }
    }
    let name = |pos: usize| {
        let child = tree.node(tree.root()).children[pos];
        format!("child {} ({}), worth {}", pos + 1, tree.name(child), both(&r.values.values[child]))
    };
    match r.values.best {
        Some(pos) => {
            out.push_str(&format.item(&format!(
                "Move at the root ({}): {}.",
                tree.node(tree.root()).kind.name(),
                name(pos)
            )));
        }
        None => {
            out.push_str(&format.item(&format!(
                "No move at the root: it is a {}; its value is {}.",
                tree.node(0).kind.name(),
                both(root)
            )));
        }
    }
    out
}

/// The pruned branches, by the node they hang from.
fn pruned(out: &mut String, format: Format, tree: &Tree, trace: &Trace) {
    let cuts: Vec<String> = trace
        .steps
        .iter()
        .filter(|s| !s.skipped.is_empty())
        .map(|s| {
            let names: Vec<String> = s.skipped.iter().map(|&c| tree.name(c)).collect();
            format!("{} under {}", names.join(", "), tree.name(s.node))
        })
        .collect();
    let unvisited = trace.visited.iter().filter(|v| !**v).count();
    if cuts.is_empty() {
        out.push_str(&format.item("Pruned: nothing; every node was visited."));
    } else {
        let text = format!("Pruned: {} ({unvisited} of {} nodes never visited).", cuts.join("; "), tree.len());
        out.push_str(&format.item(&text));
    }
}
