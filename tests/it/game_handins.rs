//! A game hand-in the grader cannot read is the grader's problem, never a build error against the student.

use std::process::Command;

#[test]
fn an_unreadable_othello_handin_is_a_harness_error_not_the_students_build_error() {
    let root = tempfile::tempdir().unwrap();
    let class = root.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    // A link into nowhere, as a class folder on a flaky mount or a half-synced share can hold.
    std::os::unix::fs::symlink("/nonexistent/zz9999_ai.py", class.join("zz9999_ai.py")).unwrap();
    let out_dir = root.path().join("out");
    let out = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "othello", "--size", "4", "--games", "1", "--time", "1", "--check-share", "0"])
        .args(["--python", "/usr/bin/python3", "--seed", "1", "--submissions"])
        .arg(&class)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "the grader's failure exits 3\n{stdout}");
    let gradebook = std::fs::read_to_string(out_dir.join("gradebook.csv")).unwrap();
    assert!(gradebook.contains("harness error") && !gradebook.contains("build error"), "{gradebook}");
    let feedback = std::fs::read_dir(out_dir.join("feedback")).unwrap().flatten().next().unwrap().path();
    let text = std::fs::read_to_string(feedback).unwrap();
    assert!(text.contains("the grader could not read the hand-in"), "{text}");
    assert!(text.contains("not your fault") && !text.contains("Build failed"), "{text}");
}
