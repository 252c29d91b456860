//! A tolerant lexer for Java and Python: any bytes in, tokens out, never an error.
//!
//! Unterminated strings and comments run to the end of the file, unknown characters become one-character
//! operators, control characters are spaces. Python gets `Newline` at the end of each logical line and
//! `Indent`/`Dedent` from indentation (inside brackets lines join), so its blocks are as visible as Java's braces.

use super::lang::Lang;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A name or keyword.
    Word,
    /// A number.
    Number,
    /// A string or character literal.
    Str,
    /// An operator or punctuation.
    Op,
    /// Python: end of a logical line.
    Newline,
    /// Python: one level deeper.
    Indent,
    /// Python: one level out.
    Dedent,
}

/// One token: its kind, its bytes `start..end` in the source, its 1-based line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// The line it starts on (1-based).
    pub line: u32,
}

/// Java's and Python's operators, longest first so the longest match wins.
const OPS: &[&str] = &[
    ">>>=", "<<=", ">>=", ">>>", "**=", "//=", "...", "->", "::", "++", "--", "&&", "||", "==", "!=", "<=", ">=", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**", "//", ":=", "@=",
];

/// Tokens of `source` (at most `u32::MAX` bytes are read; the caller caps file sizes far below).
pub fn lex(source: &str, lang: Lang) -> Vec<Token> {
    let bytes = source.as_bytes();
    let n = bytes.len().min(u32::MAX as usize - 1);
    let mut out = Vec::with_capacity(n / 4);
    let mut i = 0usize;
    let mut line = 1u32;
    // Python's layout state.
    let mut depth = 0i64; // open brackets
    let mut indents: Vec<usize> = vec![0];
    let mut at_line_start = true;
    let mut line_has_tokens = false;
    let push = |out: &mut Vec<Token>, kind, s: usize, e: usize, line| {
        out.push(Token { kind, start: s as u32, end: e as u32, line });
    };
    while i < n {
        if lang == Lang::Python && at_line_start && depth <= 0 {
            // Measure indentation; blank and comment-only lines do not count.
            let mut j = i;
            let mut col = 0usize;
            while j < n && (bytes[j] == b' ' || bytes[j] == b'\t' || bytes[j] == b'\x0c') {
                col = if bytes[j] == b'\t' { (col / 8 + 1) * 8 } else { col + 1 };
                j += 1;
            }
            let blank = j >= n || bytes[j] == b'\n' || bytes[j] == b'\r' || bytes[j] == b'#';
            if !blank {
                let top = indents.last().copied().unwrap_or(0);
                if col > top {
                    indents.push(col);
                    push(&mut out, Kind::Indent, j, j, line);
                } else {
                    while col < indents.last().copied().unwrap_or(0) && indents.len() > 1 {
                        indents.pop();
                        push(&mut out, Kind::Dedent, j, j, line);
                    }
                }
                at_line_start = false;
            }
            i = j;
            if i >= n {
                break;
            }
        }
        let c = bytes[i];
        match c {
            b'\n' => {
                if lang == Lang::Python && depth <= 0 && line_has_tokens {
                    push(&mut out, Kind::Newline, i, i, line);
                    line_has_tokens = false;
                }
                if depth <= 0 {
                    at_line_start = true;
                }
                line += 1;
                i += 1;
                continue;
            }
            b'\\' if lang == Lang::Python && matches!(bytes.get(i + 1), Some(b'\n') | Some(b'\r')) => {
                // An explicit line join.
                i += 1;
                if bytes.get(i) == Some(&b'\r') {
                    i += 1;
                }
                if bytes.get(i) == Some(&b'\n') {
                    i += 1;
                    line += 1;
                }
                continue;
            }
            _ if c <= b' ' || c == 0x7f => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let start = i;
        let start_line = line;
        let kind;
        let python_comment = c == b'#' && lang == Lang::Python;
        let java_comment = c == b'/' && lang == Lang::Java && bytes.get(i + 1) == Some(&b'/');
        if python_comment || java_comment {
            while i < n && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if c == b'/' && lang == Lang::Java && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < n && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                if bytes[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i = (i + 2).min(n);
            continue;
        } else if c == b'"' || c == b'\'' {
            i = string_end(bytes, i, n, lang, &mut line);
            kind = Kind::Str;
        } else if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < n {
                let d = bytes[i];
                let exponent_sign =
                    (d == b'+' || d == b'-') && matches!(bytes[i - 1], b'e' | b'E') && !is_hex_literal(bytes, start);
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            kind = Kind::Number;
        } else if is_word_byte(c) {
            while i < n && (is_word_byte(bytes[i]) || bytes[i].is_ascii_digit()) {
                i += 1;
            }
            // Python string prefixes: r"..", b'..', f"..", rb"..".
            if lang == Lang::Python
                && i - start <= 2
                && matches!(bytes.get(i), Some(b'"') | Some(b'\''))
                && bytes[start..i].iter().all(|b| b"rRbBfFuU".contains(b))
            {
                i = string_end(bytes, i, n, lang, &mut line);
                kind = Kind::Str;
            } else {
                kind = Kind::Word;
            }
        } else {
            let rest = &bytes[i..n];
            let len = OPS.iter().find(|op| rest.starts_with(op.as_bytes())).map_or(1, |op| op.len());
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
            i += len;
            kind = Kind::Op;
        }
        push(&mut out, kind, start, i, start_line);
        line_has_tokens = true;
    }
    if lang == Lang::Python {
        if line_has_tokens {
            push(&mut out, Kind::Newline, n, n, line);
        }
        while indents.len() > 1 {
            indents.pop();
            push(&mut out, Kind::Dedent, n, n, line);
        }
    }
    out
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_hex_literal(bytes: &[u8], start: usize) -> bool {
    bytes.get(start) == Some(&b'0') && matches!(bytes.get(start + 1), Some(b'x') | Some(b'X'))
}

/// The end of the string starting at `i` (a quote): escapes honoured, Python's and Java's triple quotes, a
/// single-quoted string ends at its line's end when unterminated.
fn string_end(bytes: &[u8], i: usize, n: usize, lang: Lang, line: &mut u32) -> usize {
    let q = bytes[i];
    let triple = bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q) && (lang == Lang::Python || q == b'"');
    let mut j = if triple { i + 3 } else { i + 1 };
    while j < n {
        let b = bytes[j];
        if b == b'\\' {
            if bytes.get(j + 1) == Some(&b'\n') {
                *line += 1;
            }
            j += 2;
            continue;
        }
        if b == b'\n' {
            if !triple {
                return j;
            }
            *line += 1;
        }
        if b == q && (!triple || (bytes.get(j + 1) == Some(&q) && bytes.get(j + 2) == Some(&q))) {
            return (if triple { j + 3 } else { j + 1 }).min(n);
        }
        j += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(source: &str, lang: Lang) -> Vec<String> {
        lex(source, lang)
            .iter()
            .map(|t| match t.kind {
                Kind::Newline => "NL".into(),
                Kind::Indent => "IN".into(),
                Kind::Dedent => "DE".into(),
                _ => source[t.start as usize..t.end as usize].to_string(),
            })
            .collect()
    }

    #[test]
    fn java_tokens_skip_comments_and_keep_operators() {
        let src = "int x = a >>>= 0x1F; // c\n/* b\n */ s = \"q\\\"\" + 'c'; y -> 1.5e-3";
        assert_eq!(
            texts(src, Lang::Java),
            ["int", "x", "=", "a", ">>>=", "0x1F", ";", "s", "=", "\"q\\\"\"", "+", "'c'", ";", "y", "->", "1.5e-3"]
        );
        let lines: Vec<u32> = lex(src, Lang::Java).iter().map(|t| t.line).collect();
        assert_eq!(lines[7], 3);
    }

    #[test]
    fn python_layout_becomes_tokens() {
        let src = "def f(a,\n      b):\n    # c\n\n    return rb'x' + \"\"\"y\n\"\"\"\nf(1)\n";
        assert_eq!(
            texts(src, Lang::Python),
            [
                "def",
                "f",
                "(",
                "a",
                ",",
                "b",
                ")",
                ":",
                "NL",
                "IN",
                "return",
                "rb'x'",
                "+",
                "\"\"\"y\n\"\"\"",
                "NL",
                "DE",
                "f",
                "(",
                "1",
                ")",
                "NL"
            ]
        );
    }

    proptest! {
        /// Any bytes (read as the file would be, lossily) lex without a panic into ordered tokens inside the source.
        #[test]
        fn any_input_lexes_within_bounds(bytes in proptest::collection::vec(any::<u8>(), 0..400), java in any::<bool>()) {
            let source = String::from_utf8_lossy(&bytes);
            let lang = if java { Lang::Java } else { Lang::Python };
            let tokens = lex(&source, lang);
            let mut last = 0;
            for t in &tokens {
                prop_assert!(t.start <= t.end && t.end as usize <= source.len());
                prop_assert!(source.is_char_boundary(t.start as usize) && source.is_char_boundary(t.end as usize));
                prop_assert!(t.start >= last);
                last = t.start;
            }
        }
    }
}
