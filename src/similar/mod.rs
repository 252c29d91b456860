//! `referee similar`: how alike the hand-ins of a class are, with the course's template left out.
//!
//! Hand-ins are read as `grade` reads them ([`collect`]); each file is tokenized by a tolerant lexer ([`lexer`]),
//! normalised against disguise ([`normalise`]), cut into k-grams and winnowed ([`winnow`]); an inverted index
//! ([`index`]) finds every pair that shares fingerprints, the template's and the class-wide common ones removed;
//! the pairs worth listing get their shared fragments ([`fragments`]) and form clusters ([`cluster`]). It accuses
//! no one: it shows what is alike and where.

pub mod analysis;
pub mod bench;
pub mod cluster;
pub mod collect;
pub mod fragments;
pub mod html;
pub mod index;
pub mod lang;
pub mod lexer;
pub mod normalise;
pub mod output;
pub mod prepare;
pub mod source;
pub mod winnow;

pub use analysis::{analyse, Analysis, Pair, Params};
pub use lang::Lang;
pub use source::{Handin, LangChoice, Source};
