//! The alpha-beta run as a step table: [`crate::search::alpha_beta`] (AIMA Figure 5.7) with an observer that
//! writes one row per visited node, in the order the nodes are entered.

use crate::game::tree::{Exact, LeafValue, TreeGame};
use crate::search::{self, Limits, NodeExit, NodeKind, Observer};

/// One visited node.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The node's id.
    pub node: usize,
    /// The `(alpha, beta)` it was entered with.
    pub entry: (Exact, Exact),
    /// Its final `(alpha, beta)` (a leaf's are the ones it received).
    pub window: (Exact, Exact),
    /// The value it returned.
    pub value: Exact,
    /// Why it returned (leaf, all children searched, or a cutoff).
    pub kind: NodeKind,
    /// The children a cutoff skipped (node ids, in search order).
    pub skipped: Vec<usize>,
}

/// A whole alpha-beta run.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The visited nodes, in the order they were entered (step 1 is the root).
    pub steps: Vec<Step>,
    /// The root's value.
    pub value: Exact,
    /// The position of the child chosen at the root (`None` when the root is a leaf).
    pub best: Option<usize>,
    /// By id: whether the search visited the node.
    pub visited: Vec<bool>,
}

/// Fills the steps as nodes enter and exit.
struct Recorder {
    steps: Vec<Step>,
    open: Vec<usize>,
}

impl Observer<TreeGame<'_>, Exact> for Recorder {
    fn enter(&mut self, _depth: u32) {
        self.open.push(self.steps.len());
        let inf = (Exact::NegInf, Exact::PosInf);
        self.steps.push(Step {
            node: 0,
            entry: inf,
            window: inf,
            value: Exact::NegInf,
            kind: NodeKind::Interior,
            skipped: Vec::new(),
        });
    }

    fn entered(&mut self, window: &(Exact, Exact)) {
        if let Some(&i) = self.open.last() {
            self.steps[i].entry = *window;
        }
    }

    fn exit(&mut self, node: &NodeExit<'_, TreeGame<'_>, Exact>) {
        if let Some(i) = self.open.pop() {
            let step = &mut self.steps[i];
            step.node = *node.state;
            step.value = node.value;
            step.window = node.window.unwrap_or(step.entry);
            step.kind = node.kind;
        }
    }
}

/// Runs alpha-beta from `(-inf, +inf)` on `game`, children in the game's order.
///
/// # Errors
/// The tree has CHANCE nodes (alpha-beta is defined for MAX/MIN trees), or a leaf is too large.
pub fn trace(game: &TreeGame<'_>) -> Result<Trace, String> {
    let tree = game.tree();
    if tree.has_chance() {
        return Err("alpha-beta (AIMA Figure 5.7) is for MAX/MIN trees; this tree has CHANCE nodes".into());
    }
    let mut recorder = Recorder { steps: Vec::new(), open: Vec::new() };
    let eval = LeafValue::new(tree)?;
    let window = (Exact::NegInf, Exact::PosInf);
    let result = search::alpha_beta(game, &tree.root(), &eval, Limits::unlimited(), window, &mut recorder)
        .map_err(|e| e.to_string())?;
    let mut visited = vec![false; tree.len()];
    for step in &recorder.steps {
        visited[step.node] = true;
    }
    for step in &mut recorder.steps {
        if step.kind == NodeKind::Cutoff {
            let children = &tree.node(step.node).children;
            step.skipped = game.order(step.node).iter().map(|&i| children[i]).filter(|&c| !visited[c]).collect();
        }
    }
    Ok(Trace { steps: recorder.steps, value: result.value, best: result.best, visited })
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::tree::notation::parse;

    #[test]
    fn aima_figure_5_5() {
        // AIMA's worked example: C is cut after its first leaf (2 <= alpha 3); D sees all three.
        let tree = parse("[B: [3 12 8] C: [2 4 6] D: [14 5 2]]").unwrap();
        let t = trace(&TreeGame::new(&tree)).unwrap();
        assert_eq!((t.value.to_string(), t.best), ("3".to_string(), Some(0)));
        let names: Vec<String> = t.steps.iter().map(|s| tree.name(s.node)).collect();
        assert_eq!(names, ["root", "B", "3", "12", "8", "C", "2", "D", "14", "5", "2"]);
        let c = &t.steps[5];
        assert_eq!((c.kind, c.entry.0.to_string(), c.value.to_string()), (NodeKind::Cutoff, "3".into(), "2".into()));
        assert_eq!(c.skipped.iter().map(|&n| tree.name(n)).collect::<Vec<_>>(), ["4", "6"]);
        assert_eq!(t.visited.iter().filter(|v| !**v).count(), 2);
    }
}
