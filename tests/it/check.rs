//! `referee check` on real programs: for every catalog variant, a Python submission with exactly that bug (the
//! correct fixture with one declared change) is caught, shrunk and named; accepted readings pass and are reported;
//! the correct programs pass `check` run by run (a thousand positions each, without a process per position, are in
//! `check_many.rs`); `check --suite` judges a `-0.0` exactly as `grade` does for
//! the same generated suite; a program that never ran (uncompiled Java, a misspelled file) stops at once with a hint,
//! and `--build` compiles it as `grade` does.

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

use referee::reference::takestones::Edition;

use crate::check_many::{check_config, Driver};
use crate::grade::{fixture, python};
use crate::variants::{materialize, python_wrong, Change, CLASS};

/// One variant as a change to a correct program: `(variant, edition, [(from, to)])`. Every `from` must occur
/// exactly once, so the program has exactly this bug.
type Mutation = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

const STATS: &[Mutation] = &[
    ("first-move-at-most-half", "stats", &[("2 * i < self.size", "2 * i <= self.size")]),
    (
        "composite-legal-only",
        "stats",
        &[(
            "count = sum(1 for i in range(p, self.size + 1, p) if self.available[i])",
            "count = sum(1 for m in moves if m % p == 0)",
        )],
    ),
    ("no-negation-for-min", "stats", &[("return value if self.is_max_turn() else -value", "return value")]),
    ("strict-cuts", "stats", &[("if v >= beta:", "if v > beta:"), ("if v <= alpha:", "if v < alpha:")]),
    (
        "wrong-largest-prime",
        "stats",
        &[("    largest = 1\n    i = 2\n    while i * i <= x:", "    largest = 1\n    i = 2\n    while i * i < x:")],
    ),
    ("max-depth-from-one", "stats", &[("% search.max_depth,", "% (search.max_depth + 1),")]),
    ("depth-limit-off-by-one", "stats", &[("depth == self.depth_limit:", "depth == self.depth_limit - 1:")]),
    ("tie-toward-larger", "stats", &[("if child > v:", "if child >= v:"), ("if child < v:", "if child <= v:")]),
    (
        "visited-excludes-root",
        "stats",
        &[("    branching = (search.visited - 1)", "    search.visited -= 1\n    branching = (search.visited - 1)")],
    ),
    (
        "evaluated-terminal-only",
        "stats",
        &[("            self.evaluated += 1\n", "            if not moves:\n                self.evaluated += 1\n")],
    ),
    (
        "half-even",
        "stats",
        &[(
            "Decimal(repr(x)).quantize(Decimal(\"0.1\"), rounding=ROUND_HALF_UP)",
            "Decimal(x).quantize(Decimal(\"0.1\"), rounding=\"ROUND_HALF_EVEN\")",
        )],
    ),
    (
        "raw-double",
        "stats",
        &[("return str(Decimal(repr(x)).quantize(Decimal(\"0.1\"), rounding=ROUND_HALF_UP))", "return repr(float(x))")],
    ),
    (
        "hash-format",
        "stats",
        &[(
            "return str(Decimal(repr(x)).quantize(Decimal(\"0.1\"), rounding=ROUND_HALF_UP))",
            "s = str(Decimal(x).quantize(Decimal(\"0.1\"), rounding=\"ROUND_HALF_EVEN\"))\n    return s[:-2] if s.endswith(\".0\") else s",
        )],
    ),
    (
        "negative-zero",
        "stats",
        &[(
            "        if self.available[1]:\n            return 0.0\n        last = self.last_move\n        if last == 1:",
            "        last = self.last_move\n        if self.available[1]:\n            value = 0.0\n        elif last == 1:",
        )],
    ),
];

