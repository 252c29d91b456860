//! Disguised copies of a program, as a student hiding a copy would make them: names changed, methods reordered,
//! comments and layout changed, dead statements inserted, `for` loops written as `while`, expressions split in
//! two, independent statements swapped. Line-based and approximate (the copy need not compile): it is the
//! similarity check's adversary, not a refactoring tool.

use crate::rng::Rng;
use crate::similar::lang::Lang;
use crate::similar::lexer::{lex, Kind};

/// Which disguises to apply.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Disguise {
    /// Rename every identifier that is not a keyword or a well-known library name.
    pub rename: bool,
    /// Shuffle sibling methods.
    pub reorder: bool,
    /// Change comments and layout (indentation width, comment lines, blank lines).
    pub layout: bool,
    /// Insert dead statements before this share of the statements (0.1 = 10%).
    pub dead: f64,
    /// Rewrite counting `for` loops as `while` loops.
    pub loops: bool,
    /// Split `x = a + b` into two statements.
    pub split: bool,
    /// Swap adjacent independent assignments.
    pub swap: bool,
}

impl Disguise {
    /// Every disguise at once, with dead statements at `dead`.
    pub fn all(dead: f64) -> Disguise {
        Disguise { rename: true, reorder: true, layout: true, dead, loops: true, split: true, swap: true }
    }
}

const KEEP: &[&str] = &[
    "System",
    "out",
    "println",
    "print",
    "printf",
    "String",
    "Math",
    "Integer",
    "Double",
    "List",
    "ArrayList",
    "Map",
    "HashMap",
    "main",
    "args",
    "length",
    "size",
    "get",
    "add",
    "put",
    "max",
    "min",
    "abs",
    "len",
    "range",
    "int",
    "str",
    "float",
    "list",
    "dict",
    "set",
    "sorted",
    "append",
    "sys",
    "argv",
    "format",
    "join",
    "Scanner",
    "Arrays",
    "Collections",
    "Object",
    "Boolean",
    "Long",
    "Character",
    "parseInt",
    "valueOf",
    "equals",
    "toString",
    "contains",
    "isEmpty",
    "enumerate",
    "zip",
    "self",
    "__init__",
    "__name__",
    "__main__",
    "open",
    "input",
    "split",
    "strip",
    "copy",
    "deepcopy",
    "pop",
    "insert",
    "remove",
    "extend",
    "keys",
    "values",
    "items",
];

