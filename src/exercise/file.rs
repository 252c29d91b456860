//! The answer file: the template a student fills in, and how it is read.
//!
//! ```text
//! # comments start with '#'
//! [alphabeta]                 # one section per problem, named by its kind
//! variant = ab1-1f3a9c02      # the variant the sheet was made for (from the template; leave it)
//! value = 15                  # KEY = ANSWER, or KEY: ANSWER
//! pruned = p, q, r,           # a long answer goes on on the next lines
//!   x
//! ```
//!
//! Reading never fails: what cannot be understood is recorded (an unknown section or key, a key answered twice, a
//! line outside any section) so grading and `exercise check` can name it with its line. A line continues the
//! answer above it when it is indented, when that answer is still empty or ends with `,` or `;`, or when it is
//! not `WORD = ...`; a `WORD = ...` line whose word is not one of the section's keys is an unknown key.

use std::fmt::Write as _;

use super::{Kind, Variant, GENERATOR_VERSION};

/// One `KEY = ANSWER`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The part's key, lowercase.
    pub key: String,
    /// The answer as written (continuation lines joined with newlines).
    pub value: String,
    /// Where: the file's name and the 1-based line of the key.
    pub at: String,
}

/// Everything the file says about one kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// The `variant = ...` line and where it is.
    pub variant: Option<(String, String)>,
    /// The answers, in file order (a key may appear twice: grading names both places).
    pub entries: Vec<Entry>,
    /// Keys this kind does not ask, with where they are.
    pub unknown: Vec<(String, String)>,
}

impl Section {
    /// Every answer given for `key`.
    pub fn answers(&self, key: &str) -> Vec<&Entry> {
        self.entries.iter().filter(|e| e.key == key).collect()
    }
}

/// A read answer file (or several merged).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerFile {
    /// The sections, by kind.
    pub sections: Vec<(Kind, Section)>,
    /// What could not be placed: unknown sections, answers outside any section (one line each).
    pub problems: Vec<String>,
}

impl AnswerFile {
    /// The section for `kind`, if the file has one.
    pub fn section(&self, kind: Kind) -> Option<&Section> {
        self.sections.iter().find(|(k, _)| *k == kind).map(|(_, s)| s)
    }

    fn section_mut(&mut self, kind: Kind) -> &mut Section {
        if let Some(i) = self.sections.iter().position(|(k, _)| *k == kind) {
            return &mut self.sections[i].1;
        }
        self.sections.push((kind, Section::default()));
        let last = self.sections.len() - 1;
        &mut self.sections[last].1
    }

    /// Adds everything `other` holds (answers for the same key in both are kept, and named as given twice).
    pub fn merge(&mut self, other: AnswerFile) {
        for (kind, section) in other.sections {
            let mine = self.section_mut(kind);
            if mine.variant.is_none() {
                mine.variant = section.variant;
            }
            mine.entries.extend(section.entries);
            mine.unknown.extend(section.unknown);
        }
        self.problems.extend(other.problems);
    }

    /// Whether the file has at least one section of a known kind.
    pub fn has_sections(&self) -> bool {
        !self.sections.is_empty()
    }
}

/// Whether a line is a section header `[kind]` of a known kind.
pub fn is_header(line: &str) -> bool {
    header(line).is_some_and(|name| Kind::from_name(name).is_some())
}

fn header(line: &str) -> Option<&str> {
    line.trim().strip_prefix('[')?.strip_suffix(']').map(str::trim)
}

/// Splits `KEY = VALUE` or `KEY: VALUE` when KEY is one word.
fn key_value(line: &str) -> Option<(String, String)> {
    let at = line.find(['=', ':'])?;
    let key = line[..at].trim();
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    Some((key.to_ascii_lowercase(), line[at + 1..].trim().to_string()))
}

/// The text without a trailing ` # comment`.
fn strip_comment(line: &str) -> &str {
    match line.find(" #").or_else(|| line.find("\t#")) {
        Some(i) => &line[..i],
        None => line,
    }
}

