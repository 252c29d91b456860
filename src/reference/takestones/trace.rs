//! The Spring 2017 output: one entry per node, right before it returns.

use std::io::{self, Write};

use crate::game::takestones::Stones;
use crate::search::{NodeExit, Observer};

/// Writes each returning node as the 2017 skeleton did: the stone taken to reach it (the root: the last taken
/// stone, or -1), the available stones each followed by a space, then `alpha: A<TAB>beta: B` with the node's final
/// local bounds. The first write error stops the search and is kept for [`TraceWriter::finish`].
pub struct TraceWriter<'a, B, W> {
    board: &'a B,
    out: W,
    error: Option<io::Error>,
}

impl<'a, B: Stones, W: Write> TraceWriter<'a, B, W> {
    /// A trace of searches on `board` into `out`.
    pub fn new(board: &'a B, out: W) -> Self {
        TraceWriter { board, out, error: None }
    }

    /// The first write error, if any.
    ///
    /// # Errors
    /// The error that stopped the trace.
    pub fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }

    fn write_node(&mut self, node: &NodeExit<'_, B, i32>) -> io::Result<()> {
        let stone = match node.via {
            Some(stone) => i64::from(stone),
            None => self.board.last(node.state).map_or(-1, i64::from),
        };
        writeln!(self.out, "{stone}")?;
        write_stones(&mut self.out, &self.board.available(node.state))?;
        let (alpha, beta) = node.window.unwrap_or((-1000, 1000));
        writeln!(self.out, "alpha: {alpha}\tbeta: {beta}")
    }
}

impl<B: Stones, W: Write> Observer<B, i32> for TraceWriter<'_, B, W> {
    fn exit(&mut self, node: &NodeExit<'_, B, i32>) {
        if self.error.is_none() {
            if let Err(e) = self.write_node(node) {
                self.error = Some(e);
            }
        }
    }

    fn should_stop(&mut self) -> bool {
        self.error.is_some()
    }
}

/// Writes stones as the skeleton's `"%d "` loop did: each followed by one space, then a newline.
pub(super) fn write_stones(out: &mut dyn Write, stones: &[u32]) -> io::Result<()> {
    let mut line = String::with_capacity(stones.len() * 4 + 1);
    for s in stones {
        line.push_str(&s.to_string());
        line.push(' ');
    }
    line.push('\n');
    out.write_all(line.as_bytes())
}
