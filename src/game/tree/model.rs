//! The nodes of an explicit game tree.

use crate::keys::number::{self, Q};

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The maximizing player chooses a child.
    Max,
    /// The minimizing player chooses a child.
    Min,
    /// Nature chooses a child with the edge probabilities.
    Chance,
    /// A leaf with its value (MAX's point of view).
    Leaf(Q),
}

impl Kind {
    /// `MAX`, `MIN`, `CHANCE` or `leaf`, as the notation and the tables name kinds.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Max => "MAX",
            Kind::Min => "MIN",
            Kind::Chance => "CHANCE",
            Kind::Leaf(_) => "leaf",
        }
    }
}

/// One node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The name given in the input, if any.
    pub label: Option<String>,
    /// MAX, MIN, CHANCE or a leaf.
    pub kind: Kind,
    /// Child ids, left to right.
    pub children: Vec<usize>,
    /// The probability of the edge from the parent, when the parent is a CHANCE node.
    pub probability: Option<Q>,
    /// The parent's id; `None` for the root.
    pub parent: Option<usize>,
    /// 1-based positions from the root (`[]` for the root, `[3, 1]` for the first child of its third child).
    pub path: Vec<usize>,
}

/// A game tree: node 0 is the root, ids are in pre-order (left to right as written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    /// An empty tree; add the root first with [`Tree::add`].
    pub fn new() -> Tree {
        Tree::default()
    }

    /// Adds a node under `parent` (the root when `None`; the tree has one root) and returns its id.
    pub fn add(&mut self, parent: Option<usize>, label: Option<String>, kind: Kind, probability: Option<Q>) -> usize {
        let id = self.nodes.len();
        let mut path = Vec::new();
        if let Some(p) = parent {
            path = self.nodes[p].path.clone();
            path.push(self.nodes[p].children.len() + 1);
            self.nodes[p].children.push(id);
        }
        self.nodes.push(Node { label, kind, children: Vec::new(), probability, parent, path });
        id
    }

    /// Replaces the probabilities of `id`'s child edges (in child order).
    pub fn set_probabilities(&mut self, id: usize, probabilities: Vec<Q>) {
        let children = self.nodes[id].children.clone();
        for (child, p) in children.into_iter().zip(probabilities) {
            self.nodes[child].probability = Some(p);
        }
    }

    /// The root's id (0).
    pub fn root(&self) -> usize {
        0
    }

    /// Every node, by id.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node `id`.
    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no node yet.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether some node is a CHANCE node (alpha-beta does not apply then).
    pub fn has_chance(&self) -> bool {
        self.nodes.iter().any(|n| n.kind == Kind::Chance)
    }

    /// The name tables use: the label; else a leaf's value (as homework tables name leaves); else `root` or the
    /// node's path of 1-based child positions from the root (`root.2.1`), which no one can read as a value.
    pub fn name(&self, id: usize) -> String {
        let node = &self.nodes[id];
        match (&node.label, &node.kind) {
            (Some(label), _) => label.clone(),
            (None, Kind::Leaf(q)) => number::fraction(q),
            (None, _) if node.path.is_empty() => "root".into(),
            (None, _) => {
                let path: Vec<String> = node.path.iter().map(ToString::to_string).collect();
                format!("root.{}", path.join("."))
            }
        }
    }

    /// The depth of `id` (the root is 0).
    pub fn depth(&self, id: usize) -> usize {
        self.nodes[id].path.len()
    }
}
