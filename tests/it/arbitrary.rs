//! Proptest strategies for whole reports: names and output text that reach every character a hand-in can put in
//! a folder name or print (commas, quotes, line breaks, controls XML forbids, ANSI escapes), fractional points
//! (per-line credit, sums that leave float noise), every status, hidden and visible cases, every `show`.

use proptest::prelude::*;
use referee::harness::model::{
    Captured, CaseResult, FirstDifference, Points, RunReport, Show, Status, SubmissionResult, Visibility,
    SCHEMA_VERSION,
};

/// A character: often one that breaks hand-written codecs, otherwise any at all.
fn awkward_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(vec![
            ',', '"', '\'', '\n', '\r', '\t', '=', '+', '-', '@', ' ', '<', '>', '&', ';', '\\', 'é', '✓',
            '\u{0}', '\u{8}', '\u{1b}', '\u{7f}', '\u{85}', '\u{feff}', '\u{fffe}', '\u{ffff}', '\u{1f600}',
        ]),
        2 => prop::char::range('a', 'z'),
        1 => any::<char>(),
    ]
}

/// Any text up to `max` characters.
pub fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(awkward_char(), 0..=max).prop_map(|chars| chars.into_iter().collect())
}

/// A number of points: whole, a decimal a TA types (0.849, 2.5), a share of lines matched (2/3), a share of a
/// rubric line (50/7), any number typed.
pub fn points() -> impl Strategy<Value = Points> {
    prop_oneof![
        (0i64..=20).prop_map(Points::whole),
        (0i64..=20_000).prop_map(|k| Points::fraction(k, 1000)),
        (0i64..=30, 1i64..=30).prop_map(|(a, b)| Points::fraction(a.min(b), b)),
        (0i64..=100, 1i64..=13).prop_map(|(a, b)| Points::fraction(a, b)),
        (0.0f64..100.0).prop_map(Points::from_f64),
    ]
}

/// One case worth some points, scored at most that many.
fn case(name: String) -> impl Strategy<Value = CaseResult> {
    (
        (points(), (0u64..=12, 1u64..=12), prop::sample::select(Status::ALL.to_vec())),
        prop::sample::select(vec![Visibility::Visible, Visibility::Hidden, Visibility::AfterDueDate]),
        prop::sample::select(vec![Show::Full, Show::ActualOnly, Show::VerdictOnly]),
        (text(12), text(40), text(40)),
    )
        .prop_map(move |((max, (part, of), status), visibility, show, (detail, stdout, stderr))| {
            // A partial score is short of the maximum, as the comparer makes it.
            let score = if status.is_pass() { max } else { max.share(part.min(of - 1), of) };
            CaseResult {
                args: vec!["7".into(), detail.clone()],
                score,
                visibility,
                show,
                detail,
                difference: (status == Status::Failed).then(|| FirstDifference {
                    line: 1,
                    expected: Some("Move: 3".into()),
                    actual: stdout.lines().next().map(String::from),
                }),
                expected: "Move: 3\n".into(),
                stdout: Captured { bytes: stdout.len(), text: stdout, ..Captured::default() },
                stderr: Captured { bytes: stderr.len(), text: stderr, ..Captured::default() },
                ..CaseResult::new(name.clone(), status, max)
            }
        })
}

/// One submission of 1..=6 cases with distinct names (now and then one named like the gradebook's `handin`
/// column), from a hand-in with any name or none; its score and maximum are the sums of its cases', as the
/// comparer makes them (float noise included).
pub fn submission() -> impl Strategy<Value = SubmissionResult> {
    let name = prop_oneof![8 => text(10), 1 => Just("handin".to_string()), 1 => Just("outcome".to_string())];
    let source = prop_oneof![1 => Just(String::new()), 3 => text(16).prop_map(|n| format!("submissions/{n}"))];
    // Issue 33, item 2: some hand-ins are not graded (with a reason that may hold any character).
    let not_graded = prop_oneof![4 => Just(None), 1 => text(20).prop_map(Some)];
    (text(16), source, prop::collection::btree_set(name, 1..=6), not_graded)
        .prop_flat_map(|(id, source, names, not_graded)| {
            let cases: Vec<_> = names.into_iter().map(case).collect();
            (Just(id), Just(source), cases, Just(not_graded))
        })
        .prop_map(|(id, source, cases, not_graded)| SubmissionResult {
            id,
            source,
            build: None,
            score: cases.iter().map(|c| c.score).sum(),
            max_score: cases.iter().map(|c| c.max_score).sum(),
            cases,
            run: "r".into(),
            fingerprint: "f".into(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded,
        })
}

/// A report of 1..=4 submissions.
pub fn report() -> impl Strategy<Value = RunReport> {
    (text(12), prop::collection::vec(submission(), 1..=4)).prop_map(|(suite, submissions)| RunReport {
        schema: SCHEMA_VERSION,
        suite,
        submissions,
    })
}
