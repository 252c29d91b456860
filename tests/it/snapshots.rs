//! insta snapshots of the reference's exact output, stored in the top-level `snapshots/` folder: every official
//! case and a fixed grid of positions per edition, the positions that tell the open readings apart among them.
//! Snapshots show invisible characters (`$` at line ends, `<TAB>`). A change to any of these outputs must be reviewed (`cargo insta review`) before it lands.

use referee::reference::takestones::{solve_to_string, CompositeCount, Edition};

use crate::util::{in_snapshot_dir, request, visible};

/// The official cases' arguments (both editions' files hold these positions).
const OFFICIAL: &[&str] = &["3 0 0", "7 0 3", "7 3 1 4 2 3", "7 1 1 2", "10 3 4 2 6 4"];

/// The grid: first moves, every leaf rule (stone 1 left, last move 1, prime, composite), terminal leaves at and
/// before the limit, both sides to move, growing N and depth, and the general board (N > 127).
const GRID: &[&str] = &[
    "14 4 1 8 4 2 1", // composite reading: -0.6 all-available / 0.6 legal-only
    "12 2 5 10 3",    // composite reading changes pruning: 46 / 48 visited
    "10 4 1 4 8 2 3", // EBF exactly 1.25: 1.3 half-up / 1.2 half-even
    "3 0 2",
    "4 0 0",
    "5 0 1",
    "6 0 0",
    "7 0 0",
    "7 0 1",
    "7 0 2",
    "8 0 3",
    "9 0 4",
    "10 0 0",
    "11 0 3",
    "12 0 0",
    "13 0 5",
    "13 0 0",
    "16 1 1 2",
    "16 2 1 16 3",
    "17 3 3 1 2 4",
    "18 2 5 1 4",
    "20 1 3 3",
    "20 3 7 1 14 4",
    "21 2 9 3 5",
    "24 3 11 1 22 5",
    "25 2 1 25 4",
    "27 4 13 1 2 4 3",
    "30 1 1 2",
    "9 3 1 6 3 0",
    "11 3 5 1 3 0",
    "12 3 1 2 4 0",
    "130 1 1 2",
    "200 2 1 97 3",
];

fn check(edition: Edition, label: &str, args: &str) {
    let output = visible(&solve_to_string(&request(args, edition)).unwrap().0);
    in_snapshot_dir(&args.replace(' ', "_"), || insta::assert_snapshot!(label, output));
}

#[test]
fn official_cases_stats() {
    for args in [OFFICIAL[0], OFFICIAL[3], OFFICIAL[4]] {
        check(Edition::Stats, "official_stats", args);
    }
}

#[test]
fn official_cases_trace() {
    for args in OFFICIAL {
        check(Edition::Trace, "official_trace", args);
    }
}

#[test]
fn grid_stats() {
    assert!(GRID.len() >= 30);
    for args in GRID {
        check(Edition::Stats, "grid_stats", args);
    }
}

#[test]
fn grid_trace() {
    for args in GRID {
        check(Edition::Trace, "grid_trace", args);
    }
}

#[test]
fn grid_stats_legal_moves_reading() {
    for args in &GRID[..3] {
        let mut req = request(args, Edition::Stats);
        req.options.composite = CompositeCount::LegalMoves;
        let output = visible(&solve_to_string(&req).unwrap().0);
        in_snapshot_dir(&args.replace(' ', "_"), || insta::assert_snapshot!("grid_stats_legal_moves", output));
    }
}
