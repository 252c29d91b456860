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

/// Every option combination the accepted readings allow, the default first, each with its label.
pub fn combinations(accept: &[Reading]) -> Vec<(Options, Option<String>)> {
    let mut out = vec![(Options::default(), Vec::<String>::new())];
    for reading in [Reading::Composite, Reading::Rounding, Reading::NegativeZero] {
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
                    l.push("composite=legal-moves".into());
                }
                Reading::Rounding => {
                    o.rounding = Rounding::HalfEven;
                    l.push("rounding=half-even".into());
                }
                Reading::NegativeZero => {
                    o.negative_zero = NegativeZero::Keep;
                    l.push("negative-zero=keep".into());
                }
            }
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
}
