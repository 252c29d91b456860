//! Largest-prime-factor table, built once per board.

/// `table[x]` is the largest prime factor of `x` for `x >= 2` (0 for 0 and 1).
pub(super) fn largest_prime_factors(n: u32) -> Vec<u32> {
    let len = n as usize + 1;
    let mut table = vec![0u32; len];
    // Walking primes upward and overwriting leaves the largest prime that divides each x.
    for p in 2..len {
        if table[p] == 0 {
            for multiple in (p..len).step_by(p) {
                table[multiple] = p as u32;
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_trial_division(mut x: u32) -> u32 {
        let mut largest = 0;
        let mut d = 2;
        while d * d <= x {
            while x % d == 0 {
                largest = d;
                x /= d;
            }
            d += 1;
        }
        if x > 1 {
            x
        } else {
            largest
        }
    }

    #[test]
    fn matches_trial_division() {
        let table = largest_prime_factors(5000);
        for x in 2..=5000 {
            assert_eq!(table[x as usize], by_trial_division(x), "x = {x}");
        }
        // Squares of primes are where a helper that stops at `i * i < x` goes wrong.
        assert_eq!(table[4], 2);
        assert_eq!(table[9], 3);
        assert_eq!(table[49], 7);
    }
}
