//! `referee merge OUT1 OUT2 ... --out FINAL`: the `--out` folders of a `--shard K/N` run's parts, put together into
//! what one unsharded run writes. Class runs: every student's stored result is taken from the shard that owns it
//! and the per-student and class files are rendered again from them. Tournaments: every game is taken from the
//! shard that played it and the standings and ratings are computed over all of them (never combined from the
//! shards' partial tables).
//!
//! Refused, with the shard named: a folder without `shard.json`, shards of different runs (command, settings,
//! class or N), a part given by two folders, a missing part, a part whose results are not all finished. The same
//! folder given twice counts once, and merging again into the same `--out` rewrites the same files.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::app::arena::grading::{games_file, SEED_FILE};
use crate::app::arena::tournament::{finish, saved_game};
use crate::app::class_report::{student_line, write_student_files, ClassResults};
use crate::app::shard::{Manifest, Shard};
use crate::cli::{exit, MergeArgs};
use crate::harness::grade::class::{safe_name, write_atomic, Store};
use crate::harness::grade::store::mark_output;
use crate::harness::model::SubmissionResult;
use crate::harness::render::view::StudentView;

/// The file that marks a folder as written by `merge` (so a later merge may replace its contents).
pub const MERGED: &str = "merged.json";

/// What the merge of the class files and tournament files both produce, and folders they own in `--out`.
const OWNED: [&str; 13] = [
    "results",
    "gradescope",
    "feedback",
    "games",
    "gradebook.csv",
    "junit.xml",
    "report.json",
    "standings.md",
    "standings.csv",
    "report.html",
    MERGED,
    crate::app::shard::MANIFEST,
    SEED_FILE,
];

/// A merge that cannot go on: the exit code and the one-line reason.
type Failure = (u8, String);

/// Runs `referee merge`; returns the exit code.
pub fn run(args: &MergeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match merge(args, out) {
        Ok(code) => code,
        Err((code, message)) => {
            let _ = writeln!(err, "referee merge: {message}");
            code
        }
    }
}

fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<u8, Failure> {
    let shards = read_shards(&args.shards, &args.out)?;
    let first = &shards[0].1;
    check_complete(&shards)?;
    prepare_out(&args.out)?;
    mark_output(&args.out).map_err(|e| io_failure(&args.out, &e))?;
    let code = if first.tournament.is_some() {
        merge_tournament(&shards, &args.out, out)?
    } else {
        merge_class(&shards, &args.out, out)?
    };
    let marker = serde_json::json!({
        "command": first.command,
        "fingerprint": first.fingerprint,
        "of": first.of,
        "shards": shards.iter().map(|(dir, _)| dir.display().to_string()).collect::<Vec<_>>(),
    });
    let bytes = serde_json::to_vec_pretty(&marker).map_err(|e| (exit::INTERNAL, e.to_string()))?;
    write_atomic(&args.out.join(MERGED), &bytes).map_err(|e| io_failure(&args.out, &e))?;
    Ok(code)
}

fn io_failure(path: &Path, e: &std::io::Error) -> Failure {
    (exit::INTERNAL, format!("{}: {e}", path.display()))
}

/// Each folder's manifest (a folder given twice is read once), all of one run.
fn read_shards(dirs: &[PathBuf], final_dir: &Path) -> Result<Vec<(PathBuf, Manifest)>, Failure> {
    let final_canon = fs::canonicalize(final_dir).ok();
    let mut seen = Vec::new();
    let mut shards: Vec<(PathBuf, Manifest)> = Vec::new();
    for dir in dirs {
        let canon = fs::canonicalize(dir).map_err(|e| (exit::USAGE, format!("{}: {e}", dir.display())))?;
        if final_canon.as_ref() == Some(&canon) {
            return Err((exit::USAGE, format!("{}: --out must be a folder of its own, not a shard", dir.display())));
        }
        if seen.contains(&canon) {
            continue;
        }
        seen.push(canon);
        let manifest = Manifest::read(dir).map_err(|e| (exit::USAGE, e))?;
        if let Some((first_dir, first)) = shards.first() {
            if let Some(what) = manifest.differs_from(first) {
                return Err((
                    exit::USAGE,
                    format!(
                        "{} (shard {}/{} of `{}`) is not from the same run as {} (shard {}/{} of `{}`): {what} \
                         differ; merge only the shards of one run",
                        dir.display(),
                        manifest.shard,
                        manifest.of,
                        manifest.command,
                        first_dir.display(),
                        first.shard,
                        first.of,
                        first.command
                    ),
                ));
            }
        }
        shards.push((dir.clone(), manifest));
    }
    if shards.is_empty() {
        return Err((exit::USAGE, "no shard folders given".into()));
    }
    Ok(shards)
}