const TRACE: &[Mutation] = &[
    ("first-move-at-most-half", "trace", &[("2 * i < self.size", "2 * i <= self.size")]),
    (
        "composite-legal-only",
        "trace",
        &[(
            "count = sum(1 for i in range(p, self.size + 1, p) if self.available[i])",
            "count = sum(1 for m in moves if m % p == 0)",
        )],
    ),
    ("strict-cuts", "trace", &[("if v >= beta:", "if v > beta:"), ("if v <= alpha:", "if v < alpha:")]),
    (
        "bound-before-cut",
        "trace",
        &[
            (
                "                if v >= beta:\n                    self.trace(state, alpha, beta)\n                    return v\n                alpha = max(alpha, v)\n",
                "                alpha = max(alpha, v)\n                if v >= beta:\n                    self.trace(state, alpha, beta)\n                    return v\n",
            ),
            (
                "                if v <= alpha:\n                    self.trace(state, alpha, beta)\n                    return v\n                beta = min(beta, v)\n",
                "                beta = min(beta, v)\n                if v <= alpha:\n                    self.trace(state, alpha, beta)\n                    return v\n",
            ),
        ],
    ),
    (
        "wrong-largest-prime",
        "trace",
        &[("    largest = 1\n    i = 2\n    while i * i <= x:", "    largest = 1\n    i = 2\n    while i * i < x:")],
    ),
    ("depth-limit-off-by-one", "trace", &[("depth == self.depth_limit:", "depth == self.depth_limit - 1:")]),
    ("tie-toward-larger", "trace", &[("if child > v:", "if child >= v:"), ("if child < v:", "if child <= v:")]),
];

/// Spec-silent readings: `check` accepts them and says which one it saw.
fn reading_label(variant: &str) -> Option<&'static str> {
    match variant {
        "composite-legal-only" => Some("composite=legal-moves"),
        "half-even" => Some("rounding=half-even"),
        "negative-zero" => Some("negative-zero=keep"),
        _ => None,
    }
}

fn check(dir: &Path, edition: &str, cases: u32) -> Output {
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--cmd", &cmd, "--edition", edition, "--seed", "2026", "--cases"])
        .arg(cases.to_string())
        .arg("--dir")
        .arg(dir)
        .output()
        .unwrap()
}

/// The variant `table` applied to the correct program in `source`, as a submission.
fn mutant(source: &str, changes: &[(&'static str, &'static str)], into: &Path) {
    let changes: Vec<Change> = changes.iter().map(|(from, to)| ("takestones.py", *from, *to)).collect();
    materialize(&fixture(source), &changes, into);
}

