//! `referee grade mancala` and `referee tournament mancala` end to end: a class of real Java hand-ins, compiled
//! with `javac` and played against the built-in agents.

use std::path::Path;

use assert_cmd::Command;
use referee::harness::model::{Status, SubmissionResult};
use referee::referee::record::GameRecord;

use super::referee::have_java;

/// A class folder: `good` (a course-style player), `silent` (never sets `move`), `broken` (does not compile), and
/// the `extra` students, each as handed in (one folder with its xxxPlayer.java).
fn class(dir: &Path, extra: &[(&str, &str)]) {
    for (student, file) in [("good", "goodPlayer"), ("silent", "silentPlayer")].iter().chain(extra) {
        crate::variants::mancala_player(file, &dir.join(format!("{student}-HW3-P4")));
    }
    let broken = dir.join("broken-HW3-P4");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("brokenPlayer.java"), "public class brokenPlayer extends Player {\n  oops\n}\n")
        .unwrap();
}

fn result(out: &Path, id: &str) -> SubmissionResult {
    serde_json::from_slice(&std::fs::read(out.join("results").join(format!("{id}.json"))).unwrap()).unwrap()
}

#[test]
fn a_class_is_graded_by_the_course_rubric_from_real_games() {
    if !have_java() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (subs, out) = (tmp.path().join("class"), tmp.path().join("out"));
    class(&subs, &[("throws", "throwPlayer"), ("illegal", "illegalPlayer")]);
    let assert = Command::cargo_bin("referee")
        .unwrap()
        .args(["grade", "mancala", "--stones", "2", "--time", "0.2", "--tolerance", "0.2", "--seed", "3", "-j", "2"])
        .args(["--points", "10"])
        .arg("--submissions")
        .arg(&subs)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("graded 5 student(s)"), "{stdout}");

    // The score follows from the games saved beside it: half for beating random, all for beating simple.
    let good = result(&out, "good");
    let games: Vec<GameRecord> = serde_json::from_slice(&std::fs::read(out.join("games/good.json")).unwrap()).unwrap();
    assert_eq!(games.len(), 4, "random and simple, both seats");
    let beat = |opponent: &str| {
        games.iter().any(|g| {
            let me = g
                .seat_of("good-HW3-P4")
                .or_else(|| g.seats.iter().position(|s| s.label != opponent).map(|i| i as u8 + 1));
            g.seats.iter().any(|s| s.label == opponent) && g.outcome.winner == me
        })
    };
    let expected = if beat("builtin:simple") {
        10.0
    } else if beat("builtin:random") {
        5.0
    } else {
        0.0
    };
    assert!(beat("builtin:random"), "a course-style alpha-beta player beats random");
    assert_eq!(good.score, expected);

    let silent = result(&out, "silent");
    assert_eq!(silent.score, 0.0);
    let forfeits: Vec<_> = silent.cases.iter().filter(|c| c.name.starts_with("vs ")).collect();
    assert_eq!(forfeits.len(), 4);
    assert!(forfeits
        .iter()
        .all(|c| c.status == Status::Timeout && c.diagnosis.as_deref().unwrap_or("").contains("never set")));

    let broken = result(&out, "broken");
    assert_eq!(broken.score, 0.0);
    assert!(!broken.build.as_ref().unwrap().ok);
    assert!(broken.build.as_ref().unwrap().message.contains("does not compile"));
    assert!(broken.cases.iter().all(|c| c.status == Status::BuildError));

    // An exception in move() and an illegal bin: every game lost, each with its reason.
    for (id, status, reason) in [
        ("throws", Status::Timeout, "ArrayIndexOutOfBoundsException"),
        ("illegal", Status::Failed, "is not one of its own bins 0-5"),
    ] {
        let r = result(&out, id);
        assert_eq!(r.score, 0.0, "{id}");
        let games: Vec<_> = r.cases.iter().filter(|c| c.name.starts_with("vs ")).collect();
        assert_eq!(games.len(), 4, "{id}");
        for g in games {
            assert_eq!(g.status, status, "{id}: {}", g.detail);
            assert!(g.diagnosis.as_deref().unwrap_or("").contains(reason), "{id}: {:?}", g.diagnosis);
        }
    }

    let gradebook = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert_eq!(gradebook.lines().count(), 6, "{gradebook}");
    let feedback = std::fs::read_to_string(out.join("feedback/silent.md")).unwrap();
    assert!(feedback.contains("never set its move"), "{feedback}");
    assert!(out.join("gradescope/good/results.json").is_file());
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("href=\"feedback/silent.md\"") && html.contains("id=\"causes-troubles\""), "{html}");
}

#[test]
fn a_tournament_ranks_rates_and_bands_the_class() {
    if !have_java() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (subs, out) = (tmp.path().join("class"), tmp.path().join("out"));
    class(&subs, &[]);
    let assert = Command::cargo_bin("referee")
        .unwrap()
        .args([
            "tournament",
            "mancala",
            "--stones",
            "2",
            "--time",
            "0.15",
            "--tolerance",
            "0.2",
            "--seed",
            "5",
            "-j",
            "2",
        ])
        .args(["--with", "builtin:random"])
        .arg("--submissions")
        .arg(&subs)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let table = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(table.contains("3 entrants, 6 games"), "{table}");
    assert!(table.contains("broken: "), "the player that does not compile is listed as left out: {table}");
    let csv = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let row = |id: &str| rows.iter().find(|r| r[1] == id).unwrap().clone();
    let (good, silent) = (row("good"), row("silent"));
    assert_eq!(silent[5], "4", "silent forfeits all four of its games");
    assert!(good[6].parse::<f64>().unwrap() > silent[6].parse::<f64>().unwrap());
    assert_eq!(good[8], "top 10%");
    assert!(silent[8].is_empty() || silent[8] == "top 25%");
    let board: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("gradescope/good/results.json")).unwrap()).unwrap();
    assert_eq!(board["score"], 10.0);
    assert_eq!(board["leaderboard"][0]["name"], "Rating");
    assert_eq!(std::fs::read_dir(out.join("games")).unwrap().count(), 6);
    crate::html_report::check_tournament_report(&out);
}
