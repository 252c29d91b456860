//! From tokens to the symbols that are compared, normalised so that disguise does not show.
//!
//! Names and literals become `ID`, `NUM` and `STR` (renaming is invisible); comments are gone already, and so are
//! Java's modifiers and annotations, `this.`/`self.` and Python's docstrings; `for` reads as `while`. Two passes
//! over statements, in the manner of JPlag's token normalisation but without a full parser: a simple assignment or
//! declaration whose variable appears nowhere else in the hand-in is dead and removed, and a run of adjacent simple
//! assignments that are independent of one another (none names what another assigns) is put in a canonical order.

use std::collections::HashMap;

use super::lang::Lang;
use super::lexer::{Kind, Token};

/// One compared symbol and the line of the source it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sym {
    /// The normalised token, hashed.
    pub sym: u32,
    /// Its 1-based line in its file.
    pub line: u32,
}

/// Which normalisations to apply (all by default; the quality measurement switches them one by one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passes {
    /// Remove assignments and declarations of variables used nowhere else.
    pub dead: bool,
    /// Put independent adjacent simple assignments in a canonical order.
    pub reorder: bool,
}

impl Default for Passes {
    fn default() -> Passes {
        Passes { dead: true, reorder: true }
    }
}

/// FNV-1a, 32 bits: a stable hash (the same in every run and build) for symbols and names.
pub fn fnv(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

const JAVA_KEYWORDS: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "var",
    "true",
    "false",
    "null",
    "record",
    "yield",
];
const JAVA_DROPPED: &[&str] = &[
    "public",
    "private",
    "protected",
    "static",
    "final",
    "abstract",
    "synchronized",
    "transient",
    "volatile",
    "strictfp",
];
const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "self",
];

/// Whether `word` is one of `lang`'s keywords as normalisation reads them (Python's `self` among them).
pub(crate) fn is_keyword(word: &str, lang: Lang) -> bool {
    match lang {
        Lang::Java => JAVA_KEYWORDS.contains(&word),
        Lang::Python => PYTHON_KEYWORDS.contains(&word),
    }
}

/// A token after the first pass: its symbol, the name it stands for (a hash; 0 for non-names), its line.
#[derive(Clone, Copy, Debug)]
struct Tok {
    sym: u32,
    name: u32,
    line: u32,
    word: bool,
}

/// Counts of every name used in `source` (added to `counts`), so a variable's uses are known across a hand-in.
pub fn count_names(source: &str, tokens: &[Token], counts: &mut HashMap<u32, u32>) {
    for t in tokens.iter().filter(|t| t.kind == Kind::Word) {
        let text = &source.as_bytes()[t.start as usize..t.end as usize];
        *counts.entry(fnv(text)).or_insert(0) += 1;
    }
}

