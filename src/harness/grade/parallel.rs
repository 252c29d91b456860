//! A small work queue: items handed to `jobs` threads, each result passed back on the caller's thread as it
//! finishes (so the caller can write files and update progress without locks).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on every item with up to `jobs` threads; `done(index, result)` is called on this thread in
/// completion order.
pub fn for_each_parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    mut done: impl FnMut(usize, R),
) {
    let jobs = jobs.clamp(1, items.len().max(1));
    if jobs == 1 {
        for (i, item) in items.iter().enumerate() {
            done(i, work(item));
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, work(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            done(i, r);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_once_in_any_order() {
        let items: Vec<u32> = (0..100).collect();
        for jobs in [1, 2, 7] {
            let mut seen = vec![0; 100];
            for_each_parallel(
                &items,
                jobs,
                |x| x * 2,
                |i, r| {
                    assert_eq!(r, items[i] * 2);
                    seen[i] += 1;
                },
            );
            assert!(seen.iter().all(|&n| n == 1));
        }
    }
}
