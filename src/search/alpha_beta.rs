//! Alpha-beta search exactly as AIMA Figure 5.7 (fail-soft).

use super::{Evaluator, Interrupted, Limits, NodeExit, NodeKind, Observer, SearchResult, Value};
use crate::game::{Game, Player};

/// Searches `root` with alpha-beta pruning, AIMA Figure 5.7, starting from the window `(alpha, beta)`.
///
/// A Max node keeps `v = max(v, child)`; if `v >= beta` it returns `v` at once (fail-soft, non-strict cut, its own
/// `alpha` not updated); otherwise `alpha = max(alpha, v)`. A Min node is symmetric with `v <= alpha` and `beta`.
/// A leaf (no legal move, or at `limits.depth`) returns the evaluator's value. `v` changes only when a child is
/// strictly better, so at the root the first best move in canonical order is chosen.
///
/// # Errors
/// [`Interrupted`] when the observer asks to stop.
///
/// ```
/// use referee::game::takestones::{Position, SmallBoard, Stones};
/// use referee::reference::takestones::StatsEval;
/// use referee::search::{alpha_beta, Counters, Limits};
///
/// // `java TakeStones 7 3 1 4 2 3`, the stats edition's example.
/// let board = SmallBoard::new(7).ok_or("7 stones fit the fast board")?;
/// let root = board.root(&Position::new(7, vec![1, 4, 2])?);
/// let eval = StatsEval::default();
/// let mut counters = Counters::default();
/// let result = alpha_beta(&board, &root, &eval, Limits::depth(3), (f64::NEG_INFINITY, f64::INFINITY), &mut counters)?;
/// assert_eq!((result.best, result.value), (Some(6), 1.0));
/// assert_eq!((counters.visited, counters.evaluated, counters.max_depth), (3, 1, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn alpha_beta<G, E, O>(
    game: &G,
    root: &G::State,
    eval: &E,
    limits: Limits,
    window: (E::Value, E::Value),
    observer: &mut O,
) -> Result<SearchResult<G::Move, E::Value>, Interrupted>
where
    G: Game,
    E: Evaluator<G>,
    O: Observer<G, E::Value>,
{
    let mut ctx = Ctx { game, eval, limits, observer, best: None };
    let value = ctx.node(root, None, 0, window.0, window.1).ok_or(Interrupted)?;
    Ok(SearchResult { value, best: ctx.best })
}

/// What every node of one search shares.
struct Ctx<'a, G: Game, E, O> {
    game: &'a G,
    eval: &'a E,
    limits: Limits,
    observer: &'a mut O,
    best: Option<G::Move>,
}

impl<G, E, O> Ctx<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: Observer<G, E::Value>,
{
    /// One node; `None` when the observer stopped the search.
    fn node(
        &mut self,
        state: &G::State,
        via: Option<G::Move>,
        depth: u32,
        mut alpha: E::Value,
        mut beta: E::Value,
    ) -> Option<E::Value> {
        self.observer.enter(depth);
        if self.observer.should_stop() {
            return None;
        }
        self.observer.entered(&(alpha, beta));
        let terminal = self.game.is_terminal(state);
        if terminal || self.limits.is_cutoff(depth) {
            let value = self.eval.evaluate(self.game, state, terminal);
            let kind = if terminal { NodeKind::Terminal } else { NodeKind::DepthLimit };
            self.observer.exit(&NodeExit { state, via, depth, value, window: Some((alpha, beta)), kind });
            return Some(value);
        }
        let maximizing = self.game.to_move(state) == Player::Max;
        let mut v = if maximizing { E::Value::MIN_BOUND } else { E::Value::MAX_BOUND };
        let mut kind = NodeKind::Interior;
        let mut first = true;
        for mv in self.game.legal_moves(state) {
            let child = self.game.apply(state, mv);
            let cv = self.node(&child, Some(mv), depth + 1, alpha, beta)?;
            let better = if maximizing { cv > v } else { cv < v };
            if better || first {
                v = cv;
                if depth == 0 {
                    self.best = Some(mv);
                }
            }
            first = false;
            if maximizing {
                if v >= beta {
                    kind = NodeKind::Cutoff;
                    break;
                }
                if v > alpha {
                    alpha = v;
                }
            } else {
                if v <= alpha {
                    kind = NodeKind::Cutoff;
                    break;
                }
                if v < beta {
                    beta = v;
                }
            }
        }
        self.observer.exit(&NodeExit { state, via, depth, value: v, window: Some((alpha, beta)), kind });
        Some(v)
    }
}
