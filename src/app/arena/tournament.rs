//! `referee tournament GAME --submissions DIR`: a double round robin (every ordered pair, so each agent plays
//! each other in both seats), games side by side on their own cores, every game saved as it ends (a re-run
//! resumes), then the table, Bradley-Terry ratings with error bars, the course's bands, and Gradescope leaderboard
//! files.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use serde::Serialize;

use super::standings::{standings, Standing};
use crate::app::shard::{self, Manifest, Shard, TournamentPlan};
use crate::cli::{exit, TournamentArgs};
use crate::harness::grade::class::{safe_name, write_atomic};
use crate::harness::grade::for_each_parallel;
use crate::harness::grade::roster;
use crate::harness::grade::store::mark_output;
use crate::harness::render::html::causes::first_error_line;
use crate::harness::render::visible::show_invisible;
use crate::harness::runner::sandbox;
use crate::referee::game_loop::game_seed;
use crate::referee::record::GameRecord;
use crate::referee::slots::CpuSlots;
use crate::referee::spec::{prepare, AgentSpec, Prepared};

use super::{Arena, Contest};

/// One entrant.
struct Entrant {
    /// Student id, or the agent's label for a reference agent.
    id: String,
    /// Whether it is a student (reference agents get no band).
    student: bool,
    prepared: Prepared,
}

