//! Java itself as the oracle for number formatting: every effective branching factor a search of up to 600 nodes
//! can produce, every tie k/20, and a spread of other doubles, formatted by a real JVM and by referee.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use referee::reference::number::{format_fixed, NegativeZero, Rounding};

fn have(tool: &str) -> bool {
    Command::new(tool).arg("-version").output().map(|o| o.status.success()).unwrap_or(false)
}

fn values() -> Vec<f64> {
    let mut xs = Vec::new();
    for visited in 2..=600u32 {
        for evaluated in 1..visited {
            xs.push(f64::from(visited - 1) / f64::from(visited - evaluated));
        }
    }
    xs.extend((-4000..=4000).map(|k| f64::from(k) / 20.0));
    xs.extend((-4000..=4000).map(|k| f64::from(k) / 100.0 + 0.05));
    xs.extend([0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 1.15, 1.25, 1.45, 9.95, 99.95, 1e-9, 123456.75, -1e-9]);
    xs
}

#[test]
fn formatting_matches_a_real_jvm() {
    if !have("javac") || !have("java") {
        assert!(std::env::var_os("REFEREE_REQUIRE_JAVA").is_none(), "javac/java are required here but missing");
        eprintln!("skipped: no JDK on this machine (.ci/run installs one)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java/FormatOracle.java");
    let status = Command::new("javac").arg("-d").arg(dir.path()).arg(&source).status().unwrap();
    assert!(status.success(), "javac failed");

    let xs = values();
    let mut child = Command::new("java")
        .arg("-cp")
        .arg(dir.path())
        .arg("FormatOracle")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = xs.iter().map(|x| format!("{:016x}\n", x.to_bits())).collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), xs.len());

    let mut mismatches = Vec::new();
    for (x, line) in xs.iter().zip(&lines) {
        let (java_format, java_decimal) = line.split_once('\t').unwrap();
        let ours_format = format_fixed(*x, 1, Rounding::HalfUp, NegativeZero::Keep);
        let ours_decimal = format_fixed(*x, 1, Rounding::HalfEven, NegativeZero::Keep);
        if ours_format != java_format || ours_decimal != java_decimal {
            mismatches.push(format!("{x:?}: java {java_format}/{java_decimal}, ours {ours_format}/{ours_decimal}"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} differ:\n{}",
        mismatches.len(),
        xs.len(),
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}