/// Every variant of `table` through the check loop `referee check --cases 300 --seed 2026` runs (the program
/// started once, see `check_many.rs`): a bug diverges and its diagnosis names it, a reading passes and is seen.
/// `referee check` itself prints these verdicts in `a_caught_variant_and_a_seen_reading_are_reported`.
fn run_catalog(table: &[Mutation], source: &str) {
    let mut failures = Vec::new();
    for (variant, edition, changes) in table {
        let dir = tempfile::tempdir().unwrap();
        mutant(source, changes, dir.path());
        let edition = if *edition == "stats" { Edition::Stats } else { Edition::Trace };
        let config = check_config(edition, 2026, 300);
        let mut driver = Driver::python(&dir.path().join("takestones.py"));
        let report = referee::diagnose::takestones::check::check(&config, |p, depth| driver.run(p, depth));
        let ok = match reading_label(variant) {
            Some(label) => {
                report.divergence.is_none()
                    && report.never_ran.is_none()
                    && report.readings.iter().any(|(r, seen)| r.label() == label && *seen > 0)
            }
            None => report.divergence.as_ref().is_some_and(|d| {
                let diagnosis = d.diagnosis.describe(&config.suite.accept);
                diagnosis.lines().next().unwrap_or("").contains(variant)
                    && d.shrunk.0.to_args().len() <= d.original.0.to_args().len()
            }),
        };
        if !ok {
            failures.push(format!("{edition:?} {variant}: {:?} {:?}", report.readings, report.divergence));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n-----\n"));
}

/// `referee check` prints a caught variant (divergence, its smallest position, the diagnosis naming it; exit 1) and
/// a reading it accepted (exit 0, seen in some cases), one process per case.
#[test]
fn a_caught_variant_and_a_seen_reading_are_reported() {
    for (variant, _, changes) in STATS.iter().filter(|m| ["strict-cuts", "composite-legal-only"].contains(&m.0)) {
        let dir = tempfile::tempdir().unwrap();
        mutant("submissions/python-stats", changes, dir.path());
        let out = check(dir.path(), "stats", 40);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        match reading_label(variant) {
            Some(label) => {
                assert_eq!(out.status.code(), Some(0), "{variant}: {text}");
                assert!(
                    text.lines().any(|l| {
                        l.starts_with(&format!("  {label} ")) && l.contains("accepted by the default policy, seen in")
                    }),
                    "{variant}: {text}"
                );
            }
            None => {
                let diagnosis = text.lines().find(|l| l.starts_with("diagnosis")).unwrap_or("");
                assert_eq!(out.status.code(), Some(1), "{variant}: {text}");
                assert!(text.contains("DIVERGENCE"), "{text}");
                assert!(text.contains("smallest position that still diverges"), "{text}");
                assert!(diagnosis.contains(variant), "{text}");
            }
        }
    }
}

#[test]
fn every_stats_variant_is_caught_shrunk_and_named() {
    run_catalog(STATS, "submissions/python-stats");
}

#[test]
fn every_trace_variant_is_caught_shrunk_and_named() {
    run_catalog(TRACE, "submissions/python-trace");
}

#[test]
fn the_catalog_tests_cover_every_variant() {
    use referee::diagnose::takestones::Variant;
    use referee::reference::takestones::Edition;
    for variant in Variant::ALL {
        for (edition, table) in [(Edition::Stats, STATS), (Edition::Trace, TRACE)] {
            let covered = table.iter().any(|(name, _, _)| *name == variant.name());
            assert_eq!(covered, variant.applies_to(edition), "{variant} in {edition:?}");
        }
    }
}

#[test]
fn correct_python_programs_pass_random_positions() {
    for (source, edition) in [("submissions/python-stats", "stats"), ("submissions/python-trace", "trace")] {
        let out = check(&fixture(source), edition, 100);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{source}: {text}");
        assert!(text.contains("random positions: 100 of 100 matched"), "{text}");
        assert!(!text.contains("cause:"), "a correct program gets no located cause: {text}");
    }
}

#[test]
fn a_program_that_cannot_start_is_not_a_divergence() {
    // An empty folder of its own: as root, check copies --dir for the sandbox user.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--cmd", "/nonexistent/program {args}", "--cases", "3", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot run your program"));
}

#[test]
fn a_label_typo_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    python_wrong("python-wrong-format", dir.path());
    let out = check(dir.path(), "stats", 5);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            r#"labels differ from the spec: line 3 says "Number of nodes visited", the spec "Number of Nodes Visited""#
        ),
        "{text}"
    );
}

/// The python-stats solution with the negative-zero reading: a zero negated on Min's turn prints `-0.0`.
fn negative_zero_program(into: &Path) {
    let (_, _, changes) = STATS.iter().find(|(name, _, _)| *name == "negative-zero").unwrap();
    let changes: Vec<Change> = changes.iter().map(|(from, to)| ("takestones.py", *from, *to)).collect();
    materialize(&fixture("submissions/python-stats"), &changes, into);
}

