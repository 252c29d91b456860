//! Reading a class folder for comparison: the same hand-ins, ids and unpacking as `grade`
//! ([`crate::harness::grade::roster`], [`crate::harness::grade::handin`]), every source file of the language taken
//! together. A file that cannot be compared (binary, too large, another language) is left out with a note; a
//! hand-in that cannot be read keeps its row with the reason.

use std::path::Path;

use super::lang::Lang;
use super::source::{Handin, LangChoice, Source};
use crate::harness::grade::handin::files;
use crate::harness::grade::ids::printable;
use crate::harness::grade::roster::{self, ClassError};

/// The largest source file compared (larger ones are noted and left out: no hand-written program is this long).
pub const MAX_FILE: usize = 1 << 20;

/// A class read for comparison.
#[derive(Clone, Debug, Default)]
pub struct Class {
    /// Every hand-in, sorted by id.
    pub handins: Vec<Handin>,
    /// The language compared.
    pub lang: Option<Lang>,
    /// Notes on the class as a whole (hand-ins renamed, folders skipped), printable.
    pub notes: Vec<String>,
}

/// The hand-ins of the class folder `dir` (the paths in `skip`, such as the run's `--out`, left out).
///
/// # Errors
/// An unreadable class folder, or one with no hand-in.
pub fn collect(dir: &Path, skip: &[&Path], choice: LangChoice) -> Result<Class, ClassError> {
    let roster = roster::read(dir, skip)?;
    let mut handins = Vec::with_capacity(roster.entries.len());
    for entry in &roster.entries {
        let mut handin = Handin { id: entry.id.clone(), ..Handin::default() };
        match files(&entry.path) {
            Ok(found) => sources(found, &mut handin),
            Err(e) => handin.notes.push(format!("unreadable: {}", printable(&e.to_string()))),
        }
        handins.push(handin);
    }
    let lang = match choice {
        LangChoice::Only(lang) => Some(lang),
        LangChoice::Auto => main_language(&handins),
    };
    for handin in &mut handins {
        keep_only(handin, lang);
    }
    Ok(Class { handins, lang, notes: roster.notes })
}

/// The files of a template folder or zip, of `lang` (or of every language when `None`).
///
/// # Errors
/// An unreadable template.
pub fn template(path: &Path, lang: Option<Lang>) -> std::io::Result<Vec<Source>> {
    let mut handin = Handin::default();
    sources(files(path)?, &mut handin);
    keep_only(&mut handin, lang);
    Ok(handin.files)
}

/// The language most hand-ins have files of (Java on a tie), or none when no hand-in has a source file.
fn main_language(handins: &[Handin]) -> Option<Lang> {
    let count = |lang| handins.iter().filter(|h| h.files.iter().any(|f| f.lang == lang)).count();
    let (java, python) = (count(Lang::Java), count(Lang::Python));
    if java == 0 && python == 0 {
        None
    } else if python > java {
        Some(Lang::Python)
    } else {
        Some(Lang::Java)
    }
}

/// Keeps the files of `lang`, noting the others.
fn keep_only(handin: &mut Handin, lang: Option<Lang>) {
    let Some(lang) = lang else { return };
    let (kept, other): (Vec<Source>, Vec<Source>) =
        std::mem::take(&mut handin.files).into_iter().partition(|f| f.lang == lang);
    for f in other {
        handin.notes.push(format!("{}: {} source, not compared in a {} class", f.path, f.lang.name(), lang.name()));
    }
    handin.files = kept;
}

/// The source files among `found`, read as text; binary and oversized ones noted and left out.
fn sources(found: Vec<(String, Vec<u8>)>, handin: &mut Handin) {
    for (path, bytes) in found {
        let Some(lang) = Lang::of(&path) else { continue };
        let shown = printable(&path);
        if bytes.len() > MAX_FILE {
            handin.notes.push(format!(
                "{shown}: {} bytes, larger than the {} compared: left out",
                bytes.len(),
                MAX_FILE
            ));
            continue;
        }
        if bytes.iter().take(8192).any(|b| *b == 0) {
            handin.notes.push(format!("{shown}: binary (holds NUL bytes), not source: left out"));
            continue;
        }
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                handin.notes.push(format!("{shown}: not UTF-8, compared with the bad bytes replaced"));
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        handin.files.push(Source { path: shown, text, lang });
    }
}
