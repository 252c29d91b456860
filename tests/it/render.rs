//! Every report format, snapshotted on one hand-built report that holds every status: a passed case, a wrong
//! answer differing in CRs, trailing spaces and a tab, a timeout, a crash with stderr, a nonzero exit, an output
//! limit, a harness error, hidden and after-due-date cases, and a second submission whose build failed.
//! Snapshots live in the top-level `snapshots/` folder as `render_<format>@all_statuses.snap`.

use referee::harness::model::{
    BuildResult, Captured, CaseResult, Cause, CauseKind, FirstDifference, Points, RunReport, Show, Status,
    SubmissionResult, Visibility, SCHEMA_VERSION,
};
use referee::harness::render::{gradescope, markdown, render, Format, RenderOptions};

const EXPECTED: &str = "Move: 3\nValue: -1.0\nNumber of Nodes Visited: 12\nMax Depth Reached: 3\n\
                        Avg Effective Branching Factor: 1.8\n";

fn captured(text: &str) -> Captured {
    Captured { text: text.to_string(), truncated: false, bytes: text.len(), invalid_utf8: false, omitted: 0 }
}

fn case(name: &str, args: &str, status: Status, detail: &str) -> CaseResult {
    CaseResult {
        name: name.to_string(),
        args: args.split_whitespace().map(String::from).collect(),
        status,
        score: Points::ZERO,
        max_score: Points::from_f64(1.0),
        visibility: Visibility::Visible,
        show: Show::Full,
        tags: vec![],
        detail: detail.to_string(),
        reading: None,
        diagnosis: None,
        causes: Vec::new(),
        lines_matched: None,
        difference: None,
        expected: EXPECTED.to_string(),
        stdout: Captured::default(),
        stderr: Captured::default(),
        elapsed_ms: 25,
    }
}

fn alice() -> SubmissionResult {
    let passed = CaseResult {
        score: Points::from_f64(1.0),
        reading: Some("composite=legal-moves".into()),
        tags: vec!["official".into()],
        stdout: captured(EXPECTED),
        elapsed_ms: 12,
        ..case("official-1", "3 0 0", Status::Passed, "")
    };
    let failed = CaseResult {
        score: Points::from_f64(1.2),
        max_score: Points::from_f64(2.0),
        tags: vec!["official".into()],
        lines_matched: Some((3, 5)),
        difference: Some(FirstDifference {
            line: 3,
            expected: Some("Number of Nodes Visited: 12".into()),
            actual: Some("Number of Nodes Visited:\t12".into()),
        }),
        stdout: captured(
            "Move: 3\r\nValue: -1.0  \r\nNumber of Nodes Visited:\t12\r\nMax Depth Reached: 4\r\n\
             Avg Effective Branching Factor: 1.8",
        ),
        elapsed_ms: 15,
        ..case("official-2", "7 0 3", Status::Failed, "line 3 differs")
    };
    let timeout = CaseResult {
        visibility: Visibility::AfterDueDate,
        elapsed_ms: 10_000,
        ..case("deep-search", "30 0 12", Status::Timeout, "no output after 10 s")
    };
    let crashed = CaseResult {
        stdout: captured("Move: 2\n"),
        stderr: captured("\u{1b}[1;31mfatal:\u{1b}[0m stack smashing detected\nSegmentation fault (core dumped)\n"),
        elapsed_ms: 9,
        ..case("crash", "7 1 1 2", Status::Crashed, "killed by SIGSEGV")
    };
    let trace: String = std::iter::once(
        "Exception in thread \"main\" java.lang.NumberFormatException: For input string: \"x\"\n".to_string(),
    )
    .chain((1..=11).map(|i| format!("\tat TakeStones.parse(TakeStones.java:{})\n", 40 + i)))
    .collect();
    let nonzero = CaseResult {
        stderr: captured(&trace),
        elapsed_ms: 140,
        ..case("bad-args", "7 x", Status::NonzeroExit, "exit code 1")
    };
    let flood = CaseResult {
        visibility: Visibility::Hidden,
        stdout: Captured { truncated: true, ..captured(&"Move: 1\n".repeat(40)) },
        elapsed_ms: 300,
        ..case("flood", "5 0 0", Status::OutputLimit, "printed more than 320 bytes; killed")
    };
    let hidden_pass = CaseResult {
        visibility: Visibility::Hidden,
        score: Points::from_f64(1.0),
        stdout: captured(EXPECTED),
        ..case("hidden-1", "12 2 5 10 3", Status::Passed, "")
    };
    let harness = CaseResult {
        stderr: captured("spawn python3: No such file or directory (os error 2)\n"),
        elapsed_ms: 0,
        ..case("needs-python", "3 0 0", Status::HarnessError, "could not start `python3`")
    };
    SubmissionResult {
        id: "alice".into(),
        source: "submissions/alice.zip".into(),
        build: Some(BuildResult {
            ok: true,
            command: "javac TakeStones.java".into(),
            message: String::new(),
            elapsed_ms: 812,
        }),
        cases: vec![passed, failed, timeout, crashed, nonzero, flood, hidden_pass, harness],
        score: Points::from_f64(3.2),
        max_score: Points::from_f64(9.0),
        run: "run-1".into(),
        fingerprint: "suite-fp-1".into(),
        handin: String::new(),
        sandbox: Vec::new(),
        not_graded: None,
    }
}

