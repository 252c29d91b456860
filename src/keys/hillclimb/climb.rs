//! Steepest-descent hill-climbing: from the current tour, look at every tour one swap away and move to the
//! shortest one if it is strictly shorter; stop at a local minimum. Ties between equally short neighbours go to
//! the first in swap order: positions (1,2), (1,3), ..., (1,n), (2,3), ..., (n-1,n).

use num_bigint::BigUint;

use super::matrix::Matrix;
use super::tour::length;
use crate::keys::number::Q;

/// A tour one swap away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbour {
    /// The two 0-based positions swapped.
    pub swap: (usize, usize),
    /// The resulting tour.
    pub tour: Vec<usize>,
    /// Its length.
    pub length: Q,
}

/// One step: a tour, all its neighbours, and which one the climb moves to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The current tour.
    pub tour: Vec<usize>,
    /// Its length.
    pub length: Q,
    /// Every neighbour, in swap order.
    pub neighbours: Vec<Neighbour>,
    /// The index of the neighbour moved to; `None` at the local minimum.
    pub next: Option<usize>,
}

/// A whole climb.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Climb {
    /// The steps; the last one has no `next`.
    pub steps: Vec<Step>,
}

impl Climb {
    /// The local minimum reached, and its length.
    pub fn last(&self) -> Option<&Step> {
        self.steps.last()
    }
}

/// Every tour one swap away from `tour`, in swap order.
pub fn neighbours(matrix: &Matrix, tour: &[usize], closed: bool) -> Vec<Neighbour> {
    let n = tour.len();
    let mut out = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for i in 0..n {
        for j in i + 1..n {
            let mut t = tour.to_vec();
            t.swap(i, j);
            let length = length(matrix, &t, closed);
            out.push(Neighbour { swap: (i, j), tour: t, length });
        }
    }
    out
}

/// Climbs from `start` until no neighbour is strictly shorter.
pub fn climb(matrix: &Matrix, start: &[usize], closed: bool) -> Climb {
    let mut steps = Vec::new();
    let mut tour = start.to_vec();
    loop {
        let here = length(matrix, &tour, closed);
        let neighbours = neighbours(matrix, &tour, closed);
        let mut best: Option<usize> = None;
        for (i, nb) in neighbours.iter().enumerate() {
            if best.map_or(true, |b| nb.length < neighbours[b].length) {
                best = Some(i);
            }
        }
        let next = best.filter(|&b| neighbours[b].length < here);
        let following = next.map(|b| neighbours[b].tour.clone());
        steps.push(Step { tour, length: here, neighbours, next });
        match following {
            Some(t) => tour = t,
            None => return Climb { steps },
        }
    }
}

/// `n(n-1)/2`, the number of neighbours of a tour of `n` locations.
pub fn neighbour_count(n: usize) -> BigUint {
    BigUint::from(n) * BigUint::from(n.saturating_sub(1)) / 2u32
}

/// `n!`, the number of tours of `n` locations.
pub fn tour_count(n: usize) -> BigUint {
    (1..=n).map(BigUint::from).product()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(neighbour_count(4).to_string(), "6");
        assert_eq!(tour_count(4).to_string(), "24");
        assert_eq!(tour_count(0).to_string(), "1");
        assert_eq!(neighbour_count(1).to_string(), "0");
        assert_eq!(tour_count(25).to_string(), "15511210043330985984000000");
    }
}
