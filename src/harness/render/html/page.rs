//! The page around every HTML report: doctype, inline style sheet, title and table of contents, plus the small
//! pieces every section uses (a status badge, a table head). Nothing is loaded from the network: no script, no
//! font, no image; the style sheet ([`STYLE`]) is inlined, so the file reads the same offline and in print.

use std::io::{self, Write};

use super::escape::text;
use crate::harness::model::Status;

/// The style sheet, inlined in every page: light theme, a phone-width layout below 40rem, and print rules.
pub const STYLE: &str = include_str!("style.css");

/// Writes everything up to and including the lead paragraph and the table of contents (`sections`: anchor id
/// and heading).
///
/// # Errors
///
/// Only the writer's errors.
pub fn begin(out: &mut dyn Write, title: &str, lead: &str, sections: &[(&str, &str)]) -> io::Result<()> {
    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(out, "<html lang=\"en\">")?;
    writeln!(out, "<head>")?;
    writeln!(out, "<meta charset=\"utf-8\">")?;
    writeln!(out, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")?;
    writeln!(out, "<title>{}</title>", text(title))?;
    writeln!(out, "<style>\n{STYLE}</style>")?;
    writeln!(out, "</head>")?;
    writeln!(out, "<body>")?;
    writeln!(out, "<header>")?;
    writeln!(out, "<h1>{}</h1>", text(title))?;
    writeln!(out, "<p class=\"lead\">{}</p>", text(lead))?;
    write!(out, "<nav class=\"toc\" aria-label=\"Sections\">")?;
    for (id, heading) in sections {
        write!(out, "<a href=\"#{id}\">{}</a>", text(heading))?;
    }
    writeln!(out, "</nav>")?;
    writeln!(out, "</header>")?;
    writeln!(out, "<main>")
}

/// Closes the page.
///
/// # Errors
///
/// Only the writer's errors.
pub fn end(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "</main>")?;
    writeln!(out, "</body>")?;
    writeln!(out, "</html>")
}

/// A status as a badge: its label in words (never colour alone) and a colour class `s-<label>`.
pub fn status_badge(status: Status, count: Option<usize>) -> String {
    let label = status.label();
    match count {
        Some(n) => badge(&class_of(label), &format!("{n} {label}")),
        None => badge(&class_of(label), label),
    }
}

/// A badge with the colour class `class` (already a safe CSS class name) and the words `label` (escaped here).
pub fn badge(class: &str, label: &str) -> String {
    format!("<span class=\"badge {class}\">{}</span>", text(label))
}

/// The CSS class of a status label: `s-` and the label with spaces as dashes.
pub fn class_of(label: &str) -> String {
    format!("s-{}", label.replace(' ', "-"))
}

/// A `<thead>` row of column headers (`scope="col"`); a header starting with `#` is right-aligned (numbers) and
/// shown without the `#`; one starting with `~` is a number the phone layout leaves out (its cells: `num opt`), one
/// starting with `?` such a text column (its cells: `opt`).
pub fn head(columns: &[&str]) -> String {
    let mut s = String::from("<thead><tr>");
    for c in columns {
        if let Some(n) = c.strip_prefix('#') {
            s.push_str(&format!("<th scope=\"col\" class=\"num\">{}</th>", text(n)));
        } else if let Some(n) = c.strip_prefix('~') {
            s.push_str(&format!("<th scope=\"col\" class=\"num opt\">{}</th>", text(n)));
        } else if let Some(n) = c.strip_prefix('?') {
            s.push_str(&format!("<th scope=\"col\" class=\"opt\">{}</th>", text(n)));
        } else {
            s.push_str(&format!("<th scope=\"col\">{}</th>", text(c)));
        }
    }
    s.push_str("</tr></thead>");
    s
}
