//! Iterative deepening with a wall-clock deadline, on top of [`super::alpha_beta`].
//!
//! Depth 1, 2, 3, ... are searched with a full window until the deadline passes. Only completed iterations count:
//! an iteration the deadline interrupts is thrown away, so the answer is always a whole alpha-beta search at some
//! depth. The first iteration is never interrupted, so a caller whose deadline has already passed still gets the
//! depth-1 move. Deepening stops early once an iteration reached no depth-limit leaf: it searched the whole game
//! tree, and every deeper iteration would visit the same nodes and return the same answer.

use std::time::Instant;

use super::{alpha_beta, Evaluator, Interrupted, Limits, NodeExit, NodeKind, Observer, SearchResult, Value};
use crate::game::Game;

/// The clock is read once per this many nodes (a power of two): reading it costs far more than a node.
const CLOCK_EVERY: u64 = 1024;

/// The outcome of [`iterative_deepening`]: the last completed iteration and what deepening cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deepened<M, V> {
    /// The last completed iteration's answer (value from Max's point of view).
    pub result: SearchResult<M, V>,
    /// The depth limit of that iteration.
    pub depth: u32,
    /// Nodes visited by every iteration, the interrupted one included.
    pub nodes: u64,
    /// Whether that iteration reached the end of the game everywhere (no depth-limit leaf): its value is exact.
    pub exhaustive: bool,
}

/// Counts nodes, notices depth-limit leaves and, once armed, stops the search when the deadline has passed.
struct Clock {
    deadline: Instant,
    armed: bool,
    nodes: u64,
    hit_depth_limit: bool,
}

impl<G: Game, V> Observer<G, V> for Clock {
    #[inline]
    fn enter(&mut self, _depth: u32) {
        self.nodes += 1;
    }

    #[inline]
    fn exit(&mut self, node: &NodeExit<'_, G, V>) {
        if node.kind == NodeKind::DepthLimit {
            self.hit_depth_limit = true;
        }
    }

    #[inline]
    fn should_stop(&mut self) -> bool {
        self.armed && self.nodes % CLOCK_EVERY == 0 && Instant::now() >= self.deadline
    }
}

