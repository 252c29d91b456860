//! The whole comparison of a class: prepare every hand-in, index the fingerprints, count what each pair shares,
//! score, find the fragments of the pairs worth listing, and cluster.

use std::collections::HashSet;

use super::cluster::clusters;
use super::fragments::{fragments, Fragment};
use super::index::{build, shared_counts};
use super::normalise::Passes;
use super::prepare::{prepare, Prepared};
use super::source::{Handin, Source};

/// The parameters of a run (defaults chosen by the quality measurement, see docs/grading.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Symbols per k-gram.
    pub k: usize,
    /// Winnowing window (in k-grams): every shared run of `k + window - 1` symbols is found.
    pub window: usize,
    /// Pairs below this similarity are not listed (they count as not similar).
    pub floor: f64,
    /// A fingerprint held by more than this share of the hand-ins (and by more than 10) is taken for course code.
    pub common_share: f64,
    /// Pairs at or above this similarity link students into clusters.
    pub cluster: f64,
    /// Normalisations against disguise.
    pub passes: Passes,
}

impl Default for Params {
    fn default() -> Params {
        Params { k: 15, window: 8, floor: 0.25, common_share: 0.2, cluster: 0.5, passes: Passes::default() }
    }
}

impl Params {
    /// The length of shared run that is always found.
    pub fn guaranteed(&self) -> usize {
        self.k + self.window - 1
    }
}

/// A pair of hand-ins (indices into the class, `a < b`) and what they share.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The first hand-in.
    pub a: usize,
    /// The second.
    pub b: usize,
    /// Shared fingerprints over the mean of the two hand-ins' counts: 0 (nothing) to 1 (the same).
    pub similarity: f64,
    /// Fingerprints in common.
    pub shared: u32,
    /// The longest shared fragment, in tokens (0 when fragments were not computed).
    pub longest: u32,
    /// The shared fragments.
    pub fragments: Vec<Fragment>,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The hand-ins, in class order.
    pub handins: Vec<Handin>,
    /// Their symbols and fingerprints.
    pub prepared: Vec<Prepared>,
    /// Fingerprints that count per hand-in.
    pub kept: Vec<usize>,
    /// Pairs at or above the floor, most similar first (ties by longest, then by ids).
    pub pairs: Vec<Pair>,
    /// Counts of all pairs of the class by similarity, in tenths (index 9 holds 0.9 to 1.0).
    pub histogram: [u64; 10],
    /// Clusters of students (indices), largest first.
    pub clusters: Vec<Vec<usize>>,
    /// Distinct fingerprints removed as the template's.
    pub template_removed: usize,
    /// Distinct fingerprints removed as common to too many hand-ins.
    pub common_removed: usize,
    /// The number of hand-ins above which a fingerprint is taken for course code.
    pub common_limit: usize,
    /// The parameters used.
    pub params: Params,
}

/// The whole comparison of `handins`, with `template` (the course's own files, possibly none) excluded.
pub fn analyse(handins: Vec<Handin>, template: &[Source], params: Params) -> Analysis {
    let mut prepared = prepare_all(&handins, params);
    let template_prep = prepare(template, params.k, params.window, params.passes);
    let template_set: HashSet<u64> = template_prep.kgrams.iter().copied().filter(|h| *h != 0).collect();
    if !template_set.is_empty() {
        for p in &mut prepared {
            let mut mask = vec![false; p.syms.len()];
            for (i, h) in p.kgrams.iter().enumerate() {
                if *h != 0 && template_set.contains(h) {
                    mask.iter_mut().skip(i).take(params.k).for_each(|m| *m = true);
                }
            }
            p.template = mask;
        }
    }
    let sets: Vec<Vec<u64>> = prepared.iter().map(|p| p.prints.iter().map(|q| q.hash).collect()).collect();
    let n = handins.len();
    let common_limit = ((params.common_share * n as f64).floor() as usize).max(10);
    let (index, postings) = build(&sets, &template_set, common_limit);
    let counts = shared_counts(&postings);
    drop(postings);
    let kept: Vec<usize> = index.kept.iter().map(Vec::len).collect();
    let mut histogram = [0u64; 10];
    let all_pairs = (n as u64) * (n as u64).saturating_sub(1) / 2;
    let mut pairs = Vec::new();
    for (&(a, b), &shared) in &counts {
        let (a, b) = (a as usize, b as usize);
        let total = kept[a] + kept[b];
        let similarity = if total == 0 { 0.0 } else { (2.0 * f64::from(shared) / total as f64).min(1.0) };
        histogram[((similarity * 10.0) as usize).min(9)] += 1;
        if similarity >= params.floor {
            pairs.push(Pair { a, b, similarity, shared, longest: 0, fragments: Vec::new() });
        }
    }
    histogram[0] += all_pairs.saturating_sub(counts.len() as u64);
    for pair in &mut pairs {
        let sa: HashSet<u64> = index.kept[pair.a].iter().copied().collect();
        let shared: HashSet<u64> = index.kept[pair.b].iter().copied().filter(|h| sa.contains(h)).collect();
        pair.fragments = fragments(&prepared[pair.a], &prepared[pair.b], &shared);
        pair.longest = pair.fragments.iter().map(|f| f.len).max().unwrap_or(0);
    }
    pairs.sort_by(|x, y| {
        y.similarity
            .total_cmp(&x.similarity)
            .then(y.longest.cmp(&x.longest))
            .then_with(|| handins[x.a].id.cmp(&handins[y.a].id))
            .then_with(|| handins[x.b].id.cmp(&handins[y.b].id))
    });
    let linked = pairs.iter().filter(|p| p.similarity >= params.cluster).map(|p| (p.a, p.b));
    let clusters = clusters(n, linked);
    Analysis {
        handins,
        prepared,
        kept,
        pairs,
        histogram,
        clusters,
        template_removed: index.template_removed,
        common_removed: index.common_removed,
        common_limit,
        params,
    }
}

/// Every hand-in prepared, on all cores.
fn prepare_all(handins: &[Handin], params: Params) -> Vec<Prepared> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let chunk = handins.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = handins
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter().map(|h| prepare(&h.files, params.k, params.window, params.passes)).collect::<Vec<_>>()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(handins.len());
        for (worker, part) in workers.into_iter().zip(handins.chunks(chunk)) {
            // A worker that panicked (it cannot, but never a crash for it): its hand-ins are prepared here.
            match worker.join() {
                Ok(done) => out.extend(done),
                Err(_) => out.extend(part.iter().map(|h| prepare(&h.files, params.k, params.window, params.passes))),
            }
        }
        out
    })
}
