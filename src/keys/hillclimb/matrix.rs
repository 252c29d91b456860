//! A labelled distance matrix, read from CSV or TOML.
//!
//! CSV: a header row of labels (after an optional corner cell), then one row per location, its label first:
//!
//! ```text
//! ,M,W,E,S
//! M,0,1.1,1.4,0.9
//! W,1.1,0,0.6,0.7
//! E,1.4,0.6,0,0.5
//! S,0.9,0.7,0.5,0
//! ```
//!
//! Cells may be separated by commas or, on a line without commas, by spaces; blank lines and lines starting with
//! `#` are skipped. TOML: `labels = ["M", "W", ...]` and `distances = [[0, 1.1, ...], ...]` (numbers, or strings
//! such as `"14/3"`). Distances are exact (`1.1` is 11/10), non-negative, symmetric, with a zero diagonal.

use num_traits::{Signed, Zero};

use crate::keys::number::{self, Q};
use crate::keys::source::SourceError;

/// Distances between labelled locations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// The locations' names, in matrix order.
    pub labels: Vec<String>,
    /// `distances[i][j]`, symmetric.
    pub distances: Vec<Vec<Q>>,
}

impl Matrix {
    /// The number of locations.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there is no location.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The distance between locations `a` and `b`.
    pub fn distance(&self, a: usize, b: usize) -> &Q {
        &self.distances[a][b]
    }
}

/// Which notation a matrix is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Comma- (or space-) separated rows.
    Csv,
    /// `labels` and `distances` keys.
    Toml,
}

impl Notation {
    /// TOML for a `.toml` file, CSV for another name; for stdin (`None`), TOML when a line starts with `labels`.
    pub fn guess(file_name: Option<&str>, text: &str) -> Notation {
        match file_name {
            Some(name) if name.to_ascii_lowercase().ends_with(".toml") => Notation::Toml,
            Some(_) => Notation::Csv,
            None if text.lines().any(|l| l.trim_start().starts_with("labels")) => Notation::Toml,
            None => Notation::Csv,
        }
    }
}

/// A cell's text and where it starts.
type Cell = (usize, String);

/// Parses a matrix in `notation` and checks it.
///
/// # Errors
/// The first mistake, at its line and column.
pub fn parse(text: &str, notation: Notation) -> Result<Matrix, SourceError> {
    let (labels, label_at, rows) = match notation {
        Notation::Csv => csv(text)?,
        Notation::Toml => toml_cells(text)?,
    };
    let err = |at: usize, m: String| SourceError::at(text, at, m);
    for (i, l) in labels.iter().enumerate() {
        if l.is_empty() {
            return Err(err(label_at[i], "a location needs a name".into()));
        }
        if let Some(j) = labels[..i].iter().position(|o| o == l) {
            return Err(err(label_at[i], format!("location '{l}' is named twice (columns {} and {})", j + 1, i + 1)));
        }
    }
    let n = labels.len();
    let mut distances = vec![vec![Q::zero(); n]; n];
    for (i, row) in rows.iter().enumerate() {
        for (j, (at, cell)) in row.iter().enumerate() {
            let at = *at;
            let q = number::parse(cell).map_err(|e| err(at, e))?;
            if q.is_negative() {
                return Err(err(at, format!("distance d({}, {}) = {} is negative", labels[i], labels[j], cell.trim())));
            }
            if i == j && !q.is_zero() {
                return Err(err(at, format!("d({0}, {0}) must be 0, not {1}", labels[i], cell.trim())));
            }
            distances[i][j] = q;
        }
    }
    for i in 0..n {
        for j in 0..i {
            if distances[i][j] != distances[j][i] {
                let (a, b) = (&labels[i], &labels[j]);
                return Err(err(
                    rows[i][j].0,
                    format!(
                        "the distances are not symmetric: d({a}, {b}) = {} but d({b}, {a}) = {}",
                        rows[i][j].1.trim(),
                        rows[j][i].1.trim()
                    ),
                ));
            }
        }
    }
    Ok(Matrix { labels, distances })
}

/// Labels, where each label is, and the rows of cells.
type Cells = (Vec<String>, Vec<usize>, Vec<Vec<Cell>>);

