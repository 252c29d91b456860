//! `referee grade mancala --submissions DIR`: the course rubric. Each student's player plays `builtin:random` and
//! `builtin:simple` in both seats at every stones value; beating random earns half the points, beating simple all
//! of them. Results use the harness's model, so the gradebook, Gradescope and markdown outputs are the same files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::{exit, MancalaGradeArgs};
use crate::game::mancala::Mancala;
use crate::harness::grade::class::{discover, safe_name, write_atomic, Entry, Store};
use crate::harness::grade::for_each_parallel;
use crate::harness::model::{BuildResult, Captured, CaseResult, RunReport, Status, SubmissionResult, Visibility};
use crate::harness::render::format_points;
use crate::harness::runner::sandbox;
use crate::referee::agent::FaultKind;
use crate::referee::mancala::play_prepared;
use crate::referee::record::GameRecord;
use crate::referee::slots::CpuSlots;
use crate::referee::spec::{prepare, AgentSpec, PrepareError, Prepared};

use super::Arena;

/// The opponents of the rubric, weakest first, and the share of the points beating each earns.
const RUBRIC: [(&str, f64); 2] = [("random", 0.5), ("simple", 1.0)];

/// Runs `referee grade mancala`; returns the exit code.
pub fn run(args: &MancalaGradeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee grade mancala: {message}");
        code
    };
    let entries = match discover(&args.submissions) {
        Ok(e) => e,
        Err(e) => return fail(err, exit::USAGE, e.to_string()),
    };
    if args.stones.is_empty() || !(args.points.is_finite() && args.points >= 0.0) {
        return fail(err, exit::USAGE, "--stones needs a value and --points a number >= 0".into());
    }
    let seed = crate::app::seed_or_now(args.arena.seed);
    let arena = match Arena::new(&args.arena, seed) {
        Ok(a) => a,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    let out_dir = args.out.clone().unwrap_or_else(|| PathBuf::from("referee-results"));
    let store = match Store::open(&out_dir) {
        Ok(s) => s,
        Err(e) => return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display())),
    };
    if args.fresh {
        let _ = std::fs::remove_dir_all(out_dir.join("results"));
        let _ = std::fs::create_dir_all(out_dir.join("results"));
    }
    let mut opponents = Vec::new();
    for (name, _) in RUBRIC {
        match prepare(&AgentSpec::Builtin(name.into()), &arena.setup) {
            Ok(p) => opponents.push(p),
            Err(e) => return fail(err, exit::INTERNAL, e.to_string()),
        }
    }
    let fingerprint = format!(
        "mancala stones={:?} time={:?} tolerance={:?} points={} seed={seed}",
        args.stones, arena.clock.per_move, arena.clock.tolerance, args.points
    );
    let finished: Vec<String> =
        store.load_all().into_iter().filter(|r| r.fingerprint == fingerprint).map(|r| r.id).collect();
    let todo: Vec<&Entry> = entries.iter().filter(|e| !finished.contains(&e.id)).collect();
    sandbox::become_subreaper();
    let cancel = crate::app::cancel_on_signals();
    let jobs = crate::app::jobs_or_cores(args.jobs);
    let slots = CpuSlots::new(jobs);
    let progress = crate::app::grade::progress_bar(todo.len());
    let mut failures = Vec::new();
    let run_id = format!("{seed}");
    let context = Context { arena: &arena, opponents: &opponents, args, slots: &slots, cancel: &cancel };
    for_each_parallel(
        &todo,
        jobs,
        |entry| grade_student(entry, &context, &run_id, &fingerprint),
        |_, result| {
            let Some((result, records)) = result else { return };
            let saved = serde_json::to_vec_pretty(&records)
                .map_err(std::io::Error::other)
                .and_then(|json| write_atomic(&games_file(&out_dir, &result.id), &json))
                .and_then(|()| store.save(&result))
                .and_then(|()| crate::app::grade::write_student_files(&out_dir, &result));
            if let Err(e) = saved {
                failures.push(format!("{}: {e}", result.id));
            }
            progress.set_message(format!("{} {}", result.id, format_points(result.score)));
            progress.inc(1);
        },
    );
    progress.finish_and_clear();
    let all: Vec<SubmissionResult> =
        store.load_all().into_iter().filter(|r| entries.iter().any(|e| e.id == r.id)).collect();
    let report = RunReport { schema: crate::harness::model::SCHEMA_VERSION, suite: "mancala".into(), submissions: all };
    if let Err(e) = crate::app::grade::write_report_files(&out_dir, &report) {
        failures.push(format!("class files: {e}"));
    }
    for f in &failures {
        let _ = writeln!(err, "referee grade mancala: cannot write results for {f}");
    }
    if cancel.load(Ordering::Relaxed) {
        let _ = writeln!(err, "referee grade mancala: cancelled; a re-run grades the students not yet saved");
        return crate::app::grade::CANCELLED;
    }
    let _ = writeln!(
        out,
        "graded {} student(s), {} already graded earlier, seed {seed}; results in {}",
        todo.len(),
        entries.len() - todo.len(),
        out_dir.display()
    );
    for r in &report.submissions {
        let note = r.cases.iter().filter(|c| c.max_score > 0.0).map(|c| format!("{}: {}", c.name, c.status.label()));
        let _ = writeln!(
            out,
            "  {:<24} {:>7} / {:<7} {}",
            r.id,
            format_points(r.score),
            format_points(r.max_score),
            note.collect::<Vec<_>>().join(", ")
        );
    }
    if !failures.is_empty() || report.submissions.iter().any(SubmissionResult::has_harness_error) {
        exit::INTERNAL
    } else {
        exit::SUCCESS
    }
}

