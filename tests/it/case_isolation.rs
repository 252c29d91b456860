//! Cases of one hand-in are as isolated as two classmates (issue 32, item 5): graded with `-j 2`, no case reads
//! the arguments (hidden inputs) of another case running beside it from `/proc`, in every layer set, the one
//! without a PID namespace and the Gradescope-like one (neither namespaces nor Landlock) included.

use std::fs;
use std::process::Command;

use referee::harness::model::RunReport;

use crate::grade::{fixture, python};

/// Issue 32, item 5, as root: four cases of a hand-in that scans `/proc` for its siblings' command lines.
#[test]
fn no_case_reads_the_arguments_of_another_case_of_its_hand_in() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("handin");
    fs::create_dir_all(&dir).unwrap();
    fs::copy(fixture("hostile/sibling_cmdline.py"), dir.join("takestones.py")).unwrap();
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    let suite = work.path().join("four.toml");
    // A token of this grading in every case's arguments: a sibling is a process carrying it (the other tests
    // running beside this one are not this hand-in's cases).
    let token = format!("sibling-probe-{}", std::process::id());
    let cases: String =
        (3..7).map(|n| format!("[[case]]\nname = \"c{n}\"\nargs = \"{n} 0 0 {token}\"\nexpected = \"\"\n")).collect();
    fs::write(&suite, cases).unwrap();
    let mut sets = crate::containment::layer_sets_and_gradescope();
    let all: Vec<String> = crate::containment::layers_on();
    let no_pid: Vec<&str> = all.iter().map(String::as_str).filter(|n| *n != "pid").collect();
    if no_pid.len() < all.len() {
        sets.push(("no-pid", Some(no_pid.join(","))));
    }
    for (set, layers) in sets {
        let mut grade = Command::new(assert_cmd::cargo::cargo_bin("referee"));
        grade
            .args(["grade", "--suite", suite.to_str().unwrap(), "--dir", dir.to_str().unwrap()])
            .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python()), "-j", "2"])
            .args(["--timeout", "10s", "--color", "never", "--format", "json"]);
        if let Some(layers) = &layers {
            grade.args(["--sandbox-layers", layers]);
        }
        let output = grade.output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{set}: {}", String::from_utf8_lossy(&output.stderr));
        let report: RunReport = serde_json::from_slice(&output.stdout).unwrap();
        let cases = &report.submissions[0].cases;
        assert_eq!(cases.len(), 4, "{set}");
        for case in cases {
            let text = &case.stdout.text;
            assert!(text.ends_with("done\n"), "{set}: {}: {text} ({})", case.name, case.detail);
            assert!(!text.contains("seen "), "{set}: {} read a sibling's arguments: {text}", case.name);
        }
    }
}