/// Splits one line into cells: on commas if it has any, else on spaces.
fn cells(line: &str, start: usize) -> Vec<Cell> {
    let mut out = Vec::new();
    if line.contains(',') {
        let mut at = 0;
        for part in line.split(',') {
            let lead = part.len() - part.trim_start().len();
            out.push((start + at + lead, part.trim().to_string()));
            at += part.len() + 1;
        }
    } else {
        let mut rest = line;
        let mut at = 0;
        while let Some(skip) = rest.find(|c: char| !c.is_whitespace()) {
            let word_len = rest[skip..].find(char::is_whitespace).unwrap_or(rest.len() - skip);
            out.push((start + at + skip, rest[skip..skip + word_len].to_string()));
            at += skip + word_len;
            rest = &rest[skip + word_len..];
        }
    }
    out
}

fn csv(text: &str) -> Result<Cells, SourceError> {
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split('\n') {
        let content = line.trim_end_matches('\r');
        if !content.trim().is_empty() && !content.trim_start().starts_with('#') {
            lines.push((start, content));
        }
        start += line.len() + 1;
    }
    let Some(&(header_at, header)) = lines.first() else {
        return Err(SourceError::at(text, 0, "the matrix is empty (expected a header row of location names)"));
    };
    let header = cells(header, header_at);
    let n = lines.len() - 1;
    let names: &[Cell] = if header.len() == n + 1 {
        &header[1..]
    } else if header.len() == n {
        &header
    } else {
        return Err(SourceError::at(
            text,
            header_at,
            format!("the header names {} locations but {n} rows follow", header.len().saturating_sub(1)),
        ));
    };
    if n == 0 {
        return Err(SourceError::at(text, header_at, "no rows of distances follow the header"));
    }
    let labels: Vec<String> = names.iter().map(|c| c.1.clone()).collect();
    let label_at = names.iter().map(|c| c.0).collect();
    let mut rows = Vec::new();
    for (i, &(at, line)) in lines[1..].iter().enumerate() {
        let row = cells(line, at);
        if row.len() != n + 1 {
            return Err(SourceError::at(
                text,
                at,
                format!("this row has {} cells; expected its location's name and {n} distances", row.len()),
            ));
        }
        if row[0].1 != labels[i] {
            return Err(SourceError::at(
                text,
                row[0].0,
                format!(
                    "row {} is named '{}' but column {} is '{}' (rows go in the header's order)",
                    i + 1,
                    row[0].1,
                    i + 1,
                    labels[i]
                ),
            ));
        }
        rows.push(row[1..].to_vec());
    }
    Ok((labels, label_at, rows))
}

#[derive(serde::Deserialize)]
struct TomlMatrix {
    labels: toml::Spanned<Vec<toml::Spanned<String>>>,
    distances: toml::Spanned<Vec<toml::Spanned<Vec<toml::Spanned<toml::Value>>>>>,
}

/// TOML cells are rewritten as text (a float prints as the shortest decimal that reads back as it, which is the
/// one written), so both notations share the checks.
fn toml_cells(text: &str) -> Result<Cells, SourceError> {
    let m: TomlMatrix = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        SourceError::at(text, at, e.message().trim().replace('\n', " "))
    })?;
    let labels: Vec<String> = m.labels.get_ref().iter().map(|l| l.get_ref().clone()).collect();
    let label_at: Vec<usize> = m.labels.get_ref().iter().map(|l| l.span().start).collect();
    let n = labels.len();
    if n == 0 {
        return Err(SourceError::at(text, m.labels.span().start, "labels is empty"));
    }
    let rows = m.distances.get_ref();
    if rows.len() != n {
        return Err(SourceError::at(
            text,
            m.distances.span().start,
            format!("distances has {} rows but there are {n} labels", rows.len()),
        ));
    }
    let mut out = Vec::new();
    for row in rows {
        if row.get_ref().len() != n {
            return Err(SourceError::at(
                text,
                row.span().start,
                format!("this row has {} distances but there are {n} labels", row.get_ref().len()),
            ));
        }
        let mut cells = Vec::new();
        for cell in row.get_ref() {
            let at = cell.span().start;
            let written = match cell.get_ref() {
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) if f.is_finite() => f.to_string(),
                toml::Value::String(s) => s.clone(),
                other => {
                    return Err(SourceError::at(text, at, format!("'{other}' is not a distance")));
                }
            };
            cells.push((at, written));
        }
        out.push(cells);
    }
    Ok((labels, label_at, out))
}
