//! Pretty JSON whose strings show every hidden character ([`crate::visible::is_hidden`]) as a JSON `\uXXXX`
//! escape: the value a program reads back is exactly the one written, and a person opening the file sees a bidi
//! override or a zero-width space as its code instead of having the text around it reordered or two different
//! strings look alike. `serde_json` escapes quotes, backslashes and C0 controls itself; this adds `DEL`, C1,
//! format characters and the other hidden classes.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// Writes `value` as two-space indented JSON with hidden characters escaped (no newline at the end).
///
/// # Errors
///
/// The writer's errors, or serialization's (a map with non-string keys).
pub fn to_writer_pretty<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, Visible(PrettyFormatter::new()));
    value.serialize(&mut serializer).map_err(io::Error::from)
}

/// [`to_writer_pretty`] into a new buffer.
///
/// # Errors
///
/// As [`to_writer_pretty`].
pub fn to_vec_pretty<T: Serialize + ?Sized>(value: &T) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    to_writer_pretty(&mut bytes, value)?;
    Ok(bytes)
}

/// The pretty formatter with string fragments escaped where [`crate::visible::is_hidden`] says so.
struct Visible(PrettyFormatter<'static>);

impl Formatter for Visible {
    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if crate::visible::is_hidden(c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{:04x}", unit)?;
                }
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_read_back() {
        let value = serde_json::json!({"id": "a\u{202e}b\u{7f}\u{85}\u{200b}\u{e0041}\u{1b}", "n": [1, "李😀"]});
        let bytes = to_vec_pretty(&value).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains(r"a\u202eb\u007f\u0085\u200b\udb40\udc41\u001b"), "{text}");
        assert!(text.contains("李😀"));
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
        assert_eq!(
            text,
            serde_json::to_string_pretty(&serde_json::json!({"id": "x", "n": [1, "李😀"]}))
                .unwrap()
                .replace("\"x\"", r#""a\u202eb\u007f\u0085\u200b\udb40\udc41\u001b""#)
        );
    }
}
