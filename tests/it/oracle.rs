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

/// The whole printed output, from an alpha-beta written out as AIMA Figure 5.7 reads (separate MAX-VALUE and
/// MIN-VALUE), with its own counters and trace. Values are integers: the stats edition in tenths (so `0.6` is 6),
/// which makes every comparison exact; the branching factor is rounded HALF_UP on the exact fraction, which is
/// what Java's `%.1f` does to the nearest double for fractions this small.
pub struct Printed<'a> {
    oracle: &'a Oracle,
    limit: u32,
    visited: u64,
    evaluated: u64,
    max_depth: u32,
    trace: String,
}

impl Oracle {
    /// The program's output for `taken` and `depth` (0 = unlimited); `None` when the root has no legal move.
    pub fn printed(&self, taken: &[u32], depth: u32) -> Option<String> {
        let mut available = vec![true; self.n + 1];
        available[0] = false;
        for &t in taken {
            available[t as usize] = false;
        }
        let last = taken.last().map(|&t| t as usize);
        let max = taken.len() % 2 == 0;
        if self.legal(&available, last).is_empty() {
            return None;
        }
        let mut p =
            Printed { oracle: self, limit: depth, visited: 0, evaluated: 0, max_depth: 0, trace: String::new() };
        let (alpha, beta) = if self.trace_edition { (-1000, 1000) } else { (i64::MIN / 2, i64::MAX / 2) };
        let (value, best) = if max {
            p.max_value(&mut available, last, None, 0, alpha, beta)
        } else {
            p.min_value(&mut available, last, None, 0, alpha, beta)
        };
        let best = best?;
        if self.trace_edition {
            available[best] = false;
            let rest: String = (1..=self.n).filter(|&s| available[s]).map(|s| format!("{s} ")).collect();
            return Some(format!("{}NEXT MOVE\n{best}\n{rest}\n", p.trace));
        }
        let tenths = |v: i64| format!("{}{}.{}", if v < 0 { "-" } else { "" }, v.abs() / 10, v.abs() % 10);
        let (num, den) = ((p.visited - 1) as u128, (p.visited - p.evaluated) as u128);
        let ebf = (20 * num + den) / (2 * den); // round(10 * num / den), halves up
        Some(format!(
            "Move: {best}\nValue: {}\nNumber of Nodes Visited: {}\nNumber of Nodes Evaluated: {}\nMax Depth Reached: {}\nAvg Effective Branching Factor: {}.{}\n",
            tenths(value),
            p.visited,
            p.evaluated,
            p.max_depth,
            ebf / 10,
            ebf % 10
        ))
    }
}

impl Printed<'_> {
    fn enter(&mut self, depth: u32) {
        self.visited += 1;
        self.max_depth = self.max_depth.max(depth);
    }

    /// The leaf value in the oracle's integer units, or `None` when the node is not a leaf.
    fn leaf(&mut self, available: &[bool], last: Option<usize>, max: bool, depth: u32) -> Option<i64> {
        let o = self.oracle;
        let at_limit = self.limit != 0 && depth == self.limit;
        if !(o.legal(available, last).is_empty() || at_limit) {
            return None;
        }
        self.evaluated += 1;
        let v = o.evaluate(available, last, max);
        // The oracle's own values are doubles (stats) or whole numbers (trace); scale the stats ones to tenths.
        Some(if o.trace_edition { v as i64 } else { (v * 10.0).round() as i64 })
    }

    fn record(&mut self, available: &[bool], last: Option<usize>, via: Option<usize>, alpha: i64, beta: i64) {
        if !self.oracle.trace_edition {
            return;
        }
        let stone = via.map(|s| s as i64).or(last.map(|s| s as i64)).unwrap_or(-1);
        let stones: String = (1..=self.oracle.n).filter(|&s| available[s]).map(|s| format!("{s} ")).collect();
        self.trace.push_str(&format!("{stone}\n{stones}\nalpha: {alpha}\tbeta: {beta}\n"));
    }

    fn max_value(
        &mut self,
        av: &mut [bool],
        last: Option<usize>,
        via: Option<usize>,
        d: u32,
        mut alpha: i64,
        beta: i64,
    ) -> (i64, Option<usize>) {
        self.enter(d);
        if let Some(v) = self.leaf(av, last, true, d) {
            self.record(av, last, via, alpha, beta);
            return (v, None);
        }
        let mut v = i64::MIN;
        let mut best = None;
        for m in self.oracle.legal(av, last) {
            av[m] = false;
            let (child, _) = self.min_value(av, Some(m), Some(m), d + 1, alpha, beta);
            av[m] = true;
            if child > v {
                v = child;
                best = Some(m);
            }
            if v >= beta {
                self.record(av, last, via, alpha, beta);
                return (v, best);
            }
            alpha = alpha.max(v);
        }
        self.record(av, last, via, alpha, beta);
        (v, best)
    }

    fn min_value(
        &mut self,
        av: &mut [bool],
        last: Option<usize>,
        via: Option<usize>,
        d: u32,
        alpha: i64,
        mut beta: i64,
    ) -> (i64, Option<usize>) {
        self.enter(d);
        if let Some(v) = self.leaf(av, last, false, d) {
            self.record(av, last, via, alpha, beta);
            return (v, None);
        }
        let mut v = i64::MAX;
        let mut best = None;
        for m in self.oracle.legal(av, last) {
            av[m] = false;
            let (child, _) = self.max_value(av, Some(m), Some(m), d + 1, alpha, beta);
            av[m] = true;
            if child < v {
                v = child;
                best = Some(m);
            }
            if v <= alpha {
                self.record(av, last, via, alpha, beta);
                return (v, best);
            }
            beta = beta.min(v);
        }
        self.record(av, last, via, alpha, beta);
        (v, best)
    }
}
