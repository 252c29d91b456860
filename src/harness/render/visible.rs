//! Making invisible characters visible, so a difference that is only whitespace can be seen in a report.
//!
//! [`show_invisible`] is used wherever a report quotes program output that was compared (the terminal, Markdown
//! and JUnit diffs, the first difference): the quoted text then also cannot move a terminal's cursor or recolor
//! it. [`strip_ansi`] drops the color codes compilers and runtimes put in messages that are only read
//! (stderr, build errors), where they are noise rather than a difference. Both are built on [`crate::visible`],
//! the one escaping of what a student wrote.

use crate::visible::{push_escape, visible_drawing};

/// A compared line with its invisible characters shown, in [`crate::visible`]'s notation:
///
/// - a tab becomes `→`;
/// - each space of the run of spaces that ends the line becomes `·` (spaces between words stay spaces);
/// - a carriage return becomes `␍`;
/// - every other hidden character (`ESC`, `NUL`, `DEL`, a stray `\n`, C1 controls, bidi controls, zero-width and
///   format characters, spaces that are not `U+0020`) becomes `\u{..}` with its hex code, e.g. `\u{1b}`;
/// - a `→` or `␍` the program printed itself, a `·` it printed at the end of the line and a backslash before `u{`
///   get their code too, so no two different lines are shown alike.
///
/// ```
/// use referee::harness::render::visible::show_invisible;
///
/// assert_eq!(show_invisible("a\tb  "), "a→b··");
/// assert_eq!(show_invisible("x y\r"), "x y␍");
/// assert_eq!(show_invisible("\u{1b}[31m"), "\\u{1b}[31m");
/// assert_eq!(show_invisible("a→b·"), "a\\u{2192}b\\u{b7}");
/// ```
pub fn show_invisible(line: &str) -> String {
    let body = line.trim_end_matches(' ');
    let trailing = line.len() - body.len();
    // A literal `·` just before the dotted spaces would read as one more space.
    let dots = body.len() - body.trim_end_matches('·').len();
    let (text, literal_dots) = body.split_at(body.len() - dots);
    let mut shown = visible_drawing(text, &[('\t', '→'), ('\r', '␍')]);
    for _ in literal_dots.chars() {
        push_escape(&mut shown, '·');
    }
    shown.extend(std::iter::repeat('·').take(trailing));
    shown
}

/// `text` without ANSI escape sequences (colors from compilers and runtimes): CSI (`ESC [ … final`), OSC
/// (`ESC ] … BEL` or `ESC ] … ESC \`) and two-character `ESC x` sequences. Other characters are kept.
///
/// ```
/// use referee::harness::render::visible::strip_ansi;
///
/// assert_eq!(strip_ansi("\u{1b}[1;31merror\u{1b}[0m: x"), "error: x");
/// ```
pub fn strip_ansi(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            kept.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters and intermediates, up to a final byte in @..=~.
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            // OSC: up to BEL or the string terminator ESC \.
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' || (c == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::{show_invisible, strip_ansi};

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(show_invisible("-0.6 all 3 moves"), "-0.6 all 3 moves");
        assert_eq!(show_invisible(""), "");
        assert_eq!(show_invisible("héllo ✓"), "héllo ✓");
    }

    #[test]
    fn only_the_trailing_run_of_spaces_is_dotted() {
        assert_eq!(show_invisible("1 2 3 "), "1 2 3·");
        assert_eq!(show_invisible("  indented"), "  indented");
        assert_eq!(show_invisible("   "), "···");
        assert_eq!(show_invisible("a \t "), "a →·");
    }

    #[test]
    fn tabs_and_carriage_returns() {
        assert_eq!(show_invisible("\tx\t"), "→x→");
        assert_eq!(show_invisible("line\r"), "line␍");
        assert_eq!(show_invisible("line \r"), "line ␍");
    }

    #[test]
    fn other_controls_and_lookalikes_get_their_code() {
        assert_eq!(show_invisible("\0"), "\\u{0}");
        assert_eq!(show_invisible("a\u{7f}b"), "a\\u{7f}b");
        assert_eq!(show_invisible("\u{feff}7 0 3"), "\\u{feff}7 0 3");
        assert_eq!(show_invisible("1\u{a0}2"), "1\\u{a0}2");
        assert_eq!(show_invisible("a\nb"), "a\\u{a}b");
    }

    #[test]
    fn ansi_sequences_are_stripped() {
        assert_eq!(strip_ansi("plain"), "plain");
        assert_eq!(strip_ansi("\u{1b}[31mred\u{1b}[0m"), "red");
        assert_eq!(strip_ansi("\u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{1b}\\"), "link");
        assert_eq!(strip_ansi("a\u{1b}cb"), "ab");
        assert_eq!(strip_ansi("cut\u{1b}["), "cut");
    }
}
