//! `referee perft othello`: the published leaf counts from the 8x8 start, and bad arguments refused in one line.

use assert_cmd::Command;

/// The published perft counts from the 8x8 start, depths 1 to 9 (passes count as plies).
const PUBLISHED: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

#[test]
fn the_8x8_start_gives_the_published_counts_to_depth_9() {
    let output = Command::cargo_bin("referee").unwrap().args(["perft", "othello", "--depth", "9"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let counts: Vec<u64> = text
        .lines()
        .map(|line| line.split(' ').nth(2).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{line}")))
        .collect();
    assert_eq!(counts, PUBLISHED, "{text}");
    assert!(text.starts_with("depth 1: 4 leaves in "), "{text}");
}

#[test]
fn a_size_or_depth_it_cannot_count_is_one_line_and_exit_2() {
    for (args, bad) in [
        (["--depth", "3", "--size", "5"], "5"),
        (["--depth", "0", "--size", "8"], "0"),
        (["--depth", "x", "--size", "8"], "x"),
    ] {
        let output = Command::cargo_bin("referee").unwrap().args(["perft", "othello"]).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(bad), "{args:?}: {stderr}");
    }
}