/// Runs the tournament `args` describes on `arena`; `builtins` are the game's built-in agents (for `--with`).
/// Returns the exit code.
pub fn run(
    contest: &dyn Contest,
    builtins: &[&str],
    args: &TournamentArgs,
    arena: &Arena,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let name = contest.name();
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee tournament {name}: {message}");
        code
    };
    let shard = match Shard::parse_option(args.shard.as_deref()) {
        Ok(s) => s,
        Err(e) => return fail(err, exit::USAGE, e),
    };
    let out_dir = args.out.clone().unwrap_or_else(|| PathBuf::from("referee-tournament"));
    let entries = match roster::read(&args.submissions, &[&out_dir]) {
        Ok(roster) => {
            for note in &roster.notes {
                let _ = writeln!(err, "referee tournament {name}: note: {note}");
            }
            roster.entries
        }
        Err(e) => return fail(err, exit::USAGE, e.to_string()),
    };
    let mut extra = Vec::new();
    for text in &args.with {
        match AgentSpec::parse(text, builtins, |p| contest.student(p)) {
            Ok(spec) => extra.push(spec),
            Err(e) => return fail(err, exit::USAGE, e),
        }
    }
    let seed = arena.setup.seed;
    if let Err(e) = std::fs::create_dir_all(out_dir.join("games")).and_then(|()| mark_output(&out_dir)) {
        return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display()));
    }
    sandbox::become_subreaper();
    let jobs = crate::app::jobs_or_cores(args.jobs);

    // Compile every player; one that does not compile is left out (and said so).
    let mut entrants: Vec<Entrant> = Vec::new();
    let mut excluded = Vec::new();
    let mut compiled: Vec<Option<Result<Prepared, String>>> = (0..entries.len()).map(|_| None).collect();
    for_each_parallel(
        &entries,
        jobs,
        |entry| {
            prepare(&contest.student(entry.path.clone()), &arena.setup.for_student(&entry.id))
                .map_err(|e| e.to_string())
        },
        |i, r| compiled[i] = Some(r),
    );
    for (entry, result) in entries.iter().zip(compiled) {
        match result {
            Some(Ok(prepared)) => entrants.push(Entrant { id: entry.id.clone(), student: true, prepared }),
            Some(Err(message)) => {
                excluded.push(format!("{}: {}", entry.id, show_invisible(&first_error_line(&message))));
            }
            None => excluded.push(format!("{}: not prepared", entry.id)),
        }
    }
    for spec in &extra {
        match prepare(spec, &arena.setup) {
            Ok(prepared) => entrants.push(Entrant { id: spec.label(), student: false, prepared }),
            Err(e) => return fail(err, exit::INTERNAL, e.to_string()),
        }
    }
    if entrants.len() < 2 {
        return fail(err, exit::USAGE, format!("{} agent(s) can play; a tournament needs 2", entrants.len()));
    }

    let schedule: Vec<(usize, usize)> =
        (0..entrants.len()).flat_map(|i| (0..entrants.len()).filter(move |&j| j != i).map(move |j| (i, j))).collect();
    let pairs = shard::select(&schedule, shard);
    let cancel = crate::app::cancel_on_signals();
    let slots = CpuSlots::new(jobs);
    let progress = crate::app::progress::Progress::on_stderr(pairs.len(), "playing", "games");
    let pairing = |&(i, j): &(usize, usize)| format!("{} vs {}", entrants[i].id, entrants[j].id);
    let fingerprint =
        format!("{name} {} time={:?} seed={seed} seeding=per-game", contest.describe(), arena.clock.per_move);
    let plan = TournamentPlan {
        ids: entrants.iter().map(|e| e.id.clone()).collect(),
        students: entrants.iter().map(|e| e.student).collect(),
        excluded,
        title: format!("{} tournament", capitalized(name)),
        settings: format!(
            "{}, {} s per move, seed {seed} (each game's random agents draw from the seed and the game's place in \
             the schedule)",
            contest.describe(),
            arena.clock.per_move.as_secs_f64()
        ),
    };
    let recorded = Manifest::record(shard, &out_dir, |s| Manifest {
        schema: shard::MANIFEST_SCHEMA,
        command: format!("tournament {name}"),
        fingerprint: fingerprint.clone(),
        shard: s.index,
        of: s.count,
        suite: name.into(),
        units: schedule.iter().map(|&(i, j)| game_name(&plan.ids[i], &plan.ids[j])).collect(),
        tournament: Some(plan.clone()),
    });
    if let Err(e) = recorded {
        return fail(err, exit::INTERNAL, format!("{}: {e}", out_dir.display()));
    }
    let mut records: Vec<Option<GameRecord>> = vec![None; pairs.len()];
    let mut failures = Vec::new();
    // The page is rewritten as games finish, at most every few seconds: a fit of many entrants is not free.
    let mut last_page = std::time::Instant::now();
    for_each_parallel(
        &pairs,
        jobs,
        |&(i, j)| {
            let path = game_file(&out_dir, &entrants[i].id, &entrants[j].id);
            // The game's place in the whole schedule, the same on every shard.
            let round = schedule.iter().position(|&p| p == (i, j)).unwrap_or(0) as u64;
            if let Some(saved) = load_game(&path, &fingerprint) {
                return Some(saved);
            }
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let slot = slots.take();
            progress.start(&pairing(&(i, j)));
            let dir = arena.game_dir(&format!("{}-vs-{}", safe_name(&entrants[i].id), safe_name(&entrants[j].id)));
            let seats = [&entrants[i].prepared, &entrants[j].prepared];
            let mut record =
                match contest.play(seats, &arena.clock, &dir, slot.pin(), Some(game_seed(seed, round, 1)), &mut |_| {})
                {
                    Ok(record) => record,
                    Err(e) => return Some(Err(format!("{}: {e}", dir.display()))),
                };
            // Name the seats by entrant id, so the table can be rebuilt from the saved files alone.
            record.seats[0].label = entrants[i].id.clone();
            record.seats[1].label = entrants[j].id.clone();
            Some(SavedGame { fingerprint: fingerprint.clone(), record }.record_after_save(&path))
        },
        |k, r| {
            let outcome = match r {
                Some(Ok(record)) => {
                    let outcome = record.verdict();
                    records[k] = Some(record);
                    outcome
                }
                Some(Err(e)) => {
                    failures.push(e);
                    "could not be played".to_string()
                }
                None => "not played".to_string(),
            };
            progress.finish(&pairing(&pairs[k]), &outcome);
            if last_page.elapsed() >= std::time::Duration::from_secs(5) {
                let so_far: Vec<GameRecord> = records.iter().flatten().cloned().collect();
                let table = standings(&plan.ids, &plan.students, &so_far);
                let page = TournamentPage {
                    title: &plan.title,
                    settings: &plan.settings,
                    table: &table,
                    games: &so_far,
                    planned: pairs.len(),
                    excluded: &plan.excluded,
                };
                let _ = write_report(&out_dir, &page, &students_by_id(&plan.ids, &plan.students));
                last_page = std::time::Instant::now();
            }
        },
    );
    progress.close();
    for f in &failures {
        let _ = writeln!(err, "referee tournament {name}: {f}");
    }
    if cancel.load(Ordering::Relaxed) {
        let _ = writeln!(err, "referee tournament {name}: cancelled; a re-run plays only the missing games");
        return crate::app::class_report::CANCELLED;
    }
    let played: Vec<GameRecord> = records.into_iter().flatten().collect();
    if let Some(s) = shard {
        let _ = writeln!(
            out,
            "shard {} of the {name} tournament: {} of its {} games played or saved, {} games in all; put the \
             shards together with `referee merge`",
            s.label(),
            played.len(),
            pairs.len(),
            schedule.len()
        );
    } else if let Err(e) = finish(&out_dir, &plan, &played, out) {
        return fail(err, exit::INTERNAL, e);
    }
    if failures.is_empty() {
        exit::SUCCESS
    } else {
        exit::INTERNAL
    }
}

