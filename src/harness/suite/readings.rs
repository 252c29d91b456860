//! Spec-silent readings a suite may accept, turned into extra expected outputs by the reference.

use serde::Deserialize;

use super::{Expected, ReferenceGame, Suite, SuiteCase};
use crate::harness::compare::Candidate;
use crate::reference::number::{NegativeZero, Rounding};
use crate::reference::takestones::{parse_numbers, solve_to_string, CompositeCount, Edition, Options, Request};

/// A point the Take-Stones spec leaves open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Reading {
    /// Composite rule: all available multiples, or legal moves only.
    Composite,
    /// Rounding of ties: Java `%.1f` or `DecimalFormat`.
    Rounding,
    /// `-0.0` or `0.0`.
    NegativeZero,
}

impl Reading {
    /// Every reading, in the order reports list them.
    pub const ALL: [Reading; 3] = [Reading::Composite, Reading::Rounding, Reading::NegativeZero];

    /// How reports name the reading's non-default choice: `negative-zero=keep`.
    pub fn label(self) -> &'static str {
        match self {
            Reading::Composite => "composite=legal-moves",
            Reading::Rounding => "rounding=half-even",
            Reading::NegativeZero => "negative-zero=keep",
        }
    }

    /// How `accept = [...]`, `--accept` and `accept.txt` spell it: `negative-zero`.
    pub fn name(self) -> &'static str {
        match self {
            Reading::Composite => "composite",
            Reading::Rounding => "rounding",
            Reading::NegativeZero => "negative-zero",
        }
    }
}

/// The file beside a course `testcase.txt` that lists the readings the suite accepts (the course layout has no
/// other place for them); without it a course folder accepts none.
pub const ACCEPT_FILE: &str = "accept.txt";

/// Reads an [`ACCEPT_FILE`]: one reading per line (`composite`, `rounding`, `negative-zero`), `#` starts a
/// comment, blank lines are skipped; a file with no reading accepts none.
///
/// # Errors
/// `(line, problem)` for a line that names no reading.
pub fn parse_accept_file(text: &str) -> Result<Vec<Reading>, (usize, String)> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let word = raw.split('#').next().unwrap_or("").trim();
        if word.is_empty() {
            continue;
        }
        let Some(reading) = Reading::ALL.into_iter().find(|r| r.name() == word) else {
            let known: Vec<&str> = Reading::ALL.iter().map(|r| r.name()).collect();
            return Err((i + 1, format!("'{word}' is not a reading (known: {})", known.join(", "))));
        };
        if !out.contains(&reading) {
            out.push(reading);
        }
    }
    Ok(out)
}

/// The [`ACCEPT_FILE`] text for `accept`, with a comment saying what it is.
pub fn accept_file(accept: &[Reading]) -> String {
    let mut text = String::from(
        "# Readings the spec leaves open that this suite accepts besides the reference's default output, one per\n\
         # line: composite, rounding, negative-zero. `referee grade` and `referee check --suite` both read this file.\n",
    );
    if accept.is_empty() {
        text.push_str("# (none: only the default output passes)\n");
    }
    for r in accept {
        text.push_str(r.name());
        text.push('\n');
    }
    text
}

/// Every option combination the accepted readings allow, the default first, each with its label.
pub fn combinations(accept: &[Reading]) -> Vec<(Options, Option<String>)> {
    let mut out = vec![(Options::default(), Vec::<String>::new())];
    for reading in Reading::ALL {
        if !accept.contains(&reading) {
            continue;
        }
        let mut more = Vec::new();
        for (options, labels) in &out {
            let mut o = *options;
            let mut l = labels.clone();
            match reading {
                Reading::Composite => {
                    o.composite = CompositeCount::LegalMoves;
                }
                Reading::Rounding => {
                    o.rounding = Rounding::HalfEven;
                }
                Reading::NegativeZero => {
                    o.negative_zero = NegativeZero::Keep;
                }
            }
            l.push(reading.label().to_string());
            more.push((o, l));
        }
        out.extend(more);
    }
    out.into_iter().map(|(o, l)| (o, (!l.is_empty()).then(|| l.join(", ")))).collect()
}

/// The accepted outputs of `case`: its expected text (or the reference's default output) first, then the
/// reference's output under each accepted reading that prints something different.
///
/// # Errors
/// A message when the reference cannot compute the case (its arguments are not a legal position).
pub fn candidates(suite: &Suite, case: &SuiteCase) -> Result<Vec<Candidate>, String> {
    let mut out: Vec<Candidate> = Vec::new();
    if let Expected::Text(text) = &case.expected {
        out.push(Candidate { text: text.clone(), reading: None });
    }
    let Some(reference) = suite.reference else {
        return match case.expected {
            Expected::Reference => Err("the case asks the reference, but the suite names none".into()),
            Expected::Text(_) => Ok(out),
        };
    };
    if matches!(case.expected, Expected::Text(_)) && suite.accept.is_empty() {
        return Ok(out);
    }
    let ReferenceGame::Takestones = reference.game;
    let edition: Edition = reference.edition.into();
    let (position, depth) = parse_numbers(&case.args).map_err(|e| format!("the reference cannot run it: {e}"))?;
    for (options, label) in combinations(&suite.accept) {
        let request = Request { position: position.clone(), depth, edition, options };
        let (text, _) = solve_to_string(&request).map_err(|e| format!("the reference cannot run it: {e}"))?;
        if !out.iter().any(|c| c.text == text) {
            out.push(Candidate { text, reading: label });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_start_with_the_default_and_cover_every_mix() {
        let all = combinations(&[Reading::Composite, Reading::Rounding, Reading::NegativeZero]);
        assert_eq!(all.len(), 8);
        assert_eq!(all[0], (Options::default(), None));
        assert!(all.iter().any(|(_, l)| l.as_deref() == Some("composite=legal-moves, rounding=half-even")));
        assert_eq!(combinations(&[]).len(), 1);
    }

    #[test]
    fn the_accept_file_reads_back_what_was_written() {
        for accept in [vec![], vec![Reading::NegativeZero], Reading::ALL.to_vec()] {
            assert_eq!(parse_accept_file(&accept_file(&accept)), Ok(accept));
        }
        assert_eq!(parse_accept_file("rounding # HALF_EVEN\n\nrounding\n"), Ok(vec![Reading::Rounding]));
        let (line, problem) = parse_accept_file("# x\nnegative_zero\n").unwrap_err();
        assert_eq!(line, 2);
        assert!(problem.contains("'negative_zero' is not a reading"), "{problem}");
    }
}