/// For a suite made by `referee gen` that accepts `-0.0` and for one that does not, in both layouts, `grade` and
/// `check --suite` give the same verdict on a program printing `-0.0`, and neither calls the reading accepted
/// where the suite does not accept it.
#[test]
fn check_and_grade_judge_negative_zero_by_the_suites_policy() {
    let program = tempfile::tempdir().unwrap();
    negative_zero_program(program.path());
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    // The native suite accepting everything is what gen always wrote; the new paths are accept.txt and --accept none.
    let combos = [("course", "composite,rounding,negative-zero"), ("course", "none"), ("native", "none")];
    for (layout, accept) in combos {
        let suite = tempfile::tempdir().unwrap();
        let made = Command::cargo_bin("referee")
            .unwrap()
            .args(["gen", "takestones", "--count", "20", "--seed", "5", "--layout", layout, "--accept", accept])
            .arg("--out")
            .arg(suite.path())
            .output()
            .unwrap();
        assert_eq!(made.status.code(), Some(0), "{}", String::from_utf8_lossy(&made.stderr));
        let suite_arg = suite.path().to_str().unwrap();
        let program_arg = program.path().to_str().unwrap();
        let grade =
            crate::grade::grade(&["--suite", suite_arg, "--dir", program_arg, "--cmd", &cmd, "--color", "never"]);
        let graded = String::from_utf8_lossy(&grade.stdout).into_owned();
        let checked = Command::cargo_bin("referee")
            .unwrap()
            .args(["check", "takestones", "--suite", suite_arg, "--dir", program_arg, "--cmd", &cmd])
            .args(["--seed", "3", "--cases", "5"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&checked.stdout).into_owned();
        let at = format!("{layout}, --accept {accept}");
        let reading = text.lines().find(|l| l.starts_with("  negative-zero=keep ")).unwrap_or("");
        if accept == "none" {
            assert_eq!(grade.status.code(), Some(1), "{at}: grade must fail the -0.0 case\n{graded}");
            assert_eq!(checked.status.code(), Some(1), "{at}: check must predict it\n{text}");
            assert!(reading.ends_with("not accepted by this suite"), "{at}: {text}");
            let verdict = "negative-zero (a reading the spec leaves open, not accepted by this suite)";
            // grade words it in the shared cause vocabulary, check in its diagnosis paragraph: the same verdict.
            assert!(
                graded.contains("cause: negative-zero (bug)") && graded.contains("Not accepted by this suite."),
                "{at}: {graded}"
            );
            assert!(text.contains(verdict), "{at}: {text}");
            assert!(!graded.contains("accepted reading") && !text.contains("(accepted"), "{at}");
        } else {
            assert_eq!(grade.status.code(), Some(0), "{at}: {graded}");
            assert_eq!(checked.status.code(), Some(0), "{at}: {text}");
            assert!(reading.contains("accepted by this suite, seen in"), "{at}: {text}");
        }
    }
}

/// A program that fails the same way on every official case never ran: `check` says so at once, with the telling
/// line of its stderr and what to try, and neither shrinks nor diagnoses a crash.
#[test]
fn a_program_that_never_ran_stops_with_a_hint() {
    let java = tempfile::tempdir().unwrap();
    materialize(&fixture("submissions/java-stats"), &[], java.path());
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--cmd", "java -cp {dir} TakeStones {args}", "--seed", "1", "--dir"])
        .arg(java.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "your program exited 1 on all 3 official cases (ClassNotFoundException: TakeStones): did you compile? \
             try --build 'javac -d {dir} {dir}/*.java'"
        ),
        "{text}"
    );
    assert!(text.contains("official cases: 0 of 3 matched\nrandom positions: not run"), "{text}");
    for never in ["DIVERGENCE", "smallest position", "diagnosis", "no known bug"] {
        assert!(!text.contains(never), "{never}: {text}");
    }

    let misspelled = format!("{} {{dir}}/takestone.py {{args}}", python());
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--cmd", &misspelled, "--dir"])
        .arg(fixture("submissions/python-stats"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("on all 3 official cases (") && text.contains("can't open file"), "{text}");
    assert!(text.contains("check the file name in --cmd and --dir (the folder holds takestones.py)"), "{text}");
}

/// `check --build` compiles in --dir the way `grade --build` does: the correct Java solution then passes, and a
/// hand-in that does not compile gets the compiler's message and exit 1.
#[test]
fn check_builds_like_grade() {
    // Also the correct Java program through `referee check`, a JVM per case (a thousand positions: check_many.rs).
    let java = tempfile::tempdir().unwrap();
    materialize(&fixture("submissions/java-stats"), &[], java.path());
    let check = |dir: &Path| {
        Command::cargo_bin("referee")
            .unwrap()
            .args(["check", "takestones", "--shell", "--build", "javac -d {dir} {dir}/*.java"])
            .args(["--cmd", "java -cp {dir} TakeStones {args}", "--seed", "4", "--cases", "30", "--dir"])
            .arg(dir)
            .output()
            .unwrap()
    };
    let out = check(java.path());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    // The build step as the student would type it in their folder (`{dir}` is `.`).
    assert!(text.contains("build: javac -d . ./*.java (ok, "), "{text}");
    assert!(text.contains("official cases: 3 of 3 matched\nrandom positions: 30 of 30 matched"), "{text}");

    let broken = tempfile::tempdir().unwrap();
    let (_, changes) = CLASS.iter().find(|(name, _)| *name == "dave-HW2-P3").unwrap();
    materialize(&fixture("submissions/java-stats"), changes, broken.path());
    let out = check(broken.path());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("build failed: javac -d . ./*.java"), "{text}");
    assert!(text.contains("';' expected"), "{text}");
    assert!(!text.contains("official cases"), "{text}");
}

