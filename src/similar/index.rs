//! The inverted index: fingerprint -> the hand-ins that hold it. Every pair with something in common is found
//! from its posting lists, so the work grows with what is shared, not with the number of pairs in the class.

use std::collections::{HashMap, HashSet};

/// Fingerprints per hand-in after exclusion, and what was excluded.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// Each hand-in's distinct fingerprints that count (the template's and the class-wide common ones removed).
    pub kept: Vec<Vec<u64>>,
    /// Distinct fingerprints removed because the template has them.
    pub template_removed: usize,
    /// Distinct fingerprints removed because more than the common share of hand-ins hold them.
    pub common_removed: usize,
    /// The largest number of hand-ins a kept fingerprint is in.
    pub max_holders: usize,
}

/// Builds the index of `sets` (each hand-in's fingerprint hashes), removing those in `template` and those held by
/// more than `common_limit` hand-ins.
pub fn build(sets: &[Vec<u64>], template: &HashSet<u64>, common_limit: usize) -> (Index, HashMap<u64, Vec<u32>>) {
    let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
    let mut template_hit: HashSet<u64> = HashSet::new();
    for (who, set) in sets.iter().enumerate() {
        let mut set = set.clone();
        set.sort_unstable();
        set.dedup();
        for h in set {
            if template.contains(&h) {
                template_hit.insert(h);
                continue;
            }
            postings.entry(h).or_default().push(who as u32);
        }
    }
    let before = postings.len();
    postings.retain(|_, holders| holders.len() <= common_limit);
    let common_removed = before - postings.len();
    let mut kept: Vec<Vec<u64>> = vec![Vec::new(); sets.len()];
    let mut max_holders = 0;
    for (h, holders) in &postings {
        max_holders = max_holders.max(holders.len());
        for who in holders {
            if let Some(list) = kept.get_mut(*who as usize) {
                list.push(*h);
            }
        }
    }
    for list in &mut kept {
        list.sort_unstable();
    }
    (Index { kept, template_removed: template_hit.len(), common_removed, max_holders }, postings)
}

/// How many kept fingerprints each pair `(a, b)` with `a < b` shares, from the posting lists alone.
pub fn shared_counts(postings: &HashMap<u64, Vec<u32>>) -> HashMap<(u32, u32), u32> {
    let mut counts: HashMap<(u32, u32), u32> = HashMap::new();
    for holders in postings.values().filter(|h| h.len() >= 2) {
        for (i, a) in holders.iter().enumerate() {
            for b in &holders[i + 1..] {
                let key = if a < b { (*a, *b) } else { (*b, *a) };
                *counts.entry(key).or_insert(0) += 1;
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The index finds exactly what comparing every pair's sets would.
        #[test]
        fn counts_equal_the_pairwise_intersections(
            sets in proptest::collection::vec(proptest::collection::vec(0u64..40, 0..30), 0..12),
            limit in 1usize..12,
        ) {
            let template: HashSet<u64> = [3u64, 5].into_iter().collect();
            let (index, postings) = build(&sets, &template, limit);
            let counts = shared_counts(&postings);
            for a in 0..sets.len() {
                for b in a + 1..sets.len() {
                    let sa: HashSet<u64> = index.kept[a].iter().copied().collect();
                    let n = index.kept[b].iter().filter(|h| sa.contains(h)).count() as u32;
                    prop_assert_eq!(counts.get(&(a as u32, b as u32)).copied().unwrap_or(0), n);
                }
                prop_assert!(!index.kept[a].iter().any(|h| template.contains(h)));
            }
            prop_assert!(index.max_holders <= limit);
        }
    }
}
