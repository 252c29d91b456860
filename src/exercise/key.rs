//! The TA's key for a class: every student's variants with their right answers, what each known wrong method
//! gives (to recognise it when grading a hand-written answer), and the problem as the key tools read it, as
//! Markdown (`key.md`) and as one CSV row per part (`key.csv`).

use std::fmt::Write as _;

use super::Variant;

/// The heading of `key.md`.
pub fn header(students: usize, kinds: &[&str], seed: u64) -> String {
    format!(
        "# Key: {students} students, problems {}, seed {seed}, generator {}\n\nKeep this file and the seed from \
         students: with the seed, `referee exercise make` makes every key again. Each student's problems are a pure \
         function of the seed, the id and the kind, so `referee exercise make --kind {} --seed {seed} --ids ID \
         --out DIR` makes any one sheet again.\n",
        kinds.join(", "),
        kinds.join(","),
        super::GENERATOR_VERSION
    )
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// One student's section of `key.md`.
pub fn student(id: &str, variants: &[Variant]) -> String {
    let mut out = format!("\n## {}\n", cell(id));
    for v in variants {
        let _ = write!(
            out,
            "\n### {} `{}`\n\n| part | points | answer | wrong methods give |\n|---|---:|---|---|\n",
            v.kind.name(),
            v.code
        );
        for part in &v.parts {
            let wrong: Vec<String> = part.wrong.iter().map(|(m, a)| format!("{}: {}", m.name(), a.show())).collect();
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                part.spec.key,
                part.spec.points,
                cell(&part.expected.show()),
                cell(&wrong.join("; "))
            );
        }
        let fence = "````";
        let _ = write!(out, "\n{fence}text\n{}{fence}\n", v.input);
    }
    out
}

/// The header row of `key.csv`.
pub const CSV_HEADER: &str = "id,kind,variant,part,points,answer\n";

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// One student's rows of `key.csv`.
pub fn csv_rows(id: &str, variants: &[Variant]) -> String {
    let mut out = String::new();
    for v in variants {
        for part in &v.parts {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{}",
                csv_field(id),
                v.kind.name(),
                v.code,
                part.spec.key,
                part.spec.points,
                csv_field(&part.expected.show())
            );
        }
    }
    out
}