/// Every part 1..=N present exactly once.
fn check_complete(shards: &[(PathBuf, Manifest)]) -> Result<(), Failure> {
    let first = &shards[0].1;
    let mut by_index: BTreeMap<usize, &Path> = BTreeMap::new();
    for (dir, m) in shards {
        if m.shard == 0 || m.shard > m.of {
            return Err((
                exit::USAGE,
                format!("{}: shard {}/{} is not a part of {}", dir.display(), m.shard, m.of, m.of),
            ));
        }
        if let Some(other) = by_index.insert(m.shard, dir) {
            return Err((
                exit::USAGE,
                format!(
                    "shard {}/{} is given twice, by {} and {}; give each part once",
                    m.shard,
                    m.of,
                    other.display(),
                    dir.display()
                ),
            ));
        }
    }
    let missing: Vec<String> = (1..=first.of)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| {
            let part = Manifest { shard: k, ..first.clone() };
            let units = part.members();
            let what = if first.tournament.is_some() { "games" } else { "students" };
            let names: Vec<&str> = units.iter().take(4).map(|u| u.as_str()).collect();
            let more = if units.len() > 4 { ", ..." } else { "" };
            format!(
                "{} ({} {what}: {}{more})",
                Shard { index: k, count: first.of }.label(),
                units.len(),
                names.join(", ")
            )
        })
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err((exit::USAGE, format!("missing shard {}; merge needs all {} parts", missing.join(", "), first.of)))
    }
}

/// `--out` new or empty, or written by an earlier merge (whose files are replaced).
fn prepare_out(dir: &Path) -> Result<(), Failure> {
    let is_empty = fs::read_dir(dir).map(|mut d| d.next().is_none()).unwrap_or(true);
    if !is_empty {
        if !dir.join(MERGED).is_file() {
            return Err((
                exit::USAGE,
                format!("{}: not empty and not written by `referee merge`; give a new folder", dir.display()),
            ));
        }
        for name in OWNED {
            let path = dir.join(name);
            let removed = if path.is_dir() { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
            match removed {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_failure(&path, &e)),
                _ => {}
            }
        }
    }
    fs::create_dir_all(dir).map_err(|e| io_failure(dir, &e))
}

/// Names the units of each shard that have no finished result, or `Ok`.
fn unfinished(missing: BTreeMap<(usize, usize, String), Vec<String>>, what: &str) -> Result<(), Failure> {
    if missing.is_empty() {
        return Ok(());
    }
    let parts: Vec<String> = missing
        .into_iter()
        .map(|((k, n, dir), units)| format!("shard {k}/{n} ({dir}) has no finished {what} for {}", units.join(", ")))
        .collect();
    Err((exit::USAGE, format!("{}; re-run those shards (they resume) and merge again", parts.join("; "))))
}

