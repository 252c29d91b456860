//! `referee tree FILE|-`: a game tree's answer key.

use std::io::Write;
use std::path::Path;

use crate::cli::{exit, TreeArgs};
use crate::keys::source;
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
    let visited = trace.as_ref().ok().map(|t| t.visited.as_slice());
    let report = Report { tree: &tree, values: &values, trace: &trace, order: args.order };
    Ok(Key {
        text: render(&report, args.format),
        dot: dot::dot(&tree, &values.values, visited),
        svg: svg::svg(&tree, &values.values, visited),
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