/// The text of an answer file's bytes, as every reader of answer files (`exercise grade`, `exercise check`,
/// hand-in discovery) takes it: a UTF-8 byte order mark dropped, UTF-16 with a byte order mark (Notepad's
/// "Unicode") decoded, other bytes that are not UTF-8 replaced, and Windows (`\r\n`) and old Mac (`\r`) line ends
/// made `\n`.
pub fn decode(bytes: &[u8]) -> String {
    let utf16 = |big: bool| {
        let units = bytes[2..].chunks(2).map(|c| {
            let pair = [c[0], c.get(1).copied().unwrap_or(0)];
            if big {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            }
        });
        char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect::<String>()
    };
    let text = match bytes {
        [0xFF, 0xFE, ..] => utf16(false),
        [0xFE, 0xFF, ..] => utf16(true),
        _ => String::from_utf8_lossy(bytes).into_owned(),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Reads `text`, naming places as `name line N` (a leading byte order mark is no part of the first line).
pub fn parse(name: &str, text: &str) -> AnswerFile {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut file = AnswerFile::default();
    let mut current: Option<Kind> = None;
    // Under a section of an unknown name, whose header is already reported.
    let mut ignoring = false;
    let mut last: Option<(Kind, usize)> = None;
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{name} line {}", i + 1);
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let line = strip_comment(raw);
        if let Some(name) = header(line) {
            last = None;
            current = Kind::from_name(name);
            ignoring = current.is_none();
            if current.is_none() {
                file.problems.push(format!(
                    "{at}: unknown section [{name}] (the sections are {})",
                    Kind::ALL.map(|k| format!("[{}]", k.name())).join(", ")
                ));
            }
            continue;
        }
        let Some(kind) = current else {
            if !line.trim().is_empty() && !ignoring {
                file.problems.push(format!("{at}: '{}' is outside any section such as [alphabeta]", line.trim()));
            }
            continue;
        };
        let parts = kind.parts();
        let starts_entry = key_value(line).filter(|(k, _)| k == "variant" || parts.iter().any(|p| p.key == k));
        match starts_entry {
            Some((key, value)) if key == "variant" => {
                file.section_mut(kind).variant = Some((value, at));
                last = None;
            }
            Some((key, value)) => {
                let section = file.section_mut(kind);
                section.entries.push(Entry { key, value, at });
                last = Some((kind, section.entries.len() - 1));
            }
            None => {
                let continues = last.filter(|&(k, e)| {
                    let previous = file.section(k).map_or("", |s| s.entries[e].value.as_str());
                    k == kind
                        && (raw.starts_with([' ', '\t'])
                            || previous.is_empty()
                            || previous.ends_with([',', ';'])
                            || key_value(line).is_none())
                });
                if let Some((k, e)) = continues {
                    let entry = &mut file.section_mut(k).entries[e];
                    if !entry.value.is_empty() {
                        entry.value.push('\n');
                    }
                    entry.value.push_str(line.trim());
                } else if let Some((key, _)) = key_value(line) {
                    file.section_mut(kind).unknown.push((key, at));
                    last = None;
                } else {
                    file.problems.push(format!("{at}: '{}' is not KEY = ANSWER", line.trim()));
                }
            }
        }
    }
    file
}

/// Wraps `text` into comment lines of at most `width` characters, each starting with `prefix`.
fn comment(out: &mut String, prefix: &str, text: &str, width: usize) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && prefix.len() + line.len() + 1 + word.len() > width {
            let _ = writeln!(out, "{prefix}{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{prefix}{line}");
    }
}

/// The answer template for `id` and its `variants`: a section per problem, each part's question and form as
/// comments above an empty `KEY =` line.
pub fn template(id: &str, variants: &[Variant]) -> String {
    answered(id, variants, |_, _| None)
}

/// The template with `answer(variant, part)` written after the parts it returns text for (synthetic classes in
/// benchmarks and tests are made with it).
pub fn answered(
    id: &str,
    variants: &[Variant],
    answer: impl Fn(&Variant, &super::part::Part) -> Option<String>,
) -> String {
    let kinds: Vec<&str> = variants.iter().map(|v| v.kind.name()).collect();
    let mut out = format!(
        "# Answers of {id} (referee exercise, generator {GENERATOR_VERSION}).\n#\n# Write each answer after its \
         '=' (a long one may go on on the next lines, indented).\n# Numbers: integers, fractions such as 14/3, or \
         finite decimals such as 4.5; -inf and +inf where asked.\n# Lines starting with # are comments. Keep the \
         section names and the variant lines as they are.\n# Check the form before you hand this file in (it never \
         says whether an answer is right):\n#   referee exercise check --kind {} --answers answers.txt\n",
        kinds.join(",")
    );
    for (p, variant) in variants.iter().enumerate() {
        let _ = write!(out, "\n[{}]\nvariant = {}\n", variant.kind.name(), variant.code);
        for (i, part) in variant.parts.iter().enumerate() {
            out.push('\n');
            let letter = char::from(b'a' + (i % 26) as u8);
            comment(&mut out, "# ", &format!("{}({letter}) {}", p + 1, part.prompt), 110);
            comment(&mut out, "#   ", &format!("Write {}.", part.spec.form.example()), 110);
            match answer(variant, part) {
                Some(text) => {
                    let _ = writeln!(out, "{} = {text}", part.spec.key);
                }
                None => {
                    let _ = writeln!(out, "{} =", part.spec.key);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn sections_keys_continuations_and_problems() {
        let text = "# top\nstray = 1\n[AlphaBeta]\nvariant = ab1-x\nvalue = 3  # sure\npruned = a, b,\n  c\nvalues: B = 1,\nC = 2\nvalu = 4\n[nope]\nx = 1\n[mdp]\nvk = A = 1\nvk = A = 2\n";
        let f = parse("answers.txt", text);
        assert_eq!(f.problems.len(), 2, "{:?}", f.problems);
        assert!(f.problems[0].starts_with("answers.txt line 2:"), "{:?}", f.problems);
        assert!(f.problems[1].contains("unknown section [nope]"));
        let ab = f.section(Kind::Alphabeta).unwrap();
        assert_eq!(ab.variant.as_ref().unwrap().0, "ab1-x");
        assert_eq!(ab.answers("value")[0].value, "3");
        assert_eq!(ab.answers("pruned")[0].value, "a, b,\nc");
        assert_eq!(ab.answers("values")[0].value, "B = 1,\nC = 2");
        assert_eq!(ab.unknown, [("valu".to_string(), "answers.txt line 10".to_string())]);
        let mdp = f.section(Kind::Mdp).unwrap();
        assert_eq!(mdp.answers("vk").len(), 2);
        assert!(is_header(" [csp] ") && !is_header("[csv]"));
    }

    #[test]
    fn the_template_reads_back_as_blank_answers() {
        let v = crate::exercise::variant(1, "alice", Kind::Hillclimb);
        let t = template("alice", std::slice::from_ref(&v));
        let f = parse("answers.txt", &t);
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        let s = f.section(Kind::Hillclimb).unwrap();
        assert_eq!(s.variant.as_ref().unwrap().0, v.code);
        assert_eq!(
            s.entries.iter().map(|e| (e.key.as_str(), e.value.as_str())).collect::<Vec<_>>(),
            [("length", ""), ("climb", "")]
        );
    }
}
