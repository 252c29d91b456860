//! Where a variant's randomness comes from: SHA-256 of (generator version, seed, kind, normalised student id)
//! seeds the crate's [`Rng`], so the same four always draw the same problem, on any machine and any build, and
//! nothing about one student's draw depends on another's. The variant's code is a hash of what was drawn.

use sha2::{Digest, Sha256};

use super::{Kind, GENERATOR_VERSION};
use crate::rng::Rng;

/// A student id as variants see it: surrounding spaces dropped, ASCII letters lowercased (`Alice ` is `alice`).
pub fn normalize_id(id: &str) -> String {
    id.trim().to_ascii_lowercase()
}

/// The generator for (`seed`, `id`, `kind`) under [`GENERATOR_VERSION`].
pub fn variant_rng(seed: u64, id: &str, kind: Kind) -> Rng {
    let mut hash = Sha256::new();
    hash.update(b"referee exercise\0");
    hash.update(GENERATOR_VERSION.to_le_bytes());
    hash.update(seed.to_le_bytes());
    hash.update(kind.name().as_bytes());
    hash.update([0]);
    hash.update(normalize_id(id).as_bytes());
    let digest = hash.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Rng::new(u64::from_le_bytes(first))
}

/// The variant's code: a prefix naming the kind and 8 hex digits of SHA-256 of its canonical text.
pub fn code(kind: Kind, canonical: &str) -> String {
    let prefix = match kind {
        Kind::Alphabeta => "ab",
        Kind::Expectimax => "ex",
        Kind::Mdp => "mdp",
        Kind::Csp => "csp",
        Kind::Hillclimb => "hc",
    };
    let digest = Sha256::digest(canonical.as_bytes());
    let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}{GENERATOR_VERSION}-{hex}")
}

/// Draws from `rng`: an integer in `lo..=hi`, a pick from a list, a shuffle.
pub trait Draw {
    /// An integer in `lo..=hi` (`lo <= hi`).
    fn int(&mut self, lo: i64, hi: i64) -> i64;
    /// An element of `items` (not empty).
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T;
    /// `items` in a random order (Fisher-Yates).
    fn shuffle<T>(&mut self, items: &mut [T]);
    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool;
}

impl Draw for Rng {
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        let span = hi.abs_diff(lo) + 1;
        lo + (self.next_u64() % span) as i64
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draw_depends_on_every_input_and_on_nothing_else() {
        let first = |seed, id, kind| variant_rng(seed, id, kind).next_u64();
        let base = first(7, "alice", Kind::Mdp);
        assert_eq!(base, first(7, " Alice ", Kind::Mdp), "ids ignore case and surrounding spaces");
        assert_ne!(base, first(8, "alice", Kind::Mdp));
        assert_ne!(base, first(7, "alicf", Kind::Mdp));
        assert_ne!(base, first(7, "alice", Kind::Csp));
        assert_eq!(code(Kind::Alphabeta, "x"), code(Kind::Alphabeta, "x"));
        assert!(code(Kind::Alphabeta, "x").starts_with("ab1-"));
        assert_ne!(code(Kind::Csp, "x"), code(Kind::Csp, "y"));
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let x = rng.int(-3, 4);
            assert!((-3..=4).contains(&x));
        }
        let mut v: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, (0..10).collect::<Vec<_>>());
    }
}
