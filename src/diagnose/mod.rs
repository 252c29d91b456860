//! Telling a student *which* bug their output shows, and the smallest input that shows it.
//!
//! Per game: [`takestones`]; for any program that never got as far as printing: [`startup`]. Built on the reference (what is right) and the harness runner (what the submission
//! prints); the `referee check` command drives it.

pub mod startup;
pub mod takestones;

use crate::harness::cause::{Cause, Diagnose};
use crate::harness::suite::{Reading, ReferenceGame, ReferenceSpec};
use crate::reference::takestones::parse_numbers;

/// Boards larger than this are not diagnosed when grading (each case is replayed under every variant and pair).
pub const MAX_DIAGNOSED_STONES: u32 = 40;

/// The diagnosis grading asks for each failed case: the catalog of known bugs of the suite's reference game.
pub struct Catalog;

/// The one [`Catalog`], registered by [`register`].
pub static CATALOG: Catalog = Catalog;

impl Diagnose for Catalog {
    fn causes(&self, reference: &ReferenceSpec, args: &[String], stdout: &[u8], accept: &[Reading]) -> Vec<Cause> {
        let ReferenceGame::Takestones = reference.game;
        let Ok((position, depth)) = parse_numbers(args) else { return Vec::new() };
        let Ok(printed) = std::str::from_utf8(stdout) else { return Vec::new() };
        if position.n() > MAX_DIAGNOSED_STONES {
            return Vec::new();
        }
        let observation = takestones::Observation { position, depth, printed: printed.to_string() };
        takestones::diagnose(reference.edition.into(), &[observation]).causes(accept)
    }
}

/// Registers [`CATALOG`] as the diagnosis grading asks ([`crate::harness::cause::register`]).
pub fn register() {
    crate::harness::cause::register(&CATALOG);
}
