//! Arguments of the answer-key commands `referee tree` and `referee hillclimb`.

use std::path::PathBuf;

use clap::Args;

use crate::keys::table::Format;
use crate::keys::tree::order::ChildOrder;

/// `referee tree FILE|-`.
#[derive(Debug, Clone, Args)]
pub struct TreeArgs {
    /// The tree (see README "Answer keys: referee tree" for the notation), or `-` for stdin.
    #[arg(value_name = "FILE|-")]
    pub input: PathBuf,
    /// text (aligned columns) or md (markdown tables for a key).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// The order children are searched in by alpha-beta: left (as written), reverse, best or worst first.
    #[arg(long, value_enum, default_value_t)]
    pub order: ChildOrder,
    /// Also write the tree with its values and pruned edges as Graphviz DOT to this file.
    #[arg(long, value_name = "OUT.dot")]
    pub dot: Option<PathBuf>,
    /// Also write it as a self-contained SVG picture to this file.
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
}

/// `referee hillclimb MATRIX --tour A,B,C`.
#[derive(Debug, Clone, Args)]
pub struct HillclimbArgs {
    /// The labelled distance matrix: CSV (header of labels, a row per location) or TOML (`labels`,
    /// `distances`); `-` for stdin.
    #[arg(value_name = "MATRIX|-")]
    pub matrix: PathBuf,
    /// The initial tour: labels separated by commas or dashes (`W,M,E,S`), or run together when each is one
    /// character (`WMES`).
    #[arg(long)]
    pub tour: String,
    /// The tour returns to its start (the default is an open tour).
    #[arg(long)]
    pub closed: bool,
    /// text (aligned columns) or md (markdown tables for a key).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}
