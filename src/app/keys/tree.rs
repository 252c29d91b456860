//! `referee tree FILE|-`: a game tree's answer key.

use std::io::Write;
use std::path::Path;

use crate::cli::{exit, TreeArgs};
use clap::ValueEnum;

use crate::keys::source;
use crate::keys::tree::order::ChildOrder;
use crate::keys::tree::report::{render, Report};
use crate::keys::tree::{dot, notation, solve, svg, trace};

const PROGRAM: &str = "referee tree";

/// What the command produces: the printed key and the pictures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The tables.
    pub text: String,
    /// The DOT picture.
    pub dot: String,
    /// The SVG picture.
    pub svg: String,
    /// Options that had no effect, one line each (for stderr).
    pub warnings: Vec<String>,
}

/// Builds the key for the tree in `text`; `name` is the file name used in messages.
///
/// # Errors
/// One line, `NAME: line L, column C: message`, for malformed input.
pub fn key(name: &str, text: &str, args: &TreeArgs) -> Result<Key, String> {
    let tree = notation::parse(text).map_err(|e| format!("{name}: {e}"))?;
    let values = solve::solve(&tree).map_err(|e| format!("{name}: {e}"))?;
    let game = args.order.game(&tree, &values.values);
    let trace = trace::trace(&game);
    let searched = trace.as_ref().ok();
    let mut warnings = Vec::new();
    if tree.has_chance() && args.order != ChildOrder::Left {
        warnings.push(format!(
            "--order {} is ignored: this tree has CHANCE nodes, so there is no alpha-beta search to order \
             (expectimax looks at every child)",
            args.order.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
        ));
    }
    let report = Report { tree: &tree, values: &values, trace: &trace, order: args.order };
    Ok(Key {
        text: render(&report, args.format),
        dot: dot::dot(&tree, &values.values, searched),
        svg: svg::svg(&tree, &values.values, searched),
        warnings,
    })
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs the command; returns the exit code.
pub fn run(args: &TreeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let key = match source::read(&args.input).and_then(|(name, text)| key(&name, &text, args)) {
        Ok(key) => key,
        Err(e) => return super::fail(PROGRAM, err, &e),
    };
    for warning in &key.warnings {
        let _ = writeln!(err, "{PROGRAM}: warning: {warning}");
    }
    for (path, content) in [(&args.dot, &key.dot), (&args.svg, &key.svg)] {
        if let Some(path) = path {
            if let Err(e) = write_file(path, content) {
                let _ = writeln!(err, "{PROGRAM}: {e}");
                return exit::INTERNAL;
            }
        }
    }
    super::emit(PROGRAM, &key.text, out, err)
}
