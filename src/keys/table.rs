//! The tables answer keys print: aligned text for the terminal, or a markdown table to paste into a key.

/// How a key is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns for a terminal.
    #[default]
    Text,
    /// Markdown (GitHub tables), for pasting into a key.
    Md,
}

impl Format {
    /// A section title: as is in text, a `###` heading in markdown; a blank line follows.
    pub fn section(self, title: &str) -> String {
        match self {
            Format::Text => format!("{title}\n\n"),
            Format::Md => format!("### {title}\n\n"),
        }
    }

    /// A label over a table or list: as is in text, bold (and a blank line after) in markdown.
    pub fn label(self, text: &str) -> String {
        match self {
            Format::Text => format!("{text}\n"),
            Format::Md => format!("**{text}**\n\n"),
        }
    }

    /// One line of prose: as is in text, a list item in markdown (so lines do not run together); a `\n` at the end
    /// of `text` leaves a blank line after it.
    pub fn item(self, text: &str) -> String {
        match self {
            Format::Text => format!("{text}\n"),
            Format::Md => format!("- {text}\n"),
        }
    }
}

/// A table: a header row and rows of cells, numbers right-aligned in text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
    right: Vec<bool>,
}

impl Table {
    /// A table with these column headers, all left-aligned.
    pub fn new<S: Into<String>>(headers: impl IntoIterator<Item = S>) -> Table {
        let headers: Vec<String> = headers.into_iter().map(Into::into).collect();
        let right = vec![false; headers.len()];
        Table { headers, rows: Vec::new(), right }
    }

    /// Right-aligns column `col` (for numbers).
    pub fn right(mut self, col: usize) -> Table {
        if let Some(r) = self.right.get_mut(col) {
            *r = true;
        }
        self
    }

    /// Adds a row; missing cells are empty, extra cells are dropped.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut row: Vec<String> = cells.into_iter().map(Into::into).collect();
        row.resize(self.headers.len(), String::new());
        self.rows.push(row);
    }

    /// The number of rows (not counting the header).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table in `format`, ending with a newline.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Md => self.markdown(),
        }
    }

    fn text(&self) -> String {
        let widths: Vec<usize> = (0..self.headers.len())
            .map(|c| {
                std::iter::once(&self.headers[c])
                    .chain(self.rows.iter().map(|r| &r[c]))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let parts: Vec<String> =
                cells
                    .iter()
                    .enumerate()
                    .map(|(c, s)| {
                        if self.right[c] {
                            format!("{s:>w$}", w = widths[c])
                        } else {
                            format!("{s:<w$}", w = widths[c])
                        }
                    })
                    .collect();
            parts.join("  ").trim_end().to_string() + "\n"
        };
        let mut out = line(&self.headers);
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push_str(&(rule.join("  ") + "\n"));
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }

    fn markdown(&self) -> String {
        let esc = |s: &String| s.replace('|', "\\|");
        let mut out = format!("| {} |\n", self.headers.iter().map(esc).collect::<Vec<_>>().join(" | "));
        let rule: Vec<&str> = self.right.iter().map(|&r| if r { "---:" } else { "---" }).collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for r in &self.rows {
            out.push_str(&format!("| {} |\n", r.iter().map(esc).collect::<Vec<_>>().join(" | ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_both_formats() {
        let mut t = Table::new(["step", "node"]).right(0);
        t.row(["1", "A"]);
        t.row(["10", "B|C"]);
        assert_eq!(t.render(Format::Text), "step  node\n----  ----\n   1  A\n  10  B|C\n");
        assert_eq!(t.render(Format::Md), "| step | node |\n|---:|---|\n| 1 | A |\n| 10 | B\\|C |\n");
    }
}
