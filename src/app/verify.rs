//! `referee verify`: the reference against the official files compiled into the binary.

use std::io::Write;

use crate::cli::{exit, VerifyArgs};
use crate::harness::compare::first_difference;
use crate::harness::suite::builtin::official_cases;
use crate::reference::takestones::{parse_numbers, solve_to_string, Edition, Request};

/// Runs every official case of the chosen editions, prints one line per case and a summary; exit 0 when all match.
pub fn run(args: &VerifyArgs, out: &mut dyn Write) -> u8 {
    let editions = match args.edition {
        Some(edition) => vec![edition],
        None => vec![Edition::Stats, Edition::Trace],
    };
    let (mut matched, mut total) = (0, 0);
    for edition in editions {
        let label = match edition {
            Edition::Stats => "takestones stats-2019",
            Edition::Trace => "takestones trace-2017",
        };
        let cases = match official_cases(edition) {
            Ok(cases) => cases,
            Err(e) => {
                let _ = writeln!(out, "{label}: built-in suite unreadable: {e}");
                return exit::INTERNAL;
            }
        };
        for case in cases {
            total += 1;
            let verdict = parse_numbers(&case.args)
                .map_err(|e| e.to_string())
                .and_then(|(position, depth)| {
                    let request = Request { edition, ..Request::new(position, depth) };
                    solve_to_string(&request).map_err(|e| e.to_string())
                })
                .map(|(output, _)| first_difference(&case.expected, &output));
            let args = case.args.join(" ");
            let _ = match verdict {
                Ok(None) => {
                    matched += 1;
                    writeln!(out, "ok    {label} {} ({args})", case.name)
                }
                Ok(Some(d)) => writeln!(
                    out,
                    "FAIL  {label} {} ({args}): line {}: expected {:?}, got {:?}",
                    case.name, d.line, d.expected, d.actual
                ),
                Err(e) => writeln!(out, "FAIL  {label} {} ({args}): {e}", case.name),
            };
        }
    }
    let _ = writeln!(out, "verify: {matched} of {total} official cases match the reference byte for byte");
    if matched == total {
        exit::SUCCESS
    } else {
        exit::FAILED
    }
}
