//! Student ids from hand-in names: the course's and Canvas's naming rules read the id out of a name
//! ([`student_id`]), which is then made safe to use as a file name, in a URL and on a terminal line
//! ([`safe_id`]). Hand-in names are anything a student or a download tool chose (any Unicode, spaces, newlines,
//! leading dashes, hundreds of characters), so everything here works on characters, never on byte offsets, and
//! never fails.

use std::path::Path;

use sha2::{Digest, Sha256};

/// The most characters an id keeps; a longer one is cut and given a suffix from the hash of the whole name, so two
/// long names that share a beginning stay two ids. 48 characters of at most 4 bytes keep every file named after an
/// id (`<id>.json`, `<id>-vs-<id>`) under the 255-byte limit of a file name.
pub const MAX_ID_CHARS: usize = 48;

/// The student id in a hand-in name: the name without its extension and without the course's `-HW2-P3` /
/// `HW2P3` suffix (any homework and part numbers, any case); a Canvas bulk-download name
/// (`smithgina_12345_67890_gina-HW2-P3.zip`, `smithgina_LATE_12345_67890_...`) gives its login, `smithgina`.
/// The result is the name's own text, not yet safe: see [`safe_id`].
pub fn student_id(name: &str) -> String {
    let stem = strip_zip(name);
    if let Some(login) = canvas_login(stem) {
        return login.to_string();
    }
    // ASCII lowercasing keeps every byte offset, so an offset found in `lower` is a char boundary of `stem` too.
    let lower = stem.to_ascii_lowercase();
    // A trailing "hw<digits>" optionally followed by "-"/"_" and "p<digits>", preceded by an optional "-"/"_".
    let cut =
        lower.char_indices().map(|(i, _)| i).find(|&i| lower[i..].starts_with("hw") && is_suffix(&lower[i + 2..]));
    let id = match cut {
        Some(i) if i > 0 => stem[..i].trim_end_matches(['-', '_', ' ']),
        _ => stem,
    };
    if id.is_empty() {
        stem.to_string()
    } else {
        id.to_string()
    }
}

/// `name` without a final `.zip` in any case.
fn strip_zip(name: &str) -> &str {
    match name.char_indices().rev().nth(3) {
        Some((i, _)) if name[i..].eq_ignore_ascii_case(".zip") => &name[..i],
        _ => name,
    }
}

/// The login of a Canvas bulk-download name: `<login>[_LATE]_<user id>_<submission id>[_<file name>]`. Two
/// all-digit fields are required, so that an ordinary name with one number in it is never taken for one.
fn canvas_login(stem: &str) -> Option<&str> {
    let mut parts = stem.split('_');
    let login = parts.next().filter(|l| !l.is_empty() && l.chars().all(char::is_alphanumeric))?;
    let mut next = parts.next()?;
    if next.eq_ignore_ascii_case("late") {
        next = parts.next()?;
    }
    let number = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit());
    (number(next) && number(parts.next()?)).then_some(login)
}

fn is_suffix(rest: &str) -> bool {
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let rest = rest[digits..].trim_start_matches(['-', '_']);
    if rest.is_empty() {
        return true;
    }
    let Some(part) = rest.strip_prefix('p') else { return false };
    let d = part.chars().take_while(char::is_ascii_digit).count();
    d > 0 && part[d..].is_empty()
}

/// `raw` (a [`student_id`]) made safe: letters and digits of any script (with their combining accents, as macOS
/// spells `é`), `-`, `_`, `.` and `@` are kept; anything else (spaces, slashes, control and format characters)
/// becomes `_`; a leading `.` or `-` becomes `_` (never a hidden file, `..` or an option); at most
/// [`MAX_ID_CHARS`] characters (a longer id ends in `-` and 8 hex digits of the hash of `raw`); never empty.
/// A safe id is its own [`safe_id`].
pub fn safe_id(raw: &str) -> String {
    let mut id: String = raw.chars().map(|c| if is_safe(c) { c } else { '_' }).collect();
    let lead = id.chars().take_while(|c| matches!(c, '.' | '-')).count();
    id = "_".repeat(lead) + &id[lead..];
    if id.is_empty() {
        return "student".into();
    }
    if id.chars().count() > MAX_ID_CHARS {
        let keep: String = id.chars().take(MAX_ID_CHARS - 9).collect();
        id = format!("{keep}-{}", &hex_digest(raw)[..8]);
    }
    id
}

/// Whether `c` may stand in an id as it is.
fn is_safe(c: char) -> bool {
    !crate::visible::is_hidden(c) && (c.is_alphanumeric() || "-_.@".contains(c) || is_combining_mark(c))
}

