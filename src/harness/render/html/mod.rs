//! `report.html`: a class run (or a tournament) at a glance, one self-contained file a TA opens in a browser.
//!
//! The page has no script and loads nothing: the style sheet is inline ([`page::STYLE`]), charts are inline SVG
//! ([`chart`]), so it reads the same offline, from a zip, and on paper. Tables are real tables with `<th scope>`
//! headers and a caption; a status is always a word in a coloured badge, never a colour alone; below 40rem wide
//! the layout narrows for a phone, and print rules drop the navigation.
//!
//! - [`class::render_class`]: summary and score histogram, a table per case, the causes across the class
//!   ([`causes::tally`]) and a row per student linking to their feedback file.
//! - The tournament page lives with the tournament (`app::arena::report`) and is built from the same pieces.
//!
//! Every string a student chose or their program printed goes through [`escape::text`].

pub mod causes;
pub mod chart;
pub mod class;
pub mod escape;
pub mod page;

pub use class::{render_class, ClassPage};
