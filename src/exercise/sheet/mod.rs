//! A student's sheet: what each problem states ([`Sheet`], made by the generators), written out as Markdown
//! ([`markdown`]) and as one self-contained, print-friendly HTML page with the figures as inline SVG ([`html`],
//! [`svg`]). The questions come from the variant's parts; the answer file's key for each is printed beside it,
//! so the student knows where each answer goes.

pub mod html;
pub mod markdown;
pub mod svg;

use super::Variant;

/// How one problem is stated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sheet {
    /// Paragraphs before the data.
    pub intro: Vec<String>,
    /// The figure (inline SVG, made by [`svg`]) and a sentence describing it; only the HTML sheet draws it.
    pub figure: Option<Figure>,
    /// The problem's data.
    pub blocks: Vec<Block>,
    /// The conventions the answers follow (search order, tie-breaks), one per item.
    pub conventions: Vec<String>,
}

/// A drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// The `<svg>` element (made here, never from student text).
    pub svg: String,
    /// What it shows, for readers that cannot see it.
    pub alt: String,
}

/// A piece of the problem's data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A table with a caption.
    Table {
        /// The caption.
        caption: String,
        /// Column headers.
        headers: Vec<String>,
        /// Rows of cells.
        rows: Vec<Vec<String>>,
    },
    /// A list with a caption.
    List {
        /// The caption.
        caption: String,
        /// One entry per item.
        items: Vec<String>,
    },
    /// A tree as an indented outline: `(depth, text)` in pre-order.
    Outline {
        /// The caption.
        caption: String,
        /// The nodes.
        lines: Vec<(usize, String)>,
    },
}

/// What a whole sheet holds for one student: their id and their variants, in the order asked.
#[derive(Clone, Copy, Debug)]
pub struct Student<'a> {
    /// The student id.
    pub id: &'a str,
    /// One variant per kind.
    pub variants: &'a [Variant],
}

/// The line every sheet starts with under its title.
pub fn preamble(student: &Student<'_>) -> String {
    format!(
        "Written problems for {}. Your problems are your own: other students have different trees, numbers and \
         answers. Write your answers in the answer file (answers.txt) that came with this sheet, after the key \
         shown with each question; the command referee exercise check checks its form before you hand it in.",
        student.id
    )
}