/// The table of `plan`'s entrants from `played` (every game of the tournament): prints it, and writes
/// `standings.md`, `standings.csv`, the Gradescope leaderboard files and `report.html` into `out_dir`.
///
/// # Errors
/// A message naming the folder when a file cannot be written.
pub fn finish(out_dir: &Path, plan: &TournamentPlan, played: &[GameRecord], out: &mut dyn Write) -> Result<(), String> {
    let table = standings(&plan.ids, &plan.students, played);
    let text = render_table(&table, &plan.excluded, &plan.title, &plan.settings, played.len());
    let _ = write!(out, "{text}");
    write_atomic(&out_dir.join("standings.md"), text.as_bytes())
        .and_then(|()| standings_csv(&table))
        .and_then(|bytes| write_atomic(&out_dir.join("standings.csv"), &bytes))
        .and_then(|()| write_leaderboard(out_dir, &table, &students_by_id(&plan.ids, &plan.students)))
        .and_then(|()| {
            let page = TournamentPage {
                title: &plan.title,
                settings: &plan.settings,
                table: &table,
                games: played,
                planned: played.len(),
                excluded: &plan.excluded,
            };
            write_report(out_dir, &page, &students_by_id(&plan.ids, &plan.students))
        })
        .map_err(|e| format!("cannot write results in {}: {e}", out_dir.display()))
}

/// The saved game `name` (see [`game_name`]) of a tournament folder, when it was played under `fingerprint`.
pub fn saved_game(out_dir: &Path, name: &str, fingerprint: &str) -> Option<GameRecord> {
    load_game(&out_dir.join("games").join(format!("{name}.json")), fingerprint).and_then(Result::ok)
}

/// The tournament's facts, before links are added: what [`write_report`] turns into `report.html`.
struct TournamentPage<'a> {
    title: &'a str,
    settings: &'a str,
    table: &'a [Standing],
    games: &'a [GameRecord],
    planned: usize,
    excluded: &'a [String],
}

/// `report.html`: the page of [`super::report`], linking each game to its saved file and each student to their
/// leaderboard file.
fn write_report(out: &Path, t: &TournamentPage<'_>, students: &BTreeMap<String, bool>) -> std::io::Result<()> {
    use crate::harness::render::html::escape::href;
    let game_link = |a: &str, b: &str| href(&["games", &format!("{}__{}.json", safe_name(a), safe_name(b))]);
    let entrant_link = |id: &str| {
        students.get(id).copied().unwrap_or(false).then(|| href(&["gradescope", &safe_name(id), "results.json"]))
    };
    let page = super::report::TournamentPage {
        title: t.title,
        settings: t.settings,
        table: t.table,
        games: t.games,
        planned: t.planned,
        excluded: t.excluded,
        game_link: &game_link,
        entrant_link: &entrant_link,
    };
    let mut html = Vec::new();
    super::report::render(&page, &mut html)?;
    write_atomic(&out.join("report.html"), &html)
}

