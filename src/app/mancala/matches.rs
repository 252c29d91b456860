//! `referee match mancala A B`: games with alternating seats, every move printed, one verdict line per game.

use std::io::Write;

use crate::cli::{exit, MancalaMatchArgs};
use crate::game::mancala::Mancala;
use crate::referee::mancala::{board, play_prepared};
use crate::referee::record::GameRecord;
use crate::referee::spec::{prepare, PrepareError, Prepared};

use super::{parse_agent, Arena};

/// Runs `referee match mancala`; returns the exit code.
pub fn run(args: &MancalaMatchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee match mancala: {message}");
        code
    };
    let specs = match (parse_agent(&args.a), parse_agent(&args.b)) {
        (Ok(a), Ok(b)) => [a, b],
        (Err(e), _) | (_, Err(e)) => return fail(err, exit::USAGE, e),
    };
    if args.games == 0 {
        return fail(err, exit::USAGE, "--games must be at least 1".into());
    }
    let seed = crate::app::seed_or_now(args.arena.seed);
    let arena = match Arena::new(&args.arena, seed) {
        Ok(a) => a,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    let mut prepared: Vec<Prepared> = Vec::new();
    for spec in &specs {
        match prepare(spec, &arena.setup) {
            Ok(p) => prepared.push(p),
            Err(PrepareError::Build(message)) => {
                // The agent's own fault: it forfeits every game, which the records show.
                return fail(err, exit::FAILED, format!("{} cannot play: {message}", spec.label()));
            }
            Err(PrepareError::Setup(message)) => return fail(err, exit::INTERNAL, message),
        }
    }
    if prepared[0].label == prepared[1].label {
        prepared[1].label.push_str(" #2");
    }
    let game = Mancala::new(args.stones);
    let _ = writeln!(
        out,
        "mancala: {} vs {}, {} stones, {} s per move, {} game(s), seed {seed}",
        prepared[0].label,
        prepared[1].label,
        game.stones(),
        arena.clock.per_move.as_secs_f64(),
        args.games
    );
    let mut records = Vec::new();
    for g in 0..args.games {
        let (first, second) = if g % 2 == 0 { (0, 1) } else { (1, 0) };
        let record = match play_one(&arena, &game, [&prepared[first], &prepared[second]], g + 1, args.quiet, out) {
            Ok(r) => r,
            Err(message) => return fail(err, exit::INTERNAL, message),
        };
        records.push(record);
    }
    let _ = writeln!(out, "\n{}", summary(&records, &[&prepared[0].label, &prepared[1].label]));
    if let Some(path) = &args.json {
        let written = serde_json::to_vec_pretty(&records)
            .map_err(std::io::Error::other)
            .and_then(|json| crate::harness::grade::class::write_atomic(path, &json));
        if let Err(e) = written {
            return fail(err, exit::INTERNAL, format!("{}: {e}", path.display()));
        }
    }
    exit::SUCCESS
}

/// Plays game number `number` with `seats[0]` moving first, printing it as it goes.
fn play_one(
    arena: &Arena,
    game: &Mancala,
    seats: [&Prepared; 2],
    number: u32,
    quiet: bool,
    out: &mut dyn Write,
) -> Result<GameRecord, String> {
    let dir = arena.game_dir(&format!("match-{number}"));
    let _ = writeln!(out, "\ngame {number}: seat 1 {} vs seat 2 {}", seats[0].label, seats[1].label);
    let mut ply = 0;
    let record = play_prepared(game, seats, &arena.clock, &dir, None, |m| {
        ply += 1;
        if !quiet {
            let info = m.info.as_deref().map(|i| format!("  ({i})")).unwrap_or_default();
            let _ = writeln!(out, "{ply:>4}. seat {} plays {}  {:>6} ms  {}{info}", m.seat, m.mv, m.millis, m.board);
        }
    })
    .map_err(|e| e.to_string())?;
    if !quiet {
        if let Some(last) = record.moves.last() {
            let _ = writeln!(out, "final board after {} moves ({}):", record.moves.len(), last.board);
        }
        let state = final_state(game, &record);
        let _ = write!(out, "{}", board::draw(&state));
    }
    if let Some(adj) = &record.outcome.adjudication {
        let _ = writeln!(out, "seat {} {}: {}", adj.loser, adj.fault.kind.label(), adj.fault.detail);
        let _ = write!(out, "position:\n{}", adj.position);
        let tail = crate::harness::grade::tail(&adj.fault.stderr_tail, 10);
        if !tail.trim().is_empty() {
            let _ = writeln!(out, "stderr (last lines):\n{tail}");
        }
    }
    let _ = writeln!(out, "{}", record.verdict());
    let _ = out.flush();
    Ok(record)
}

/// Replays a record's moves to get its final position.
pub fn final_state(game: &Mancala, record: &GameRecord) -> crate::game::mancala::MancalaState {
    use crate::game::Game;
    let mut state = game.start();
    for m in &record.moves {
        if let Ok(bin) = m.mv.parse::<u8>() {
            if game.legal_moves(&state).any(|b| b == bin) {
                state = game.apply(&state, bin);
            }
        }
    }
    state
}

/// `A: W wins, D draws, L losses` for each label.
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
