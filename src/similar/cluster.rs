//! Clusters: students linked, directly or through others, by pairs at or above a similarity.

/// Union-find over `n` items.
struct Sets {
    parent: Vec<usize>,
}

impl Sets {
    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
}

/// The groups of at least two among `n` students that the `links` (pairs of indices below `n`) join, each sorted,
/// the largest first (then by first member).
pub fn clusters(n: usize, links: impl IntoIterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
    let mut sets = Sets { parent: (0..n).collect() };
    for (a, b) in links {
        if a < n && b < n {
            let (ra, rb) = (sets.find(a), sets.find(b));
            if ra != rb {
                sets.parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for x in 0..n {
        let root = sets.find(x);
        groups.entry(root).or_default().push(x);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() >= 2).collect();
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_join_transitively() {
        let c = clusters(7, [(0, 3), (3, 5), (1, 2), (6, 6), (9, 1)]);
        assert_eq!(c, vec![vec![0, 3, 5], vec![1, 2]]);
    }
}
