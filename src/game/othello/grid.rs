//! The plain array board (any even size 4 to 16): the representation for large boards, parsing and drawing.

use super::cell::{cell_of, DARK, EMPTY, LIGHT};
use super::{Move, SizeError, DIRECTIONS};
use crate::game::Player;
use std::fmt;

/// A board as the course holds it, `cells[row][col]` with 0 empty, 1 dark, 2 light; only the top-left
/// `size` x `size` corner is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    size: u8,
    cells: [[u8; 16]; 16],
}

impl Grid {
    /// The empty board of `size` squares a side.
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is even and in 4..=16.
    pub fn empty(size: usize) -> Result<Grid, SizeError> {
        SizeError::check(size)?;
        Ok(Grid::blank(size as u8))
    }

    /// The empty board of a size already known to be valid.
    pub(super) fn blank(size: u8) -> Grid {
        Grid { size, cells: [[EMPTY; 16]; 16] }
    }

    /// The course's starting position: with k = size/2 - 1, light on (k, k) and (k+1, k+1), dark on (k+1, k) and
    /// (k, k+1) (`board[row][col]`).
    ///
    /// # Errors
    /// [`SizeError`] unless `size` is even and in 4..=16.
    pub fn start(size: usize) -> Result<Grid, SizeError> {
        let mut grid = Grid::empty(size)?;
        let k = size / 2 - 1;
        grid.cells[k][k] = LIGHT;
        grid.cells[k + 1][k + 1] = LIGHT;
        grid.cells[k + 1][k] = DARK;
        grid.cells[k][k + 1] = DARK;
        Ok(grid)
    }

    /// The cell at `board[row][col]` (0, 1 or 2); empty outside the board.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        if row < self.size() && col < self.size() {
            self.cells[row][col]
        } else {
            EMPTY
        }
    }

    /// Sets `board[row][col]`; values other than 1 and 2 and squares outside the board are ignored (left empty).
    pub fn set(&mut self, row: usize, col: usize, cell: u8) {
        if row < self.size() && col < self.size() {
            self.cells[row][col] = if cell == DARK || cell == LIGHT { cell } else { EMPTY };
        }
    }

    /// The discs `player` would flip by playing column `col`, row `row`, as a list of squares (row, col).
    fn flips(&self, player: Player, col: usize, row: usize) -> Vec<(usize, usize)> {
        let own = cell_of(player);
        let opp = cell_of(player.opponent());
        let n = self.size() as isize;
        let mut flips = Vec::new();
        for (dx, dy) in DIRECTIONS.map(|(dx, dy)| (isize::from(dx), isize::from(dy))) {
            let (mut c, mut r) = (col as isize + dx, row as isize + dy);
            let mut line = Vec::new();
            while c >= 0 && r >= 0 && c < n && r < n && self.cells[r as usize][c as usize] == opp {
                line.push((r as usize, c as usize));
                c += dx;
                r += dy;
            }
            if !line.is_empty() && c >= 0 && r >= 0 && c < n && r < n && self.cells[r as usize][c as usize] == own {
                flips.extend(line);
            }
        }
        flips
    }

    fn is_legal(&self, player: Player, col: usize, row: usize) -> bool {
        self.cells[row][col] == EMPTY && !self.flips(player, col, row).is_empty()
    }
}

/// A grid's legal moves: a 256-square set indexed `16 * col + row`, so that increasing order is column-major.
#[derive(Clone, Copy, Debug)]
pub struct GridMoves {
    words: [u64; 4],
}

impl Iterator for GridMoves {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let w = self.words.iter().position(|&w| w != 0)?;
        let bit = self.words[w].trailing_zeros() as usize;
        self.words[w] &= self.words[w] - 1;
        let index = 64 * w + bit;
        Some(Move { col: (index / 16) as u8, row: (index % 16) as u8 })
    }
}

impl Grid {
    /// Squares per side.
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// `player`'s legal moves in column-major order (the course's `get_possible_moves`).
    pub fn legal_moves(&self, player: Player) -> GridMoves {
        let mut words = [0u64; 4];
        for col in 0..self.size() {
            for row in 0..self.size() {
                if self.is_legal(player, col, row) {
                    let index = 16 * col + row;
                    words[index / 64] |= 1 << (index % 64);
                }
            }
        }
        GridMoves { words }
    }

    /// Whether `player` has a legal move.
    pub fn has_move(&self, player: Player) -> bool {
        (0..self.size()).any(|col| (0..self.size()).any(|row| self.is_legal(player, col, row)))
    }

    /// The board after `player` plays `mv` (which must be legal), every closed line flipped.
    pub fn play(&self, player: Player, mv: Move) -> Grid {
        let (col, row) = (usize::from(mv.col), usize::from(mv.row));
        let mut next = *self;
        for (r, c) in self.flips(player, col, row) {
            next.cells[r][c] = cell_of(player);
        }
        next.cells[row][col] = cell_of(player);
        next
    }

    /// How many discs `player` has on the board.
    pub fn count(&self, player: Player) -> u32 {
        let cell = cell_of(player);
        self.cells.iter().flatten().filter(|&&c| c == cell).count() as u32
    }
}

impl fmt::Display for Grid {
    /// Rows top to bottom, `.` empty, `X` dark, `O` light, column numbers above and row numbers on the left.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        let w = if n > 10 { 2 } else { 1 };
        write!(f, "{:w$}", "")?;
        for col in 0..n {
            write!(f, " {col:>w$}")?;
        }
        writeln!(f)?;
        for row in 0..n {
            write!(f, "{row:>w$}")?;
            for col in 0..n {
                let c = match self.cells[row][col] {
                    DARK => 'X',
                    LIGHT => 'O',
                    _ => '.',
                };
                write!(f, " {c:>w$}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
