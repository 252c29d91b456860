//! Escaping for HTML: every string a student or their program chose (ids, stderr, compiler lines, case output)
//! passes through [`text`] before it reaches the page, so none of it can open a tag, close an attribute or run
//! a script.

use crate::harness::render::visible::strip_ansi;
use crate::visible::visible_text;

/// `raw` safe inside an element or a double- or single-quoted attribute: ANSI color codes are dropped, every
/// other hidden character except newline and tab is shown as `\u{..}` ([`crate::visible::visible_text`]: bidi
/// controls and zero-width characters too), then `& < > " '` become entities.
///
/// ```
/// use referee::harness::render::html::escape::text;
///
/// assert_eq!(text("<b onclick=\"x\">&'"), "&lt;b onclick=&quot;x&quot;&gt;&amp;&#39;");
/// assert_eq!(text("\u{1b}[31mred\u{1b}[0m\u{7}"), "red\\u{7}");
/// assert_eq!(text("a\u{202e}b\u{200b}"), "a\\u{202e}b\\u{200b}");
/// ```
pub fn text(raw: &str) -> String {
    let clean = visible_text(&strip_ansi(raw));
    let mut out = String::with_capacity(clean.len() + clean.len() / 8);
    for c in clean.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A relative link target made of path segments, each percent-encoded except for unreserved characters, so a
/// segment can neither leave the folder nor end the attribute.
///
/// ```
/// use referee::harness::render::html::escape::href;
///
/// assert_eq!(href(&["feedback", "a b\".md"]), "feedback/a%20b%22.md");
/// ```
pub fn href(segments: &[&str]) -> String {
    let mut out = String::new();
    for (i, segment) in segments.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        for b in segment.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.~@".contains(&b) {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}
