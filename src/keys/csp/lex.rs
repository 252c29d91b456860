//! Splitting one line of a CSP file into tokens, each with the byte offset where it starts (so errors can point at
//! it).

/// A token of the CSP format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name: a letter or `_`, then letters, digits or `_`.
    Name(String),
    /// An integer literal (no sign: `-` is an operator).
    Num(i64),
    /// One of `+ - * ( ) | { } , = == != < <= > >= ..`.
    Sym(&'static str),
}

/// A token and the byte offset (in the whole file) where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Byte offset in the file.
    pub at: usize,
}

/// The symbols, longest first so `<=` wins over `<`.
const SYMBOLS: [&str; 16] = ["==", "!=", "<=", ">=", "..", "+", "-", "*", "(", ")", "|", "{", "}", ",", "<", ">"];

/// Tokens of `line`, which starts at byte `base` of the file; a `#` starts a comment. `=` alone is read as `==`.
///
/// # Errors
/// The offset of a character that starts no token, and a message.
pub fn lex(line: &str, base: usize) -> Result<Vec<Token>, (usize, String)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'#' {
            break;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let at = base + i;
        if c.is_ascii_alphabetic() || c == b'_' {
            let end = scan(bytes, i, |b| b.is_ascii_alphanumeric() || b == b'_');
            out.push(Token { tok: Tok::Name(line[i..end].to_string()), at });
            i = end;
        } else if c.is_ascii_digit() {
            let end = scan(bytes, i, |b| b.is_ascii_digit());
            let n = line[i..end].parse().map_err(|_| (at, format!("'{}' is too large a number", &line[i..end])))?;
            out.push(Token { tok: Tok::Num(n), at });
            i = end;
        } else if let Some(sym) = SYMBOLS.iter().find(|s| line[i..].starts_with(**s)) {
            out.push(Token { tok: Tok::Sym(sym), at });
            i += sym.len();
        } else if c == b'=' {
            out.push(Token { tok: Tok::Sym("=="), at });
            i += 1;
        } else {
            let ch = line[i..].chars().next().unwrap_or('?');
            return Err((at, format!("unexpected character '{ch}'")));
        }
    }
    Ok(out)
}

fn scan(bytes: &[u8], from: usize, keep: impl Fn(u8) -> bool) -> usize {
    bytes[from..].iter().position(|&b| !keep(b)).map_or(bytes.len(), |n| from + n)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn splits_symbols_names_and_numbers() {
        let toks: Vec<Tok> = lex("|X1 - y| != 10 # note", 0).unwrap().into_iter().map(|t| t.tok).collect();
        assert_eq!(
            toks,
            vec![
                Tok::Sym("|"),
                Tok::Name("X1".into()),
                Tok::Sym("-"),
                Tok::Name("y".into()),
                Tok::Sym("|"),
                Tok::Sym("!="),
                Tok::Num(10)
            ]
        );
        assert_eq!(lex("A = 1", 0).unwrap()[1].tok, Tok::Sym("=="));
        assert_eq!(lex("0..2", 5).unwrap()[1], Token { tok: Tok::Sym(".."), at: 6 });
        assert_eq!(lex("A $ B", 10), Err((12, "unexpected character '$'".into())));
    }
}
