//! The grader's stderr, guarded: every message a command writes there (errors naming a hand-in, notes quoting a
//! program's line, a build's failure) passes through [`ShownStderr`], which writes each hidden character
//! ([`crate::visible::is_hidden`]) other than line feed and tab as `\u{hex}`. The grader itself never colors
//! stderr, so no escape sequence, bell or bidi override a student chose reaches the TA's terminal through it, even
//! from a message that forgot to show its names first.

use std::io::{self, Write};

/// A writer that passes text through with hidden characters shown (line feed and tab kept). Invalid UTF-8 is
/// written as `U+FFFD`; a character split across two writes is held until its last byte arrives.
pub struct ShownStderr<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> ShownStderr<W> {
    /// Guards `inner`.
    pub fn new(inner: W) -> ShownStderr<W> {
        ShownStderr { inner, pending: Vec::new() }
    }

    /// Writes what `pending` holds up to its last complete character.
    fn drain(&mut self, at_end: bool) -> io::Result<()> {
        let mut shown = String::with_capacity(self.pending.len());
        let mut rest: &[u8] = &self.pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    push_shown(&mut shown, text);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    push_shown(&mut shown, std::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(bad) => {
                            shown.push('\u{fffd}');
                            rest = &after[bad..];
                        }
                        None if at_end => {
                            shown.push('\u{fffd}');
                            rest = &[];
                            break;
                        }
                        None => {
                            rest = after;
                            break;
                        }
                    }
                }
            }
        }
        let kept = rest.to_vec();
        self.pending = kept;
        self.inner.write_all(shown.as_bytes())
    }
}

/// Appends `text` with its hidden characters other than line feed and tab as `\u{hex}`.
fn push_shown(out: &mut String, text: &str) {
    for c in text.chars() {
        if crate::visible::is_hidden(c) && c != '\n' && c != '\t' {
            crate::visible::push_escape(out, c);
        } else {
            out.push(c);
        }
    }
}

impl<W: Write> Write for ShownStderr<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        self.drain(false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain(true)?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for ShownStderr<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn shown(chunks: &[&[u8]]) -> String {
        let mut out = Vec::new();
        {
            let mut guard = ShownStderr::new(&mut out);
            for chunk in chunks {
                guard.write_all(chunk).unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn hidden_characters_are_shown_even_split_across_writes() {
        assert_eq!(shown(&[b"a\x1b[2J\x07\n\tb"]), "a\\u{1b}[2J\\u{7}\n\tb");
        let rlo = "x\u{202e}y".as_bytes();
        assert_eq!(shown(&[&rlo[..2], &rlo[2..]]), "x\\u{202e}y");
        assert_eq!(shown(&["é李😀".as_bytes()]), "é李😀");
        assert_eq!(shown(&[b"bad \xff end", b"\xe2"]), "bad \u{fffd} end\u{fffd}");
    }
}