/// A correct program checked with the wrong `--edition` is told so, not that its evaluation is wrong everywhere.
#[test]
fn the_other_editions_output_is_said_to_be_so() {
    for (source, edition, theirs) in
        [("submissions/python-trace", "stats", "trace"), ("submissions/python-stats", "trace", "stats")]
    {
        let out = check(&fixture(source), edition, 10);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(1), "{text}");
        let line = format!(
            "diagnosis: this looks like the other edition's output: it is exactly what the {theirs} edition prints"
        );
        assert!(text.contains(&line), "{text}");
        assert!(!text.contains("cause: evaluation"), "{text}");
        // An official case diverges: the report says so in English.
        assert!(text.contains("random positions: not run (an official case diverges)"), "{text}");
    }
}

/// Where the printed branching factors differ, the exact values behind them are shown, so a difference that one
/// decimal hides or makes is plain: a program that truncates instead of rounding.
#[test]
fn a_branching_factor_rounded_differently_shows_its_exact_value() {
    let dir = tempfile::tempdir().unwrap();
    mutant("submissions/python-stats", &[("rounding=ROUND_HALF_UP)", "rounding=\"ROUND_DOWN\")")], dir.path());
    let out = check(dir.path(), "stats", 200);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    let note =
        text.lines().find(|l| l.starts_with("branching factor: both counts agree")).unwrap_or_else(|| panic!("{text}"));
    let exact: f64 = note.split(" = ").last().unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(((exact * 10.0).round() - exact * 10.0).abs() > 1e-9, "not a value one decimal hides: {note}");
}

/// The root counted as depth 1 (a Java solution: at depth 1 it prints `Move: 0`): `check` names the catalogued
/// pair that `grade` names for the same program, instead of locating every evaluation probe.
#[test]
fn check_and_grade_name_the_same_pair_for_a_root_counted_as_depth_one() {
    const ABP: &str = "AlphaBetaPruning.java";
    let changes: &[Change] = &[
        (ABP, "bestValue = alphabeta(state, 0, limit,", "bestValue = alphabeta(state, 1, limit,"),
        (
            ABP,
            "if (childValue > v) {\n                    v = childValue;\n                    if (depth == 0) {",
            "if (childValue > v) {\n                    v = childValue;\n                    if (depth == 1) {",
        ),
        (
            ABP,
            "if (childValue < v) {\n                    v = childValue;\n                    if (depth == 0) {",
            "if (childValue < v) {\n                    v = childValue;\n                    if (depth == 1) {",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    materialize(&fixture("submissions/java-stats"), changes, dir.path());
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["check", "takestones", "--shell", "--build", "javac -d {dir} {dir}/*.java"])
        .args(["--cmd", "java -cp {dir} TakeStones {args}", "--seed", "7", "--cases", "20", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    let pair = "max-depth-from-one + depth-limit-off-by-one";
    assert!(text.contains(&format!("diagnosis: matches the reference with {pair} (bug)")), "{text}");
    assert!(!text.contains("evaluation probes differ"), "{text}");
    let (_, report) = crate::grade::grade_json(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--dir",
        dir.path().to_str().unwrap(),
        "--shell",
        "--build",
        "javac -d {dir} {dir}/*.java",
        "--cmd",
        "java -cp {dir} TakeStones {args}",
    ]);
    let named = |c: &referee::harness::model::CaseResult, n: &str| c.causes.iter().any(|x| x.name == n);
    let cases = &report.submissions[0].cases;
    assert!(
        cases.iter().any(|c| named(c, "max-depth-from-one") && named(c, "depth-limit-off-by-one")),
        "{:#?}",
        cases.iter().map(|c| &c.causes).collect::<Vec<_>>()
    );
}