/// The combining-mark blocks (an accent written as its own character after the letter, as in NFD names).
fn is_combining_mark(c: char) -> bool {
    matches!(u32::from(c), 0x300..=0x36F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// SHA-256 of `text` in hex: a suffix that is the same on every machine and in every run.
pub fn hex_digest(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// `id` with a suffix from the hash of the hand-in's `name`, `hex` digits long, kept within [`MAX_ID_CHARS`]:
/// the id of a hand-in whose id another hand-in already has.
pub fn suffixed(id: &str, name: &str, hex: usize) -> String {
    let digest = hex_digest(name);
    let hex = hex.min(digest.len());
    let keep: String = id.chars().take(MAX_ID_CHARS - hex - 1).collect();
    format!("{keep}-{}", &digest[..hex])
}

/// The student id of a single hand-in at `path` (`--dir carol-HW2-P3.zip` is `carol`); `submission` when the
/// path has no name of its own.
pub fn submission_id(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    match absolute.file_name() {
        Some(name) => safe_id(&student_id(&name.to_string_lossy())),
        None => "submission".into(),
    }
}

/// A hand-in name as it may be printed on a terminal line or in a log: control characters, format characters
/// (bidirectional overrides, zero-width joiners), the byte-order mark and spaces that are not `U+0020` are written
/// as `\u{..}` ([`crate::visible::visible`]), so a name can neither move the cursor, recolor the terminal, break a
/// line nor reorder the text around it.
pub fn printable(name: &str) -> String {
    crate::visible::visible(name)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes or
    // generates, never on user input; a failure is the test failing.
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn ids_from_the_course_hand_in_names() {
        assert_eq!(student_id("crdyer-HW2-P3.zip"), "crdyer");
        assert_eq!(student_id("crdyerHW2P3.zip"), "crdyer");
        assert_eq!(student_id("bob_hw2_p3"), "bob");
        assert_eq!(student_id("carol-HW2-P3"), "carol");
        assert_eq!(student_id("dave-hw10"), "dave");
        assert_eq!(student_id("erin"), "erin");
        assert_eq!(student_id("hw2p3"), "hw2p3");
        assert_eq!(student_id("shw2x.zip"), "shw2x");
    }

    /// The names of the field report: each crashed the class run (a byte offset inside a letter).
    #[test]
    fn names_beyond_ascii_keep_their_letters() {
        assert_eq!(student_id("José-HW2-P3"), "José");
        assert_eq!(student_id("zoë_12345_67890_zoë-HW2-P3.zip"), "zoë");
        assert_eq!(student_id("李雷-HW2-P3"), "李雷");
        assert_eq!(student_id("李雷HW2P3.ZIP"), "李雷");
        assert_eq!(student_id("ö.zip"), "ö");
        for raw in ["José", "zoë", "李雷", "Jose\u{301}"] {
            assert_eq!(safe_id(raw), raw, "a name in another script is already safe");
        }
    }

    #[test]
    fn a_single_hand_in_is_named_after_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let zip = dir.path().join("carol-HW2-P3.zip");
        std::fs::write(&zip, b"").unwrap();
        assert_eq!(submission_id(&zip), "carol");
        assert_eq!(submission_id(&dir.path().join("smithgina_LATE_1_2_x.zip")), "smithgina");
        assert_eq!(submission_id(&dir.path().join("José-HW2-P3")), "José");
        assert_eq!(submission_id(&dir.path().join("-rf x")), "_rf_x");
        assert_eq!(submission_id(Path::new("/")), "submission");
    }

    #[test]
    fn canvas_bulk_download_names_give_the_login() {
        assert_eq!(student_id("smithgina_12345_67890_gina-HW2-P3.zip"), "smithgina");
        assert_eq!(student_id("smithgina_LATE_12345_67890_gina-HW2-P3.zip"), "smithgina");
        assert_eq!(student_id("smithgina_late_12345_67890_TakeStones.zip"), "smithgina");
        assert_eq!(student_id("smithgina_12345_67890"), "smithgina");
        // One number is not Canvas's pattern; the course suffix rule still applies.
        assert_eq!(student_id("bob_2024_hw2_p3.zip"), "bob_2024");
        assert_eq!(student_id("bob_12_x"), "bob_12_x");
    }

    #[test]
    fn unsafe_characters_are_replaced_and_long_ids_cut() {
        assert_eq!(safe_id("pat lee"), "pat_lee");
        assert_eq!(safe_id("a/b\nc\u{1b}[31m"), "a_b_c__31m");
        assert_eq!(safe_id("--rf"), "__rf");
        assert_eq!(safe_id(".."), "__");
        assert_eq!(safe_id(""), "student");
        assert_eq!(safe_id("evil\u{202e}gnp.exe"), "evil_gnp.exe");
        let long = "x".repeat(300);
        let cut = safe_id(&long);
        assert_eq!(cut.chars().count(), MAX_ID_CHARS);
        assert_ne!(cut, safe_id(&format!("{long}y")), "two long names sharing a beginning");
        assert_eq!(suffixed("pat_lee", "pat lee", 6), format!("pat_lee-{}", &hex_digest("pat lee")[..6]));
    }

    #[test]
    fn printable_names_cannot_drive_a_terminal() {
        assert_eq!(printable("ab\u{1b}[2J\r\n"), "ab\\u{1b}[2J\\u{d}\\u{a}");
        assert_eq!(printable("José 李雷"), "José 李雷");
        assert_eq!(printable("x\u{202e}y"), "x\\u{202e}y");
    }

    proptest! {
        /// Any name at all: no panic, and the id is safe, short, non-empty, and stays the same when made safe again.
        #[test]
        fn any_name_gives_a_safe_id(name in "\\PC{0,80}|.{0,300}|[-. \n\t]{0,5}[\\p{L}\\p{M}\\p{N}]{0,20}(-?[hH][wW]\\d{1,2}[-_]?[pP]?\\d{0,2})?(\\.zip)?") {
            let id = safe_id(&student_id(&name));
            prop_assert!(!id.is_empty());
            prop_assert!(id.chars().count() <= MAX_ID_CHARS);
            prop_assert!(id.len() <= 4 * MAX_ID_CHARS);
            prop_assert!(id.chars().all(is_safe), "{id:?}");
            prop_assert!(!id.starts_with(['.', '-']), "{id:?}");
            prop_assert_eq!(safe_id(&id), id.clone());
            prop_assert!(!printable(&name).chars().any(|c| c.is_control()));
        }
    }
}
