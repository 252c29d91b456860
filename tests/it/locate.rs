//! `referee check takestones` on bugs the catalog does not list, each a small change to the correct Python
//! fixture written for these tests: no variant may be named, and probing must locate the bug to its component
//! with a command that reproduces it, under a diagnosis that says it was located (not that nothing is known). That
//! a correct program gets no cause is asserted in `check::correct_python_programs_pass_random_positions`.

use std::process::Output;

use assert_cmd::Command;

use crate::grade::{fixture, python};
use crate::variants::{materialize, Change};

fn check(changes: &[Change], source: &str, edition: &str) -> (Output, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    materialize(&fixture(source), changes, dir.path());
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones"])
        .args(program(source))
        .args(["--edition", edition, "--seed", "2026", "--cases", "60", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text, dir)
}

/// The `check` options that build and run the fixture `source`: a Java hand-in is compiled as students compile it.
fn program(source: &str) -> Vec<String> {
    let words: Vec<String> = if source.contains("java") {
        ["--shell", "--build", "javac -d {dir} {dir}/*.java", "--cmd", "java -cp {dir} TakeStones {args}"]
            .map(String::from)
            .to_vec()
    } else {
        vec!["--cmd".into(), format!("{} {{dir}}/takestones.py {{args}}", python())]
    };
    words
}

/// Asserts one located cause `name` whose sentence and evidence contain `says`, and a reproducing command that
/// does reproduce a difference from the reference.
fn assert_located(changes: &[Change], source: &str, edition: &str, name: &str, says: &[&str]) {
    let (out, text, dir) = check(changes, source, edition);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("diagnosis: located and proven"), "{text}");
    assert!(text.contains("  proof: the reference with "), "a located cause without its proof:\n{text}");
    assert!(!text.contains("no known bug"), "a located cause under \"no known bug\":\n{text}");
    let causes: Vec<&str> = text.lines().filter(|l| l.starts_with("cause: ")).collect();
    // Equivalent changes of the same component may both be proven (after a composite, counting the stone just
    // taken flips the parity exactly as a reversed sign does): every cause names the component.
    assert!(!causes.is_empty(), "{text}");
    assert!(causes.iter().all(|c| c.starts_with(&format!("cause: {name} (located): "))), "{text}");
    for s in says {
        assert!(text.contains(s), "missing {s:?}:\n{text}");
    }
    // The command reproduces: run it and compare with the reference on the same arguments.
    let command = text.lines().find_map(|l| l.trim().strip_prefix("reproduce: ")).unwrap();
    let words = shlex::split(command).unwrap();
    // A shell command (`sh -c 'java -cp DIR TakeStones ARGS'`) or the program's own words (`python3 DIR/x.py ARGS`).
    let inner = if words[0] == "sh" { shlex::split(&words[2]).unwrap() } else { words.clone() };
    let args = if words[0] == "sh" { &inner[4..] } else { &inner[2..] };
    assert!(command.contains(dir.path().to_str().unwrap()), "{command}");
    let theirs = std::process::Command::new(&words[0]).args(&words[1..]).output().unwrap();
    let ours = Command::cargo_bin("takestones").unwrap().args(["--edition", edition]).args(args).output().unwrap();
    assert_ne!(theirs.stdout, ours.stdout, "{command} shows no difference");
}

/// An unseen-style Take-Stones bug: one change to a correct fixture (Python stats or trace, or Java stats), the
/// component `check` must locate it in, and words its sentence and evidence must contain.
struct Mutant {
    name: &'static str,
    source: &'static str,
    edition: &'static str,
    changes: &'static [Change],
    component: &'static str,
    says: &'static [&'static str],
}

const PY_STATS: &str = "submissions/python-stats";
const PY_TRACE: &str = "submissions/python-trace";
const JAVA_STATS: &str = "submissions/java-stats";

/// A largest-prime-factor helper that only tries divisors up to the square root (drops the last factor).
const LPF_SQRT: &[Change] =
    &[("takestones.py", "    if x > 1:\n        largest = x\n    return largest", "    return largest")];
/// Both loops of the Python fixtures (stats and trace alike) visit the moves from the last.
const PY_REVERSED: &[Change] = &[
    (
        "takestones.py",
        "            for move in moves:\n                child = self.search(state.take(move), depth + 1, alpha, beta, False)",
        "            for move in reversed(moves):\n                child = self.search(state.take(move), depth + 1, alpha, beta, False)",
    ),
    (
        "takestones.py",
        "            for move in moves:\n                child = self.search(state.take(move), depth + 1, alpha, beta, True)",
        "            for move in reversed(moves):\n                child = self.search(state.take(move), depth + 1, alpha, beta, True)",
    ),
];
const PY_MAX_STRICT: &[Change] = &[("takestones.py", "                if v >= beta:", "                if v > beta:")];
const PY_MIN_STRICT: &[Change] =
    &[("takestones.py", "                if v <= alpha:", "                if v < alpha:")];