/// `source` disguised by `what`, drawing choices from `rng`.
pub fn disguise(source: &str, lang: Lang, what: &Disguise, rng: &mut Rng) -> String {
    let mut text = source.to_string();
    if what.rename {
        text = rename(&text, lang, rng);
    }
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if what.loops {
        lines = loops(lines, lang);
    }
    if what.split {
        lines = split(lines, lang, rng);
    }
    if what.swap {
        swap(&mut lines, lang, rng);
    }
    if what.reorder {
        lines = reorder(lines, lang, rng);
    }
    if what.dead > 0.0 {
        lines = dead(lines, lang, what.dead, rng);
    }
    if what.layout {
        lines = layout(lines, lang, rng);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Words the disguiser never renames: the language's keywords (`self` is only a name in Python: it may be renamed).
fn is_keyword(word: &str, lang: Lang) -> bool {
    word != "self" && crate::similar::normalise::is_keyword(word, lang)
}

fn rename(source: &str, lang: Lang, rng: &mut Rng) -> String {
    let tokens = lex(source, lang);
    let mut names: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut out = String::with_capacity(source.len());
    let mut last = 0usize;
    let salt = rng.range(0, 1000);
    for t in &tokens {
        let (s, e) = (t.start as usize, t.end as usize);
        let word = &source[s..e];
        if t.kind != Kind::Word || is_keyword(word, lang) || KEEP.contains(&word) {
            continue;
        }
        let count = names.len();
        let new = names.entry(word.to_string()).or_insert_with(|| {
            let stems = ["val", "tmp", "node", "acc", "res", "item", "cnt", "aux", "w", "z"];
            let stem = stems[(count + salt as usize) % stems.len()];
            let upper = word.chars().next().is_some_and(char::is_uppercase);
            if upper {
                format!("K{stem}{count}")
            } else {
                format!("{stem}{count}x")
            }
        });
        out.push_str(&source[last..s]);
        out.push_str(new);
        last = e;
    }
    out.push_str(&source[last..]);
    out
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Net bracket depth change of a line, strings and comments ignored roughly.
fn depth_change(line: &str, open: &[char], close: &[char]) -> i64 {
    let mut d = 0;
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for c in line.chars() {
        match quote {
            Some(q) => {
                if c == q && prev != '\\' {
                    quote = None;
                }
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                } else if c == '#' || (c == '/' && prev == '/') {
                    break;
                } else if open.contains(&c) {
                    d += 1;
                } else if close.contains(&c) {
                    d -= 1;
                }
            }
        }
        prev = c;
    }
    d
}

/// Java: `for (int i = A; i < B; i++) {` -> `int i = A; while (i < B) {` with `i++;` before the body's end.
/// Python: `for i in range(A):` / `range(A, B)` -> `i = 0` / `while i < B:` with `i += 1` at the body's end.
fn loops(lines: Vec<String>, lang: Lang) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 8);
    // Pending increments: (indentation of the loop line, the line to add when its body ends, Java depth to close).
    let mut pending: Vec<(usize, String, i64)> = Vec::new();
    let mut depth: i64 = 0;
    for line in lines {
        let indent = indent_of(&line);
        let pad = &line[..indent];
        let trimmed = line.trim();
        match lang {
            Lang::Java => {
                let before = depth;
                depth += depth_change(&line, &['{'], &['}']);
                if trimmed.starts_with('}') {
                    if let Some(pos) = pending.iter().position(|p| p.2 == before) {
                        let (_, inc, _) = pending.remove(pos);
                        out.push(inc);
                    }
                }
                if let Some(parsed) = java_for(trimmed) {
                    let (init, cond, step) = parsed;
                    out.push(format!("{pad}{init};"));
                    out.push(format!("{pad}while ({cond}) {{"));
                    pending.push((indent, format!("{pad}    {step};"), depth));
                    continue;
                }
                out.push(line);
            }
            Lang::Python => {
                if !trimmed.is_empty() {
                    while let Some(p) = pending.last() {
                        if indent <= p.0 {
                            let (_, inc, _) = pending.pop().unwrap_or_default();
                            out.push(inc);
                        } else {
                            break;
                        }
                    }
                }
                if let Some((var, lo, hi)) = python_for(trimmed) {
                    out.push(format!("{pad}{var} = {lo}"));
                    out.push(format!("{pad}while {var} < {hi}:"));
                    pending.push((indent, format!("{pad}    {var} += 1"), 0));
                    continue;
                }
                out.push(line);
            }
        }
    }
    while let Some((_, inc, _)) = pending.pop() {
        out.push(inc);
    }
    out
}

fn java_for(line: &str) -> Option<(String, String, String)> {
    let inner = line.strip_prefix("for (")?.strip_suffix(") {")?;
    let parts: Vec<&str> = inner.split(';').map(str::trim).collect();
    if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) || inner.contains(':') {
        return None;
    }
    Some((parts[0].to_string(), parts[1].to_string(), parts[2].to_string()))
}

fn python_for(line: &str) -> Option<(String, String, String)> {
    let rest = line.strip_prefix("for ")?;
    let (var, rest) = rest.split_once(" in range(")?;
    let args = rest.strip_suffix("):")?;
    if !var.chars().all(|c| c.is_alphanumeric() || c == '_') || args.contains('(') {
        return None;
    }
    let parts: Vec<&str> = args.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [hi] => Some((var.to_string(), "0".into(), hi.to_string())),
        [lo, hi] => Some((var.to_string(), lo.to_string(), hi.to_string())),
        _ => None,
    }
}

/// A simple assignment line: (indentation, declared type if any, target, right-hand side).
fn assignment(line: &str, lang: Lang) -> Option<(usize, String, String, String)> {
    let indent = indent_of(line);
    let body = line.trim();
    let body = match lang {
        Lang::Java => body.strip_suffix(';')?,
        Lang::Python => body,
    };
    let (lhs, rhs) = body.split_once(" = ")?;
    if rhs.contains(" = ") || lhs.contains('(') || lhs.contains('[') || lhs.contains('.') || rhs.contains(';') {
        return None;
    }
    let words: Vec<&str> = lhs.split_whitespace().collect();
    let (ty, target) = match words.as_slice() {
        [target] => (String::new(), target.to_string()),
        [ty, target] if lang == Lang::Java => (ty.to_string(), target.to_string()),
        _ => return None,
    };
    if !target.chars().all(|c| c.is_alphanumeric() || c == '_') || is_keyword(&target, lang) {
        return None;
    }
    Some((indent, ty, target, rhs.to_string()))
}

