//! The correct Java and Python programs against the reference on a thousand random positions each, judged by the
//! library's `check` loop exactly as `referee check` judges them (the official cases first, then the seeded
//! positions, every reading accepted). Each program runs in one interpreter for all its positions
//! (`tests/fixtures/java/ManyRuns.java`, `tests/fixtures/python/many_runs.py` call its main once per position), so a
//! thousand positions cost seconds instead of a thousand JVM starts; `tests/it/check.rs` runs `referee check` itself,
//! one sandboxed process per position, on fewer.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use referee::diagnose::takestones::check::{check, CheckConfig, Failure, Ran};
use referee::diagnose::takestones::generate::Shape;
use referee::game::takestones::Position;
use referee::harness::suite::{builtin, Reading};
use referee::reference::takestones::Edition;

use crate::grade::{fixture, python};

/// `referee check`'s default `--max-stones`.
const MAX_STONES: u32 = 30;

/// A program's main, run once per position by a driver in one process.
pub struct Driver {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Driver {
    fn start(command: &mut Command) -> Driver {
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Driver { child, stdin, stdout }
    }

    /// The Python script `program` under `tests/fixtures/python/many_runs.py`.
    pub fn python(program: &Path) -> Driver {
        Driver::start(Command::new(python()).arg(fixture("python/many_runs.py")).arg(program))
    }

    /// What the program printed for `position` at `depth`, as `referee check` would have seen it.
    pub fn run(&mut self, position: &Position, depth: u32) -> Ran {
        let mut args = position.to_args();
        args.push(depth.to_string());
        let failed = |how: &str| Ran::Failed(Failure { how: how.into(), stderr: String::new() });
        if writeln!(self.stdin, "{}", args.join(" ")).and_then(|()| self.stdin.flush()).is_err() {
            return failed("the driver is gone");
        }
        let mut printed = String::new();
        loop {
            let mut line = String::new();
            match self.stdout.read_line(&mut line) {
                Ok(0) | Err(_) => return failed("the driver ended"),
                Ok(_) if line == "@@end@@\n" => return Ran::Printed(printed),
                Ok(_) => printed.push_str(&line),
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The check `referee check takestones --edition E --seed S --cases N` runs (official cases, all readings).
pub fn check_config(edition: Edition, seed: u64, cases: usize) -> CheckConfig {
    let name = match edition {
        Edition::Stats => "takestones-stats-2019",
        Edition::Trace => "takestones-trace-2017",
    };
    let mut suite = builtin::suite(name).unwrap();
    suite.accept = Reading::ALL.to_vec();
    CheckConfig {
        edition,
        seed,
        cases,
        shape: Shape::for_edition(edition, MAX_STONES),
        shrink_runs: 300,
        suite,
        fixed: "official",
    }
}

fn assert_all_matched(driver: &mut Driver, config: &CheckConfig, what: &str) {
    let report = check(config, |position, depth| driver.run(position, depth));
    if let Some(d) = &report.divergence {
        panic!(
            "{what}: diverges at {} (shrunk to {:?}): expected\n{}\ngot {:?}",
            d.found_at, d.shrunk, d.expected, d.actual
        );
    }
    assert!(report.never_ran.is_none(), "{what}: {:?}", report.never_ran);
    assert_eq!(report.fixed_passed, config.suite.cases.len(), "{what}");
    assert!(report.fixed_passed > 0, "{what}");
    assert_eq!((report.random_run, report.random_passed), (config.cases, config.cases), "{what}");
}

#[test]
fn the_correct_java_program_matches_the_reference_on_a_thousand_random_positions() {
    if !crate::referee::have_java() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut sources: Vec<_> =
        std::fs::read_dir(fixture("submissions/java-stats")).unwrap().map(|e| e.unwrap().path()).collect();
    sources.push(fixture("java/ManyRuns.java"));
    let javac = Command::new("javac").arg("-d").arg(dir.path()).args(&sources).status().unwrap();
    assert!(javac.success());
    let mut driver = Driver::start(Command::new("java").arg("-cp").arg(dir.path()).args(["ManyRuns", "TakeStones"]));
    assert_all_matched(&mut driver, &check_config(Edition::Stats, 11, 1000), "java-stats");
}

#[test]
fn correct_python_programs_match_the_reference_on_a_thousand_random_positions() {
    for (source, edition) in
        [("submissions/python-stats", Edition::Stats), ("submissions/python-trace", Edition::Trace)]
    {
        let mut driver = Driver::python(&fixture(source).join("takestones.py"));
        assert_all_matched(&mut driver, &check_config(edition, 2026, 1000), source);
    }
}
