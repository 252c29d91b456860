//! The Fall 2019 output: six lines.

use std::io::{self, Write};

use super::{Options, Solution};
use crate::reference::number::format_fixed;

/// Writes the six stat lines, each ending in a newline. `value` is the root's exact double (its sign matters for
/// [`crate::reference::number::NegativeZero::Keep`]).
///
/// # Errors
/// When `out` fails.
pub fn write_stats(out: &mut dyn Write, solution: &Solution, value: f64, options: Options) -> io::Result<()> {
    let fmt = |x: f64| format_fixed(x, 1, options.rounding, options.negative_zero);
    let c = &solution.counters;
    // A solution exists only when the root was expanded, so the branching factor is defined.
    let ebf = c.effective_branching().unwrap_or(0.0);
    write!(
        out,
        "Move: {}\nValue: {}\nNumber of Nodes Visited: {}\nNumber of Nodes Evaluated: {}\nMax Depth Reached: {}\n\
         Avg Effective Branching Factor: {}\n",
        solution.best,
        fmt(value),
        c.visited,
        c.evaluated,
        c.max_depth,
        fmt(ebf)
    )
}
