//! A validated Take-Stones position: `n` and the stones taken so far, in order.

use super::follows;

/// The largest `n` accepted. The general board handles it at a depth limit; a full search of a position this
/// large would never end, in the reference or in any student's program.
pub const MAX_STONES: u32 = 100_000;

/// What is wrong with a position, phrased for the person who typed it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// `n = 0`.
    #[error("N must be at least 1 (there are no stones to play with)")]
    NoStones,
    /// `n` above [`MAX_STONES`].
    #[error("N = {n} is above the supported maximum of {max} stones")]
    TooManyStones {
        /// The given `n`.
        n: u64,
        /// [`MAX_STONES`].
        max: u32,
    },
    /// A taken stone outside `1..=n`.
    #[error("move {index} takes stone {stone}, which is outside 1..{n}")]
    OutOfRange {
        /// 1-based move number.
        index: usize,
        /// The stone.
        stone: u64,
        /// The number of stones.
        n: u32,
    },
    /// A stone taken twice.
    #[error("move {index} takes stone {stone} again (move {first} already took it)")]
    Repeated {
        /// 1-based move number of the repeat.
        index: usize,
        /// The stone.
        stone: u32,
        /// 1-based move number that took it first.
        first: usize,
    },
    /// A first move that is not an odd stone below `n/2`.
    #[error("move 1 takes stone {stone}, but the first move must take an odd stone strictly less than N/2 = {half}")]
    BadFirstMove {
        /// The stone.
        stone: u32,
        /// `n / 2` as the rule states it (may end in `.5`).
        half: String,
    },
    /// A later move that is neither a multiple nor a factor of the previous one.
    #[error(
        "move {index} takes stone {stone}, which is neither a multiple nor a factor of the previous move {previous}"
    )]
    NotRelated {
        /// 1-based move number.
        index: usize,
        /// The stone.
        stone: u32,
        /// The previous move's stone.
        previous: u32,
    },
}

/// A legal Take-Stones position: `n` stones, and the stones taken so far in the order they were taken.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    n: u32,
    taken: Vec<u32>,
}

impl Position {
    /// Checks `n` and every move of `taken` against the rules.
    ///
    /// # Errors
    /// The first problem found, in argument order.
    pub fn new(n: u64, taken: Vec<u64>) -> Result<Position, PositionError> {
        match Position::new_relaxed(n, taken)? {
            (_, Some(first_move)) => Err(first_move),
            (position, None) => Ok(position),
        }
    }

    /// Like [`Position::new`], but a first move that breaks the first-move rule is accepted and returned beside
    /// the position as a warning. The course's own official case `10 3 4 2 6 4` starts with stone 4 (even, and
    /// not below 10/2), so a faithful reference must accept such a history; every later move is still checked.
    ///
    /// # Errors
    /// Any other problem, in argument order.
    pub fn new_relaxed(n: u64, taken: Vec<u64>) -> Result<(Position, Option<PositionError>), PositionError> {
        if n == 0 {
            return Err(PositionError::NoStones);
        }
        let n = u32::try_from(n)
            .ok()
            .filter(|&n| n <= MAX_STONES)
            .ok_or(PositionError::TooManyStones { n, max: MAX_STONES })?;
        let mut taken_at = vec![0usize; n as usize + 1];
        let mut moves = Vec::with_capacity(taken.len());
        let mut last = None;
        let mut warning = None;
        for (i, &stone) in taken.iter().enumerate() {
            let index = i + 1;
            let stone = u32::try_from(stone)
                .ok()
                .filter(|&s| (1..=n).contains(&s))
                .ok_or(PositionError::OutOfRange { index, stone, n })?;
            let first = taken_at[stone as usize];
            if first != 0 {
                return Err(PositionError::Repeated { index, stone, first });
            }
            if !follows(n, last, stone) {
                match last {
                    None => warning = Some(PositionError::BadFirstMove { stone, half: half_of(n) }),
                    Some(previous) => return Err(PositionError::NotRelated { index, stone, previous }),
                }
            }
            taken_at[stone as usize] = index;
            moves.push(stone);
            last = Some(stone);
        }
        Ok((Position { n, taken: moves }, warning))
    }

    /// The number of stones.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The stones taken, first to last.
    pub fn taken(&self) -> &[u32] {
        &self.taken
    }

    /// The previous move, `None` before the first.
    pub fn last(&self) -> Option<u32> {
        self.taken.last().copied()
    }

    /// This position with `stone` taken next. The caller guarantees the move is legal.
    pub fn with_move(&self, stone: u32) -> Position {
        let mut taken = self.taken.clone();
        taken.push(stone);
        Position { n: self.n, taken }
    }

    /// The position as the student program's arguments: `N K T1 .. TK` (the depth is not part of a position).
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec![self.n.to_string(), self.taken.len().to_string()];
        args.extend(self.taken.iter().map(u32::to_string));
        args
    }
}

fn half_of(n: u32) -> String {
    if n % 2 == 0 {
        (n / 2).to_string()
    } else {
        format!("{}.5", n / 2)
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn accepts_the_spec_example() {
        let p = Position::new(7, vec![1, 4, 2]).unwrap();
        assert_eq!(p.taken(), &[1, 4, 2]);
        assert_eq!(p.to_args(), ["7", "3", "1", "4", "2"]);
    }

    #[test]
    fn rejects_each_kind_of_bad_position() {
        assert_eq!(Position::new(0, vec![]), Err(PositionError::NoStones));
        assert!(matches!(Position::new(u64::from(MAX_STONES) + 1, vec![]), Err(PositionError::TooManyStones { .. })));
        assert!(matches!(Position::new(7, vec![8]), Err(PositionError::OutOfRange { index: 1, .. })));
        assert!(matches!(Position::new(7, vec![0]), Err(PositionError::OutOfRange { index: 1, .. })));
        assert_eq!(Position::new(7, vec![1, 2, 1]), Err(PositionError::Repeated { index: 3, stone: 1, first: 1 }));
        assert_eq!(Position::new(6, vec![3]), Err(PositionError::BadFirstMove { stone: 3, half: "3".into() }));
        assert_eq!(Position::new(7, vec![2]), Err(PositionError::BadFirstMove { stone: 2, half: "3.5".into() }));
        assert_eq!(Position::new(7, vec![3, 6, 5]), Err(PositionError::NotRelated { index: 3, stone: 5, previous: 6 }));
    }

    #[test]
    fn the_official_bad_first_move_is_a_warning_when_relaxed() {
        let (p, warning) = Position::new_relaxed(10, vec![4, 2, 6]).unwrap();
        assert_eq!(p.taken(), &[4, 2, 6]);
        assert_eq!(warning, Some(PositionError::BadFirstMove { stone: 4, half: "5".into() }));
        assert!(Position::new(10, vec![4, 2, 6]).is_err());
        // Later moves are checked either way.
        assert!(matches!(Position::new_relaxed(10, vec![4, 3]), Err(PositionError::NotRelated { index: 2, .. })));
    }

    #[test]
    fn first_move_is_strictly_below_half() {
        // `3 0 0` allows stone 1 (1 < 1.5); `2 ...` allows nothing.
        assert!(Position::new(3, vec![1]).is_ok());
        assert!(Position::new(2, vec![1]).is_err());
        assert!(Position::new(7, vec![3]).is_ok());
    }
}
