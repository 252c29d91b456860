//! What a student wrote, shown as what it is: the one escaping every report uses where text a student chose (a
//! hand-in's name, a program's output or stderr, an agent's reply, an exception's text, an exercise answer) meets
//! a reader.
//!
//! A character that a terminal, an editor, a spreadsheet or a browser would act on or hide instead of showing is
//! written as `\u{hex}`, its code point in lowercase hex ([`is_hidden`] lists the classes): control characters
//! (C0, `DEL`, C1), Unicode format characters (general category `Cf`: bidi controls, zero-width spaces and
//! joiners, the byte-order mark, the soft hyphen, tag characters), line and paragraph separators, every space
//! that is not the ASCII space, and letters that print as blank. Everything else (accents, CJK, emoji, `→`) is
//! kept as it is.
//!
//! **Unambiguous.** A backslash a student wrote is itself written `\u{5c}` when `u{` follows it, so every `\u{`
//! of a shown text starts an escape the grader made: a program that prints the six characters `\u{1b}` is shown
//! as `\u{5c}u{1b}`, never like one that printed `ESC`. [`unescape`] reverses [`visible`] exactly, so two different
//! texts are never shown alike; any other backslash (`C:\dir`, `\n` in a string literal) is left alone.

use std::fmt::Write as _;

/// `text` with every [`is_hidden`] character, line breaks and tabs included, written as `\u{hex}`: for a text
/// that must stay on one line (an id, a name, a table cell, a case's name or detail).
///
/// ```
/// use referee::visible::visible;
///
/// assert_eq!(visible("ab\u{1b}[2J\u{7}"), "ab\\u{1b}[2J\\u{7}");
/// assert_eq!(visible("x\u{202e}y\u{200b}"), "x\\u{202e}y\\u{200b}");
/// assert_eq!(visible("José 李雷 🎉"), "José 李雷 🎉");
/// assert_eq!(visible("a\\u{1b}"), "a\\u{5c}u{1b}");
/// ```
pub fn visible(text: &str) -> String {
    visible_drawing(text, &[])
}

/// `text` as [`visible`] shows it, except that line breaks and tabs stay as they are: for a message of several
/// lines that is read, not compared (stderr, a compiler's message, a stack trace).
///
/// ```
/// use referee::visible::visible_text;
///
/// assert_eq!(visible_text("Exception\n\tat Main.main\r\u{2066}"), "Exception\n\tat Main.main\\u{d}\\u{2066}");
/// ```
pub fn visible_text(text: &str) -> String {
    visible_drawing(text, &[('\n', '\n'), ('\t', '\t')])
}

