//! `referee bench scale`: the measured costs behind "N students on M machines takes about T". It grades a class of
//! `--students` real Take-Stones Java hand-ins (the test fixture's alpha-beta program: `javac` once, then the three
//! official cases, each a JVM) through the ordinary `grade` path with `-j --jobs`, and plays `GAMES` Othello games
//! on 8x8 between two course-style Python agents (depth-3 alpha-beta, the test fixture) through `match othello`.
//! It prints the cost per student and per game and the estimates for 1,500 students and a 300-player tournament.

use std::io::Write;
use std::time::Instant;

use clap::Parser;

use crate::cli::{exit, BenchArgs, Command, MatchGame, RefereeCli};

/// The Java hand-in every student of the benchmark class submits (a correct solution, as written for the tests).
const JAVA: [(&str, &str); 4] = [
    ("AlphaBetaPruning.java", include_str!("../../tests/fixtures/submissions/java-stats/AlphaBetaPruning.java")),
    ("GameState.java", include_str!("../../tests/fixtures/submissions/java-stats/GameState.java")),
    ("Helper.java", include_str!("../../tests/fixtures/submissions/java-stats/Helper.java")),
    ("TakeStones.java", include_str!("../../tests/fixtures/submissions/java-stats/TakeStones.java")),
];

/// A course-style Othello agent (alpha-beta to depth 3 on the disc difference).
const OTHELLO_AGENT: &str = include_str!("../../tests/fixtures/othello/agents/ab2101_ai.py");

/// Othello games played (colors alternate).
const GAMES: u32 = 2;

/// The class size and the tournament the estimates are for.
const CLASS: f64 = 1500.0;
const PLAYERS: f64 = 300.0;

/// Runs the benchmark; returns the exit code.
pub fn run(args: &BenchArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match measure(args, out) {
        Ok(()) => exit::SUCCESS,
        Err(message) => {
            let _ = writeln!(err, "referee bench scale: {message}");
            exit::INTERNAL
        }
    }
}

fn parse(argv: &[String]) -> Result<Command, String> {
    RefereeCli::try_parse_from(argv).map(|c| c.command).map_err(|e| crate::app::clap_failure("bench", &e).0)
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn measure(args: &BenchArgs, out: &mut dyn Write) -> Result<(), String> {
    let students = args.students.max(1);
    let jobs = args.jobs.max(1);
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let class = work.path().join("class");
    for i in 0..students {
        let dir = class.join(format!("s{i:04}"));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        for (name, text) in JAVA {
            std::fs::write(dir.join(name), text).map_err(|e| e.to_string())?;
        }
    }
    let mut argv = strings(&["referee", "grade", "--suite", "builtin:takestones-stats-2019", "--shell"]);
    argv.extend(strings(&["--build", "javac -d {dir} {dir}/*.java", "--cmd", "java -cp {dir} TakeStones {args}"]));
    argv.extend(["--submissions".into(), class.display().to_string(), "-j".into(), jobs.to_string()]);
    argv.extend(["--out".into(), work.path().join("out").display().to_string()]);
    let Command::Grade(grade) = parse(&argv)? else { return Err("invariant: a grade command".into()) };
    let (mut sink, mut log) = (Vec::new(), Vec::new());
    let started = Instant::now();
    let code = crate::app::grade::run(&grade, &mut sink, &mut log);
    let class_seconds = started.elapsed().as_secs_f64();
    if code != exit::SUCCESS {
        return Err(format!("grading the class ended with {code}: {}", String::from_utf8_lossy(&log)));
    }
    let per_student = class_seconds * jobs as f64 / students as f64;

    let agents = work.path().join("agents");
    let mut paths = Vec::new();
    for uni in ["aa1111", "bb2222"] {
        let dir = agents.join(uni);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let path = dir.join(format!("{uni}_ai.py"));
        std::fs::write(&path, OTHELLO_AGENT).map_err(|e| e.to_string())?;
        paths.push(path.display().to_string());
    }
    let python = if std::path::Path::new("/usr/bin/python3").exists() { "/usr/bin/python3" } else { "python3" };
    let mut argv = strings(&["referee", "match", "othello"]);
    argv.extend(paths);
    argv.extend(strings(&["--games", &GAMES.to_string(), "--size", "8", "--time", "10", "-q", "--python", python]));
    let Command::Match(MatchGame::Othello(game)) = parse(&argv)? else {
        return Err("invariant: a match command".into());
    };
    let (mut moves, mut log) = (Vec::new(), Vec::new());
    let started = Instant::now();
    let code = crate::app::othello::matches::run(&game, &mut moves, &mut log);
    let per_game = started.elapsed().as_secs_f64() / f64::from(GAMES);
    if code != exit::SUCCESS {
        return Err(format!("the Othello games ended with {code}: {}", String::from_utf8_lossy(&log)));
    }

    let w = |out: &mut dyn Write, line: String| writeln!(out, "{line}").map_err(|e| e.to_string());
    w(
        out,
        format!(
            "Take-Stones, Java: {students} students (javac + 3 official cases each), -j {jobs}: {class_seconds:.1} s"
        ),
    )?;
    w(out, format!("  per student: {per_student:.2} core-seconds"))?;
    w(out, format!("Othello 8x8, two depth-3 Python agents, 10 s per move: {GAMES} games, {per_game:.2} s per game"))?;
    w(out, format!("Estimates (machines with {jobs} cores like this one, {jobs} students or games at a time each):"))?;
    w(
        out,
        format!("  {:>8}  {:>22}  {:>30}", "machines", "1,500 Java students", "300-player round robin (89,700 games)"),
    )?;
    let games = PLAYERS * (PLAYERS - 1.0);
    for machines in [1.0, 10.0, 50.0] {
        let cores = machines * jobs as f64;
        let class = CLASS * per_student / cores;
        let tournament = games * per_game / cores;
        w(out, format!("  {machines:>8}  {:>22}  {:>30}", duration(class), duration(tournament)))?;
    }
    Ok(())
}

/// `95 s`, `12 min`, `3.5 h`, `4.2 days`.
fn duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 172_800.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(95.0), "95 s");
        assert_eq!(duration(720.0), "12 min");
        assert_eq!(duration(12_600.0), "3.5 h");
        assert_eq!(duration(362_880.0), "4.2 days");
    }
}
