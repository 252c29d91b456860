//! A hand-in made ready for comparison: every file's normalised symbols end to end, and the fingerprints that
//! winnowing keeps (k-grams never span two files).

use std::collections::HashMap;

use super::lexer::lex;
use super::normalise::{count_names, normalise, Passes};
use super::source::Source;
use super::winnow::{kgrams, winnow, Print};

/// A hand-in's symbols and fingerprints.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// The normalised symbols of all files, file after file.
    pub syms: Vec<u32>,
    /// For each symbol, its line in its file.
    pub lines: Vec<u32>,
    /// For each symbol, its file's index in the hand-in's files.
    pub files: Vec<u16>,
    /// The fingerprints winnowing kept, by position.
    pub prints: Vec<Print>,
    /// Every k-gram hash, by position (what template matching and fragments need).
    pub kgrams: Vec<u64>,
    /// For each symbol, whether it lies in code the template has (set by the analysis; empty without one).
    pub template: Vec<bool>,
}

/// Tokenizes, normalises and fingerprints `files` as one hand-in.
pub fn prepare(files: &[Source], k: usize, window: usize, passes: Passes) -> Prepared {
    let lexed: Vec<_> = files.iter().map(|f| lex(&f.text, f.lang)).collect();
    let mut names = HashMap::new();
    for (f, tokens) in files.iter().zip(&lexed) {
        count_names(&f.text, tokens, &mut names);
    }
    let mut out = Prepared::default();
    for (index, (f, tokens)) in files.iter().zip(&lexed).enumerate() {
        let syms = normalise(&f.text, tokens, f.lang, &names, passes);
        let base = out.syms.len();
        let file_syms: Vec<u32> = syms.iter().map(|s| s.sym).collect();
        let hashes = kgrams(&file_syms, k);
        out.prints.extend(winnow(&hashes, window, base as u32));
        out.kgrams.extend(&hashes);
        // Keep `kgrams` aligned with positions: a file's last k-1 symbols start no k-gram.
        out.kgrams.extend(std::iter::repeat(0).take(file_syms.len() - hashes.len()));
        out.syms.extend(file_syms);
        out.lines.extend(syms.iter().map(|s| s.line));
        out.files.extend(std::iter::repeat(u16::try_from(index).unwrap_or(u16::MAX)).take(syms.len()));
    }
    out
}
