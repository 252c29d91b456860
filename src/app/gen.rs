//! `referee gen takestones`: write a discriminating suite and print which case catches which bug.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use crate::cli::{exit, AcceptChoice, CheckGame, GenArgs, Layout};
use crate::diagnose::takestones::generate::Shape;
use crate::diagnose::takestones::suite_gen::{generate_suite, GeneratedSuite};
use crate::diagnose::takestones::Kind;
use crate::harness::suite::readings::{accept_file, ACCEPT_FILE};
use crate::harness::suite::Reading;
use crate::reference::takestones::Edition;

/// Generates and writes the suite; returns the exit code (3 when a bug of the catalog is left uncaught).
pub fn run(args: &GenArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let CheckGame::Takestones = args.game;
    if args.count == 0 || !(3..=127).contains(&args.max_stones) {
        let _ = writeln!(err, "referee gen: need --count >= 1 and 3 <= --max-stones <= 127");
        return exit::USAGE;
    }
    let Some(accept) = accepted(&args.accept) else {
        let _ = writeln!(err, "referee gen: --accept none cannot be combined with a reading");
        return exit::USAGE;
    };
    let seed = super::seed_or_now(args.seed);
    let shape = Shape::for_edition(args.edition, args.max_stones);
    let suite = generate_suite(args.edition, args.count, seed, &shape, &accept);
    if let Err(e) = write(&suite, args, &accept) {
        let _ = writeln!(err, "referee gen: cannot write {}: {e}", args.out.display());
        return exit::INTERNAL;
    }
    let _ = writeln!(out, "wrote {} case(s) to {} (seed {seed})", suite.cases.len(), args.out.display());
    let names: Vec<&str> = accept.iter().map(|r| r.name()).collect();
    let policy: String =
        if names.is_empty() { "none (only the reference's default output passes)".into() } else { names.join(", ") };
    let file = match args.layout {
        Layout::Course => ACCEPT_FILE,
        Layout::Native => "suite.toml",
    };
    let _ = writeln!(out, "accepted readings: {policy}; written to {file}, which grade and check --suite read");
    let _ = writeln!(out, "{:<26} {:<8} cases that catch it", "variant", "kind");
    for (variant, cases) in &suite.coverage {
        let kind = if variant.kind() == Kind::Bug { "bug" } else { "reading" };
        let list = if cases.is_empty() {
            "none".to_string()
        } else {
            let names: Vec<String> = cases.iter().take(8).map(|i| (i + 1).to_string()).collect();
            format!("{}{}", names.join(" "), if cases.len() > 8 { " ..." } else { "" })
        };
        let _ = writeln!(out, "{:<26} {kind:<8} {list}", variant.name());
    }
    let missed = suite.uncovered(&accept);
    if missed.is_empty() {
        exit::SUCCESS
    } else {
        let names: Vec<String> = missed
            .iter()
            .map(|v| match v.kind() {
                Kind::Bug => v.name().to_string(),
                Kind::Reading => format!("{} (a reading this suite does not accept)", v.name()),
            })
            .collect();
        let _ = writeln!(err, "referee gen: no case catches {}; raise --count", names.join(", "));
        exit::INTERNAL
    }
}

/// The readings `--accept` names, or `None` when `none` is mixed with a reading.
fn accepted(choices: &[AcceptChoice]) -> Option<Vec<Reading>> {
    let mut out = Vec::new();
    for choice in choices {
        let reading = match choice {
            AcceptChoice::Composite => Reading::Composite,
            AcceptChoice::Rounding => Reading::Rounding,
            AcceptChoice::NegativeZero => Reading::NegativeZero,
            AcceptChoice::None => continue,
        };
        if !out.contains(&reading) {
            out.push(reading);
        }
    }
    let none = choices.contains(&AcceptChoice::None);
    (!none || out.is_empty()).then_some(out)
}

fn write(suite: &GeneratedSuite, args: &GenArgs, accept: &[Reading]) -> std::io::Result<()> {
    let dir: &Path = &args.out;
    std::fs::create_dir_all(dir)?;
    for (i, case) in suite.cases.iter().enumerate() {
        std::fs::write(dir.join(format!("output{}.txt", i + 1)), &case.expected)?;
    }
    let mut index = String::new();
    match (args.layout, args.edition) {
        (Layout::Course, Edition::Stats) => {
            for (i, case) in suite.cases.iter().enumerate() {
                let _ = write!(index, "output{}.txt:\n    $ java TakeStones {}\n", i + 1, case.args().join(" "));
            }
            std::fs::write(dir.join(ACCEPT_FILE), accept_file(accept))?;
            std::fs::write(dir.join("testcase.txt"), index)
        }
        (Layout::Course, Edition::Trace) => {
            for case in &suite.cases {
                let _ = writeln!(index, "{}", case.args().join(" "));
            }
            std::fs::write(dir.join(ACCEPT_FILE), accept_file(accept))?;
            std::fs::write(dir.join("testcase.txt"), index)
        }
        (Layout::Native, edition) => {
            let edition = if edition == Edition::Trace { "trace" } else { "stats" };
            let _ = write!(
                index,
                "# Generated by referee gen: every bug in the catalog fails at least one case.\n\
                 name = \"Take-Stones {edition}, generated\"\ntimeout = \"10s\"\naccept = [{accept}]\n\n\
                 [reference]\ngame = \"takestones\"\nedition = \"{edition}\"\n",
                accept = accept.iter().map(|r| format!("\"{}\"", r.name())).collect::<Vec<_>>().join(", ")
            );
            for (i, case) in suite.cases.iter().enumerate() {
                let _ = write!(
                    index,
                    "\n[[case]]\nname = \"case{n}\"\nargs = \"{}\"\nexpected-file = \"output{n}.txt\"\n",
                    case.args().join(" "),
                    n = i + 1
                );
            }
            std::fs::write(dir.join("suite.toml"), index)
        }
    }
}
