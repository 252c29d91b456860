//! A tree seen as a [`Game`]: a state is a node id and a move is a child's position under its parent.

use super::{Exact, Kind, Tree};
use crate::game::{Game, Player};
use crate::search::Evaluator;

/// A tree with the order each node's children are tried in.
#[derive(Clone, Debug)]
pub struct TreeGame<'a> {
    tree: &'a Tree,
    order: Vec<Vec<usize>>,
}

impl<'a> TreeGame<'a> {
    /// The tree with children tried left to right.
    pub fn new(tree: &'a Tree) -> TreeGame<'a> {
        TreeGame::with_order(tree, |_, n| (0..n).collect())
    }

    /// The tree with `order(node, number_of_children)` giving the child positions to try, first to last (it
    /// should be a permutation of `0..n`).
    pub fn with_order(tree: &'a Tree, order: impl Fn(usize, usize) -> Vec<usize>) -> TreeGame<'a> {
        let order = tree.nodes().iter().enumerate().map(|(id, n)| order(id, n.children.len())).collect();
        TreeGame { tree, order }
    }

    /// The tree.
    pub fn tree(&self) -> &'a Tree {
        self.tree
    }

    /// The child positions of `id` in the order they are tried.
    pub fn order(&self, id: usize) -> &[usize] {
        &self.order[id]
    }
}

impl Game for TreeGame<'_> {
    type State = usize;
    type Move = usize;
    type Moves = std::vec::IntoIter<usize>;

    /// MIN nodes are Min's; MAX nodes (and, for completeness, CHANCE nodes and leaves) are Max's.
    fn to_move(&self, state: &usize) -> Player {
        match self.tree.node(*state).kind {
            Kind::Min => Player::Min,
            _ => Player::Max,
        }
    }

    fn legal_moves(&self, state: &usize) -> Self::Moves {
        self.order[*state].clone().into_iter()
    }

    fn apply(&self, state: &usize, mv: usize) -> usize {
        self.tree.node(*state).children[mv]
    }

    fn is_terminal(&self, state: &usize) -> bool {
        self.tree.node(*state).children.is_empty()
    }

    /// A leaf's sign: positive is Max's win, negative Min's, zero a draw.
    fn winner(&self, state: &usize) -> Option<Player> {
        match &self.tree.node(*state).kind {
            Kind::Leaf(q) if *q > num_traits::Zero::zero() => Some(Player::Max),
            Kind::Leaf(q) if *q < num_traits::Zero::zero() => Some(Player::Min),
            _ => None,
        }
    }
}

/// Scores a leaf with its written value.
#[derive(Clone, Debug)]
pub struct LeafValue {
    values: Vec<Exact>,
}

impl LeafValue {
    /// The leaf values of `tree` as search values.
    ///
    /// # Errors
    /// The name of the first leaf whose numerator or denominator does not fit in 64 bits.
    pub fn new(tree: &Tree) -> Result<LeafValue, String> {
        let values = (0..tree.len())
            .map(|id| match &tree.node(id).kind {
                Kind::Leaf(q) => Exact::from_q(q).ok_or_else(|| {
                    format!(
                        "leaf {} is too large for the search (at most 18 digits above and below the bar)",
                        tree.name(id)
                    )
                }),
                _ => Ok(Exact::NegInf),
            })
            .collect::<Result<_, _>>()?;
        Ok(LeafValue { values })
    }
}

impl Evaluator<TreeGame<'_>> for LeafValue {
    type Value = Exact;

    fn evaluate(&self, _game: &TreeGame<'_>, state: &usize, _terminal: bool) -> Exact {
        self.values[*state]
    }
}