const PY_FIRST_INT: &[Change] = &[("takestones.py", "if 2 * i < self.size", "if i < self.size // 2")];
const MAX_STRICT: &str = "Your Max nodes cut only when the value exceeds beta";
const MIN_STRICT: &str = "Your Min nodes cut only when the value is below alpha";
const FIRST_INT: &str = "Your first move allows the odd stones below n / 2 in integer division";
const ORDER: &str = "Your search visits a node's children from the largest stone down";
const LPF: &str = "Your largest prime factor stops at the square root and drops the factor left over";
const COUNTS_LAST: &str = "After a composite last move your evaluation also counts the stone just taken";

const MUTANTS: &[Mutant] = &[
    Mutant {
        name: "lpf-sqrt-stats",
        source: PY_STATS,
        edition: "stats",
        changes: LPF_SQRT,
        component: "evaluation",
        says: &[LPF, "the largest prime factor of"],
    },
    Mutant {
        name: "lpf-sqrt-trace",
        source: PY_TRACE,
        edition: "trace",
        changes: LPF_SQRT,
        component: "evaluation",
        says: &[LPF],
    },
    Mutant {
        name: "composite-counts-last-move",
        source: PY_STATS,
        edition: "stats",
        changes: &[(
            "takestones.py",
            "if self.available[i])\n            value = 0.6",
            "if self.available[i] or i == last)\n            value = 0.6",
        )],
        component: "evaluation",
        says: &[COUNTS_LAST, "you score"],
    },
    Mutant {
        name: "max-depth-at-end-of-game",
        source: PY_STATS,
        edition: "stats",
        changes: &[(
            "takestones.py",
            "            self.evaluated += 1\n",
            "            self.evaluated += 1\n            if not moves:\n                self.max_depth = max(self.max_depth, depth + 1)\n",
        )],
        component: "max-depth",
        says: &["Your max depth counts one ply below an end-of-game leaf"],
    },
    Mutant {
        name: "children-reversed-stats",
        source: PY_STATS,
        edition: "stats",
        changes: PY_REVERSED,
        component: "child-order",
        says: &[ORDER],
    },
    Mutant {
        name: "children-reversed-trace",
        source: PY_TRACE,
        edition: "trace",
        changes: PY_REVERSED,
        component: "child-order",
        says: &[ORDER],
    },
    Mutant {
        name: "children-reversed-java",
        source: JAVA_STATS,
        edition: "stats",
        changes: &[("GameState.java", "            successors.add(child);", "            successors.add(0, child);")],
        component: "child-order",
        says: &[ORDER],
    },
    Mutant {
        name: "max-strict-cut-stats",
        source: PY_STATS,
        edition: "stats",
        changes: PY_MAX_STRICT,
        component: "cut-condition",
        says: &[MAX_STRICT],
    },
    Mutant {
        name: "max-strict-cut-trace",
        source: PY_TRACE,
        edition: "trace",
        changes: PY_MAX_STRICT,
        component: "cut-condition",
        says: &[MAX_STRICT],
    },
    Mutant {
        name: "max-strict-cut-java",
        source: JAVA_STATS,
        edition: "stats",
        changes: &[("AlphaBetaPruning.java", "if (v >= beta) {", "if (v > beta) {")],
        component: "cut-condition",
        says: &[MAX_STRICT],
    },
    Mutant {
        name: "min-strict-cut-stats",
        source: PY_STATS,
        edition: "stats",
        changes: PY_MIN_STRICT,
        component: "cut-condition",
        says: &[MIN_STRICT],
    },
    Mutant {
        name: "min-strict-cut-trace",
        source: PY_TRACE,
        edition: "trace",
        changes: PY_MIN_STRICT,
        component: "cut-condition",
        says: &[MIN_STRICT],
    },
    Mutant {
        name: "first-move-int-div-stats",
        source: PY_STATS,
        edition: "stats",
        changes: PY_FIRST_INT,
        component: "first-move",
        says: &[FIRST_INT],
    },
    Mutant {
        name: "first-move-int-div-trace",
        source: PY_TRACE,
        edition: "trace",
        changes: PY_FIRST_INT,
        component: "first-move",
        says: &[FIRST_INT],
    },
    Mutant {
        name: "first-move-int-div-java",
        source: JAVA_STATS,
        edition: "stats",
        changes: &[("GameState.java", "i < size / 2.0;", "i < size / 2;")],
        component: "first-move",
        says: &[FIRST_INT],
    },
];

