//! Comparing a program's output with what a case expects.
//!
//! A [`ComparePolicy`] says which differences do not count (CRLF, trailing whitespace, the final newline, blank
//! lines at the end) and whether a case gives per-line credit. [`judge`] compares the output against every
//! accepted expected output ([`Candidate`]: the default reading first, then the spec-silent readings a suite
//! accepts) and says which one matched, or where the closest one differs.

mod policy;

pub use policy::ComparePolicy;

use crate::harness::model::FirstDifference;

/// One acceptable expected output; `reading` names the spec-silent reading it stands for (`None`: the default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The expected text.
    pub text: String,
    /// The non-default reading, e.g. `composite=legal-moves`.
    pub reading: Option<String>,
}

/// What [`judge`] decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Whether some candidate matched.
    pub passed: bool,
    /// The matched (or closest) candidate's reading.
    pub reading: Option<String>,
    /// Index of the matched (or closest) candidate.
    pub candidate: usize,
    /// Share of credit earned, 0..=1 (1 when passed; per-line share when the policy gives line credit).
    pub credit: f64,
    /// Lines matched / lines compared, with line credit.
    pub lines_matched: Option<(usize, usize)>,
    /// Where the closest candidate first differs, when nothing matched.
    pub difference: Option<FirstDifference>,
}

/// Compares `actual` with each candidate under `policy`; the first match wins.
pub fn judge(candidates: &[Candidate], actual: &[u8], policy: &ComparePolicy) -> Verdict {
    let actual = policy.normalize(actual);
    let mut best: Option<(usize, usize, usize, Vec<u8>)> = None;
    for (index, candidate) in candidates.iter().enumerate() {
        let expected = policy.normalize(candidate.text.as_bytes());
        if expected == actual {
            let lines = policy.line_credit.then(|| {
                let n = count_lines(&expected);
                (n, n)
            });
            return Verdict {
                passed: true,
                reading: candidate.reading.clone(),
                candidate: index,
                credit: 1.0,
                lines_matched: lines,
                difference: None,
            };
        }
        let (matched, total) = matching_lines(&expected, &actual);
        if best.as_ref().map_or(true, |b| matched > b.0) {
            best = Some((matched, total, index, expected));
        }
    }
    let Some((matched, total, index, expected)) = best else {
        return Verdict {
            passed: false,
            reading: None,
            candidate: 0,
            credit: 0.0,
            lines_matched: None,
            difference: None,
        };
    };
    let credit = if policy.line_credit && total > 0 { matched as f64 / total as f64 } else { 0.0 };
    Verdict {
        passed: false,
        reading: candidates[index].reading.clone(),
        candidate: index,
        credit,
        lines_matched: policy.line_credit.then_some((matched, total)),
        difference: first_difference_bytes(&expected, &actual),
    }
}

fn lines(text: &[u8]) -> Vec<&[u8]> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    text.split(|&b| b == b'\n').collect()
}

fn count_lines(text: &[u8]) -> usize {
    lines(text).len()
}

/// Lines equal at the same position, and the number of lines compared (the longer side, so extra lines cost).
fn matching_lines(expected: &[u8], actual: &[u8]) -> (usize, usize) {
    let (e, a) = (lines(expected), lines(actual));
    let matched = e.iter().zip(&a).filter(|(x, y)| x == y).count();
    (matched, e.len().max(a.len()))
}

fn first_difference_bytes(expected: &[u8], actual: &[u8]) -> Option<FirstDifference> {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (e, a) = (lines(expected), lines(actual));
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            return Some(FirstDifference { line: i + 1, expected: x.map(|l| text(l)), actual: y.map(|l| text(l)) });
        }
    }
    // Same lines: they differ only in the final newline, which this policy counts.
    let ends = |b: &[u8]| if b.ends_with(b"\n") { "(final newline)" } else { "(no final newline)" };
    Some(FirstDifference {
        line: e.len().max(1),
        expected: Some(ends(expected).into()),
        actual: Some(ends(actual).into()),
    })
}

/// Compares line by line, exact to the byte except that a missing or extra final newline is ignored (the official
/// files disagree on it). Returns the first difference, or `None` when they match.
pub fn first_difference(expected: &str, actual: &str) -> Option<FirstDifference> {
    let verdict =
        judge(&[Candidate { text: expected.into(), reading: None }], actual.as_bytes(), &ComparePolicy::course());
    verdict.difference
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn one(text: &str) -> Vec<Candidate> {
        vec![Candidate { text: text.into(), reading: None }]
    }

    #[test]
    fn final_newline_is_the_only_slack_of_the_course_policy() {
        assert_eq!(first_difference("a\nb", "a\nb\n"), None);
        assert_eq!(first_difference("a\nb\n", "a\nb"), None);
        assert_eq!(first_difference("a\nb\n", "a\nb\n\n").map(|d| d.line), Some(3));
        assert_eq!(first_difference("a \n", "a\n").map(|d| d.line), Some(1));
        assert_eq!(first_difference("a\r\n", "a\n").map(|d| d.line), Some(1));
        let d = first_difference("a\nb\nc", "a\nb").unwrap();
        assert_eq!(d, FirstDifference { line: 3, expected: Some("c".into()), actual: None });
    }

    #[test]
    fn exact_counts_the_final_newline() {
        let v = judge(&one("a\n"), b"a", &ComparePolicy::exact());
        assert!(!v.passed);
        assert_eq!(v.difference.unwrap().actual.as_deref(), Some("(no final newline)"));
    }

    #[test]
    fn normalized_forgives_crlf_trailing_space_and_blank_tail() {
        let v = judge(&one("a b\nc\n"), b"a b  \r\nc\r\n\r\n\n", &ComparePolicy::normalized());
        assert!(v.passed);
        assert!(!judge(&one("a b\nc\n"), b"a  b\nc\n", &ComparePolicy::normalized()).passed);
    }

    #[test]
    fn line_credit_counts_matching_positions() {
        let policy = ComparePolicy { line_credit: true, ..ComparePolicy::course() };
        let v = judge(&one("1\n2\n3\n4\n"), b"1\n2\nx\n4\n", &policy);
        assert_eq!((v.passed, v.lines_matched, v.credit), (false, Some((3, 4)), 0.75));
        // Extra lines cost credit too.
        let v = judge(&one("1\n2\n"), b"1\n2\n3\n4\n", &policy);
        assert_eq!(v.credit, 0.5);
    }

    #[test]
    fn a_later_candidate_names_its_reading() {
        let candidates = vec![
            Candidate { text: "Value: -0.6\n".into(), reading: None },
            Candidate { text: "Value: 0.6\n".into(), reading: Some("composite=legal-moves".into()) },
        ];
        let v = judge(&candidates, b"Value: 0.6\n", &ComparePolicy::course());
        assert_eq!((v.passed, v.reading.as_deref()), (true, Some("composite=legal-moves")));
    }
}
