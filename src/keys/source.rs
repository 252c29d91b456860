//! Reading a key's input (a file, or stdin for `-`) and errors that point at where the input is wrong.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// A mistake in an input file, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What is wrong, in one line.
    pub message: String,
}

impl SourceError {
    /// An error at byte offset `at` of `text`.
    pub fn at(text: &str, at: usize, message: impl Into<String>) -> SourceError {
        let (line, col) = line_col(text, at);
        SourceError { line, col, message: message.into() }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for SourceError {}

/// The 1-based line and column of byte offset `at` in `text` (clamped to the text).
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Reads `path`, or stdin when it is `-`. Returns the name to use in messages and the text.
///
/// # Errors
/// One line naming the file and what went wrong.
pub fn read(path: &Path) -> Result<(String, String), String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(("<stdin>".into(), text));
    }
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| format!("{name}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))?;
    Ok((name, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_line_and_column() {
        let text = "a\nbc d\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 5), (2, 4));
        assert_eq!(SourceError::at(text, 5, "bad").to_string(), "line 2, column 4: bad");
    }
}