/// The normalised symbols of one file. `names` holds every name's count over the whole hand-in.
pub fn normalise(source: &str, tokens: &[Token], lang: Lang, names: &HashMap<u32, u32>, passes: Passes) -> Vec<Sym> {
    let toks = first_pass(source, tokens, lang);
    let segments = split(&toks, lang);
    let mut out = Vec::with_capacity(toks.len());
    let mut run: Vec<&[Tok]> = Vec::new();
    let flush = |run: &mut Vec<&[Tok]>, out: &mut Vec<Sym>| {
        if passes.reorder {
            run.sort_by(|a, b| a.iter().map(|t| t.sym).cmp(b.iter().map(|t| t.sym)));
        }
        for seg in run.drain(..) {
            out.extend(seg.iter().map(|t| Sym { sym: t.sym, line: t.line }));
        }
    };
    for seg in segments {
        match simple_assignment(seg, lang) {
            Some(def) => {
                if passes.dead && names.get(&def).copied().unwrap_or(0) <= 1 {
                    continue;
                }
                if !run.iter().all(|other| independent(other, seg, lang)) {
                    flush(&mut run, &mut out);
                }
                run.push(seg);
            }
            None => {
                flush(&mut run, &mut out);
                out.extend(seg.iter().map(|t| Sym { sym: t.sym, line: t.line }));
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

fn first_pass(source: &str, tokens: &[Token], lang: Lang) -> Vec<Tok> {
    let bytes = source.as_bytes();
    let text = |t: &Token| &bytes[t.start as usize..t.end as usize];
    let (keywords, dropped): (&[&str], &[&str]) = match lang {
        Lang::Java => (JAVA_KEYWORDS, JAVA_DROPPED),
        Lang::Python => (PYTHON_KEYWORDS, &[]),
    };
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let next_is = |s: &[u8]| tokens.get(i + 1).is_some_and(|n| text(n) == s);
        let word = text(t);
        let (sym, name, is_word) = match t.kind {
            Kind::Word => {
                let as_str = std::str::from_utf8(word).unwrap_or("");
                if (as_str == "this" || as_str == "self") && next_is(b".") && keywords.contains(&as_str) {
                    i += 2;
                    continue;
                }
                if dropped.contains(&as_str) {
                    i += 1;
                    continue;
                }
                if keywords.contains(&as_str) {
                    let canonical = if as_str == "for" { "while" } else { as_str };
                    (fnv(canonical.as_bytes()), 0, false)
                } else {
                    (fnv(b"ID"), fnv(word), true)
                }
            }
            Kind::Number => (fnv(b"NUM"), 0, false),
            Kind::Str => {
                // A Python string standing alone as a statement (a docstring or a comment in disguise).
                let alone = lang == Lang::Python
                    && tokens.get(i + 1).is_some_and(|n| n.kind == Kind::Newline)
                    && (i == 0 || matches!(tokens[i - 1].kind, Kind::Newline | Kind::Indent | Kind::Dedent));
                if alone {
                    i += 2;
                    continue;
                }
                (fnv(b"STR"), 0, false)
            }
            Kind::Op => {
                if lang == Lang::Java && word == b"@" && tokens.get(i + 1).is_some_and(|n| n.kind == Kind::Word) {
                    i += 2;
                    continue;
                }
                (fnv(word), 0, false)
            }
            Kind::Newline => (fnv(b"NL"), 0, false),
            Kind::Indent => (fnv(b"IN"), 0, false),
            Kind::Dedent => (fnv(b"DE"), 0, false),
        };
        out.push(Tok { sym, name, line: t.line, word: is_word });
        i += 1;
    }
    out
}

/// Statements: Java's end after `;`, `{` and `}`; Python's after each logical line, with indents on their own.
fn split(toks: &[Tok], lang: Lang) -> Vec<&[Tok]> {
    let ends: Vec<u32> = match lang {
        Lang::Java => vec![fnv(b";"), fnv(b"{"), fnv(b"}")],
        Lang::Python => vec![fnv(b"NL"), fnv(b"IN"), fnv(b"DE")],
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut depth = 0i32; // Java: `for (a; b; c)` is one statement.
    for (i, t) in toks.iter().enumerate() {
        if t.sym == fnv(b"(") {
            depth += 1;
        } else if t.sym == fnv(b")") {
            depth -= 1;
        }
        if ends.contains(&t.sym) && (depth <= 0 || t.sym != fnv(b";")) {
            out.push(&toks[start..=i]);
            start = i + 1;
            depth = 0;
        }
    }
    if start < toks.len() {
        out.push(&toks[start..]);
    }
    out
}

/// The variable a simple assignment or declaration assigns (`T x = e;`, `x = e;`, `x += e`), when the statement is
/// one: it ends as a statement, has one assignment, no call, no `new`, no `++`/`--`, no block.
fn simple_assignment(seg: &[Tok], lang: Lang) -> Option<u32> {
    let last = seg.last()?;
    let end = match lang {
        Lang::Java => fnv(b";"),
        Lang::Python => fnv(b"NL"),
    };
    if last.sym != end || seg.len() < 3 {
        return None;
    }
    let assign =
        ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "**=", "//="].map(|s| fnv(s.as_bytes()));
    let barred =
        ["(", "{", "}", "++", "--", "new", "return", "while", "if", "yield", "throw", "del", ":", "lambda", "await"]
            .map(|s| fnv(s.as_bytes()));
    if seg.iter().any(|t| barred.contains(&t.sym)) {
        return None;
    }
    let at = seg.iter().position(|t| assign.contains(&t.sym))?;
    if at == 0 || seg[at + 1..].iter().any(|t| assign.contains(&t.sym)) {
        return None;
    }
    let target = seg[at - 1];
    // The target itself, not `a[i] = ..` nor `a.b = ..` (those write into something used elsewhere).
    if !target.word || (at >= 2 && seg[at - 2].sym == fnv(b".")) {
        return None;
    }
    Some(target.name)
}

/// Whether two simple assignments can trade places: neither names what the other assigns.
fn independent(a: &[Tok], b: &[Tok], lang: Lang) -> bool {
    let (Some(da), Some(db)) = (simple_assignment(a, lang), simple_assignment(b, lang)) else { return false };
    let names = |s: &[Tok]| s.iter().filter(|t| t.word).map(|t| t.name).collect::<Vec<_>>();
    let (na, nb) = (names(a), names(b));
    da != db && !nb.contains(&da) && !na.contains(&db)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similar::lexer::lex;

    fn syms(source: &str, lang: Lang, passes: Passes) -> Vec<u32> {
        let tokens = lex(source, lang);
        let mut names = HashMap::new();
        count_names(source, &tokens, &mut names);
        normalise(source, &tokens, lang, &names, passes).iter().map(|s| s.sym).collect()
    }

    #[test]
    fn renaming_comments_modifiers_and_loops_do_not_show() {
        let a = "public class A { private int f(int n) { int s = 0; for (int i = 0; i < n; i++) { s += this.g(i); } return s; } }";
        let b = "class Zed {\n // sum\n int compute(int count) { int total = 7;\n while (int k = 0; k < count; k++) { total += g(k); } return total; } }";
        assert_eq!(syms(a, Lang::Java, Passes::default()), syms(b, Lang::Java, Passes::default()));
    }

    #[test]
    fn dead_declarations_go_and_independent_ones_sort() {
        let base = "void f(int n) { int a = n + 1; int b = n * 2; g(a, b); }";
        let swapped = "void f(int n) { int b = n * 2; int unused = 42; int a = n + 1; g(a, b); }";
        let on = Passes::default();
        assert_eq!(syms(base, Lang::Java, on), syms(swapped, Lang::Java, on));
        let off = Passes { dead: false, reorder: false };
        assert_ne!(syms(base, Lang::Java, off), syms(swapped, Lang::Java, off));
        // A dependent pair keeps its order.
        let dep = "void f(int n) { int a = n + 1; int b = a * 2; g(a, b); }";
        let dep_swapped = "void f(int n) { int b = a * 2; int a = n + 1; g(a, b); }";
        assert_ne!(syms(dep, Lang::Java, on), syms(dep_swapped, Lang::Java, on));
        let py = "def f(n):\n    \"\"\"doc\"\"\"\n    a = n + 1\n    b = n * 2\n    return a + b\n";
        let py2 = "def f(n):\n    b = n * 2\n    junk = 3\n    a = n + 1\n    return a + b\n";
        assert_eq!(syms(py, Lang::Python, on), syms(py2, Lang::Python, on));
    }
}