fn bob() -> SubmissionResult {
    let cases = alice()
        .cases
        .into_iter()
        .map(|c| CaseResult {
            status: Status::BuildError,
            score: Points::ZERO,
            detail: "the build failed".into(),
            reading: None,
            diagnosis: None,
            causes: Vec::new(),
            lines_matched: None,
            difference: None,
            stdout: Captured::default(),
            stderr: Captured::default(),
            elapsed_ms: 0,
            ..c
        })
        .collect();
    SubmissionResult {
        id: "bob".into(),
        source: "submissions/bob.zip".into(),
        build: Some(BuildResult {
            ok: false,
            command: "javac TakeStones.java".into(),
            message: "TakeStones.java:14: \u{1b}[31merror:\u{1b}[0m ';' expected\n        int best = 0\n                    ^\n1 error\n"
                .into(),
            elapsed_ms: 640,
        }),
        cases,
        score: Points::ZERO,
        max_score: Points::from_f64(9.0),
        run: "run-1".into(),
        fingerprint: "suite-fp-1".into(),
        handin: String::new(),
        sandbox: Vec::new(),
        not_graded: None,
    }
}

fn report() -> RunReport {
    RunReport { schema: SCHEMA_VERSION, suite: "takestones".into(), submissions: vec![alice(), bob()] }
}

const REDACT: RenderOptions =
    RenderOptions { color: false, redact: true, view: referee::harness::render::view::StudentView::DEFAULT };