/// What every student's grading shares.
struct Context<'a> {
    arena: &'a Arena,
    opponents: &'a [Prepared],
    args: &'a MancalaGradeArgs,
    slots: &'a CpuSlots,
    cancel: &'a AtomicBool,
}

/// Grades one student: compile, play every rubric game, score. `None` when cancelled.
fn grade_student(
    entry: &Entry,
    cx: &Context<'_>,
    run: &str,
    fingerprint: &str,
) -> Option<(SubmissionResult, Vec<GameRecord>)> {
    let args = cx.args;
    let mut result = SubmissionResult {
        id: entry.id.clone(),
        source: entry.path.display().to_string(),
        build: None,
        cases: Vec::new(),
        score: 0.0,
        max_score: args.points,
        run: run.to_string(),
        fingerprint: fingerprint.to_string(),
    };
    let started = std::time::Instant::now();
    let player = match prepare(&AgentSpec::Java(entry.path.clone()), &cx.arena.setup.for_student(&entry.id)) {
        Ok(p) => p,
        Err(e) => {
            let harness = matches!(e, PrepareError::Setup(_));
            result.build = Some(BuildResult {
                ok: false,
                command: "javac".into(),
                message: e.to_string(),
                elapsed_ms: started.elapsed().as_millis() as u64,
            });
            result.cases = rubric_cases(args.points, &[false, false], "did not compile", harness);
            return Some((result, Vec::new()));
        }
    };
    result.build = Some(BuildResult {
        ok: true,
        command: "javac".into(),
        message: String::new(),
        elapsed_ms: started.elapsed().as_millis() as u64,
    });
    let mut records = Vec::new();
    let mut games = Vec::new();
    let mut beats = [true, true];
    for &stones in &args.stones {
        let game = Mancala::new(stones);
        for (k, opponent) in cx.opponents.iter().enumerate() {
            let mut won_any = false;
            for seat in [1u8, 2] {
                if cx.cancel.load(Ordering::Relaxed) {
                    return None;
                }
                let record = match play_game(cx, &game, &player, opponent, seat, &entry.id) {
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
    let detail = "";
    result.cases = rubric_cases(args.points, &beats, detail, false);
    result.cases.extend(games);
    result.score = result.cases.iter().map(|c| c.score).sum();
    Some((result, records))
}

/// One game with the student in `seat`, on a CPU slot of its own.
fn play_game(
    cx: &Context<'_>,
    game: &Mancala,
    player: &Prepared,
    opponent: &Prepared,
    seat: u8,
    id: &str,
) -> Result<GameRecord, String> {
    let slot = cx.slots.take();
    let dir =
        cx.arena.game_dir(&format!("{}-{}-{}-{seat}", safe_name(id), opponent.label.replace(':', "-"), game.stones()));
    let order = if seat == 1 { [player, opponent] } else { [opponent, player] };
    play_prepared(game, order, &cx.arena.clock, &dir, slot.pin(), |_| {}).map_err(|e| format!("{}: {e}", dir.display()))
}

/// The two rubric lines: beating random (half) and beating simple (the other half; beating simple alone earns
/// both, as in the course).
fn rubric_cases(points: f64, beats: &[bool; 2], why_not: &str, harness: bool) -> Vec<CaseResult> {
    let half = points / 2.0;
    RUBRIC
        .iter()
        .enumerate()
        .map(|(k, (name, _))| {
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
            case(format!("beats builtin:{name}"), Vec::new(), status, if earned { half } else { 0.0 }, half, detail)
        })
        .collect()
}

/// A game as a zero-point case: passed when won, with the record's moves as its output.
fn game_case(record: &GameRecord, seat: u8, opponent: &str) -> CaseResult {
    let won = record.outcome.winner == Some(seat);
    let status = match &record.outcome.adjudication {
        Some(adj) if adj.loser == seat => match adj.fault.kind {
            FaultKind::NoMove => Status::Timeout,
            FaultKind::Crashed | FaultKind::Startup => Status::Crashed,
            FaultKind::IllegalMove | FaultKind::Garbage => Status::Failed,
        },
        _ if won => Status::Passed,
        _ => Status::Failed,
    };
    let mut c = case(
        format!("vs {opponent}, {}, seat {seat}", record.params),
        vec![record.params.clone(), format!("seat {seat}")],
        status,
        0.0,
        0.0,
        record.verdict(),
    );
    let mut text = String::new();
    for (i, m) in record.moves.iter().enumerate() {
        text.push_str(&format!("{:>3}. seat {} plays {}  {} ms  {}\n", i + 1, m.seat, m.mv, m.millis, m.board));
    }
    if let Some(adj) = &record.outcome.adjudication {
        c.diagnosis = Some(format!("seat {} {}: {}", adj.loser, adj.fault.kind.label(), adj.fault.detail));
        text.push_str(&format!("position:\n{}", adj.position));
        c.stderr = captured(&adj.fault.stderr_tail);
    }
    c.stdout = captured(&text);
    c.elapsed_ms = record.moves.iter().map(|m| m.millis).sum();
    c
}

fn captured(text: &str) -> Captured {
    Captured { text: text.to_string(), truncated: false, bytes: text.len(), invalid_utf8: false }
}

fn case(name: String, args: Vec<String>, status: Status, score: f64, max: f64, detail: String) -> CaseResult {
    CaseResult {
        name,
        args,
        status,
        score,
        max_score: max,
        visibility: Visibility::Visible,
        tags: Vec::new(),
        detail,
        reading: None,
        diagnosis: None,
        lines_matched: None,
        difference: None,
        expected: String::new(),
        stdout: Captured::default(),
        stderr: Captured::default(),
        elapsed_ms: 0,
    }
}

/// Where a grading run writes one student's game records.
pub fn games_file(out: &Path, id: &str) -> PathBuf {
    out.join("games").join(format!("{}.json", safe_name(id)))
}
