//! Shared helpers: positions from argument strings, the binaries, snapshot settings.

use referee::reference::takestones::{parse_numbers, Edition, Request};

/// A request from the student program's argument string (`"7 3 1 4 2 3"`).
pub fn request(args: &str, edition: Edition) -> Request {
    let words: Vec<&str> = args.split_whitespace().collect();
    let (position, depth) = parse_numbers(&words).unwrap();
    Request { edition, ..Request::new(position, depth) }
}

/// Output with its invisible characters shown, for snapshots (insta trims trailing spaces, and the trace's
/// `"%d "` spaces and TABs are exactly what must not change): `<TAB>` for a tab, `$` at every line end.
pub fn visible(output: &str) -> String {
    output.split_inclusive('\n').map(|line| line.replace('\t', "<TAB>").replace('\n', "$\n")).collect()
}

/// Runs `f` with insta writing into the top-level `snapshots/` folder, named `<name>@<suffix>.snap`.
pub fn in_snapshot_dir(suffix: &str, f: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_suffix(suffix);
    settings.bind(f);
}

/// Runs `referee ARGS` and asserts what every bad-argument error must be: exit 2 and one line on stderr that
/// contains `message`.
pub fn assert_usage_error(args: &[&str], message: &str) {
    let out = assert_cmd::Command::cargo_bin("referee").unwrap().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
}
