//! `referee match GAME A B`: games with alternating seats, every move printed, one verdict line per game.

use std::io::Write;

use crate::cli::{exit, MatchArgs};
use crate::harness::render::visible::show_invisible;
use crate::referee::game_loop::game_seed;
use crate::referee::record::GameRecord;
use crate::referee::spec::{prepare, AgentSpec, PrepareError, Prepared};

use super::{Arena, Contest};

/// Plays the match `args` describes on `arena`; `builtins` are the game's built-in agents. Returns the exit code.
pub fn run(
    contest: &dyn Contest,
    builtins: &[&str],
    args: &MatchArgs,
    arena: &Arena,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let game = contest.name();
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee match {game}: {message}");
        code
    };
    let parse = |text: &str| AgentSpec::parse(text, builtins, |p| contest.student(p));
    let specs = match (parse(&args.a), parse(&args.b)) {
        (Ok(a), Ok(b)) => [a, b],
        (Err(e), _) | (_, Err(e)) => return fail(err, exit::USAGE, e),
    };
    if args.games == 0 {
        return fail(err, exit::USAGE, "--games must be at least 1".into());
    }
    let mut prepared: Vec<Prepared> = Vec::new();
    for spec in &specs {
        match prepare(spec, &arena.setup) {
            Ok(p) => prepared.push(p),
            Err(PrepareError::Build(message)) => {
                return fail(err, exit::FAILED, format!("{} cannot play: {message}", spec.label()));
            }
            Err(PrepareError::Setup(message)) => return fail(err, exit::INTERNAL, message),
        }
    }
    if prepared[0].label == prepared[1].label {
        prepared[1].label.push_str(" #2");
    }
    let _ = writeln!(
        out,
        "{game}: {} vs {}, {}, {} s per move, {} game(s), seed {} (each game's random agents draw from the seed, \
         the game's round and seat)",
        prepared[0].label,
        prepared[1].label,
        contest.describe(),
        arena.clock.per_move.as_secs_f64(),
        args.games,
        arena.setup.seed
    );
    let mut records = Vec::new();
    for g in 0..args.games {
        let (first, second) = if g % 2 == 0 { (0, 1) } else { (1, 0) };
        let seats = [&prepared[first], &prepared[second]];
        let seed = game_seed(arena.setup.seed, u64::from(g / 2), first as u8 + 1);
        match play_one(contest, arena, (seats, seed), g + 1, args.quiet, out) {
            Ok(record) => records.push(record),
            Err(message) => return fail(err, exit::INTERNAL, message),
        }
    }
    let _ = writeln!(out, "\n{}", summary(&records, &[&prepared[0].label, &prepared[1].label]));
    if let Some(path) = &args.json {
        let written = crate::harness::render::json_text::to_vec_pretty(&records)
            .and_then(|json| crate::harness::grade::class::write_atomic(path, &json));
        if let Err(e) = written {
            return fail(err, exit::INTERNAL, format!("{}: {e}", path.display()));
        }
    }
    exit::SUCCESS
}

/// Plays game number `number` with `seats[0]` moving first and built-in agents drawing from `seed`, printing it
/// as it goes.
fn play_one(
    contest: &dyn Contest,
    arena: &Arena,
    (seats, seed): ([&Prepared; 2], u64),
    number: u32,
    quiet: bool,
    out: &mut dyn Write,
) -> Result<GameRecord, String> {
    let dir = arena.game_dir(&format!("match-{number}"));
    let _ = writeln!(out, "\ngame {number}: seat 1 {} vs seat 2 {}", seats[0].label, seats[1].label);
    let mut ply = 0;
    let mut print = |m: &crate::referee::record::MoveRecord| {
        ply += 1;
        if !quiet {
            let info = m.info.as_deref().map(|i| format!("  ({})", show_invisible(i))).unwrap_or_default();
            let _ = writeln!(
                out,
                "{ply:>4}. seat {} plays {}  {:>6} ms  {}{info}",
                m.seat,
                show_invisible(&m.mv),
                m.millis,
                m.board
            );
        }
    };
    let record = contest.play(seats, &arena.clock, &dir, None, Some(seed), &mut print).map_err(|e| e.to_string())?;
    if !quiet {
        let _ = writeln!(out, "final position after {} moves:", record.moves.len());
        let _ = write!(out, "{}", contest.final_board(&record));
    }
    if let Some(adj) = &record.outcome.adjudication {
        let _ = writeln!(out, "seat {} {}: {}", adj.loser, adj.fault.kind.label(), show_invisible(&adj.fault.detail));
        let _ = write!(out, "position:\n{}", adj.position);
        let tail = crate::harness::grade::tail(&adj.fault.stderr_tail, 10);
        if !tail.trim().is_empty() {
            let _ = writeln!(out, "stderr (last lines):");
            for line in tail.lines() {
                let _ = writeln!(out, "{}", show_invisible(line));
            }
        }
    }
    let _ = writeln!(out, "{}", record.verdict());
    let _ = out.flush();
    Ok(record)
}

/// `A: W won, D drawn, L lost` for each label.
pub fn summary(records: &[GameRecord], labels: &[&String]) -> String {
    let mut lines = Vec::new();
    for label in labels {
        let (mut w, mut d, mut l) = (0, 0, 0);
        for r in records {
            let Some(seat) = r.seat_of(label) else { continue };
            match r.outcome.winner {
                Some(s) if s == seat => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
        lines.push(format!("{label}: {w} won, {d} drawn, {l} lost"));
    }
    lines.join("\n")
}
