//! The shared fragments of a pair: from each fingerprint the two hold, the match is grown both ways over equal
//! symbols (never across a file's end nor into template code); overlapping matches give way to longer ones.

use std::collections::{HashMap, HashSet};

use super::prepare::Prepared;

/// A run of equal symbols in two hand-ins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fragment {
    /// Where it starts in the first hand-in's symbols.
    pub a: u32,
    /// Where it starts in the second's.
    pub b: u32,
    /// How many symbols (tokens) long.
    pub len: u32,
}

/// At most this many places of one fingerprint in a hand-in are tried (repetitive code would otherwise multiply).
const PLACES: usize = 8;

/// The non-overlapping shared fragments of `a` and `b` grown from the fingerprints in `shared`, in `a`'s order.
pub fn fragments(a: &Prepared, b: &Prepared, shared: &HashSet<u64>) -> Vec<Fragment> {
    let mut places: HashMap<u64, Vec<u32>> = HashMap::new();
    for p in a.prints.iter().filter(|p| shared.contains(&p.hash)) {
        let list = places.entry(p.hash).or_default();
        if list.len() < PLACES {
            list.push(p.pos);
        }
    }
    let same = |i: usize, j: usize| {
        a.syms.get(i) == b.syms.get(j)
            && a.syms.get(i).is_some()
            && !a.template.get(i).copied().unwrap_or(false)
            && !b.template.get(j).copied().unwrap_or(false)
    };
    let mut found: Vec<Fragment> = Vec::new();
    let mut seen: HashSet<(i64, u32)> = HashSet::new();
    let mut tried = 0usize;
    for q in b.prints.iter().filter(|p| shared.contains(&p.hash)) {
        for &pa in places.get(&q.hash).map_or(&[][..], Vec::as_slice) {
            tried += 1;
            if tried > 20_000 {
                break;
            }
            let (pa, pb) = (pa as usize, q.pos as usize);
            let diagonal = pa as i64 - pb as i64;
            if seen.contains(&(diagonal, pa as u32)) || !same(pa, pb) {
                continue;
            }
            let (fa, fb) = (a.files.get(pa).copied(), b.files.get(pb).copied());
            let mut start = 0usize;
            while start < pa.min(pb)
                && same(pa - start - 1, pb - start - 1)
                && a.files.get(pa - start - 1).copied() == fa
                && b.files.get(pb - start - 1).copied() == fb
            {
                start += 1;
            }
            let mut end = 1usize;
            while same(pa + end, pb + end)
                && a.files.get(pa + end).copied() == fa
                && b.files.get(pb + end).copied() == fb
            {
                end += 1;
            }
            let (sa, sb) = (pa - start, pb - start);
            let len = start + end;
            for i in 0..len {
                seen.insert((diagonal, (sa + i) as u32));
            }
            found.push(Fragment { a: sa as u32, b: sb as u32, len: len as u32 });
        }
    }
    // Longest first; a fragment overlapping one kept in either hand-in is dropped.
    found.sort_by(|x, y| y.len.cmp(&x.len).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
    let mut used_a = vec![false; a.syms.len()];
    let mut used_b = vec![false; b.syms.len()];
    let mut kept = Vec::new();
    for f in found {
        let ra = f.a as usize..(f.a + f.len) as usize;
        let rb = f.b as usize..(f.b + f.len) as usize;
        let clash = used_a.get(ra.clone()).map_or(true, |s| s.iter().any(|u| *u))
            || used_b.get(rb.clone()).map_or(true, |s| s.iter().any(|u| *u));
        if clash {
            continue;
        }
        used_a.get_mut(ra).into_iter().flatten().for_each(|u| *u = true);
        used_b.get_mut(rb).into_iter().flatten().for_each(|u| *u = true);
        kept.push(f);
    }
    kept.sort_by_key(|f| (f.a, f.b));
    kept
}
