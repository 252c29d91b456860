//! What a search reports about each node, and the counters every course asks for.

use crate::game::Game;

/// Why a node returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// No legal move: the game is over.
    Terminal,
    /// The depth limit was reached; a heuristic scored it.
    DepthLimit,
    /// Every child was searched.
    Interior,
    /// A child's value reached the window's far bound and the remaining children were skipped.
    Cutoff,
}

impl NodeKind {
    /// Whether the node was scored by the evaluator (a leaf) rather than by its children.
    pub fn is_leaf(self) -> bool {
        matches!(self, NodeKind::Terminal | NodeKind::DepthLimit)
    }
}

/// One node, right before it returns.
#[derive(Debug)]
pub struct NodeExit<'a, G: Game, V> {
    /// The node's state.
    pub state: &'a G::State,
    /// The move that led here from the parent; `None` at the root.
    pub via: Option<G::Move>,
    /// Distance from the root (the root is 0).
    pub depth: u32,
    /// The value the node returns (Max's point of view).
    pub value: V,
    /// The node's final local `(alpha, beta)` (alpha-beta only; a leaf's are those it received).
    pub window: Option<(V, V)>,
    /// Why it returned.
    pub kind: NodeKind,
}

/// Watches a search. Every hook has a no-op default, so an observer overrides only what it needs and the unused
/// hooks compile away.
pub trait Observer<G: Game, V> {
    /// A node at `depth` is entered (called once per visited node, before anything else).
    #[inline]
    fn enter(&mut self, depth: u32) {
        let _ = depth;
    }

    /// Alpha-beta only: the `(alpha, beta)` window the node just entered received (called right after
    /// [`Observer::enter`], before the node is expanded). Step tables print it next to the final window.
    #[inline]
    fn entered(&mut self, window: &(V, V)) {
        let _ = window;
    }

    /// A node is about to return.
    #[inline]
    fn exit(&mut self, node: &NodeExit<'_, G, V>) {
        let _ = node;
    }

    /// Asked on entering each node; `true` makes the search unwind and return [`super::Interrupted`].
    #[inline]
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// The observer that watches nothing.
impl<G: Game, V> Observer<G, V> for () {}

/// Lets a caller keep ownership of its observer.
impl<G: Game, V, O: Observer<G, V> + ?Sized> Observer<G, V> for &mut O {
    #[inline]
    fn enter(&mut self, depth: u32) {
        (**self).enter(depth)
    }
    #[inline]
    fn entered(&mut self, window: &(V, V)) {
        (**self).entered(window)
    }
    #[inline]
    fn exit(&mut self, node: &NodeExit<'_, G, V>) {
        (**self).exit(node)
    }
    #[inline]
    fn should_stop(&mut self) -> bool {
        (**self).should_stop()
    }
}

/// Runs two observers side by side (counters and a trace, say).
impl<G: Game, V, A: Observer<G, V>, B: Observer<G, V>> Observer<G, V> for (A, B) {
    #[inline]
    fn enter(&mut self, depth: u32) {
        self.0.enter(depth);
        self.1.enter(depth);
    }
    #[inline]
    fn entered(&mut self, window: &(V, V)) {
        self.0.entered(window);
        self.1.entered(window);
    }
    #[inline]
    fn exit(&mut self, node: &NodeExit<'_, G, V>) {
        self.0.exit(node);
        self.1.exit(node);
    }
    #[inline]
    fn should_stop(&mut self) -> bool {
        self.0.should_stop() || self.1.should_stop()
    }
}

/// The course's search statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Every node the search was called on, the root included.
    pub visited: u64,
    /// Leaves: nodes scored by the evaluator (terminal or at the depth limit).
    pub evaluated: u64,
    /// The depth of the deepest visited node (the root is 0).
    pub max_depth: u32,
}

impl Counters {
    /// Average effective branching factor as the course defines it: edges searched per expanded node,
    /// `(visited - 1) / (visited - evaluated)`; `None` when no node was expanded.
    pub fn effective_branching(&self) -> Option<f64> {
        let expanded = self.visited - self.evaluated;
        (expanded > 0).then(|| (self.visited - 1) as f64 / expanded as f64)
    }
}

impl<G: Game, V> Observer<G, V> for Counters {
    #[inline]
    fn enter(&mut self, depth: u32) {
        self.visited += 1;
        self.max_depth = self.max_depth.max(depth);
    }

    #[inline]
    fn exit(&mut self, node: &NodeExit<'_, G, V>) {
        if node.kind.is_leaf() {
            self.evaluated += 1;
        }
    }
}
