//! How fast the engines search: nodes per second and the depth completed from the opening, strong and simple.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::board::Board;
use super::search::{Config, Engine};
use crate::game::mancala::agent::simple::StoreDifference;
use crate::game::mancala::Mancala;
use crate::search::iterative_deepening;

/// One engine's run: the depth of its last completed iteration, nodes visited (the unfinished iteration
/// included) and the time it took.
struct Run {
    depth: u32,
    nodes: u64,
    elapsed: Duration,
}

impl Run {
    fn line(&self) -> String {
        let rate = self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9);
        format!("depth {:>2}  {:>11} nodes  {:>6.2} M nodes/s", self.depth, self.nodes, rate / 1e6)
    }
}

fn strong(stones: u16, budget: Duration) -> Run {
    let mut engine = Engine::new(Config::STRONG);
    let begin = Instant::now();
    let mut depth = 0;
    if let Some((board, _)) = Board::from_state(&Mancala::new(stones).start()) {
        depth = engine.think(board, begin + budget, None, &mut |_| {}).map_or(0, |it| it.depth);
    }
    Run { depth, nodes: engine.nodes(), elapsed: begin.elapsed() }
}

fn simple(stones: u16, budget: Duration) -> Run {
    let game = Mancala::new(stones);
    let begin = Instant::now();
    let done = iterative_deepening(&game, &game.start(), &StoreDifference, begin + budget, None, |_, _, _| {});
    Run { depth: done.depth, nodes: done.nodes, elapsed: begin.elapsed() }
}

/// Searches the opening of 3, 4 and 5 stones per bin for `seconds` each with the strong engine and with the simple
/// agent, and prints per line the depth each completed, its nodes and its nodes per second.
///
/// # Errors
/// Writing to `out` failed.
pub fn bench(out: &mut dyn Write, seconds: f64) -> io::Result<()> {
    let budget = Duration::from_secs_f64(seconds.clamp(0.001, 3600.0));
    writeln!(out, "Mancala from the opening, {:.3} s per search (depth: the last completed iteration)", seconds)?;
    for stones in [3, 4, 5] {
        let s = strong(stones, budget);
        writeln!(out, "{stones} stones  strong  {}", s.line())?;
        let p = simple(stones, budget);
        writeln!(out, "{stones} stones  simple  {}", p.line())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    /// The numbers for the README: `cargo test --release --lib bench_prints -- --ignored --nocapture`.
    #[test]
    #[ignore = "a benchmark: run it in release"]
    fn bench_prints_one_line_per_engine_and_stone_count() {
        let mut out = Vec::new();
        bench(&mut out, 1.0).unwrap();
        let text = String::from_utf8(out).unwrap();
        print!("{text}");
        assert_eq!(text.lines().count(), 7);
    }
}