fn rendered(format: Format, options: &RenderOptions) -> String {
    let mut out = Vec::new();
    render(format, &report(), options, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn snapshot(format: Format, name: &str) {
    let text = rendered(format, &REDACT);
    crate::util::in_snapshot_dir("all_statuses", || insta::assert_snapshot!(name, text));
}

#[test]
fn terminal() {
    snapshot(Format::Terminal, "render_terminal");
}

#[test]
fn json() {
    snapshot(Format::Json, "render_json");
}

#[test]
fn gradescope() {
    snapshot(Format::Gradescope, "render_gradescope");
}

#[test]
fn junit() {
    snapshot(Format::Junit, "render_junit");
}

#[test]
fn csv() {
    snapshot(Format::Csv, "render_csv");
}

#[test]
fn markdown() {
    snapshot(Format::Md, "render_md");
}

#[test]
fn json_round_trips_the_model() {
    let back: RunReport = serde_json::from_str(&rendered(Format::Json, &RenderOptions::default())).unwrap();
    // Issue 33, item 2: alice's harness error is the grader's failure, so her score is written as null (nothing
    // final) and reads back as no points; everything else comes back as it was.
    let mut expected = report();
    assert!(!expected.submissions[0].outcome().is_graded());
    expected.submissions[0].score = referee::harness::model::Points::ZERO;
    assert_eq!(back, expected);
}

#[test]
fn gradescope_is_one_valid_object_per_submission() {
    // Issue 33, item 2: alice's harness error is the grader's failure: no score and no test to add one up from.
    let mut out = Vec::new();
    gradescope::render_submission(&alice(), &RenderOptions::default(), &mut out).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert!(value.get("score").is_none() && value["tests"].as_array().is_some_and(Vec::is_empty), "{value}");
    assert!(value["output"].as_str().unwrap().starts_with("not graded: the grader failed"), "{value}");
    let mut graded = alice();
    graded.cases.retain(|c| c.status != Status::HarnessError);
    for (submission, passed) in [(graded, 2), (bob(), 0)] {
        let mut out = Vec::new();
        gradescope::render_submission(&submission, &RenderOptions::default(), &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let tests = value["tests"].as_array().unwrap();
        assert_eq!(tests.len(), submission.cases.len());
        assert_eq!(tests.iter().filter(|t| t["status"] == "passed").count(), passed);
        assert_eq!(value["score"], submission.score.json());
        // Seconds as Gradescope wants them, never 0 for a submission that ran.
        assert!(value["execution_time"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn per_submission_markdown_matches_the_report_section() {
    let mut out = Vec::new();
    markdown::render_submission(&bob(), &REDACT, &mut out).unwrap();
    let alone = String::from_utf8(out).unwrap();
    assert!(alone.starts_with("# bob: 0 / 9\n"));
    assert!(alone.contains("## Build failed"));
    assert!(!alone.contains('\u{1b}'));
}

#[test]
fn only_the_terminal_format_colors() {
    let color = RenderOptions { color: true, redact: true, view: referee::harness::render::view::StudentView::DEFAULT };
    assert!(rendered(Format::Terminal, &color).contains("\u{1b}[31m"));
    for format in [Format::Json, Format::Gradescope, Format::Junit, Format::Csv, Format::Md] {
        let text = rendered(format, &color);
        assert!(!text.contains('\u{1b}'), "{format:?} wrote an escape code");
        assert_eq!(text, rendered(format, &REDACT), "{format:?} depends on color");
    }
}

#[test]
fn redaction_zeroes_every_time() {
    let text = rendered(Format::Junit, &REDACT);
    assert!(text.lines().filter(|l| l.contains("time=")).all(|l| l.contains(r#"time="0.000""#)), "{text}");
    let text = rendered(Format::Terminal, &REDACT);
    assert!(!text.contains("25 ms") && text.contains(" 0 ms"));
}

/// Every format shows a case's causes the same way (head line, then evidence), and JSON keeps them whole.
#[test]
fn every_format_shows_causes_alike() {
    use referee::harness::model::{Cause, CauseKind};
    let mut report = report();
    // A graded alice (her harness error left out): a hand-in the grader failed on gets no Gradescope tests.
    report.submissions[0].cases.retain(|c| c.status != Status::HarnessError);
    report.submissions[0].cases[1].causes = vec![
        Cause::new("limit-at-root", CauseKind::Bug, "It searches one ply deeper than the limit.")
            .with_evidence("$ referee check othello agent.py"),
        Cause::new("fail-hard", CauseKind::AcceptedReading, "It returns the bound on a cutoff."),
    ];
    for format in [Format::Terminal, Format::Gradescope, Format::Junit, Format::Md] {
        let mut out = Vec::new();
        render(format, &report, &REDACT, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let (bug, reading) = if format == Format::Md {
            ("**Cause (bug):** `limit-at-root`", "**Cause (accepted reading):** `fail-hard`")
        } else {
            (
                "cause: limit-at-root (bug): It searches one ply deeper than the limit.",
                "cause: fail-hard (accepted reading): It returns the bound on a cutoff.",
            )
        };
        assert!(text.contains(bug) && text.contains(reading), "{format:?}:\n{text}");
        assert!(text.contains("referee check othello agent.py"), "{format:?} lost the evidence:\n{text}");
    }
    let json: RunReport = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(json.submissions[0].cases[1].causes, report.submissions[0].cases[1].causes);
}

/// Text only the expected output holds: a report that may not show the expected output must never contain it.
const SECRET: &str = "SECRET-EXPECTED-7.25";

/// One student whose every case is shown as `show` says: a wrong answer (with a cause whose evidence quotes the
/// reference), a crash with a stack trace, a passed case.
fn shown(show: Show) -> SubmissionResult {
    let expected = format!("Move: 3\nValue: {SECRET}\nNumber of Nodes Visited: 12\n");
    let wrong = CaseResult {
        show,
        expected: expected.clone(),
        stdout: captured("Move: 3\nValue: MINE-0.5\nNumber of Nodes Visited: 12\n"),
        difference: Some(FirstDifference {
            line: 2,
            expected: Some(format!("Value: {SECRET}")),
            actual: Some("Value: MINE-0.5".into()),
        }),
        causes: vec![Cause::new("depth-off-by-one", CauseKind::Bug, "The search stops one level early.")
            .with_evidence(format!("the reference prints {SECRET} at depth 3"))],
        ..case("wrong", "7 3 1 ARGWORD", Status::Failed, "output differs from line 2")
    };
    let crash = CaseResult {
        show,
        expected,
        stdout: captured("Move: 3\n"),
        stderr: captured("Traceback TRACEBACK-LINE\n"),
        ..case("crash", "7 0 3 ARGWORD", Status::Crashed, "killed by SIGSEGV")
    };
    let passed = CaseResult {
        show,
        score: Points::from_f64(1.0),
        stdout: captured(EXPECTED),
        ..case("ok", "3 0 0", Status::Passed, "")
    };
    SubmissionResult {
        id: "carol".into(),
        source: "carol".into(),
        build: None,
        cases: vec![wrong, crash, passed],
        score: Points::from_f64(1.0),
        max_score: Points::from_f64(3.0),
        run: "r".into(),
        fingerprint: "f".into(),
        handin: String::new(),
        sandbox: vec!["landlock".into(), "network".into()],
        not_graded: None,
    }
}

/// Every student-facing rendering of `s`, by name.
fn student_facing(s: &SubmissionResult) -> Vec<(&'static str, String)> {
    let report = RunReport { schema: SCHEMA_VERSION, suite: "t".into(), submissions: vec![s.clone()] };
    let mut out = Vec::new();
    for (name, format) in [
        ("terminal", Format::Terminal),
        ("markdown", Format::Md),
        ("gradescope", Format::Gradescope),
        ("junit", Format::Junit),
        ("prairielearn", Format::Prairielearn),
    ] {
        let mut bytes = Vec::new();
        render(format, &report, &REDACT, &mut bytes).unwrap();
        out.push((name, String::from_utf8(bytes).unwrap()));
    }
    let identity = referee::harness::render::classroom50::Identity {
        classroom: "cs540".into(),
        assignment: "takestones".into(),
        assignment_type: "individual".into(),
        owner: "carol".into(),
        submission: "submit/1".into(),
        commit: "c".into(),
        release: "r".into(),
        review: "c".into(),
        datetime: "2026-09-01T10:00:00Z".into(),
    };
    let mut bytes = Vec::new();
    referee::harness::render::classroom50::render_submission(s, &identity, &REDACT, &mut bytes).unwrap();
    out.push(("classroom50", String::from_utf8(bytes).unwrap()));
    out
}

#[test]
fn full_shows_the_expected_output_in_every_student_facing_format() {
    for (name, text) in student_facing(&shown(Show::Full)) {
        assert!(text.contains(SECRET), "{name} under full hides the expected output:\n{text}");
        assert!(text.contains("MINE-0.5") && text.contains("ARGWORD"), "{name}:\n{text}");
    }
}

#[test]
fn actual_only_never_shows_the_expected_output() {
    for (name, text) in student_facing(&shown(Show::ActualOnly)) {
        assert!(!text.contains(SECRET), "{name} under actual-only leaks the expected output:\n{text}");
        assert!(text.contains("MINE-0.5"), "{name} under actual-only hides the program's own output:\n{text}");
        assert!(text.contains("ARGWORD"), "{name} under actual-only hides the arguments:\n{text}");
        assert!(text.contains("line 2"), "{name} under actual-only does not say where it differs:\n{text}");
        assert!(text.contains("TRACEBACK-LINE"), "{name} under actual-only hides the program's stderr:\n{text}");
    }
}

#[test]
fn none_shows_only_the_verdict_and_the_cause_name() {
    for (name, text) in student_facing(&shown(Show::VerdictOnly)) {
        for private in [SECRET, "MINE-0.5", "ARGWORD", "TRACEBACK-LINE", "stops one level early"] {
            assert!(!text.contains(private), "{name} under none shows {private}:\n{text}");
        }
        assert!(text.contains("depth-off-by-one"), "{name} under none hides the cause's name:\n{text}");
        assert!(text.contains("crashed"), "{name} under none hides the status:\n{text}");
    }
}

#[test]
fn ta_facing_reports_keep_everything_whatever_the_students_see() {
    for show in [Show::ActualOnly, Show::VerdictOnly] {
        let report = RunReport { schema: SCHEMA_VERSION, suite: "t".into(), submissions: vec![shown(show)] };
        let mut json = Vec::new();
        render(Format::Json, &report, &REDACT, &mut json).unwrap();
        let json = String::from_utf8(json).unwrap();
        assert!(json.contains(SECRET) && json.contains("TRACEBACK-LINE"), "{json}");
        assert!(json.contains(&format!("\"show\": \"{}\"", show.name())), "{json}");
        let full = RunReport { submissions: vec![shown(Show::Full)], ..report.clone() };
        assert_eq!(html(&report), html(&full), "report.html depends on what students see");
        let mut csv = Vec::new();
        render(Format::Csv, &report, &REDACT, &mut csv).unwrap();
        let mut csv_full = Vec::new();
        render(Format::Csv, &full, &REDACT, &mut csv_full).unwrap();
        assert_eq!(csv, csv_full, "the gradebook depends on what students see");
    }
}

fn html(report: &RunReport) -> String {
    let feedback = |_: &str| String::new();
    let page = referee::harness::render::html::ClassPage { title: "t".into(), expected: 1, feedback: &feedback };
    let mut html = Vec::new();
    referee::harness::render::html::render_class(report, &page, &mut html).unwrap();
    String::from_utf8(html).unwrap()
}

#[test]
fn the_sandbox_layers_are_for_the_ta_only() {
    let report = RunReport { schema: SCHEMA_VERSION, suite: "t".into(), submissions: vec![shown(Show::Full)] };
    for (name, text) in student_facing(&shown(Show::Full)) {
        assert!(!text.contains("landlock"), "{name} shows the sandbox layers to the student:\n{text}");
    }
    let mut json = Vec::new();
    render(Format::Json, &report, &REDACT, &mut json).unwrap();
    assert!(String::from_utf8(json).unwrap().contains("landlock"));
}

#[test]
fn classroom50_cannot_be_rendered_without_its_identity() {
    let report = RunReport { schema: SCHEMA_VERSION, suite: "t".into(), submissions: vec![shown(Show::Full)] };
    let err = render(Format::Classroom50, &report, &REDACT, &mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}
