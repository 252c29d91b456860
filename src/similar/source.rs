//! What one hand-in brings to the comparison: its source files of the chosen language, and notes on what was
//! left out.

use super::lang::Lang;

/// One source file, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The path inside the hand-in, `/`-separated and printable.
    pub path: String,
    /// The text (invalid UTF-8 replaced).
    pub text: String,
    /// Its language.
    pub lang: Lang,
}

/// One student's hand-in as compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handin {
    /// The id, as in the gradebook.
    pub id: String,
    /// The files compared, sorted by path.
    pub files: Vec<Source>,
    /// One line per file left out or read with a note (binary, too large, another language), printable.
    pub notes: Vec<String>,
}

/// Which languages a run compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LangChoice {
    /// Only this one.
    Only(Lang),
    /// Every language with a tokenizer; the class's main language is the one most hand-ins have.
    Auto,
}
