//! Shrinking a diverging position to the smallest one that still diverges.

use crate::game::takestones::Position;

/// How big a case is: stones + stones taken + plies searched (an unlimited search counts as `n + 1` plies).
pub fn size(position: &Position, depth: u32) -> u32 {
    let plies = if depth == 0 { position.n() + 1 } else { depth };
    position.n() + position.taken().len() as u32 + plies
}

/// Smaller cases to try, smallest first: shallower searches, shorter histories, fewer stones.
fn candidates(position: &Position, depth: u32) -> Vec<(Position, u32)> {
    let mut out = Vec::new();
    let plies = if depth == 0 { position.n() + 1 } else { depth };
    for d in 1..plies {
        out.push((position.clone(), d));
    }
    let taken = position.taken();
    for keep in 0..taken.len() {
        let prefix: Vec<u64> = taken[..keep].iter().map(|&s| u64::from(s)).collect();
        if let Ok((p, None)) = Position::new_relaxed(u64::from(position.n()), prefix) {
            out.push((p, depth));
        }
    }
    let highest = taken.iter().copied().max().unwrap_or(0);
    for n in (highest.max(1)..position.n()).rev() {
        let history: Vec<u64> = taken.iter().map(|&s| u64::from(s)).collect();
        if let Ok((p, None)) = Position::new_relaxed(u64::from(n), history) {
            out.push((p, depth));
        }
    }
    out.sort_by_key(|(p, d)| size(p, *d));
    out
}

/// The smallest case reachable from `(position, depth)` by repeatedly taking the smallest smaller candidate for
/// which `diverges` still holds. Never larger than the start (it is returned when nothing smaller diverges).
/// `diverges` runs at most `max_tries` times.
pub fn shrink(
    position: &Position,
    depth: u32,
    max_tries: usize,
    mut diverges: impl FnMut(&Position, u32) -> bool,
) -> (Position, u32) {
    let mut current = (position.clone(), depth);
    let mut tries = 0;
    'outer: loop {
        let here = size(&current.0, current.1);
        for (p, d) in candidates(&current.0, current.1) {
            if size(&p, d) >= here {
                continue;
            }
            if tries >= max_tries {
                break 'outer;
            }
            tries += 1;
            if diverges(&p, d) {
                current = (p, d);
                continue 'outer;
            }
        }
        break;
    }
    current
}
