//! Issue 34, "a cause is named only with its proof": `referee check takestones` on programs whose counters are
//! right but whose search differs, written in a code shape no other test uses (`tests/fixtures/shapes`: one
//! recursive function for both players, the `alpha = max(alpha, v); if alpha >= beta` cut), in Python and Java.
//! Where one change of the reference reproduces the program, that component is named with its proof; where none
//! does, no component is named (the symptom and where to look instead); a correct program in that shape passes.

use std::process::Output;

use assert_cmd::Command;

use crate::grade::{fixture, python};
use crate::variants::{materialize, Change};

/// A program in the new shape, its truth, and what `check` must say.
struct Program {
    name: &'static str,
    java: bool,
    changes: &'static [Change],
    /// The components that must be named as located (empty: none may be).
    located: &'static [&'static str],
    /// A catalogued bug the diagnosis must name instead (a catalogued bug is proven the same way).
    bug: Option<&'static str>,
}

const PY: &str = "takestones.py";
const JAVA: &str = "TakeStones.java";

const PY_DESCENDING: &[Change] = &[(PY, "order = moves  # ORDER", "order = sorted(moves, reverse=True)  # ORDER")];
const PY_NO_PRUNING: &[Change] = &[(PY, "if alpha >= beta:  # CUT", "if False:  # CUT")];
const PY_STRICT_BOTH: &[Change] = &[(PY, "if alpha >= beta:  # CUT", "if alpha > beta:  # CUT")];
const PY_PRIME_ALL: &[Change] =
    &[(PY, "hits = len([m for m in moves if m % last == 0])  # PRIME COUNT", "hits = n // last  # PRIME COUNT")];
const PY_PRIME_ODD: &[Change] = &[(
    PY,
    "hits = len([m for m in moves if m % last == 0])  # PRIME COUNT",
    "hits = len([m for m in moves if m % last == 0 and m != 2 * last])  # PRIME COUNT",
)];
const PY_DESCENDING_NO_PRUNING: &[Change] = &[
    (PY, "order = moves  # ORDER", "order = sorted(moves, reverse=True)  # ORDER"),
    (PY, "if alpha >= beta:  # CUT", "if False:  # CUT"),
];
/// Fail-hard: every value clamped to the window the node was given (the spec's fail-soft is not required).
const PY_FAIL_HARD: &[Change] = &[
    (PY, "    order = moves  # ORDER", "    a0, b0 = alpha, beta\n    order = moves  # ORDER"),
    (PY, "            break\n    return best, pick", "            break\n    return max(a0, min(best, b0)), pick"),
];
const JAVA_DESCENDING: &[Change] = &[(
    JAVA,
    "List<Integer> order = moves; // ORDER",
    "List<Integer> order = new ArrayList<>(moves); java.util.Collections.reverse(order); // ORDER",
)];
const JAVA_NO_PRUNING: &[Change] = &[(JAVA, "if (alpha >= beta) break; // CUT", "// CUT removed")];
const JAVA_PRIME_ALL: &[Change] =
    &[(JAVA, "for (int m : moves) if (m % last == 0) hits++; // PRIME COUNT", "hits = n / last; // PRIME COUNT")];
const JAVA_PRIME_ODD: &[Change] = &[(
    JAVA,
    "for (int m : moves) if (m % last == 0) hits++; // PRIME COUNT",
    "for (int m : moves) if (m % last == 0 && m != 2 * last) hits++; // PRIME COUNT",
)];

const PROGRAMS: &[Program] = &[
    Program { name: "py-correct", java: false, changes: &[], located: &[], bug: None },
    Program { name: "py-correct-fail-hard", java: false, changes: PY_FAIL_HARD, located: &[], bug: None },
    Program {
        name: "py-descending-and-no-pruning",
        java: false,
        changes: PY_DESCENDING_NO_PRUNING,
        located: &["child-order", "pruning"],
        bug: None,
    },
    Program { name: "py-descending", java: false, changes: PY_DESCENDING, located: &["child-order"], bug: None },
    Program { name: "py-no-pruning", java: false, changes: PY_NO_PRUNING, located: &["pruning"], bug: None },
    Program {
        name: "py-strict-cut-both-sides",
        java: false,
        changes: PY_STRICT_BOTH,
        located: &[],
        bug: Some("strict-cuts"),
    },
    Program {
        name: "py-prime-counts-all-stones",
        java: false,
        changes: PY_PRIME_ALL,
        located: &["evaluation"],
        bug: None,
    },
    Program { name: "py-prime-skips-double", java: false, changes: PY_PRIME_ODD, located: &[], bug: None },
    Program { name: "java-correct", java: true, changes: &[], located: &[], bug: None },
    Program { name: "java-descending", java: true, changes: JAVA_DESCENDING, located: &["child-order"], bug: None },
    Program { name: "java-no-pruning", java: true, changes: JAVA_NO_PRUNING, located: &["pruning"], bug: None },
    Program {
        name: "java-prime-counts-all-stones",
        java: true,
        changes: JAVA_PRIME_ALL,
        located: &["evaluation"],
        bug: None,
    },
    Program { name: "java-prime-skips-double", java: true, changes: JAVA_PRIME_ODD, located: &[], bug: None },
];

