//! A student's sheet in Markdown: a section per problem with its variant code, statement, data (tables, lists,
//! the tree as an outline), conventions, and the questions, each with the answer file key it goes under. The
//! figures are only in the HTML sheet.

use std::fmt::Write as _;

use super::{preamble, Block, Student};

/// Plain text made inert in Markdown.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\`*_[]<>|#&~".contains(c) {
            out.push('\\');
        }
        out.push(if c == '\n' || c == '\r' { ' ' } else { c });
    }
    out
}

fn block(out: &mut String, block: &Block) {
    match block {
        Block::Table { caption, headers, rows } => {
            let _ = writeln!(out, "{}\n", escape(caption));
            let cells = |row: &[String]| row.iter().map(|c| escape(c)).collect::<Vec<_>>().join(" | ");
            let _ = writeln!(out, "| {} |", cells(headers));
            let _ = writeln!(out, "|{}|", vec!["---"; headers.len()].join("|"));
            for row in rows {
                let _ = writeln!(out, "| {} |", cells(row));
            }
        }
        Block::List { caption, items } => {
            let _ = writeln!(out, "{}\n", escape(caption));
            for item in items {
                let _ = writeln!(out, "- `{item}`");
            }
        }
        Block::Outline { caption, lines } => {
            let _ = writeln!(out, "{}\n", escape(caption));
            for (depth, text) in lines {
                let _ = writeln!(out, "{}- {}", "  ".repeat(*depth), escape(text));
            }
        }
    }
    out.push('\n');
}

/// The sheet of `student`.
pub fn render(student: &Student<'_>) -> String {
    let mut out = format!("# Written problems: {}\n\n{}\n", escape(student.id), escape(&preamble(student)));
    for (p, variant) in student.variants.iter().enumerate() {
        let sheet = &variant.sheet;
        let _ = writeln!(out, "\n## Problem {}: {}\n", p + 1, variant.kind.title());
        let _ = writeln!(
            out,
            "Variant `{}`; answers go under `[{}]` in the answer file.\n",
            variant.code,
            variant.kind.name()
        );
        for paragraph in &sheet.intro {
            let _ = writeln!(out, "{}\n", escape(paragraph));
        }
        if sheet.figure.is_some() {
            out.push_str("(The HTML sheet draws the figure.)\n\n");
        }
        for b in &sheet.blocks {
            block(&mut out, b);
        }
        out.push_str("**Conventions**\n\n");
        for c in &sheet.conventions {
            let _ = writeln!(out, "- {}", escape(c));
        }
        out.push_str("\n**Questions**\n\n");
        for (i, part) in variant.parts.iter().enumerate() {
            let letter = char::from(b'a' + (i % 26) as u8);
            let _ = writeln!(
                out,
                "- **({letter})** {} *Answer as `{} = ...`: {}.*",
                escape(&part.prompt),
                part.spec.key,
                escape(part.spec.form.example())
            );
        }
    }
    out
}
