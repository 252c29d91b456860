//! Comparing a program's output with the expected text.

/// The first line where two outputs differ (1-based), with both sides (`None`: that side has no such line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineDiff {
    /// 1-based line number.
    pub line: usize,
    /// The expected line.
    pub expected: Option<String>,
    /// The line printed.
    pub actual: Option<String>,
}

/// Compares line by line, exact to the byte except that a missing or extra final newline is ignored (the official
/// files disagree on it). Returns the first difference, or `None` when they match.
pub fn first_difference(expected: &str, actual: &str) -> Option<LineDiff> {
    let strip = |s: &str| s.strip_suffix('\n').unwrap_or(s).to_string();
    let (expected, actual) = (strip(expected), strip(actual));
    if expected == actual {
        return None;
    }
    let mut e = expected.split('\n');
    let mut a = actual.split('\n');
    let mut line = 1;
    loop {
        match (e.next(), a.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (x, y) => return Some(LineDiff { line, expected: x.map(String::from), actual: y.map(String::from) }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_newline_is_the_only_slack() {
        assert_eq!(first_difference("a\nb", "a\nb\n"), None);
        assert_eq!(first_difference("a\nb\n", "a\nb"), None);
        assert_eq!(first_difference("a\nb\n", "a\nb\n\n").map(|d| d.line), Some(3));
        assert_eq!(first_difference("a \n", "a\n").map(|d| d.line), Some(1));
        assert_eq!(first_difference("a\r\n", "a\n").map(|d| d.line), Some(1));
        let d = first_difference("a\nb\nc", "a\nb").unwrap();
        assert_eq!(d, LineDiff { line: 3, expected: Some("c".into()), actual: None });
    }
}