fn students_by_id(ids: &[String], students: &[bool]) -> BTreeMap<String, bool> {
    ids.iter().cloned().zip(students.iter().copied()).collect()
}

/// A saved game with the settings it was played under.
#[derive(Serialize, serde::Deserialize)]
struct SavedGame {
    fingerprint: String,
    record: GameRecord,
}

impl SavedGame {
    fn record_after_save(self, path: &Path) -> Result<GameRecord, String> {
        let json = crate::harness::render::json_text::to_vec_pretty(&self).map_err(|e| e.to_string())?;
        write_atomic(path, &json).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(self.record)
    }
}

fn game_file(out: &Path, a: &str, b: &str) -> PathBuf {
    out.join("games").join(format!("{}.json", game_name(a, b)))
}

/// The name of the game `a` (first seat) against `b`: its file under `games/` without `.json`.
pub fn game_name(a: &str, b: &str) -> String {
    format!("{}__{}", safe_name(a), safe_name(b))
}

fn load_game(path: &Path, fingerprint: &str) -> Option<Result<GameRecord, String>> {
    let saved: SavedGame = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    (saved.fingerprint == fingerprint).then_some(Ok(saved.record))
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn render_table(table: &[Standing], excluded: &[String], title: &str, settings: &str, games: usize) -> String {
    let mut s = format!("# {title}\n\n{} entrants, {games} games, {settings}\n\n", table.len());
    s.push_str(
        "| rank | agent | won | drawn | lost | forfeits | rating | band |\n|---:|---|---:|---:|---:|---:|---:|---|\n",
    );
    for r in table {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.0} ± {:.0} | {} |\n",
            r.rank, r.id, r.won, r.drawn, r.lost, r.forfeited, r.rating, r.error, r.band
        ));
    }
    if !excluded.is_empty() {
        s.push_str("\nNot entered (did not build or could not be found):\n");
        for e in excluded {
            s.push_str(&format!("- {e}\n"));
        }
    }
    s.push_str(
        "\nRatings: Bradley-Terry maximum likelihood (draws half), Elo scale, mean 1500; ± is one standard error.\n",
    );
    s
}

/// `standings.csv`, written with the `csv` crate (an id holding a comma or a quote stays one field; a formula-like
/// id is made text, as in the gradebook).
fn standings_csv(table: &[Standing]) -> std::io::Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(["rank", "id", "won", "drawn", "lost", "forfeited", "rating", "error", "band"])?;
    for r in table {
        writer.write_record([
            r.rank.to_string(),
            crate::harness::render::csv::text_field(&r.id),
            r.won.to_string(),
            r.drawn.to_string(),
            r.lost.to_string(),
            r.forfeited.to_string(),
            format!("{:.1}", r.rating),
            format!("{:.1}", r.error),
            r.band.clone(),
        ])?;
    }
    writer.into_inner().map_err(|e| e.into_error())
}

/// Gradescope `results.json` per student: the extra credit as the score and the leaderboard columns.
fn write_leaderboard(out: &Path, table: &[Standing], students: &BTreeMap<String, bool>) -> std::io::Result<()> {
    for r in table.iter().filter(|r| students.get(&r.id).copied().unwrap_or(false)) {
        let extra = match r.band.as_str() {
            "top 10%" => 10.0,
            "top 25%" => 5.0,
            _ => 0.0,
        };
        let json = serde_json::json!({
            "score": extra,
            "output": format!("Tournament rank {} of {}: {} won, {} drawn, {} lost; rating {:.0} ± {:.0}{}",
                r.rank, table.len(), r.won, r.drawn, r.lost, r.rating, r.error,
                if r.band.is_empty() { String::new() } else { format!("; {} (extra credit {extra})", r.band) }),
            "leaderboard": [
                {"name": "Rating", "value": (r.rating * 10.0).round() / 10.0},
                {"name": "Won", "value": r.won},
                {"name": "Lost", "value": r.lost, "order": "asc"},
            ],
        });
        let bytes = crate::harness::render::json_text::to_vec_pretty(&json)?;
        write_atomic(&out.join("gradescope").join(safe_name(&r.id)).join("results.json"), &bytes)?;
    }
    Ok(())
}