/// Searches `root` at depth 1, 2, 3, ... with [`alpha_beta`] and a full window until `deadline`, calling
/// `on_iteration(depth, best, value)` after each completed iteration, and returns the last completed one.
///
/// The first iteration always completes, whatever the deadline; later ones check the clock every 1024 nodes and
/// are discarded when it has passed. `max_depth` caps the depth (`None`: no cap). Deepening also ends after an
/// iteration that reached the end of the game on every path ([`Deepened::exhaustive`]). Values are from Max's
/// point of view, as the evaluator gives them.
///
/// ```
/// use std::time::{Duration, Instant};
/// use referee::game::mancala::{Mancala, MancalaState};
/// use referee::game::{Game, Player};
/// use referee::search::{iterative_deepening, Evaluator};
///
/// struct Stores;
/// impl Evaluator<Mancala> for Stores {
///     type Value = i32;
///     fn evaluate(&self, _: &Mancala, s: &MancalaState, _: bool) -> i32 {
///         i32::from(Mancala::store(s, Player::Max)) - i32::from(Mancala::store(s, Player::Min))
///     }
/// }
/// let game = Mancala::new(4);
/// let deadline = Instant::now() + Duration::from_millis(20);
/// let done = iterative_deepening(&game, &game.start(), &Stores, deadline, Some(3), |_, _, _| {});
/// assert_eq!(done.depth, 3);
/// assert!(done.result.best.is_some());
/// ```
pub fn iterative_deepening<G, E, F>(
    game: &G,
    root: &G::State,
    eval: &E,
    deadline: Instant,
    max_depth: Option<u32>,
    mut on_iteration: F,
) -> Deepened<G::Move, E::Value>
where
    G: Game,
    E: Evaluator<G>,
    F: FnMut(u32, Option<G::Move>, E::Value),
{
    let window = (E::Value::MIN_BOUND, E::Value::MAX_BOUND);
    let mut clock = Clock { deadline, armed: false, nodes: 0, hit_depth_limit: false };
    let mut done: Option<Deepened<G::Move, E::Value>> = None;
    let mut depth = 1;
    loop {
        clock.hit_depth_limit = false;
        match alpha_beta(game, root, eval, Limits::depth(depth), window, &mut clock) {
            Ok(result) => {
                on_iteration(depth, result.best, result.value);
                let exhaustive = !clock.hit_depth_limit;
                done = Some(Deepened { result, depth, nodes: clock.nodes, exhaustive });
                if exhaustive || max_depth.is_some_and(|cap| depth >= cap) || Instant::now() >= deadline {
                    break;
                }
            }
            Err(Interrupted) => break,
        }
        clock.armed = true;
        depth += 1;
    }
    match done {
        Some(d) => Deepened { nodes: clock.nodes, ..d },
        // Unreachable: the first iteration runs unarmed and cannot be interrupted. Answer with a depth-0 leaf.
        None => Deepened {
            result: SearchResult { value: eval.evaluate(game, root, game.is_terminal(root)), best: None },
            depth: 0,
            nodes: clock.nodes,
            exhaustive: false,
        },
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use std::time::Duration;

    use super::*;
    use crate::game::mancala::{Mancala, MancalaState};
    use crate::game::Player;
    use crate::search::Counters;

    struct Stores;

    impl Evaluator<Mancala> for Stores {
        type Value = i32;
        fn evaluate(&self, _: &Mancala, s: &MancalaState, _: bool) -> i32 {
            i32::from(Mancala::store(s, Player::Max)) - i32::from(Mancala::store(s, Player::Min))
        }
    }

    fn plain(game: &Mancala, root: &MancalaState, depth: u32) -> SearchResult<u8, i32> {
        alpha_beta(game, root, &Stores, Limits::depth(depth), (i32::MIN, i32::MAX), &mut Counters::default()).unwrap()
    }

    #[test]
    fn the_result_equals_plain_alpha_beta_at_the_depth_reached() {
        let game = Mancala::new(4);
        let mut root = game.start();
        for mv in [2, 5, 1] {
            root = game.apply(&root, mv);
        }
        let mut seen = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        let done = iterative_deepening(&game, &root, &Stores, deadline, Some(6), |d, best, value| {
            seen.push((d, best, value));
        });
        assert_eq!(done.depth, 6);
        assert_eq!(done.result, plain(&game, &root, 6));
        let expected: Vec<_> =
            (1..=6).map(|d| (d, plain(&game, &root, d).best, plain(&game, &root, d).value)).collect();
        assert_eq!(seen, expected, "one callback per completed iteration, in order");
    }

    #[test]
    fn a_deadline_in_the_past_still_completes_depth_one() {
        let game = Mancala::new(4);
        let root = game.start();
        let mut calls = 0;
        let done = iterative_deepening(&game, &root, &Stores, Instant::now(), None, |_, _, _| calls += 1);
        assert_eq!(done.depth, 1);
        assert_eq!(calls, 1);
        assert_eq!(done.result, plain(&game, &root, 1));
    }

    #[test]
    fn deepening_stops_once_the_whole_tree_was_searched() {
        let game = Mancala::new(4);
        // Two stones left on each side: the game ends within a few moves.
        let root =
            MancalaState { pits: [0, 0, 0, 0, 1, 1, 20, 0, 0, 0, 0, 1, 1, 20], to_move: Player::Max, over: false };
        let deadline = Instant::now() + Duration::from_secs(60);
        let done = iterative_deepening(&game, &root, &Stores, deadline, None, |_, _, _| {});
        assert!(done.exhaustive);
        assert!(done.depth < 20, "stopped at depth {}", done.depth);
        let exact = alpha_beta(&game, &root, &Stores, Limits::unlimited(), (i32::MIN, i32::MAX), &mut ()).unwrap();
        assert_eq!(done.result, exact);
    }

    #[test]
    fn a_terminal_root_has_no_move() {
        let game = Mancala::new(4);
        let root =
            MancalaState { pits: [0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 24], to_move: Player::Max, over: true };
        let done = iterative_deepening(&game, &root, &Stores, Instant::now(), None, |_, _, _| {});
        assert_eq!(done.result.best, None);
        assert!(done.exhaustive);
    }
}
