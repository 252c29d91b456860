//! Boards as the course's Python literals: parsing a tuple of tuples or list of lists of 0/1/2 (what the game
//! manager sends and conformance tests write), and writing the tuple-of-tuples form the referee sends.

use super::grid::Grid;
use super::SizeError;

/// Why a board literal was rejected: what was wrong and where (a 1-based character position, and the row and
/// column when known).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board literal, {place}: {what}")]
pub struct LiteralError {
    /// Where: `character N` or `row R, column C` (0-based row and column as the course indexes).
    pub place: String,
    /// What was expected or found.
    pub what: String,
}

/// A cursor over the literal's characters.
struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn skip_space(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.chars.get(self.at).copied()
    }

    fn error(&self, what: impl Into<String>) -> LiteralError {
        LiteralError { place: format!("character {}", self.at + 1), what: what.into() }
    }

    fn found(&mut self) -> String {
        match self.peek() {
            Some(c) => format!("found '{c}'"),
            None => "found the end of the text".to_string(),
        }
    }

    /// An opening bracket; returns the matching closer.
    fn open(&mut self, of: &str) -> Result<char, LiteralError> {
        let closer = match self.peek() {
            Some('(') => ')',
            Some('[') => ']',
            _ => {
                let found = self.found();
                return Err(self.error(format!("expected '(' or '[' to open {of}, {found}")));
            }
        };
        self.at += 1;
        Ok(closer)
    }

    /// A sequence of items separated by commas (a trailing comma allowed) up to `closer`, each read by `item`.
    fn items<T>(
        &mut self,
        closer: char,
        of: &str,
        mut item: impl FnMut(&mut Self, usize) -> Result<T, LiteralError>,
    ) -> Result<Vec<T>, LiteralError> {
        let mut out = Vec::new();
        loop {
            if self.peek() == Some(closer) {
                self.at += 1;
                return Ok(out);
            }
            out.push(item(self, out.len())?);
            match self.peek() {
                Some(',') => self.at += 1,
                Some(c) if c == closer => {}
                _ => {
                    let found = self.found();
                    return Err(self.error(format!("expected ',' or '{closer}' in {of}, {found}")));
                }
            }
        }
    }

    fn cell(&mut self, row: usize, col: usize) -> Result<u8, LiteralError> {
        let start = self.at;
        self.skip_space();
        let from = self.at;
        while self.chars.get(self.at).is_some_and(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.') {
            self.at += 1;
        }
        let word: String = self.chars[from..self.at].iter().collect();
        match word.as_str() {
            "0" => Ok(0),
            "1" => Ok(1),
            "2" => Ok(2),
            _ => {
                self.at = start;
                let shown = if word.is_empty() { self.found() } else { format!("found '{word}'") };
                Err(LiteralError {
                    place: format!("row {row}, column {col} (character {})", from + 1),
                    what: format!("expected a cell 0, 1 or 2, {shown}"),
                })
            }
        }
    }
}

/// Parses a board written as a Python tuple of tuples or list of lists of 0/1/2, `board[row][col]`, e.g.
/// `((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))`. The board must be square, of an even size 4 to 16.
///
/// # Errors
/// [`LiteralError`] naming what was wrong and where.
pub fn parse_board(text: &str) -> Result<Grid, LiteralError> {
    let mut r = Reader { chars: text.chars().collect(), at: 0 };
    let closer = r.open("the board")?;
    let rows = r.items(closer, "the board", |r, row| {
        let closer = r.open(&format!("row {row}"))?;
        r.items(closer, &format!("row {row}"), |r, col| r.cell(row, col))
    })?;
    if let Some(c) = r.peek() {
        return Err(r.error(format!("unexpected '{c}' after the board")));
    }
    let n = rows.len();
    let mut grid = Grid::empty(n).map_err(|SizeError { size, limit }| LiteralError {
        place: "whole board".to_string(),
        what: format!("{size} rows, but the size must be {limit}"),
    })?;
    for (row, cells) in rows.iter().enumerate() {
        if cells.len() != n {
            return Err(LiteralError {
                place: format!("row {row}"),
                what: format!("{} cells, but the board has {n} rows (it must be square)", cells.len()),
            });
        }
        for (col, &cell) in cells.iter().enumerate() {
            grid.set(row, col, cell);
        }
    }
    Ok(grid)
}

/// Writes `grid` as the referee sends it: a Python tuple of tuples, `((0, 0, 0, 0), (0, 2, 1, 0), ...)`.
pub fn format_board(grid: &Grid) -> String {
    let n = grid.size();
    let rows: Vec<String> = (0..n)
        .map(|row| {
            let cells: Vec<String> = (0..n).map(|col| grid.get(row, col).to_string()).collect();
            format!("({})", cells.join(", "))
        })
        .collect();
    format!("({})", rows.join(", "))
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn tuples_and_lists_parse_and_tuples_are_written_back() {
        let text = "((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))";
        let grid = parse_board(text).unwrap();
        assert_eq!(grid, Grid::start(4).unwrap());
        assert_eq!(format_board(&grid), text);
        let lists = parse_board(" [[0,0,0,0],\n [0,2,1,0], [0,1,2,0], [0,0,0,0,],] ").unwrap();
        assert_eq!(lists, grid);
        let eight = Grid::start(8).unwrap();
        assert_eq!(parse_board(&format_board(&eight)).unwrap(), eight);
    }

    #[test]
    fn errors_say_what_and_where_on_one_line() {
        let cases = [
            ("", "board literal, character 1: expected '(' or '[' to open the board, found the end of the text"),
            (
                "((0, 0, 0, 0), (0, 3, 1, 0))",
                "board literal, row 1, column 1 (character 20): expected a cell 0, 1 or 2, found '3'",
            ),
            ("((0, 0, 0, 0] ", "board literal, character 13: expected ',' or ')' in row 0, found ']'"),
            (
                "((0,0,0,0),(0,0,0,0),(0,0,0,0),(0,0,0,0)) x",
                "board literal, character 43: unexpected 'x' after the board",
            ),
            (
                "((0,0,0),(0,0,0),(0,0,0))",
                "board literal, whole board: 3 rows, but the size must be even, from 4 to 16",
            ),
            (
                "((0,0,0,0),(0,0,0),(0,0,0,0),(0,0,0,0))",
                "board literal, row 1: 3 cells, but the board has 4 rows (it must be square)",
            ),
        ];
        for (text, message) in cases {
            let error = parse_board(text).unwrap_err().to_string();
            assert_eq!(error, message, "{text}");
            assert!(!error.contains('\n'));
        }
    }
}
