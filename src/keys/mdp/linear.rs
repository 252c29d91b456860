//! Solving a square linear system exactly over the rationals (Gauss-Jordan elimination).

use num_traits::Zero;

use crate::keys::number::Q;

/// Solves `a x = b`; `None` when `a` is singular.
pub fn solve(mut a: Vec<Vec<Q>>, mut b: Vec<Q>) -> Option<Vec<Q>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).find(|&r| !a[r][col].is_zero())?;
        a.swap(col, pivot);
        b.swap(col, pivot);
        let lead = a[col][col].clone();
        for x in &mut a[col] {
            *x = &*x / &lead;
        }
        b[col] = &b[col] / &lead;
        let pivot_row = a[col].clone();
        for r in 0..n {
            if r == col || a[r][col].is_zero() {
                continue;
            }
            let factor = a[r][col].clone();
            for (x, p) in a[r].iter_mut().zip(&pivot_row).skip(col) {
                *x -= &factor * p;
            }
            let delta = &factor * &b[col];
            b[r] -= delta;
        }
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::keys::number::{int, parse};

    #[test]
    fn solves_exactly_and_spots_singular_systems() {
        // x + 2y = 5, 3x - y = 1: x = 1, y = 2; then 2x + 3y = 1, 4x + 6y = 2 has no unique solution.
        let x = solve(vec![vec![int(1), int(2)], vec![int(3), int(-1)]], vec![int(5), int(1)]).unwrap();
        assert_eq!(x, [int(1), int(2)]);
        let x = solve(vec![vec![int(0), int(3)], vec![int(2), int(0)]], vec![int(1), int(1)]).unwrap();
        assert_eq!(x, [parse("1/2").unwrap(), parse("1/3").unwrap()]);
        assert!(solve(vec![vec![int(2), int(3)], vec![int(4), int(6)]], vec![int(1), int(2)]).is_none());
    }
}