/// `x = a + b` -> `t = a` then `x = t + b`, for about half the lines where a top-level ` + ` or ` - ` splits it.
fn split(lines: Vec<String>, lang: Lang, rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    let mut fresh = 0;
    for line in lines {
        if let Some((indent, ty, target, rhs)) = assignment(&line, lang) {
            let cut = top_level_op(&rhs);
            if let (Some(at), true) = (cut, rng.below(2) == 0) {
                let (left, right) = rhs.split_at(at);
                let pad = " ".repeat(indent);
                fresh += 1;
                let tmp = format!("part{fresh}q");
                let end = if lang == Lang::Java { ";" } else { "" };
                let decl = if lang == Lang::Java {
                    if ty.is_empty() {
                        "var "
                    } else {
                        ""
                    }
                } else {
                    ""
                };
                let ty = if ty.is_empty() { String::new() } else { format!("{ty} ") };
                out.push(format!("{pad}{decl}{ty}{tmp} = {}{end}", left.trim()));
                out.push(format!("{pad}{ty}{target} = {tmp}{}{end}", right.trim_end()));
                continue;
            }
        }
        out.push(line);
    }
    out
}

fn top_level_op(rhs: &str) -> Option<usize> {
    let mut depth = 0i32;
    let bytes = rhs.as_bytes();
    for (i, c) in rhs.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '"' | '\'' => return None,
            '+' | '-' if depth == 0 && i > 0 && bytes.get(i - 1) == Some(&b' ') && bytes.get(i + 1) == Some(&b' ') => {
                return Some(i - 1)
            }
            _ => {}
        }
    }
    None
}

/// Swaps adjacent independent simple assignments of the same indentation, each such pair with probability 1/2.
fn swap(lines: &mut [String], lang: Lang, rng: &mut Rng) {
    let mut i = 0;
    while i + 1 < lines.len() {
        let (a, b) = (assignment(&lines[i], lang), assignment(&lines[i + 1], lang));
        if let (Some(a), Some(b)) = (a, b) {
            let uses =
                |text: &str, name: &str| text.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == name);
            if a.0 == b.0 && a.2 != b.2 && !uses(&b.3, &a.2) && !uses(&a.3, &b.2) && rng.below(2) == 0 {
                lines.swap(i, i + 1);
                i += 2;
                continue;
            }
        }
        i += 1;
    }
}

/// Shuffles runs of sibling methods: Java members at brace depth 1, Python `def`s at the same indentation.
fn reorder(lines: Vec<String>, lang: Lang, rng: &mut Rng) -> Vec<String> {
    // Cut the file into blocks: a block is a method (with the lines just above it that belong to nothing else).
    let mut blocks: Vec<(bool, Vec<String>)> = Vec::new(); // (is a method, lines)
    match lang {
        Lang::Java => {
            let mut depth = 0i64;
            let mut current: Vec<String> = Vec::new();
            let mut in_method = false;
            for line in lines {
                let before = depth;
                depth += depth_change(&line, &['{'], &['}']);
                if before == 1 && !in_method && line.contains('(') && line.trim_end().ends_with('{') {
                    if !current.is_empty() {
                        blocks.push((false, std::mem::take(&mut current)));
                    }
                    in_method = true;
                }
                current.push(line);
                if in_method && depth == 1 {
                    blocks.push((true, std::mem::take(&mut current)));
                    in_method = false;
                }
            }
            if !current.is_empty() {
                blocks.push((false, current));
            }
        }
        Lang::Python => {
            let mut current: Vec<String> = Vec::new();
            let mut method_indent: Option<usize> = None;
            for line in lines {
                let indent = indent_of(&line);
                let blank = line.trim().is_empty();
                if let Some(m) = method_indent {
                    if !blank && indent <= m {
                        blocks.push((true, std::mem::take(&mut current)));
                        method_indent = None;
                    }
                }
                if method_indent.is_none() && line.trim_start().starts_with("def ") {
                    if !current.is_empty() {
                        blocks.push((false, std::mem::take(&mut current)));
                    }
                    method_indent = Some(indent);
                }
                current.push(line);
            }
            if !current.is_empty() {
                blocks.push((method_indent.is_some(), current));
            }
        }
    }
    // Shuffle each run of consecutive methods (Fisher-Yates).
    let mut i = 0;
    while i < blocks.len() {
        let mut j = i;
        while j < blocks.len() && blocks[j].0 {
            j += 1;
        }
        for k in (i + 1..j).rev() {
            let r = i + rng.below(k - i + 1);
            blocks.swap(k, r);
        }
        i = j + 1;
    }
    blocks.into_iter().flat_map(|b| b.1).collect()
}

