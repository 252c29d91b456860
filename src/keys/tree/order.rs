//! The order children are searched in: as written, reversed, or sorted by value (best or worst first for the
//! player choosing), which is how a key shows that ordering changes only what alpha-beta prunes.

use crate::game::tree::{Kind, Tree, TreeGame};
use crate::keys::number::Q;

/// How each node's children are ordered for the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ChildOrder {
    /// Left to right, as written (the homework's order).
    #[default]
    Left,
    /// Right to left.
    Reverse,
    /// The mover's best child first (most pruning); ties keep the written order.
    Best,
    /// The mover's worst child first (least pruning); ties keep the written order.
    Worst,
}

impl ChildOrder {
    /// A few words for the report ("left to right").
    pub fn describe(self) -> &'static str {
        match self {
            ChildOrder::Left => "left to right",
            ChildOrder::Reverse => "right to left",
            ChildOrder::Best => "best first",
            ChildOrder::Worst => "worst first",
        }
    }

    /// The tree as a game with this order; `values` are every node's minimax value (used by best/worst).
    pub fn game<'a>(self, tree: &'a Tree, values: &[Q]) -> TreeGame<'a> {
        TreeGame::with_order(tree, |id, n| {
            let mut order: Vec<usize> = (0..n).collect();
            let children = &tree.node(id).children;
            let ascending = match tree.node(id).kind {
                Kind::Min => true,
                Kind::Max => false,
                Kind::Chance | Kind::Leaf(_) => return order,
            };
            match self {
                ChildOrder::Left => {}
                ChildOrder::Reverse => order.reverse(),
                ChildOrder::Best | ChildOrder::Worst => {
                    let up = ascending == (self == ChildOrder::Best);
                    order.sort_by(|&a, &b| {
                        let o = values[children[a]].cmp(&values[children[b]]);
                        if up {
                            o
                        } else {
                            o.reverse()
                        }
                    });
                }
            }
            order
        })
    }
}
