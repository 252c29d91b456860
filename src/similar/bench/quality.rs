//! The quality measurement: a class made of solutions (each a family: the original and its disguised copies) and
//! independent generated programs, all holding the course's template; then how well similarity ranks copied
//! pairs above independent ones of the same assignment (ROC-AUC, precision at k) and how high independent pairs
//! go (99th percentile).

use super::disguise::{disguise, Disguise};
use crate::rng::Rng;
use crate::similar::analysis::{analyse, Params};
use crate::similar::source::{Handin, Source};

/// One solution of an assignment: its files.
#[derive(Clone, Debug)]
pub struct Base {
    /// The assignment it solves.
    pub assignment: String,
    /// Its files.
    pub files: Vec<Source>,
}

/// The disguises each family's copies get, one copy per entry.
pub fn copy_plan() -> Vec<Disguise> {
    let none = Disguise::default();
    vec![
        Disguise { rename: true, layout: true, ..none },
        Disguise { rename: true, reorder: true, layout: true, ..none },
        Disguise { rename: true, layout: true, dead: 0.10, ..none },
        Disguise { rename: true, layout: true, dead: 0.25, ..none },
        Disguise { rename: true, loops: true, split: true, ..none },
        Disguise { rename: true, swap: true, reorder: true, ..none },
        Disguise::all(0.10),
        Disguise::all(0.25),
    ]
}

/// A measured class: hand-ins, and for each its family and assignment.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// The hand-ins (template files included in each).
    pub handins: Vec<Handin>,
    /// Family of each hand-in (copies share their original's).
    pub family: Vec<usize>,
    /// Assignment of each hand-in.
    pub assignment: Vec<String>,
}

/// The corpus: every base and its copies by `plan`, plus `extra` independent hand-ins per assignment (from
/// `independent`), each with the template files of its assignment added.
pub fn corpus(
    bases: &[Base],
    plan: &[Disguise],
    independent: &[Base],
    template: &dyn Fn(&str) -> Vec<Source>,
    seed: u64,
) -> Corpus {
    let mut rng = Rng::new(seed);
    let mut out = Corpus::default();
    let add = |out: &mut Corpus, files: Vec<Source>, family: usize, assignment: &str| {
        let mut all = template(assignment);
        all.extend(files);
        let id = format!("s{:04}", out.handins.len());
        out.handins.push(Handin { id, files: all, notes: Vec::new() });
        out.family.push(family);
        out.assignment.push(assignment.to_string());
    };
    for (f, base) in bases.iter().enumerate() {
        add(&mut out, base.files.clone(), f, &base.assignment);
        for how in plan {
            let files = base
                .files
                .iter()
                .map(|s| Source { text: disguise(&s.text, s.lang, how, &mut rng), ..s.clone() })
                .collect();
            add(&mut out, files, f, &base.assignment);
        }
    }
    for (i, base) in independent.iter().enumerate() {
        add(&mut out, base.files.clone(), bases.len() + i, &base.assignment);
    }
    out
}

/// The figures of one measurement.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Probability that a copied pair scores above an independent pair of the same assignment (ties count half).
    pub auc: f64,
    /// Of the top k pairs of the same assignment (k = copied pairs), the share that are copied.
    pub precision_at_k: f64,
    /// 99th percentile of independent same-assignment pairs' similarity.
    pub p99_independent: f64,
    /// The highest independent pair.
    pub max_independent: f64,
    /// The lowest copied pair.
    pub min_copied: f64,
    /// Copied pairs.
    pub copied: usize,
    /// Independent pairs of the same assignment.
    pub independent: usize,
}

/// Measures `corpus` with `params`, the template removed when `template` is given.
pub fn measure(corpus: &Corpus, template: &[Source], params: Params) -> Figures {
    let params = Params { floor: 0.0, ..params };
    let analysis = analyse(corpus.handins.clone(), template, params);
    let n = corpus.handins.len();
    let mut sim = std::collections::HashMap::new();
    for p in &analysis.pairs {
        sim.insert((p.a, p.b), p.similarity);
    }
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    for a in 0..n {
        for b in a + 1..n {
            if corpus.assignment[a] != corpus.assignment[b] {
                continue;
            }
            let s = sim.get(&(a, b)).copied().unwrap_or(0.0);
            if corpus.family[a] == corpus.family[b] {
                pos.push(s);
            } else {
                neg.push(s);
            }
        }
    }
    figures(&pos, &neg)
}

/// The figures from copied (`pos`) and independent (`neg`) similarities.
pub fn figures(pos: &[f64], neg: &[f64]) -> Figures {
    let mut sorted_neg = neg.to_vec();
    sorted_neg.sort_by(f64::total_cmp);
    let mut wins = 0.0;
    for p in pos {
        // Independent pairs below p, plus half of those equal.
        let below = sorted_neg.partition_point(|x| x < p);
        let upto = sorted_neg.partition_point(|x| x <= p);
        wins += below as f64 + 0.5 * (upto - below) as f64;
    }
    let auc = if pos.is_empty() || neg.is_empty() { 1.0 } else { wins / (pos.len() * neg.len()) as f64 };
    let mut all: Vec<(f64, bool)> = pos.iter().map(|s| (*s, true)).chain(neg.iter().map(|s| (*s, false))).collect();
    // Ties broken against the copied pairs: the figure never flatters.
    all.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let k = pos.len();
    let hits = all.iter().take(k).filter(|x| x.1).count();
    let precision_at_k = if k == 0 { 1.0 } else { hits as f64 / k as f64 };
    let p99_independent = percentile(&sorted_neg, 0.99);
    Figures {
        auc,
        precision_at_k,
        p99_independent,
        max_independent: sorted_neg.last().copied().unwrap_or(0.0),
        min_copied: pos.iter().copied().fold(f64::INFINITY, f64::min).min(1.0),
        copied: pos.len(),
        independent: neg.len(),
    }
}

/// The `q` quantile of ascending `sorted` (nearest rank), 0 for none.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_count_ties_half_and_never_flatter() {
        let f = figures(&[0.9, 0.5], &[0.5, 0.1, 0.0]);
        assert!((f.auc - (3.0 + 2.5) / 6.0).abs() < 1e-12, "{f:?}");
        assert_eq!(f.precision_at_k, 0.5);
        assert_eq!(f.p99_independent, 0.5);
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.0);
    }
}
