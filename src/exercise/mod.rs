//! Per-student variants of the written problems (`referee exercise`), and the grading of their answers.
//!
//! A [`Variant`] is a pure function of (seed, student id, [`Kind`], [`GENERATOR_VERSION`]): [`variant`] draws the
//! problem from a generator seeded by those four ([`seed`]), rejects it until it is well posed (one answer under
//! the sheet's conventions, pruning that happens, small exact numbers, every known wrong method telling itself
//! apart), solves it with the answer-key solvers of [`crate::keys`], and runs each known wrong method
//! ([`wrong`]) to know what a misconception would answer. Nothing is stored: grading makes the variant again.
//!
//! - [`alphabeta`], [`expectimax`], [`mdp`], [`csp`], [`hillclimb`]: one generator per kind of problem.
//! - [`part`]: the parts a sheet asks, what they are worth, their right and wrong answers;
//!   [`misconception`]: the wrong methods' names and sentences.
//! - [`answer`]: how an answer is written and read; [`file`]: the answer file (the template students fill in).
//! - [`grade`]: an answer file against its variants, part by part, into the harness's result model.
//! - [`sheet`]: the student's sheet (Markdown, and HTML with inline SVG); [`key`]: the class key for the TA.
//! - [`roster`]: the ids `make` is given; [`handin`]: the answer files a class folder holds; [`owner`]: which of
//!   those ids a hand-in answers.

pub mod alphabeta;
pub mod answer;
pub mod csp;
pub mod expectimax;
pub mod file;
pub mod grade;
pub mod handin;
pub mod hillclimb;
pub mod key;
pub mod mark;
pub mod mdp;
pub mod misconception;
pub mod named;
pub mod owner;
pub mod part;
pub mod roster;
pub mod seed;
pub mod sheet;
pub mod tree;
pub mod wrong;

use serde::{Deserialize, Serialize};

use part::Part;
use sheet::Sheet;

/// The version of the generators. A variant depends on it, so a generator that changes what it draws gets a new
/// version; sheets and answer files name the version they were made with.
pub const GENERATOR_VERSION: u32 = 1;

/// One kind of written problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A MAX/MIN tree: minimax values, the move, what alpha-beta prunes, a node's final window.
    Alphabeta,
    /// A tree with chance nodes: the expectimax value of the root and of each chance node.
    Expectimax,
    /// A grid or chain MDP: value iteration, the greedy policy, exact policy evaluation.
    Mdp,
    /// A constraint problem: domains after forward checking, the next variable under MRV.
    Csp,
    /// Steepest-descent hill climbing on a small tour.
    Hillclimb,
}

impl Kind {
    /// Every kind, in the order sheets present them.
    pub const ALL: [Kind; 5] = [Kind::Alphabeta, Kind::Expectimax, Kind::Mdp, Kind::Csp, Kind::Hillclimb];

    /// The name used on the command line and as the answer file's section: `alphabeta`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Alphabeta => "alphabeta",
            Kind::Expectimax => "expectimax",
            Kind::Mdp => "mdp",
            Kind::Csp => "csp",
            Kind::Hillclimb => "hillclimb",
        }
    }

    /// The kind called `name` (any case).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The sheet's title for the problem.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Alphabeta => "Minimax and alpha-beta pruning",
            Kind::Expectimax => "Expectimax",
            Kind::Mdp => "Markov decision process",
            Kind::Csp => "Constraint satisfaction: forward checking and MRV",
            Kind::Hillclimb => "Hill climbing on a tour",
        }
    }

    /// The static description of its parts (keys, forms, points), the same for every variant.
    pub fn parts(self) -> &'static [part::PartSpec] {
        match self {
            Kind::Alphabeta => alphabeta::PARTS,
            Kind::Expectimax => expectimax::PARTS,
            Kind::Mdp => mdp::PARTS,
            Kind::Csp => csp::PARTS,
            Kind::Hillclimb => hillclimb::PARTS,
        }
    }
}

/// One student's problem of one kind, with its answers.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The kind.
    pub kind: Kind,
    /// A short name of the problem itself (`ab-1f3a9c02`), printed on the sheet and in the answer file, so a
    /// mismatch between the two shows.
    pub code: String,
    /// The problem as the key tools read it (tree notation, MDP TOML, CSP text, matrix and tour), for the TA.
    pub input: String,
    /// The sheet's statement of the problem.
    pub sheet: Sheet,
    /// The parts asked, in order, with their right and wrong answers.
    pub parts: Vec<Part>,
}

/// What a generator returns: everything of a [`Variant`] but its code, and the text its code is made from.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// Everything that makes the problem what it is, in a canonical form.
    pub canonical: String,
    /// See [`Variant::input`].
    pub input: String,
    /// See [`Variant::sheet`].
    pub sheet: Sheet,
    /// See [`Variant::parts`].
    pub parts: Vec<Part>,
}

/// The variant of `kind` for student `id` under `seed` (ids are compared ignoring case and surrounding spaces).
pub fn variant(seed: u64, id: &str, kind: Kind) -> Variant {
    let mut rng = seed::variant_rng(seed, id, kind);
    let drawn = match kind {
        Kind::Alphabeta => alphabeta::draw(&mut rng),
        Kind::Expectimax => expectimax::draw(&mut rng),
        Kind::Mdp => mdp::draw(&mut rng),
        Kind::Csp => csp::draw(&mut rng),
        Kind::Hillclimb => hillclimb::draw(&mut rng),
    };
    Variant {
        kind,
        code: seed::code(kind, &drawn.canonical),
        input: drawn.input,
        sheet: drawn.sheet,
        parts: drawn.parts,
    }
}
