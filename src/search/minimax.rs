//! Plain minimax: the definition the other searches are checked against.

use super::{Evaluator, Interrupted, Limits, NodeExit, NodeKind, Observer, SearchResult, Value};
use crate::game::{Game, Player};

/// Searches every node of `root`'s tree down to `limits` and returns its minimax value and the first best move.
///
/// Leaves are scored as in [`super::alpha_beta`], so the two agree on value and move by construction of the
/// algorithms, which the property tests check. Exits report no window.
///
/// # Errors
/// [`Interrupted`] when the observer asks to stop.
pub fn minimax<G, E, O>(
    game: &G,
    root: &G::State,
    eval: &E,
    limits: Limits,
    observer: &mut O,
) -> Result<SearchResult<G::Move, E::Value>, Interrupted>
where
    G: Game,
    E: Evaluator<G>,
    O: Observer<G, E::Value>,
{
    let mut best = None;
    let value = node(game, eval, limits, observer, root, None, 0, &mut best).ok_or(Interrupted)?;
    Ok(SearchResult { value, best })
}

#[expect(clippy::too_many_arguments, reason = "a private recursion; a context struct would only rename them")]
fn node<G, E, O>(
    game: &G,
    eval: &E,
    limits: Limits,
    observer: &mut O,
    state: &G::State,
    via: Option<G::Move>,
    depth: u32,
    best: &mut Option<G::Move>,
) -> Option<E::Value>
where
    G: Game,
    E: Evaluator<G>,
    O: Observer<G, E::Value>,
{
    observer.enter(depth);
    if observer.should_stop() {
        return None;
    }
    let terminal = game.is_terminal(state);
    if terminal || limits.is_cutoff(depth) {
        let value = eval.evaluate(game, state, terminal);
        let kind = if terminal { NodeKind::Terminal } else { NodeKind::DepthLimit };
        observer.exit(&NodeExit { state, via, depth, value, window: None, kind });
        return Some(value);
    }
    let maximizing = game.to_move(state) == Player::Max;
    let mut v = if maximizing { E::Value::MIN_BOUND } else { E::Value::MAX_BOUND };
    let mut first = true;
    for mv in game.legal_moves(state) {
        let child = game.apply(state, mv);
        let cv = node(game, eval, limits, observer, &child, Some(mv), depth + 1, best)?;
        let better = if maximizing { cv > v } else { cv < v };
        if better || first {
            v = cv;
            if depth == 0 {
                *best = Some(mv);
            }
        }
        first = false;
    }
    observer.exit(&NodeExit { state, via, depth, value: v, window: None, kind: NodeKind::Interior });
    Some(v)
}