fn merge_class(shards: &[(PathBuf, Manifest)], final_dir: &Path, out: &mut dyn Write) -> Result<u8, Failure> {
    let mut results: Vec<(SubmissionResult, Option<PathBuf>)> = Vec::new();
    let mut missing: BTreeMap<(usize, usize, String), Vec<String>> = BTreeMap::new();
    for (dir, m) in shards {
        for id in m.members() {
            let path = dir.join("results").join(format!("{}.json", safe_name(id)));
            let result = fs::read(&path)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<SubmissionResult>(&bytes).ok())
                .filter(|r| r.fingerprint == m.fingerprint && &r.id == id);
            match result {
                Some(r) => {
                    let games = games_file(dir, id);
                    results.push((r, games.is_file().then_some(games)));
                }
                None => missing.entry((m.shard, m.of, dir.display().to_string())).or_default().push(id.clone()),
            }
        }
    }
    unfinished(missing, "result")?;
    results.sort_by(|a, b| a.0.id.cmp(&b.0.id));
    let store = Store::open(final_dir).map_err(|e| io_failure(final_dir, &e))?;
    // The seed games were played with (the same on every shard): a re-run in the merged folder plays them again.
    let seed = shards[0].0.join(SEED_FILE);
    if seed.is_file() {
        fs::copy(&seed, final_dir.join(SEED_FILE)).map_err(|e| io_failure(&seed, &e))?;
    }
    for (result, games) in &results {
        store.save(result).map_err(|e| io_failure(final_dir, &e))?;
        write_student_files(final_dir, result, StudentView::DEFAULT).map_err(|e| io_failure(final_dir, &e))?;
        if let Some(games) = games {
            let bytes = fs::read(games).map_err(|e| io_failure(games, &e))?;
            write_atomic(&games_file(final_dir, &result.id), &bytes).map_err(|e| io_failure(final_dir, &e))?;
        }
    }
    let first = &shards[0].1;
    let results: Vec<SubmissionResult> = results.into_iter().map(|(r, _)| r).collect();
    let standing = ClassResults::of(&first.suite, results, first.units.len(), Vec::new());
    standing.write_final(final_dir, StudentView::DEFAULT).map_err(|e| io_failure(final_dir, &e))?;
    let subs = &standing.report.submissions;
    let _ = writeln!(
        out,
        "merged {} shard(s) of `{}`: {} student(s); results in {}",
        first.of,
        first.command,
        subs.len(),
        final_dir.display()
    );
    for line in standing.notices() {
        let _ = writeln!(out, "{line}");
    }
    for r in subs {
        let passed = r.cases.iter().filter(|c| c.status.is_pass()).count();
        let _ = writeln!(out, "{}", student_line(r, &format!("{passed} of {} case(s) passed", r.cases.len())));
    }
    let graded = if subs.iter().any(SubmissionResult::has_harness_error) {
        exit::INTERNAL
    } else if !matches!(first.command.as_str(), "grade" | "exercise grade")
        || subs.iter().all(|r| r.outcome().is_graded() && r.all_passed())
    {
        exit::SUCCESS
    } else {
        exit::FAILED
    };
    Ok(standing.exit_code(graded))
}

fn merge_tournament(shards: &[(PathBuf, Manifest)], final_dir: &Path, out: &mut dyn Write) -> Result<u8, Failure> {
    let first = &shards[0].1;
    let order: BTreeMap<&str, usize> = first.units.iter().enumerate().map(|(i, u)| (u.as_str(), i)).collect();
    let mut played = Vec::new();
    let mut missing: BTreeMap<(usize, usize, String), Vec<String>> = BTreeMap::new();
    for (dir, m) in shards {
        for name in m.members() {
            match saved_game(dir, name, &m.fingerprint) {
                Some(record) => {
                    played.push((order.get(name.as_str()).copied().unwrap_or(usize::MAX), name, dir, record))
                }
                None => missing.entry((m.shard, m.of, dir.display().to_string())).or_default().push(name.clone()),
            }
        }
    }
    unfinished(missing, "game")?;
    played.sort_by_key(|(i, ..)| *i);
    for (_, name, dir, _) in &played {
        let file = format!("{name}.json");
        let from = dir.join("games").join(&file);
        let bytes = fs::read(&from).map_err(|e| io_failure(&from, &e))?;
        write_atomic(&final_dir.join("games").join(&file), &bytes).map_err(|e| io_failure(final_dir, &e))?;
    }
    let plan = first.tournament.as_ref().ok_or((exit::INTERNAL, "invariant: a tournament manifest".to_string()))?;
    let records: Vec<_> = played.into_iter().map(|(.., record)| record).collect();
    finish(final_dir, plan, &records, out).map_err(|e| (exit::INTERNAL, e))?;
    Ok(exit::SUCCESS)
}
