//! Hill climbing as a student may run it: from each tour, move to the *first* neighbour in swap order that is
//! strictly shorter (first improvement), instead of the shortest one (steepest descent).

use crate::keys::hillclimb::climb::neighbours;
use crate::keys::hillclimb::matrix::Matrix;
use crate::keys::hillclimb::tour::length;
use crate::keys::number::Q;

/// The tours visited after `start` (not including it), with their lengths, until no neighbour is shorter;
/// `first` takes the first shorter neighbour, otherwise the shortest (the first of equals). At most `limit` moves.
pub fn climb(matrix: &Matrix, start: &[usize], first: bool, limit: usize) -> Vec<(Vec<usize>, Q)> {
    let mut out = Vec::new();
    let mut tour = start.to_vec();
    for _ in 0..limit {
        let here = length(matrix, &tour, false);
        let all = neighbours(matrix, &tour, false);
        let better = all.iter().filter(|n| n.length < here);
        let next = if first {
            better.into_iter().next()
        } else {
            better.fold(None, |best: Option<&crate::keys::hillclimb::climb::Neighbour>, n| match best {
                Some(b) if b.length <= n.length => Some(b),
                _ => Some(n),
            })
        };
        let Some(next) = next else { break };
        tour = next.tour.clone();
        out.push((tour.clone(), next.length.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::hillclimb::climb;
    use crate::keys::hillclimb::matrix::{parse, Notation};

    const CS540: &str = ",M,W,E,S\nM,0,1.1,1.4,0.9\nW,1.1,0,0.6,0.7\nE,1.4,0.6,0,0.5\nS,0.9,0.7,0.5,0\n";

    #[test]
    fn steepest_is_the_keys_climb_and_first_improvement_differs() {
        let m = parse(CS540, Notation::Csv).unwrap();
        let start = [1, 0, 2, 3]; // W-M-E-S, the course's start.
        let key = climb::climb(&m, &start, false);
        let steps: Vec<(Vec<usize>, Q)> = key
            .steps
            .iter()
            .filter_map(|s| s.next.map(|n| (s.neighbours[n].tour.clone(), s.neighbours[n].length.clone())))
            .collect();
        assert_eq!(climb(&m, &start, false, 100), steps);
        let first = climb(&m, &start, true, 100);
        assert!(!first.is_empty());
        assert!(first.windows(2).all(|w| w[1].1 < w[0].1));
    }
}
