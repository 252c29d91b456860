//! An independent Take-Stones, written straight from the spec text as plainly as possible (no bitmasks, no
//! tables, no pruning, trial-division primes), to check the reference's rules and heuristic, not just its search.

/// What the spec says, in the slowest obvious way. Values are from Max's point of view.
pub struct Oracle {
    pub n: usize,
    pub trace_edition: bool,
    pub composite_counts_all_available: bool,
}

impl Oracle {
    fn legal(&self, available: &[bool], last: Option<usize>) -> Vec<usize> {
        (1..=self.n)
            .filter(|&i| available[i])
            .filter(|&i| match last {
                None => i % 2 == 1 && (i as f64) < self.n as f64 / 2.0,
                Some(l) => i % l == 0 || l % i == 0,
            })
            .collect()
    }

    fn is_prime(x: usize) -> bool {
        x >= 2 && (2..x).all(|d| x % d != 0)
    }

    fn evaluate(&self, available: &[bool], last: Option<usize>, max_to_move: bool) -> f64 {
        let (terminal, a, b, c) = if self.trace_edition { (100.0, 5.0, 7.0, 6.0) } else { (1.0, 0.5, 0.7, 0.6) };
        let legal = self.legal(available, last);
        if legal.is_empty() {
            return if max_to_move { -terminal } else { terminal };
        }
        let odd_even = |count: usize, v: f64| if count % 2 == 1 { v } else { -v };
        let value = match last {
            _ if available[1] => 0.0,
            Some(1) => odd_even(legal.len(), a),
            Some(l) if Self::is_prime(l) => odd_even(legal.iter().filter(|&&m| m % l == 0).count(), b),
            Some(l) => {
                let p = (2..=l).rev().find(|&p| l % p == 0 && Self::is_prime(p)).unwrap();
                let count = if self.composite_counts_all_available {
                    (1..=self.n).filter(|&s| available[s] && s % p == 0).count()
                } else {
                    legal.iter().filter(|&&m| m % p == 0).count()
                };
                odd_even(count, c)
            }
            None => unreachable!("stone 1 is available before the first move"),
        };
        if !self.trace_edition && !max_to_move {
            -value
        } else {
            value
        }
    }

    /// Minimax value and first best move of the position after `taken`, searching to `depth` (0 = the end).
    pub fn solve(&self, taken: &[u32], depth: u32) -> (f64, Option<u32>) {
        let mut available = vec![true; self.n + 1];
        available[0] = false;
        for &t in taken {
            available[t as usize] = false;
        }
        let last = taken.last().map(|&t| t as usize);
        self.minimax(&mut available, last, taken.len() % 2 == 0, 0, depth)
    }

    fn minimax(
        &self,
        available: &mut [bool],
        last: Option<usize>,
        max: bool,
        d: u32,
        limit: u32,
    ) -> (f64, Option<u32>) {
        let legal = self.legal(available, last);
        if legal.is_empty() || (limit != 0 && d == limit) {
            return (self.evaluate(available, last, max), None);
        }
        let mut best: Option<(f64, u32)> = None;
        for m in legal {
            available[m] = false;
            let (v, _) = self.minimax(available, Some(m), !max, d + 1, limit);
            available[m] = true;
            let better = match best {
                None => true,
                Some((b, _)) => (max && v > b) || (!max && v < b),
            };
            if better {
                best = Some((v, m as u32));
            }
        }
        let (v, m) = best.unwrap();
        (v, Some(m))
    }
}
