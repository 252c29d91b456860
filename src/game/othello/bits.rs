//! The fast board for sizes 4, 6 and 8: two `u64` bitboards, shift-based move generation and flips.
//!
//! Square (column c, row r) is bit `8 * c + r`, so increasing bit order is the course's column-major move order.
//! A step in direction (dx, dy) is a shift by `8 * dx + dy`, masked to the squares whose source square is on the
//! board (which also stops wrapping between columns and, below 8x8, leaving the board).

use super::board::{Board, DARK, LIGHT};
use super::grid::Grid;
use super::{Move, SizeError, DIRECTIONS};
use crate::game::Player;

/// Squares of one board size: all of them, and per direction the squares a one-step shift may land on.
struct Geometry {
    full: u64,
    dest: [u64; 8],
}

/// The shift of one step in each of [`DIRECTIONS`] (positive: left shift).
const SHIFTS: [i32; 8] = {
    let mut s = [0i32; 8];
    let mut d = 0;
    while d < 8 {
        s[d] = 8 * DIRECTIONS[d].0 as i32 + DIRECTIONS[d].1 as i32;
        d += 1;
    }
    s
};

const fn geometry(n: i32) -> Geometry {
    let mut full = 0u64;
    let mut dest = [0u64; 8];
    let mut c = 0;
    while c < n {
        let mut r = 0;
        while r < n {
            let bit = 1u64 << (8 * c + r);
            full |= bit;
            let mut d = 0;
            while d < 8 {
                let (sc, sr) = (c - DIRECTIONS[d].0 as i32, r - DIRECTIONS[d].1 as i32);
                if sc >= 0 && sr >= 0 && sc < n && sr < n {
                    dest[d] |= bit;
                }
                d += 1;
            }
            r += 1;
        }
        c += 1;
    }
    Geometry { full, dest }
}

/// Geometries of the 4x4, 6x6 and 8x8 boards.
static GEOMETRIES: [Geometry; 3] = [geometry(4), geometry(6), geometry(8)];

/// A board of size 4, 6 or 8 as two bitboards (bit `8 * col + row`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    dark: u64,
    light: u64,
    /// 0, 1, 2 for sizes 4, 6, 8.
    geometry: u8,
}

/// One step of the set `x` in direction `d`, kept on the board.
#[inline(always)]
fn step(x: u64, d: usize, g: &Geometry) -> u64 {
    let s = SHIFTS[d];
    (if s > 0 { x << s } else { x >> -s }) & g.dest[d]
}

impl Bits {
    fn geometry(&self) -> &'static Geometry {
        &GEOMETRIES[usize::from(self.geometry)]
    }

    /// `player`'s discs, then the opponent's, as bit sets (bit `8 * col + row`).
    #[inline]
    pub fn sides(&self, player: Player) -> (u64, u64) {
        match player {
            Player::Max => (self.dark, self.light),
            Player::Min => (self.light, self.dark),
        }
    }

    /// The set of `player`'s legal squares (bit `8 * col + row`).
    #[inline]
    pub fn move_mask(&self, player: Player) -> u64 {
        let g = self.geometry();
        let (own, opp) = self.sides(player);
        let empty = g.full & !(own | opp);
        let mut moves = 0;
        for d in 0..8 {
            let mut run = step(own, d, g) & opp;
            for _ in 0..5 {
                run |= step(run, d, g) & opp;
            }
            moves |= step(run, d, g) & empty;
        }
        moves
    }

    /// The discs flipped when `player` plays on `square` (a single bit).
    #[inline]
    pub fn flip_mask(&self, player: Player, square: u64) -> u64 {
        let g = self.geometry();
        let (own, opp) = self.sides(player);
        let mut flips = 0;
        for d in 0..8 {
            let mut run = 0;
            let mut x = step(square, d, g);
            while x & opp != 0 {
                run |= x;
                x = step(x, d, g);
            }
            if x & own != 0 {
                flips |= run;
            }
        }
        flips
    }
}

/// A bitboard's legal moves, lowest bit (column-major first) first.
#[derive(Clone, Copy, Debug)]
pub struct BitMoves {
    mask: u64,
}

impl Iterator for BitMoves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.mask == 0 {
            return None;
        }
        let bit = self.mask.trailing_zeros() as u8;
        self.mask &= self.mask - 1;
        Some(Move { col: bit / 8, row: bit % 8 })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.mask.count_ones() as usize;
        (n, Some(n))
    }
}

impl Board for Bits {
    type Moves = BitMoves;

    fn supports(size: usize) -> bool {
        matches!(size, 4 | 6 | 8)
    }

    fn from_grid(grid: &Grid) -> Result<Bits, SizeError> {
        let n = grid.size();
        if !Self::supports(n) {
            return Err(SizeError { size: n, limit: "4, 6 or 8 for the bitboard" });
        }
        let (mut dark, mut light) = (0, 0);
        for col in 0..n {
            for row in 0..n {
                let bit = 1u64 << (8 * col + row);
                match grid.get(row, col) {
                    DARK => dark |= bit,
                    LIGHT => light |= bit,
                    _ => {}
                }
            }
        }
        Ok(Bits { dark, light, geometry: (n / 2 - 2) as u8 })
    }

    fn to_grid(&self) -> Grid {
        let n = self.size();
        let mut grid = Grid::blank(self.size() as u8);
        for col in 0..n {
            for row in 0..n {
                let bit = 1u64 << (8 * col + row);
                if self.dark & bit != 0 {
                    grid.set(row, col, DARK);
                } else if self.light & bit != 0 {
                    grid.set(row, col, LIGHT);
                }
            }
        }
        grid
    }

    fn size(&self) -> usize {
        4 + 2 * usize::from(self.geometry)
    }

    #[inline]
    fn moves(&self, player: Player) -> BitMoves {
        BitMoves { mask: self.move_mask(player) }
    }

    #[inline]
    fn has_move(&self, player: Player) -> bool {
        self.move_mask(player) != 0
    }

    #[inline]
    fn play(&self, player: Player, mv: Move) -> Bits {
        let square = 1u64 << (8 * mv.col + mv.row);
        let flips = self.flip_mask(player, square);
        let (own, opp) = self.sides(player);
        let (own, opp) = (own | square | flips, opp & !flips);
        match player {
            Player::Max => Bits { dark: own, light: opp, ..*self },
            Player::Min => Bits { dark: opp, light: own, ..*self },
        }
    }

    fn count(&self, player: Player) -> u32 {
        self.sides(player).0.count_ones()
    }
}
