//! `referee grade mancala --submissions DIR`: the course rubric. Each student's player plays `builtin:random` and
//! `builtin:simple` in both seats at every stones value; beating random earns half the points, beating simple all
//! of them. Results use the harness's model, so the gradebook, Gradescope and markdown outputs are the same files,
//! and `--show` decides what the student-facing ones show of each game.

use std::io::Write;

use crate::app::arena::cases::{case, game_case};
use crate::app::arena::grading::{self, prepare_student, ClassRun, Grader};
use crate::app::arena::{Arena, Contest};
use crate::cli::{exit, MancalaGradeArgs};
use crate::harness::grade::class::{safe_name, Entry};
use crate::harness::model::{CaseResult, Points, Status, SubmissionResult};
use crate::referee::game_loop::game_seed;
use crate::referee::record::GameRecord;
use crate::referee::spec::{prepare, AgentSpec, Prepared};

/// The rubric's opponents in order: beating the first earns half the points, the second all of them.
const RUBRIC: [&str; 2] = ["random", "simple"];

/// Runs `referee grade mancala`; returns the exit code.
pub fn run(args: &MancalaGradeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if let Err(code) = crate::app::sandbox::gate(&args.arena.sandbox, "referee grade mancala", err) {
        return code;
    }
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee grade mancala: {message}");
        code
    };
    if let Err(e) = check_options(args) {
        return fail(err, exit::USAGE, e);
    }
    let sharded = crate::app::shard::Shard::parse_option(args.class.shard.as_deref());
    if let Err(e) = sharded.and_then(|s| crate::app::shard::require_seed(s, args.arena.seed)) {
        return fail(err, exit::USAGE, e);
    }
    let (seed, notes) = grading::class_seed(&args.class, args.arena.seed);
    let arena = match Arena::new(&args.arena, seed, "mancala") {
        Ok(a) => a,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    let mut opponents = Vec::new();
    for name in RUBRIC {
        match prepare(&AgentSpec::Builtin(name.into()), &arena.setup) {
            Ok(p) => opponents.push(p),
            Err(e) => return fail(err, exit::INTERNAL, e.to_string()),
        }
    }
    let class = ClassRun {
        game: "mancala",
        class: &args.class,
        fingerprint: format!(
            "mancala stones={:?} time={:?} tolerance={:?} points={} seed={seed} seeding=per-game{}",
            args.stones,
            arena.clock.per_move,
            arena.clock.tolerance,
            args.points,
            args.class.show.fingerprint()
        ),
        seed,
        notes,
        points: args.points,
    };
    let grade = |entry: &Entry, grader: &Grader<'_>| {
        let (mut result, records) = grade_student(entry, grader, &arena, &opponents, args)?;
        result.show_all(args.class.show);
        Some((result, records))
    };
    grading::run(&class, &grade, out, err)
}

/// Checks the options `grade mancala` takes before anything is set up (so `gradescope bundle` refuses what grading
/// would refuse).
///
/// # Errors
/// One line naming the option at fault.
pub fn check_options(args: &MancalaGradeArgs) -> Result<(), String> {
    if args.stones.is_empty() {
        return Err("--stones needs a value".into());
    }
    if let Some(&stones) = args.stones.iter().find(|&&s| s == 0) {
        return Err(format!("--stones {stones}: a bin needs at least one stone"));
    }
    crate::app::arena::clock(&args.arena).map(|_| ())
}

/// Grades one student: compile, play every rubric game, score. `None` when cancelled.
fn grade_student(
    entry: &Entry,
    grader: &Grader<'_>,
    arena: &Arena,
    opponents: &[Prepared],
    args: &MancalaGradeArgs,
) -> Option<(SubmissionResult, Vec<GameRecord>)> {
    let mut result = grader.result(entry, args.points);
    let spec = AgentSpec::Java(entry.path.clone());
    let player = match prepare_student(&spec, &arena.setup, &entry.id, "javac", &mut result) {
        Ok(p) => p,
        Err((harness, _)) => {
            result.cases = rubric_cases(args.points, &[false, false], "did not compile", harness);
            return Some((result, Vec::new()));
        }
    };
    let mut records = Vec::new();
    let mut games = Vec::new();
    let mut beats = [true, true];
    for (round, &stones) in args.stones.iter().enumerate() {
        let contest = super::contest(stones);
        for (k, opponent) in opponents.iter().enumerate() {
            let mut won_any = false;
            for seat in [1u8, 2] {
                if grader.cancelled() {
                    return None;
                }
                let game = (round as u64, seat);
                let record = match play_game(grader, arena, &contest, [&player, opponent], game, &entry.id) {
                    Ok(record) => record,
                    Err(message) => {
                        // Our fault, never the student's: reported as a harness error, not lost.
                        let why = format!("the grader could not play a game: {message}");
                        result.cases = rubric_cases(args.points, &[false, false], &why, true);
                        return Some((result, records));
                    }
                };
                let won = record.outcome.winner == Some(seat);
                won_any |= won;
                games.push(game_case(&record, seat, &opponent.label));
                records.push(record);
            }
            beats[k] &= won_any;
        }
    }
    result.cases = rubric_cases(args.points, &beats, "", false);
    result.cases.extend(games);
    result.score = result.cases.iter().map(|c| c.score).sum();
    Some((result, records))
}

/// One game of the student's `player` against `opponent`, in game `(round, seat)` of its run (the student in
/// `seat`), on a CPU slot of its own; built-in opponents draw from the game's own seed ([`game_seed`]), so every
/// round is another game and the run's seed replays them all.
pub fn play_game(
    grader: &Grader<'_>,
    arena: &Arena,
    contest: &dyn Contest,
    [player, opponent]: [&Prepared; 2],
    (round, seat): (u64, u8),
    id: &str,
) -> Result<GameRecord, String> {
    let slot = grader.slots.take();
    let what = contest.describe().replace([' ', ','], "");
    let label = opponent.label.replace(':', "-");
    let dir = arena.game_dir(&format!("{}-{label}-{what}-{round}-{seat}", safe_name(id)));
    let order = if seat == 1 { [player, opponent] } else { [opponent, player] };
    let seed = game_seed(arena.setup.seed, round, seat);
    contest
        .play(order, &arena.clock, &dir, slot.pin(), Some(seed), &mut |_| {})
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// The two rubric lines: beating random (half) and beating simple (the other half; beating simple alone earns
/// both, as in the course).
fn rubric_cases(points: Points, beats: &[bool; 2], why_not: &str, harness: bool) -> Vec<CaseResult> {
    let half = points.share(1, 2);
    RUBRIC
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let earned = beats[k..].iter().any(|&b| b);
            let detail = if earned && !beats[k] {
                "credited: it beat builtin:simple".to_string()
            } else if earned {
                format!("won at least one game against builtin:{name} at every stones value")
            } else if why_not.is_empty() {
                format!("lost every game against builtin:{name} at some stones value")
            } else {
                why_not.to_string()
            };
            let status = if earned {
                Status::Passed
            } else if harness {
                Status::HarnessError
            } else if why_not.is_empty() {
                Status::Failed
            } else {
                Status::BuildError
            };
            case(
                format!("beats builtin:{name}"),
                Vec::new(),
                status,
                if earned { half } else { Points::ZERO },
                half,
                detail,
            )
        })
        .collect()
}
