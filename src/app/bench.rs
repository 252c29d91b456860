//! `referee bench`: search speed, printed as numbers (never asserted in tests).

use std::io::Write;
use std::time::Instant;

use crate::cli::{exit, BenchArgs, BenchTarget, BoardChoice};
use crate::game::takestones::{LargeBoard, Position, SmallBoard, Stones};
use crate::reference::takestones::{stats_search, CompositeCount};
use crate::search::Limits;

/// Runs the chosen benchmark and prints its numbers.
pub fn run(args: &BenchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match args.target {
        BenchTarget::Takestones => takestones(args, out, err),
        BenchTarget::Harness => super::bench_harness::run(args, out, err),
        BenchTarget::Scale => super::bench_scale::run(args, out, err),
        BenchTarget::Exercise => super::exercise::bench::run(args, out, err),
        BenchTarget::Similar => super::bench_similar::run(args, out, err),
        BenchTarget::Mancala => engine("mancala", crate::game::mancala::engine::bench::bench, args, out, err),
        BenchTarget::Othello => engine("othello", crate::game::othello::agent::bench::bench, args, out, err),
    }
}

/// Runs a game engine's benchmark for `--seconds` per search.
fn engine(
    game: &str,
    bench: fn(&mut dyn Write, f64) -> std::io::Result<()>,
    args: &BenchArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 3600.0) {
        let _ = writeln!(err, "referee bench {game}: --seconds must be between 0 and 3600");
        return exit::USAGE;
    }
    match bench(out, args.seconds) {
        Ok(()) => exit::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "referee bench {game}: {e}");
            exit::INTERNAL
        }
    }
}

/// Runs full searches `N 0 0` for N in `from..=to` and prints nodes, time and nodes per second for each.
fn takestones(args: &BenchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let limit = match args.board {
        BoardChoice::Small => SmallBoard::MAX_STONES,
        BoardChoice::Large => crate::game::takestones::MAX_STONES,
    };
    if args.from == 0 || args.from > args.to || args.to > limit {
        let _ = writeln!(err, "referee bench: need 1 <= --from <= --to <= {limit} for this board");
        return exit::USAGE;
    }
    let _ = writeln!(out, "takestones full search (stats edition, `N 0 0`), {:?} board", args.board);
    let _ = writeln!(out, "{:>4} {:>14} {:>10} {:>12}", "N", "nodes", "seconds", "Mnodes/s");
    let (mut nodes, mut seconds) = (0u64, 0f64);
    for n in args.from..=args.to {
        let result = match args.board {
            BoardChoice::Small => SmallBoard::new(n).map(|b| measure(&b, n)),
            BoardChoice::Large => Some(measure(&LargeBoard::new(n), n)),
        };
        let Some(Some((visited, secs))) = result else {
            let _ = writeln!(out, "{n:>4} (no move at the root)");
            continue;
        };
        nodes += visited;
        seconds += secs;
        let _ = writeln!(out, "{n:>4} {visited:>14} {secs:>10.3} {:>12.1}", visited as f64 / secs / 1e6);
    }
    let _ =
        writeln!(out, "total {nodes} nodes in {seconds:.3} s: {:.1} Mnodes/s", nodes as f64 / seconds.max(1e-9) / 1e6);
    exit::SUCCESS
}

fn measure<B: Stones>(board: &B, n: u32) -> Option<(u64, f64)> {
    let position = Position::new(u64::from(n), vec![]).ok()?;
    let root = board.root(&position);
    let start = Instant::now();
    let (solution, _) = stats_search(board, &root, Limits::unlimited(), CompositeCount::AllAvailable).ok()?;
    Some((solution.counters.visited, start.elapsed().as_secs_f64()))
}
