//! Which differences between expected and actual output do not count.

use serde::{Deserialize, Serialize};

/// What a comparison forgives, and whether it gives per-line credit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ComparePolicy {
    /// `\r\n` counts as `\n`.
    #[serde(default)]
    pub crlf: bool,
    /// Spaces and tabs at the end of a line do not count.
    #[serde(default)]
    pub trailing_whitespace: bool,
    /// A missing or extra final newline does not count.
    #[serde(default)]
    pub final_newline: bool,
    /// Blank lines at the end do not count.
    #[serde(default)]
    pub trailing_blank_lines: bool,
    /// A failed case earns the share of its lines that match.
    #[serde(default)]
    pub line_credit: bool,
}

impl ComparePolicy {
    /// Byte for byte.
    pub fn exact() -> ComparePolicy {
        ComparePolicy::default()
    }

    /// The course's own comparison: exact but for the final newline (its official files disagree on it).
    pub fn course() -> ComparePolicy {
        ComparePolicy { final_newline: true, ..ComparePolicy::default() }
    }

    /// Everything forgivable forgiven: CRLF, trailing whitespace, the final newline, blank lines at the end.
    pub fn normalized() -> ComparePolicy {
        ComparePolicy {
            crlf: true,
            trailing_whitespace: true,
            final_newline: true,
            trailing_blank_lines: true,
            line_credit: false,
        }
    }

    /// `text` with the forgiven differences removed; two outputs match when their normalized forms are equal.
    pub fn normalize(&self, text: &[u8]) -> Vec<u8> {
        let mut out: Vec<u8> = if self.crlf {
            let mut v = Vec::with_capacity(text.len());
            let mut i = 0;
            while i < text.len() {
                if text[i] == b'\r' && text.get(i + 1) == Some(&b'\n') {
                    i += 1;
                    continue;
                }
                v.push(text[i]);
                i += 1;
            }
            v
        } else {
            text.to_vec()
        };
        if self.trailing_whitespace {
            let had_newline = out.ends_with(b"\n");
            let mut lines: Vec<Vec<u8>> = out.split(|&b| b == b'\n').map(|l| trim_end(l).to_vec()).collect();
            if had_newline {
                lines.pop();
            }
            out = lines.join(&b'\n');
            if had_newline {
                out.push(b'\n');
            }
        }
        if self.trailing_blank_lines {
            while out.ends_with(b"\n\n") {
                out.pop();
            }
            if out == b"\n" {
                out.clear();
            }
        }
        if self.final_newline && !out.is_empty() && !out.ends_with(b"\n") {
            out.push(b'\n');
        }
        out
    }
}

fn trim_end(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|&b| b != b' ' && b != b'\t').map_or(0, |i| i + 1);
    &line[..end]
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn each_flag_does_one_thing() {
        let n = |p: ComparePolicy, s: &str| String::from_utf8(p.normalize(s.as_bytes())).unwrap();
        assert_eq!(n(ComparePolicy::exact(), "a \r\n\n"), "a \r\n\n");
        assert_eq!(n(ComparePolicy { crlf: true, ..Default::default() }, "a \r\nb\r"), "a \nb\r");
        assert_eq!(n(ComparePolicy { trailing_whitespace: true, ..Default::default() }, "a \t\nb  "), "a\nb");
        assert_eq!(n(ComparePolicy { trailing_blank_lines: true, ..Default::default() }, "a\n\n\n"), "a\n");
        assert_eq!(n(ComparePolicy::course(), "a"), "a\n");
        assert_eq!(n(ComparePolicy::course(), ""), "");
    }
}
