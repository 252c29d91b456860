//! `referee grade othello --submissions DIR`: each student's agent plays `builtin:random` with both colors,
//! `--games` times each; the play points are earned in proportion to games won, in full from a win rate of
//! `--target`; `--check-share` of the points is for the conformance of its search functions ([`super::grade_check`]).
//! Every game is a case in the harness's model, with its moves, and any adjudication with the board
//! and the agent's stderr. `--show` decides what the student-facing files show of each case: under `actual-only`
//! and `none` a conformance case never gives the reference's answer.

use std::io::Write;
use std::path::PathBuf;

use crate::app::arena::cases::{case, game_case};
use crate::app::arena::grading::{self, prepare_student, ClassRun, Grader};
use crate::app::arena::{Arena, Contest};
use crate::app::mancala::grade::play_game;
use crate::cli::{exit, OthelloGradeArgs};
use crate::harness::grade::class::Entry;
use crate::harness::model::{Points, Status, SubmissionResult};
use crate::referee::othello::conformance;
use crate::referee::record::GameRecord;
use crate::referee::spec::{prepare, AgentSpec, Prepared};

use super::grade_check::add_check;
use super::OthelloContest;

/// Runs `referee grade othello`; returns the exit code.
pub fn run(args: &OthelloGradeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if let Err(code) = crate::app::sandbox::gate(&args.arena.sandbox, "referee grade othello", err) {
        return code;
    }
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee grade othello: {message}");
        code
    };
    let check_timeout = match check_options(args) {
        Ok(t) => t,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    let sharded = crate::app::shard::Shard::parse_option(args.class.shard.as_deref());
    if let Err(e) = sharded.and_then(|s| crate::app::shard::require_seed(s, args.arena.seed)) {
        return fail(err, exit::USAGE, e);
    }
    let (seed, notes) = grading::class_seed(&args.class, args.arena.seed);
    let options = crate::cli::ArenaOptions { seed: Some(seed), ..args.arena.clone() };
    let (contest, arena) = match super::arena(&args.othello, &options) {
        Ok(built) => built,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    let opponent = match prepare(&AgentSpec::Builtin("random".into()), &arena.setup) {
        Ok(p) => p,
        Err(e) => return fail(err, exit::INTERNAL, e.to_string()),
    };
    let class = ClassRun {
        game: "othello",
        class: &args.class,
        fingerprint: format!(
            "othello {} games={} target={} time={:?} tolerance={:?} color-line={} chatter={} points={} check={}/{}/{:?} \
             seed={seed} seeding=per-game{}",
            contest.describe(),
            args.games,
            args.target,
            arena.clock.per_move,
            arena.clock.tolerance,
            args.othello.color_line,
            args.othello.allow_chatter,
            args.points,
            args.check_share,
            args.check_cases,
            check_timeout,
            args.class.show.fingerprint()
        ),
        seed,
        notes,
        points: args.points,
    };
    let check = conformance::Options {
        python: arena.setup.python.clone(),
        seed,
        cases: args.check_cases,
        timeout: check_timeout,
        sandbox: arena.setup.sandbox.clone(),
        work: Some(arena.setup.work.clone()),
    };
    let grade =
        |entry: &Entry, grader: &Grader<'_>| grade_student(entry, grader, &arena, &contest, &opponent, args, &check);
    grading::run(&class, &grade, out, err)
}

/// Checks the options `grade othello` takes before anything is set up (so `gradescope bundle` refuses what grading
/// would refuse); returns the conformance check's time limit.
///
/// # Errors
/// One line naming the option at fault.
pub fn check_options(args: &OthelloGradeArgs) -> Result<std::time::Duration, String> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(args.target > 0.0 && args.target <= 1.0) {
        return Err(format!("--target {}: expected a win rate above 0 and at most 1", args.target));
    }
    super::game(&args.othello)?;
    crate::app::arena::clock(&args.arena)?;
    crate::app::parse_seconds(&args.check_timeout, "--check-timeout", false)
}

/// Grades one student: check the file parses, play every game, score. `None` when cancelled.
fn grade_student(
    entry: &Entry,
    grader: &Grader<'_>,
    arena: &Arena,
    contest: &OthelloContest,
    opponent: &Prepared,
    args: &OthelloGradeArgs,
    check: &conformance::Options,
) -> Option<(SubmissionResult, Vec<GameRecord>)> {
    let (mut result, records, file) = play_student(entry, grader, arena, contest, opponent, args)?;
    if args.check_share.is_positive() {
        add_check(&mut result, file.as_deref(), check, split(args).1);
    }
    result.show_all(args.class.show);
    Some((result, records))
}

/// `--points` split exactly into the games' part and the conformance check's (`--check-share` of it): the two
/// always add up to `--points`.
fn split(args: &OthelloGradeArgs) -> (Points, Points) {
    let total = args.points;
    let check = total.times(args.check_share);
    (total - check, check)
}

/// The games part: the student's agent prepared (its file, when it could be) and its games against random.
fn play_student(
    entry: &Entry,
    grader: &Grader<'_>,
    arena: &Arena,
    contest: &OthelloContest,
    opponent: &Prepared,
    args: &OthelloGradeArgs,
) -> Option<(SubmissionResult, Vec<GameRecord>, Option<PathBuf>)> {
    let mut result = grader.result(entry, args.points);
    let points = split(args).0;
    let total = args.games * 2;
    let rubric_name = format!("wins against builtin:random ({} games)", total);
    let spec = AgentSpec::Python(entry.path.clone());
    let player = match prepare_student(&spec, &arena.setup, &entry.id, "python3 (syntax check)", &mut result) {
        Ok(p) => p,
        Err((harness, message)) => {
            let status = if harness { Status::HarnessError } else { Status::BuildError };
            let first = message.lines().next().unwrap_or_default().to_string();
            result.cases = vec![case(rubric_name, Vec::new(), status, Points::ZERO, points, first)];
            return Some((result, Vec::new(), None));
        }
    };
    let mut records = Vec::new();
    let mut games = Vec::new();
    let mut wins = 0u32;
    for round in 0..args.games {
        for seat in [1u8, 2] {
            if grader.cancelled() {
                return None;
            }
            let record = match play_game(grader, arena, contest, [&player, opponent], (round.into(), seat), &entry.id) {
                Ok(record) => record,
                Err(message) => {
                    let why = format!("the grader could not play a game: {message}");
                    result.cases = vec![case(rubric_name, Vec::new(), Status::HarnessError, Points::ZERO, points, why)];
                    return Some((result, records, player.python_file.clone()));
                }
            };
            wins += u32::from(record.outcome.winner == Some(seat));
            games.push(game_case(&record, seat, &opponent.label));
            records.push(record);
        }
    }
    let needed = (args.target * f64::from(total)).ceil().max(1.0);
    // Exact: all the points at `needed` wins, wins/needed of them below.
    let full = f64::from(wins) >= needed;
    let score = if full { points } else { points.share(u64::from(wins), needed as u64) };
    let status = if full { Status::Passed } else { Status::Failed };
    let detail = format!(
        "won {wins} of {total} games against builtin:random ({} needed for full points; {}; seed {}, each game's \
         opponent drawing from the seed, the round and the seat)",
        needed as u32,
        contest.describe(),
        arena.setup.seed
    );
    result.cases.push(case(rubric_name, Vec::new(), status, score, points, detail));
    result.cases.extend(games);
    result.score = result.cases.iter().map(|c| c.score).sum();
    Some((result, records, player.python_file.clone()))
}