/// The one escaping loop. Each `(hidden, marker)` pair of `draw` is a character the caller shows its own way
/// (a tab as `→`, or a line break as itself); every other [`is_hidden`] character, every character used as a
/// marker that the text holds literally, and every backslash followed by `u{` is written as `\u{hex}`. So a
/// shown text still reads back to one text only.
pub fn visible_drawing(text: &str, draw: &[(char, char)]) -> String {
    let mut shown = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if let Some(&(_, marker)) = draw.iter().find(|(hidden, _)| *hidden == c) {
            shown.push(marker);
        } else if is_hidden(c)
            || draw.iter().any(|(_, marker)| *marker == c)
            || (c == '\\' && text[i + 1..].starts_with("u{"))
        {
            push_escape(&mut shown, c);
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Appends `c` as `\u{hex}` (lowercase hex, no leading zeros), the notation [`unescape`] reads back.
pub fn push_escape(out: &mut String, c: char) {
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

/// The text [`visible`] (or [`visible_text`]) was given: each `\u{hex}` that names a character becomes it; any
/// other backslash stays.
///
/// ```
/// use referee::visible::{unescape, visible};
///
/// let raw = "a\u{202e}\\u{1b}\\n";
/// assert_eq!(unescape(&visible(raw)), raw);
/// ```
pub fn unescape(shown: &str) -> String {
    let mut text = String::with_capacity(shown.len());
    let mut rest = shown;
    while let Some(at) = rest.find("\\u{") {
        text.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let decoded = after.find('}').and_then(|end| {
            let hex = &after[..end];
            let valid = !hex.is_empty() && hex.len() <= 6 && hex.bytes().all(|b| b.is_ascii_hexdigit());
            valid.then(|| u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)).flatten().map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                text.push(c);
                rest = &after[end + 1..];
            }
            None => {
                text.push('\\');
                rest = &rest[at + 1..];
            }
        }
    }
    text.push_str(rest);
    text
}

/// Whether `c` is acted on or hidden rather than shown, so a report writes it as `\u{hex}`:
///
/// - control characters: C0 (`NUL`..`US`, with tab, line feed, carriage return and `ESC`), `DEL`, C1;
/// - format characters (general category `Cf`): the soft hyphen `U+00AD`, Arabic number signs, `U+061C`, the
///   Mongolian vowel separator, zero-width space, non-joiner and joiner, the left-to-right and right-to-left marks
///   and embeddings, overrides and isolates (`U+200B`..`U+200F`, `U+202A`..`U+202E`, `U+2060`..`U+206F`), the
///   byte-order mark `U+FEFF`, interlinear annotations, tag characters;
/// - line and paragraph separators (`U+2028`, `U+2029`) and every space that is not `U+0020` (no-break, en, em,
///   thin, ideographic, ...);
/// - characters that print as blank or as nothing while being letters or marks: the combining grapheme joiner,
///   Hangul fillers, Khmer inherent vowels, Mongolian variation selectors, the Braille blank.
///
/// ```
/// use referee::visible::is_hidden;
///
/// assert!(is_hidden('\u{1b}') && is_hidden('\u{202e}') && is_hidden('\u{a0}') && is_hidden('\u{feff}'));
/// assert!(!is_hidden('é') && !is_hidden('李') && !is_hidden(' ') && !is_hidden('😀'));
/// ```
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            u32::from(c),
            // Format characters (Cf), Unicode 15.1.
            0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
                | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB
                | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
                | 0xE0001 | 0xE0020..=0xE007F
                // Spaces other than U+0020 (Zs), line and paragraph separators (Zl, Zp).
                | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000 | 0x2028 | 0x2029
                // Blank-looking letters and marks.
                // Noncharacters.
                | 0xFDD0..=0xFDEF | 0xFFFE | 0xFFFF
                | 0x34F | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180D | 0x180F | 0x2800 | 0x3164 | 0xFFA0
        )
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes or
    // generates, never on user input; a failure is the test failing.
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn each_class_is_escaped() {
        for c in ['\0', '\u{7}', '\u{1b}', '\n', '\r', '\t', '\u{7f}', '\u{85}', '\u{9b}'] {
            assert_eq!(visible(&c.to_string()), format!("\\u{{{:x}}}", u32::from(c)));
        }
        for c in ['\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{61c}'] {
            assert!(is_hidden(c), "bidi {c:?}");
        }
        for c in ['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{ad}', '\u{e0041}'] {
            assert!(is_hidden(c), "invisible {c:?}");
        }
        for c in ['\u{a0}', '\u{2002}', '\u{2009}', '\u{202f}', '\u{3000}', '\u{2028}', '\u{3164}', '\u{2800}'] {
            assert!(is_hidden(c), "deceptive blank {c:?}");
        }
    }

    #[test]
    fn ordinary_text_is_unchanged() {
        for text in ["José Müller", "李雷 韩梅梅", "Ωμέγα", "😀🎉", "C:\\dir\\file", "\\n", "→·␍", "a  b", ""]
        {
            assert_eq!(visible(text), text);
        }
    }

    #[test]
    fn a_literal_escape_is_not_taken_for_one() {
        assert_eq!(visible("\\u{1b}"), "\\u{5c}u{1b}");
        assert_ne!(visible("\\u{1b}"), visible("\u{1b}"));
        assert_eq!(unescape("\\u{5c}u{1b}"), "\\u{1b}");
        assert_eq!(unescape("\\u{zz}\\u{}\\u{110000}\\u{"), "\\u{zz}\\u{}\\u{110000}\\u{");
    }

    /// Text from a grammar: printable pieces (ASCII, accents, CJK, emoji, the markers reports use, backslashes and
    /// escape look-alikes) mixed with every class of hidden character.
    fn hostile() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            prop::sample::select(vec!["a", "Z", "7", " ", "é", "李", "😀", "→", "·", "␍", "\\", "u{", "}", "\\u{1b}"])
                .prop_map(str::to_string),
            prop::sample::select(vec![
                '\0',
                '\u{7}',
                '\t',
                '\n',
                '\r',
                '\u{1b}',
                '\u{7f}',
                '\u{85}',
                '\u{9b}',
                '\u{ad}',
                '\u{61c}',
                '\u{200b}',
                '\u{200d}',
                '\u{200e}',
                '\u{202e}',
                '\u{2066}',
                '\u{2069}',
                '\u{2060}',
                '\u{feff}',
                '\u{a0}',
                '\u{3000}',
                '\u{2028}',
                '\u{e0041}',
                '\u{3164}',
            ])
            .prop_map(String::from),
            any::<char>().prop_map(String::from),
        ];
        prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn shown_text_has_nothing_hidden_and_reads_back(text in hostile()) {
            let shown = visible(&text);
            prop_assert!(!shown.chars().any(is_hidden), "{shown:?}");
            prop_assert_eq!(unescape(&shown), text.clone());
            let multi = visible_text(&text);
            prop_assert!(!multi.chars().any(|c| is_hidden(c) && c != '\n' && c != '\t'), "{multi:?}");
            prop_assert_eq!(unescape(&multi), text);
        }

        #[test]
        fn different_texts_are_shown_differently(a in hostile(), b in hostile()) {
            prop_assert_eq!(a == b, visible(&a) == visible(&b));
            prop_assert_eq!(a == b, visible_text(&a) == visible_text(&b));
        }
    }
}