/// Asserts that the mutant `name` of [`MUTANTS`] is located in its component.
fn assert_mutant(name: &str) {
    let m = MUTANTS.iter().find(|m| m.name == name).unwrap();
    assert_located(m.changes, m.source, m.edition, m.component, m.says);
}

macro_rules! mutant_tests {
    ($($(#[$meta:meta])* $test:ident: [$($name:literal),*],)*) => {
        $(
            #[test]
            $(#[$meta])*
            fn $test() {
                $(assert_mutant($name);)*
            }
        )*
        /// Every mutant has a test (the Java ones that only repeat a Python test's component are measured by
        /// [`takestones_table`], not run on every `cargo test`: each costs a build and a JVM per probe).
        #[test]
        fn every_mutant_is_tested_or_measured() {
            let tested = [$($($name),*),*];
            for m in MUTANTS {
                assert!(tested.contains(&m.name) || m.source == JAVA_STATS, "{} has no test", m.name);
            }
        }
    };
}

mutant_tests! {
    a_largest_prime_factor_that_stops_at_the_square_root_is_located_in_the_evaluation:
        ["lpf-sqrt-stats", "lpf-sqrt-trace"],
    a_composite_count_that_counts_the_last_move_is_located_in_the_evaluation: ["composite-counts-last-move"],
    max_depth_wrong_only_at_end_of_game_nodes_is_located_not_misnamed: ["max-depth-at-end-of-game"],
    children_searched_from_the_largest_stone_are_located_in_the_order_not_the_counters:
        ["children-reversed-stats", "children-reversed-trace", "children-reversed-java"],
    a_strict_cut_on_the_max_side_only_is_located_in_the_cut_condition:
        ["max-strict-cut-stats", "max-strict-cut-trace"],
    a_strict_cut_on_the_min_side_only_is_located_in_the_cut_condition:
        ["min-strict-cut-stats", "min-strict-cut-trace"],
    // Its smallest diverging case (`3 0 0`) prints nothing: the proof leads with the smallest case that printed.
    a_first_move_rule_with_integer_division_is_located_in_the_first_move_not_the_counters:
        ["first-move-int-div-stats", "first-move-int-div-trace"],
}

/// The Take-Stones table of the closing note: `cargo test --test it locate::takestones_table -- --ignored
/// --nocapture` checks every mutant (asserting its component, as the tests above do) and prints whether it was
/// caught, the component named and the seconds `check` took (a measurement, not a test).
#[test]
#[ignore = "prints the table of Take-Stones mutants; run with --ignored --nocapture"]
fn takestones_table() {
    println!("| mutant | program | caught | component named | seconds |");
    println!("|---|---|---|---|---|");
    for m in MUTANTS {
        let began = std::time::Instant::now();
        let (out, text, _dir) = check(m.changes, m.source, m.edition);
        let seconds = began.elapsed().as_secs_f64();
        let named: Vec<&str> =
            text.lines().filter_map(|l| l.strip_prefix("cause: ")).filter_map(|l| l.split(' ').next()).collect();
        println!(
            "| {} | {} ({}) | {} | {} | {seconds:.1} |",
            m.name,
            m.source.trim_start_matches("submissions/"),
            m.edition,
            out.status.code() == Some(1),
            named.join(", ")
        );
        assert_eq!(named, [m.component], "{}:\n{text}", m.name);
    }
}

/// The shrunk case as the check prints it: `(arguments, depth)`.
fn shrunk(text: &str) -> (String, u32) {
    let line = text.lines().find_map(|l| l.strip_prefix("smallest position that still diverges: ")).unwrap();
    let (args, depth) = line.rsplit_once(' ').unwrap();
    (args.to_string(), depth.parse().unwrap())
}

/// A located sentence never claims a scope the shrunk case contradicts: a counter difference said to show "only on
/// positions searched to the end" is never printed under a shrunk case with a depth limit.
#[test]
fn no_located_scope_is_contradicted_by_the_shrunk_case() {
    let table: &[(&str, &[Change])] =
        &[("max-strict", PY_MAX_STRICT), ("min-strict", PY_MIN_STRICT), ("first-move", PY_FIRST_INT)];
    for (name, changes) in table {
        let (_, text, _dir) = check(changes, "submissions/python-stats", "stats");
        let (_, depth) = shrunk(&text);
        if depth != 0 {
            assert!(!text.contains("only on positions searched to the end"), "{name}:\n{text}");
        }
        assert!(
            !text.lines().any(|l| l.starts_with("cause: visited-count")),
            "{name}: blamed on the counters:\n{text}"
        );
    }
}
