//! The result model as pretty JSON (`--format json`): the machine-readable report, and the shape of the
//! per-student files a class run writes.
//!
//! # Schema (version [`SCHEMA_VERSION`])
//!
//! One object, two-space indented, followed by a newline. Field order is as listed; fields marked *optional* are
//! left out when empty.
//!
//! ```text
//! {
//!   "schema": 1,                      // SCHEMA_VERSION; bumped on any incompatible change
//!   "suite": "takestones",            // the suite's name
//!   "submissions": [                  // sorted by id
//!     {
//!       "id": "alice",                // student id (folder or zip name), or "submission"
//!       "source": "alice.zip",        // where it came from
//!       "build": {                    // optional: the build step, when there was one
//!         "ok": false,
//!         "command": "javac Main.java",
//!         "message": "...",           // the compiler's message; "" when ok
//!         "elapsed_ms": 812           // 0 under --redact
//!       },
//!       "cases": [                    // suite order
//!         {
//!           "name": "official-2",
//!           "args": ["7", "0", "3"],
//!           "status": "failed",       // passed | failed | timeout | crashed | nonzero-exit | output-limit
//!                                     // | build-error | harness-error
//!           "score": 0.0,             // points earned (decided by the comparer)
//!           "max_score": 1.0,
//!           "visibility": "visible",  // visible | hidden | after-due-date
//!           "show": "actual-only",    // optional: what student-facing reports show (full | actual-only | none);
//!                                     // absent for full. This report itself always shows everything.
//!           "tags": ["official"],     // optional
//!           "detail": "line 3 differs",
//!           "reading": "composite=legal-moves", // optional: the reading matched (or, failed, the closest)
//!           "lines_matched": [3, 5],  // optional: per-line credit, matched / expected
//!           "difference": {           // optional: failed cases
//!             "line": 3,              // 1-based, after normalization
//!             "expected": "...",      // null: the expected output had ended
//!             "actual": "..."         // null: the output had ended
//!           },
//!           "expected": "...",        // the expected output (default reading)
//!           "stdout": { "text": "...", "truncated": false, "bytes": 42, "invalid_utf8": true },
//!           "stderr": { "text": "", "truncated": false, "bytes": 0 },  // invalid_utf8 optional, only when true
//!                                     // text is at most 64 KiB (EXCERPT_BYTES): stdout's start, stderr's end;
//!                                     // bytes is the size printed, "omitted" (optional) the bytes left out
//!           "elapsed_ms": 15          // 0 under --redact
//!         }
//!       ],
//!       "score": 7.5,                 // sum of case scores
//!       "max_score": 10.0,            // sum of case maxima
//!       "run": "...",                 // the grading run that produced it
//!       "fingerprint": "...",         // suite + commands graded against
//!       "handin": "..."               // SHA-256 of the hand-in's files (class runs only; absent otherwise)
//!     }
//!   ]
//! }
//! ```
//!
//! Scores are JSON numbers as serde writes `f64` (`1.0`, `0.5`). The text fields hold output exactly as captured
//! (no invisible-character marking); every hidden character (control, bidi, zero-width, spaces other than
//! `U+0020`) is written as a JSON `\uXXXX` escape ([`super::json_text`]), so the file reads back exactly and shows
//! nothing hidden to a person who opens it.

use std::io::{self, Write};

use super::RenderOptions;
use crate::harness::model::RunReport;
#[cfg(doc)]
use crate::harness::model::SCHEMA_VERSION;

/// Writes `report` as pretty JSON (schema in the module docs), every elapsed time 0 when `options.redact`.
///
/// # Errors
///
/// The writer's errors (serialization itself cannot fail on the model).
pub fn render(report: &RunReport, options: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    if options.redact {
        write_pretty(&redacted(report), out)
    } else {
        write_pretty(report, out)
    }
}

fn write_pretty(report: &RunReport, out: &mut dyn Write) -> io::Result<()> {
    super::json_text::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}

/// A copy of `report` with every elapsed time set to 0.
fn redacted(report: &RunReport) -> RunReport {
    let mut report = report.clone();
    for submission in &mut report.submissions {
        if let Some(build) = &mut submission.build {
            build.elapsed_ms = 0;
        }
        for case in &mut submission.cases {
            case.elapsed_ms = 0;
        }
    }
    report
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::{BuildResult, SubmissionResult, SCHEMA_VERSION};

    fn report() -> RunReport {
        RunReport {
            schema: SCHEMA_VERSION,
            suite: "s".into(),
            submissions: vec![SubmissionResult {
                id: "a".into(),
                source: "a.zip".into(),
                build: Some(BuildResult { ok: true, command: "make".into(), message: String::new(), elapsed_ms: 900 }),
                cases: vec![],
                score: crate::harness::model::Points::ZERO,
                max_score: crate::harness::model::Points::ZERO,
                run: "r".into(),
                fingerprint: "f".into(),
                handin: String::new(),
                sandbox: Vec::new(),
                not_graded: None,
            }],
        }
    }

    #[test]
    fn round_trips_and_redacts() {
        let mut out = Vec::new();
        render(&report(), &RenderOptions { redact: true, ..RenderOptions::default() }, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("}\n"));
        let back: RunReport = serde_json::from_str(&text).unwrap();
        assert_eq!(back.submissions[0].build.as_ref().map(|b| b.elapsed_ms), Some(0));

        let mut out = Vec::new();
        render(&report(), &RenderOptions::default(), &mut out).unwrap();
        let back: RunReport = serde_json::from_slice(&out).unwrap();
        assert_eq!(back, report());
    }
}
