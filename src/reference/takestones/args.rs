//! The student program's command line: `N K T1 .. TK DEPTH`, checked with a message for each way it can be wrong.

use crate::game::takestones::{Position, PositionError};

/// What is wrong with the numbers on the command line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// Fewer than three numbers.
    #[error("missing arguments: expected N K T1 .. TK DEPTH, got {got} number(s)")]
    Missing {
        /// How many were given.
        got: usize,
    },
    /// Not an integer.
    #[error("{name} must be a whole number, got '{value}'")]
    NotInteger {
        /// The argument's name (`N`, `K`, `T2`, `DEPTH`).
        name: String,
        /// What was given.
        value: String,
    },
    /// A negative number.
    #[error("{name} must not be negative, got {value}")]
    Negative {
        /// The argument's name.
        name: String,
        /// What was given.
        value: String,
    },
    /// A number too large to mean anything here.
    #[error("{name} = {value} is too large")]
    TooLarge {
        /// The argument's name.
        name: String,
        /// What was given.
        value: String,
    },
    /// `K` does not match the number of stones between it and `DEPTH`.
    #[error("K = {k} says {k} taken stone(s) follow, then DEPTH, but {} number(s) stand between K and DEPTH", got.saturating_sub(3))]
    CountMismatch {
        /// The given K.
        k: u64,
        /// How many numbers were given in all.
        got: usize,
    },
    /// The numbers parse but do not describe a legal position.
    #[error("{0}")]
    Position(#[from] PositionError),
}

/// The student program's arguments, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The position.
    pub position: Position,
    /// The depth limit (0 = search to the end).
    pub depth: u32,
    /// A first move that breaks the first-move rule, accepted as the course's own test case does (see
    /// [`Position::new_relaxed`]); `None` when the history is clean.
    pub warning: Option<PositionError>,
}

/// Parses the student program's arguments. With `strict`, a first move that breaks the first-move rule is an error
/// rather than a warning.
///
/// # Errors
/// The first problem, in argument order.
pub fn parse_args<S: AsRef<str>>(args: &[S], strict: bool) -> Result<Parsed, ArgError> {
    if args.len() < 3 {
        return Err(ArgError::Missing { got: args.len() });
    }
    let n = number("N", args[0].as_ref())?;
    let k = number("K", args[1].as_ref())?;
    if usize::try_from(k).map_or(true, |k| k.checked_add(3) != Some(args.len())) {
        return Err(ArgError::CountMismatch { k, got: args.len() });
    }
    let stones = &args[2..args.len() - 1];
    let taken = stones
        .iter()
        .enumerate()
        .map(|(i, s)| number(&format!("T{}", i + 1), s.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    let depth_text = args[args.len() - 1].as_ref();
    let depth = number("DEPTH", depth_text)?;
    let depth =
        u32::try_from(depth).map_err(|_| ArgError::TooLarge { name: "DEPTH".into(), value: depth_text.into() })?;
    let (position, warning) = Position::new_relaxed(n, taken)?;
    match warning {
        Some(w) if strict => Err(w.into()),
        warning => Ok(Parsed { position, depth, warning }),
    }
}

/// Parses the arguments as the course's test files use them (a bad first move is accepted): position and depth.
///
/// # Errors
/// As [`parse_args`].
pub fn parse_numbers<S: AsRef<str>>(args: &[S]) -> Result<(Position, u32), ArgError> {
    parse_args(args, false).map(|p| (p.position, p.depth))
}

/// One non-negative integer, as Java's `Integer.parseInt` would accept it (an optional `+`, then digits).
fn number(name: &str, text: &str) -> Result<u64, ArgError> {
    let err = |make: fn(String, String) -> ArgError| make(name.to_string(), text.to_string());
    let digits = text.strip_prefix('+').unwrap_or(text);
    if let Some(rest) = text.strip_prefix('-') {
        // Java's `Integer.parseInt("-0")` is 0: minus zero is not negative.
        if !rest.is_empty() && rest.bytes().all(|b| b == b'0') {
            return Ok(0);
        }
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(|name, value| ArgError::Negative { name, value }));
        }
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(|name, value| ArgError::NotInteger { name, value }));
    }
    digits.parse().map_err(|_| err(|name, value| ArgError::TooLarge { name, value }))
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn parse(line: &str) -> Result<(Position, u32), ArgError> {
        parse_numbers(&line.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn parses_the_examples() {
        let (p, depth) = parse("7 3 1 4 2 3").unwrap();
        assert_eq!((p.n(), p.taken(), depth), (7, &[1, 4, 2][..], 3));
        let (p, depth) = parse("3 0 0").unwrap();
        assert_eq!((p.n(), p.taken().len(), depth), (3, 0, 0));
    }

    #[test]
    fn names_each_problem() {
        assert_eq!(parse("7 0"), Err(ArgError::Missing { got: 2 }));
        assert!(matches!(parse("x 0 0"), Err(ArgError::NotInteger { name, .. }) if name == "N"));
        assert!(matches!(parse("7 1 1.5 0"), Err(ArgError::NotInteger { name, .. }) if name == "T1"));
        assert!(matches!(parse("7 0 -1"), Err(ArgError::Negative { name, .. }) if name == "DEPTH"));
        assert!(matches!(parse("-7 0 0"), Err(ArgError::Negative { name, .. }) if name == "N"));
        assert_eq!(parse("7 2 1 0"), Err(ArgError::CountMismatch { k: 2, got: 4 }));
        assert_eq!(parse("7 0 1 0"), Err(ArgError::CountMismatch { k: 0, got: 4 }));
        assert!(matches!(parse("7 99999999999999999999999 0"), Err(ArgError::TooLarge { .. })));
        assert!(matches!(parse("7 0 99999999999"), Err(ArgError::TooLarge { .. })));
        assert!(matches!(parse("0 0 0"), Err(ArgError::Position(PositionError::NoStones))));
        assert!(matches!(parse("7 2 3 5 0"), Err(ArgError::Position(PositionError::NotRelated { .. }))));
        assert!(parse("10 3 4 2 6 4").is_ok());
        let strict = parse_args(&["10", "3", "4", "2", "6", "4"], true);
        assert!(matches!(strict, Err(ArgError::Position(PositionError::BadFirstMove { stone: 4, .. }))));
        assert!(parse("+7 0 +0").is_ok());
        assert_eq!(parse("7 0 -0").map(|(_, d)| d), Ok(0));
        let huge = parse("7 18446744073709551615 0").unwrap_err().to_string();
        assert!(huge.contains("but 0 number(s) stand between K and DEPTH"), "{huge}");
    }
}