fn run(p: &Program) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let source = if p.java { "shapes/java-stats" } else { "shapes/python-stats" };
    materialize(&fixture(source), p.changes, dir.path());
    let words: Vec<String> = if p.java {
        ["--shell", "--build", "javac -d {dir} {dir}/*.java", "--cmd", "java -cp {dir} TakeStones {args}"]
            .map(String::from)
            .to_vec()
    } else {
        vec!["--cmd".into(), format!("{} {{dir}}/takestones.py {{args}}", python())]
    };
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--explain", "--edition", "stats", "--seed", "34", "--cases", "40"])
        .args(words)
        .arg("--dir")
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

/// The names of the causes printed as located.
fn located(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("cause: "))
        .filter(|l| l.contains("(located)"))
        .filter_map(|l| l.split(' ').next())
        .map(String::from)
        .collect()
}

/// Asserts what `check` must say about `name`: the right component with its proof, or no component at all.
fn assert_program(name: &str) -> String {
    let p = PROGRAMS.iter().find(|p| p.name == name).unwrap();
    let (out, text) = run(p);
    if p.name.contains("correct") {
        assert_eq!(out.status.code(), Some(0), "{name}: a correct program must pass:\n{text}");
        assert!(!text.contains("cause:") && !text.contains("symptom:"), "{name}:\n{text}");
        return String::new();
    }
    assert_eq!(out.status.code(), Some(1), "{name}:\n{text}");
    let named = located(&text);
    // Never a counter for a program whose counters are right.
    assert!(
        !named.iter().any(|n| n == "visited-count" || n == "evaluated-count"),
        "{name}: a right counter accused:\n{text}"
    );
    if let Some(bug) = p.bug {
        assert!(named.is_empty(), "{name}:\n{text}");
        assert!(text.contains(&format!("diagnosis: matches the reference with {bug} (bug)")), "{name}:\n{text}");
        return format!("bug: {bug}");
    }
    if p.located.is_empty() {
        assert!(named.is_empty(), "{name}: named without a change that reproduces it:\n{text}");
        assert!(!text.contains("cause:"), "{name}:\n{text}");
        assert!(text.contains("no single change the tool knows reproduces your output"), "{name}:\n{text}");
        assert!(text.contains("look: "), "{name}: no hint where to look:\n{text}");
    } else {
        for component in p.located {
            assert!(named.iter().any(|n| n == component), "{name}: {component} not named:\n{text}");
        }
        assert!(named.iter().all(|n| p.located.contains(&n.as_str())), "{name}: another component named:\n{text}");
        assert!(text.contains("diagnosis: located and proven"), "{name}:\n{text}");
        // The proof is shown, with every case it reproduced (--explain), the shrunk case first.
        let proof = text.lines().find(|l| l.trim_start().starts_with("proof: ")).unwrap();
        let total: usize = proof.split("on all ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let listed: Vec<&str> = text.lines().filter_map(|l| l.trim_start().strip_prefix("reproduced: ")).collect();
        // One list per located cause (two equivalent pairs may both be proven: without pruning, the order of
        // children only decides ties, as a larger-stone tie-break does).
        let causes = text.lines().filter(|l| l.starts_with("cause: ")).count();
        assert_eq!(listed.len(), total * causes, "{name}:\n{text}");
        let shrunk = text.lines().find_map(|l| l.strip_prefix("smallest position that still diverges: ")).unwrap();
        assert_eq!(listed[0], shrunk, "{name}:\n{text}");
        assert!(text.contains("  changed: "), "{name}:\n{text}");
    }
    named.join(", ")
}

#[test]
fn a_correct_program_in_another_shape_passes() {
    assert_program("py-correct");
}

#[test]
fn a_fail_hard_program_passes() {
    assert_program("py-correct-fail-hard");
}

#[test]
fn two_changes_needed_together_are_named_together_with_their_proof() {
    assert_program("py-descending-and-no-pruning");
}

#[test]
fn children_in_descending_order_are_located_in_the_order_with_proof_not_the_counters() {
    assert_program("py-descending");
}

#[test]
fn plain_minimax_is_located_as_no_pruning_not_the_counters() {
    assert_program("py-no-pruning");
}

#[test]
fn a_strict_cut_on_both_sides_is_the_catalogued_bug_not_a_counter() {
    assert_program("py-strict-cut-both-sides");
}

#[test]
fn a_wrong_count_after_a_prime_is_located_in_the_evaluation_with_proof() {
    assert_program("py-prime-counts-all-stones");
}

#[test]
fn a_wrong_evaluation_no_change_reproduces_names_no_component() {
    assert_program("py-prime-skips-double");
}

#[test]
fn java_programs_in_another_shape_get_the_same_verdicts() {
    for name in [
        "java-correct",
        "java-descending",
        "java-no-pruning",
        "java-prime-counts-all-stones",
        "java-prime-skips-double",
    ] {
        assert_program(name);
    }
}

/// The table of the closing note: `cargo test --test it proven::table -- --ignored --nocapture`.
#[test]
#[ignore = "prints the table of program, truth, what the tool said, seconds; run with --ignored --nocapture"]
fn table() {
    println!("| program | truth | what the tool said | seconds |");
    println!("|---|---|---|---|");
    for p in PROGRAMS {
        let began = std::time::Instant::now();
        let said = assert_program(p.name);
        let seconds = began.elapsed().as_secs_f64();
        let truth = if p.name.contains("correct") { "correct".to_string() } else { p.name.to_string() };
        let said = if p.name.contains("correct") {
            "passed".to_string()
        } else if said.is_empty() {
            "symptom only, no component named".to_string()
        } else if said.starts_with("bug: ") {
            said
        } else {
            format!("located: {said}")
        };
        println!("| {} | {truth} | {said} | {seconds:.1} |", p.name);
    }
}
