//! `referee perft othello`: leaf counts of the game tree from the start position, depth by depth, with the time
//! each took (a check of move generation that any other Othello program can be compared with).

use std::io::Write;
use std::time::Instant;

use crate::cli::{exit, PerftArgs};
use crate::game::othello::{perft, Bits, Othello, Rules};
use crate::game::Player;

/// Prints `depth D: N leaves in S s (R M leaves/s)` for every depth from 1 to `--depth`.
pub fn run(args: &PerftArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let game = match Othello::<Bits>::new(args.size, Rules::Standard) {
        Ok(game) => game,
        Err(e) => {
            let _ = writeln!(err, "referee perft othello: --size {}: {e}", args.size);
            return exit::USAGE;
        }
    };
    let start = game.start();
    for depth in 1..=args.depth {
        let clock = Instant::now();
        let leaves = perft(start.board(), Player::Max, depth);
        let secs = clock.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { format!("{:.1}", leaves as f64 / secs / 1e6) } else { "-".into() };
        if writeln!(out, "depth {depth}: {leaves} leaves in {secs:.3} s ({rate} M leaves/s)").is_err() {
            return exit::INTERNAL;
        }
        let _ = out.flush();
    }
    exit::SUCCESS
}
