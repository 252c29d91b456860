//! Making invisible characters visible, so a difference that is only whitespace can be seen in a report.
//!
//! [`show_invisible`] is used wherever a report quotes program output that was compared (the terminal, Markdown
//! and JUnit diffs, the first difference): the quoted text then also cannot move a terminal's cursor or recolor
//! it. [`strip_ansi`] drops the color codes compilers and runtimes put in messages that are only read
//! (stderr, build errors), where they are noise rather than a difference.

/// A line with its invisible characters shown.
///
/// - a tab becomes `→`;
/// - each space of the run of spaces that ends the line becomes `·` (spaces between words stay spaces);
/// - a carriage return becomes `␍`;
/// - any other control character (`ESC`, `NUL`, `DEL`, a stray `\n`, C1 controls) becomes `\u{..}` with its hex
///   code, e.g. `\u{1b}`;
/// - so do the characters that print as nothing or as a plain space but are not one: the byte-order mark
///   `U+FEFF`, zero-width spaces and joiners (`U+200B`..`U+200D`, `U+2060`) and the no-break space `U+00A0`.
///
/// ```
/// use referee::harness::render::visible::show_invisible;
///
/// assert_eq!(show_invisible("a\tb  "), "a→b··");
/// assert_eq!(show_invisible("x y\r"), "x y␍");
/// assert_eq!(show_invisible("\u{1b}[31m"), "\\u{1b}[31m");
/// ```
pub fn show_invisible(line: &str) -> String {
    let body = line.trim_end_matches(' ');
    let trailing = line.len() - body.len();
    let mut shown = String::with_capacity(line.len() + trailing);
    for c in body.chars() {
        match c {
            '\t' => shown.push('→'),
            '\r' => shown.push('␍'),
            c if c.is_control() || is_blank_lookalike(c) => shown.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => shown.push(c),
        }
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

/// Characters that render as nothing or as an ordinary space while being something else.
fn is_blank_lookalike(c: char) -> bool {
    matches!(c, '\u{a0}' | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
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