/// Inserts a dead statement before about `share` of the statement lines (inside methods, outside brackets).
fn dead(lines: Vec<String>, lang: Lang, share: f64, rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len() * 2);
    let mut depth = 0i64; // Java braces, or Python open brackets
    let mut n = 0;
    let mut in_def: Option<usize> = None;
    for line in lines {
        let trimmed = line.trim_start();
        let indent = indent_of(&line);
        let statement = match lang {
            Lang::Java => {
                depth >= 2 && (trimmed.ends_with(';') || trimmed.starts_with("if") || trimmed.starts_with("return"))
            }
            Lang::Python => {
                if !trimmed.is_empty() && in_def.is_some_and(|d| indent <= d) {
                    in_def = None;
                }
                let ok = depth == 0
                    && in_def.is_some()
                    && !trimmed.is_empty()
                    && !trimmed.starts_with('#')
                    && !["elif", "else", "except", "finally", ")", "]", "}"].iter().any(|k| trimmed.starts_with(k));
                if trimmed.starts_with("def ") {
                    in_def = Some(indent);
                }
                ok
            }
        };
        if statement && (rng.below(1000) as f64) < share * 1000.0 {
            n += 1;
            let pad = &line[..indent];
            let value = rng.range(1, 99);
            let form = rng.below(3);
            match (lang, form) {
                (Lang::Java, 0) => out.push(format!("{pad}int unusedQ{n} = {value} * 2;")),
                (Lang::Java, 1) => out.push(format!("{pad}double spareQ{n} = {value}.5;")),
                (Lang::Java, _) => {
                    out.push(format!("{pad}int padQ{n} = {value};"));
                    out.push(format!("{pad}padQ{n} += {};", value + 1));
                }
                (Lang::Python, 0) => out.push(format!("{pad}unused_q{n} = {value} * 2")),
                (Lang::Python, 1) => out.push(format!("{pad}spare_q{n} = [{value}]")),
                (Lang::Python, _) => {
                    out.push(format!("{pad}pad_q{n} = {value}"));
                    out.push(format!("{pad}pad_q{n} += {}", value + 1));
                }
            }
        }
        match lang {
            Lang::Java => depth += depth_change(&line, &['{'], &['}']),
            Lang::Python => depth += depth_change(&line, &['(', '[', '{'], &[')', ']', '}']),
        }
        out.push(line);
    }
    out
}

/// Comments dropped and others added, indentation width changed, blank lines moved.
fn layout(lines: Vec<String>, lang: Lang, rng: &mut Rng) -> Vec<String> {
    let comment = if lang == Lang::Java { "//" } else { "#" };
    let notes = ["the next step", "compute it here", "helper", "check the bounds", "as in the notes", "update"];
    let mut out = Vec::with_capacity(lines.len() + lines.len() / 4);
    for line in lines {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with(comment) {
            continue;
        }
        let indent = indent_of(&line);
        // Python: indentation halved (consistent, so still valid); Java: doubled with tabs.
        let pad = match lang {
            Lang::Python => " ".repeat(indent / 2),
            Lang::Java => "\t".repeat(indent / 4) + &" ".repeat(indent % 4),
        };
        if rng.below(6) == 0 {
            let _ = notes.len();
            out.push(format!("{pad}{comment} {}", notes[rng.below(notes.len())]));
        }
        out.push(format!("{pad}{trimmed}"));
        if rng.below(8) == 0 {
            out.push(String::new());
        }
    }
    out
}
