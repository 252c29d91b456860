//! k-gram hashes and winnowing (Schleimer, Wilkerson and Aiken, the MOSS paper): of every `window` consecutive
//! k-gram hashes the smallest is kept, so any run of at least `window + k - 1` equal symbols shared by two
//! hand-ins yields at least one fingerprint in common, while only about 2/(window+1) of the positions are kept.

/// A kept fingerprint: the k-gram's hash and where the k-gram starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Print {
    /// The k-gram's hash.
    pub hash: u64,
    /// Index of its first symbol in the hand-in's symbols.
    pub pos: u32,
}

/// A stable 64-bit mix (splitmix64's finaliser), so that hashes of similar k-grams are spread evenly.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hash of every k-gram of `syms` (none when it is shorter than `k`), in order.
pub fn kgrams(syms: &[u32], k: usize) -> Vec<u64> {
    if k == 0 || syms.len() < k {
        return Vec::new();
    }
    syms.windows(k)
        .map(|w| {
            mix(w.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, s| (h ^ u64::from(*s)).wrapping_mul(0x0000_0100_0000_01b3)))
        })
        .collect()
}

/// The fingerprints winnowing keeps from `hashes` (positions offset by `base`): in each window the rightmost
/// smallest; a sequence shorter than one window keeps its smallest.
pub fn winnow(hashes: &[u64], window: usize, base: u32) -> Vec<Print> {
    let window = window.max(1);
    let mut out: Vec<Print> = Vec::new();
    if hashes.is_empty() {
        return out;
    }
    let last_start = hashes.len().saturating_sub(window);
    for start in 0..=last_start {
        let end = (start + window).min(hashes.len());
        let mut best = start;
        for i in start..end {
            if hashes[i] <= hashes[best] {
                best = i;
            }
        }
        let pos = base.saturating_add(best as u32);
        if out.last().map_or(true, |p| p.pos != pos) {
            out.push(Print { hash: hashes[best], pos });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The guarantee: two sequences sharing a run of `window + k - 1` symbols share a fingerprint.
        #[test]
        fn every_long_shared_run_is_found(
            a in proptest::collection::vec(0u32..6, 0..80),
            b in proptest::collection::vec(0u32..6, 0..80),
            run in proptest::collection::vec(0u32..6, 0..40),
            k in 1usize..8, window in 1usize..8,
        ) {
            let t = window + k - 1;
            let mut x = a.clone(); x.extend(&run); x.extend(&b);
            let mut y = b.clone(); y.extend(&run); y.extend(&a);
            let fx: Vec<u64> = winnow(&kgrams(&x, k), window, 0).iter().map(|p| p.hash).collect();
            let fy: Vec<u64> = winnow(&kgrams(&y, k), window, 0).iter().map(|p| p.hash).collect();
            if run.len() >= t {
                prop_assert!(fx.iter().any(|h| fy.contains(h)), "run of {} >= t = {t} not found", run.len());
            }
            // Every kept position is a real k-gram start.
            for p in winnow(&kgrams(&x, k), window, 0) {
                prop_assert!((p.pos as usize) + k <= x.len());
            }
        }
    }
}
