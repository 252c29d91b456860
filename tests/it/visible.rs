//! Issue 32, item 7: what a student wrote is shown as what it is. Hand-in names, program output, stderr, build
//! messages, details and causes are generated from a grammar that mixes printable text (accents, CJK, emoji, the
//! markers reports draw, backslashes and literal `\u{..}`) with every class of hidden character; every renderer
//! (terminal, JSON, Gradescope, JUnit, CSV, Markdown, PrairieLearn, Classroom 50, report.html) and a real
//! `referee grade` class run must then show none of them raw, show two different lines differently, read back
//! exactly where the format is read back, and leave ordinary text alone.
//!
//! The hidden characters are this file's own list, not the crate's classifier, so a class the crate forgot fails
//! here.

use std::fs;
use std::path::Path;
use std::process::Command;

use proptest::prelude::*;
use referee::harness::model::{
    BuildResult, Captured, CaseResult, Cause, CauseKind, FirstDifference, Points, RunReport, Show, Status,
    SubmissionResult, Visibility, SCHEMA_VERSION,
};
use referee::harness::render::view::StudentView;
use referee::harness::render::{classroom50, csv, render, Format, RenderOptions};

/// One or two of every class: C0 (with ESC, BEL, CR, NUL), DEL, C1 (NEL, CSI), the soft hyphen, bidi marks,
/// embeddings, overrides and isolates, the Arabic letter mark, zero-width space/non-joiner/joiner, word joiner,
/// invisible operators, the byte-order mark, a tag character, line and paragraph separators, spaces other than
/// U+0020, blank-looking letters.
const HIDDEN: &[char] = &[
    '\0',
    '\u{7}',
    '\u{8}',
    '\r',
    '\u{b}',
    '\u{c}',
    '\u{1b}',
    '\u{7f}',
    '\u{85}',
    '\u{9b}',
    '\u{ad}',
    '\u{200e}',
    '\u{200f}',
    '\u{202a}',
    '\u{202b}',
    '\u{202c}',
    '\u{202d}',
    '\u{202e}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{61c}',
    '\u{200b}',
    '\u{200c}',
    '\u{200d}',
    '\u{2060}',
    '\u{2062}',
    '\u{feff}',
    '\u{e0041}',
    '\u{2028}',
    '\u{2029}',
    '\u{a0}',
    '\u{2007}',
    '\u{202f}',
    '\u{3000}',
    '\u{3164}',
    '\u{115f}',
    '\u{2800}',
];

/// Layout characters a multi-line block may keep as they are (a stack trace's tabs, line ends).
const LAYOUT: &[char] = &['\n', '\t'];

/// Printable pieces, including what a report uses to draw hidden ones, and what looks like an escape.
const PRINTABLE: &[&str] = &[
    "Move: 3",
    "a",
    "Z",
    "7",
    " ",
    "é",
    "李雷",
    "😀",
    "Ωμέγα",
    "→",
    "·",
    "␍",
    "\\",
    "u{",
    "}",
    "\\u{1b}",
    "\\u{202e}",
    "<b>",
    "&amp;",
    "=cmd",
    "@",
    "-",
    "+",
    "'",
    "\"",
    ",",
    "|",
    "`",
    "*",
    "#",
];

fn piece(with_newlines: bool) -> impl Strategy<Value = String> {
    let hidden: Vec<char> =
        HIDDEN.iter().copied().chain(if with_newlines { vec!['\n', '\t'] } else { vec!['\t'] }).collect();
    prop_oneof![
        3 => prop::sample::select(PRINTABLE).prop_map(str::to_string),
        2 => prop::sample::select(hidden).prop_map(String::from),
    ]
}

/// A text of up to `max` pieces from the grammar.
fn hostile(max: usize, with_newlines: bool) -> impl Strategy<Value = String> {
    prop::collection::vec(piece(with_newlines), 0..max).prop_map(|p| p.concat())
}

fn captured(text: &str) -> Captured {
    Captured { text: text.to_string(), truncated: false, bytes: text.len(), invalid_utf8: false, omitted: 0 }
}

/// Every text a student or their program controls, in one submission: a wrong answer with a diff, a crash with a
/// stderr tail, a failed build's message in a second submission.
#[derive(Clone, Debug)]
struct Texts {
    name: String,
    line: String,
    output: String,
    stderr: String,
    detail: String,
    evidence: String,
}

fn texts() -> impl Strategy<Value = Texts> {
    (hostile(8, false), hostile(8, false), hostile(10, true), hostile(10, true), hostile(6, true), hostile(6, false))
        .prop_map(|(name, line, output, stderr, detail, evidence)| Texts {
            name,
            line,
            output,
            stderr,
            detail,
            evidence,
        })
}

fn case(name: &str, status: Status) -> CaseResult {
    CaseResult {
        name: name.to_string(),
        args: vec!["7".into(), "0".into(), "3".into()],
        status,
        score: Points::ZERO,
        max_score: Points::whole(1),
        visibility: Visibility::Visible,
        show: Show::Full,
        tags: vec![],
        detail: String::new(),
        reading: None,
        diagnosis: None,
        causes: Vec::new(),
        lines_matched: None,
        difference: None,
        expected: "Move: 3\nValue: 1\n".to_string(),
        stdout: Captured::default(),
        stderr: Captured::default(),
        elapsed_ms: 5,
    }
}

fn report(t: &Texts) -> RunReport {
    let wrong = CaseResult {
        detail: t.detail.clone(),
        diagnosis: Some(t.detail.clone()),
        causes: vec![Cause::new("evaluation", CauseKind::Bug, t.detail.clone()).with_evidence(t.evidence.clone())],
        difference: Some(FirstDifference { line: 1, expected: Some("Move: 3".into()), actual: Some(t.line.clone()) }),
        stdout: captured(&format!("{}\n{}\n", t.line, t.output)),
        ..case(&format!("case {}", t.name), Status::Failed)
    };
    let crashed =
        CaseResult { stdout: captured(&t.output), stderr: captured(&t.stderr), ..case("crash", Status::Crashed) };
    let record = CaseResult { expected: String::new(), stdout: captured(&t.output), ..case("game", Status::Failed) };
    let submission = |id: &str, cases: Vec<CaseResult>, build: Option<BuildResult>| SubmissionResult {
        id: id.to_string(),
        source: format!("/class/{}", t.name.replace('/', "")),
        build,
        cases,
        score: Points::ZERO,
        max_score: Points::whole(3),
        run: "r".into(),
        fingerprint: "f".into(),
        handin: String::new(),
        sandbox: Vec::new(),
        not_graded: None,
    };
    let build =
        BuildResult { ok: false, command: format!("javac {}", t.name), message: t.stderr.clone(), elapsed_ms: 1 };
    RunReport {
        schema: SCHEMA_VERSION,
        suite: "takestones".into(),
        submissions: vec![
            submission(&t.name, vec![wrong, crashed, record], None),
            submission(&format!("b{}", t.name), vec![case("build", Status::BuildError)], Some(build)),
        ],
    }
}

const PLAIN: RenderOptions = RenderOptions { color: false, redact: true, view: StudentView::DEFAULT };

/// Every format's text for `report`, named.
fn every_format(report: &RunReport) -> Vec<(&'static str, String)> {
    let formats = [
        ("terminal", Format::Terminal),
        ("json", Format::Json),
        ("gradescope", Format::Gradescope),
        ("junit", Format::Junit),
        ("csv", Format::Csv),
        ("markdown", Format::Md),
        ("prairielearn", Format::Prairielearn),
    ];
    let mut texts: Vec<(&'static str, String)> = formats
        .iter()
        .map(|(name, format)| {
            let mut out = Vec::new();
            render(*format, report, &PLAIN, &mut out).unwrap();
            (*name, String::from_utf8(out).unwrap())
        })
        .collect();
    for s in &report.submissions {
        let mut out = Vec::new();
        classroom50::render_submission(s, &identity(), &PLAIN, &mut out).unwrap();
        texts.push(("classroom50", String::from_utf8(out).unwrap()));
    }
    let feedback = |_: &str| String::new();
    let page = referee::harness::render::html::ClassPage { title: "t".into(), expected: 1, feedback: &feedback };
    let mut html = Vec::new();
    referee::harness::render::html::render_class(report, &page, &mut html).unwrap();
    texts.push(("report.html", String::from_utf8(html).unwrap()));
    texts
}

fn identity() -> classroom50::Identity {
    classroom50::Identity {
        classroom: "c".into(),
        assignment: "a".into(),
        assignment_type: "individual".into(),
        owner: "o".into(),
        submission: "submit/1".into(),
        commit: "https://x/c".into(),
        release: "https://x/r".into(),
        review: "https://x/v".into(),
        datetime: "2026-01-01T00:00:00Z".into(),
    }
}

/// The hidden characters `text` holds raw (layout characters of a block excepted).
fn raw_hidden(text: &str) -> Vec<char> {
    text.chars().filter(|c| HIDDEN.contains(c) && !LAYOUT.contains(c)).collect()
}

/// The terminal and Markdown text of a wrong answer whose first line is `line`.
fn shown_line(line: &str) -> (String, String) {
    let t = Texts {
        name: "s".into(),
        line: line.into(),
        output: String::new(),
        stderr: String::new(),
        detail: String::new(),
        evidence: String::new(),
    };
    let report = RunReport { submissions: vec![report(&t).submissions[0].clone()], ..report(&t) };
    let text = |format| {
        let mut out = Vec::new();
        render(format, &report, &PLAIN, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    (text(Format::Terminal), text(Format::Md))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// No hidden character of any generated text reaches any format raw.
    #[test]
    fn no_format_shows_a_hidden_character_raw(t in texts()) {
        for (format, text) in every_format(&report(&t)) {
            let raw = raw_hidden(&text);
            prop_assert!(raw.is_empty(), "{format} shows {raw:?} raw:\n{text}");
        }
    }

    /// Two different lines of output are shown differently, in the terminal and in feedback.
    #[test]
    fn two_different_lines_are_never_shown_alike(a in hostile(6, false), b in hostile(6, false)) {
        prop_assume!(a != b);
        let (terminal_a, md_a) = shown_line(&a);
        let (terminal_b, md_b) = shown_line(&b);
        prop_assert_ne!(&terminal_a, &terminal_b, "{:?} and {:?} look alike on the terminal", a, b);
        prop_assert_ne!(&md_a, &md_b, "{:?} and {:?} look alike in feedback", a, b);
    }

    /// What is read back (the gradebook's hand-in column, the JSON report) is exactly what was written.
    #[test]
    fn the_gradebook_and_the_json_read_back_exactly(t in texts()) {
        let report = report(&t);
        let mut out = Vec::new();
        render(Format::Csv, &report, &PLAIN, &mut out).unwrap();
        let book = csv::read(out.as_slice()).unwrap();
        let name = Path::new(&report.submissions[0].source).file_name().map(|n| n.to_string_lossy().into_owned());
        prop_assert_eq!(Some(&book.rows[0].handin), name.as_ref());
        prop_assert_eq!(&book.rows[0].id, &report.submissions[0].id);
        let mut out = Vec::new();
        render(Format::Json, &report, &RenderOptions::default(), &mut out).unwrap();
        let back: RunReport = serde_json::from_slice(&out).unwrap();
        prop_assert_eq!(back, report);
    }
}

/// Ordinary text in any script is shown as it is, and a cell a spreadsheet would run is marked as text.
#[test]
fn ordinary_text_is_shown_unchanged() {
    let normal = "José Müller 李雷 Ωμέγα 😀 🎉 naïve → ok";
    let t = Texts {
        name: normal.into(),
        line: normal.into(),
        output: format!("{normal}\n"),
        stderr: format!("{normal}\n"),
        detail: normal.into(),
        evidence: normal.into(),
    };
    for (format, text) in every_format(&report(&t)) {
        if format == "json" || format.starts_with("classroom") || format == "junit" {
            continue;
        }
        assert!(text.contains("José Müller 李雷 Ωμέγα 😀 🎉 naïve"), "{format}:\n{text}");
    }
    let formula = Texts { name: "=HYPERLINK(\"x\")".into(), ..t };
    let mut out = Vec::new();
    render(Format::Csv, &report(&formula), &PLAIN, &mut out).unwrap();
    let book = String::from_utf8(out).unwrap();
    assert!(book.lines().skip(1).all(|l| !l.starts_with('=') && !l.contains(",=")), "{book}");
}

/// A literal escape sequence printed by a program is not shown like the character it names.
#[test]
fn a_literal_escape_is_not_taken_for_the_character() {
    let (literal, _) = shown_line("Move: 3\\u{200b}");
    let (hidden, _) = shown_line("Move: 3\u{200b}");
    assert_ne!(literal, hidden);
    assert!(hidden.contains("Move: 3\\u{200b}"), "{hidden}");
}

/// A real class run: a hand-in whose name carries ESC, BEL, an OSC title, a bidi override and a zero-width space,
/// whose program prints a line with a zero-width space and writes bidi controls to stderr. Nothing hidden reaches
/// stdout, stderr or any file of `--out`; the gradebook gives the name back exactly; the feedback shows where the
/// line differs.
#[test]
fn a_class_run_shows_no_hidden_character_of_a_hand_in() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    let name = "eve\u{1b}]0;owned\u{7}\u{202e}fdp.exe\u{200b}\u{2066}-HW2-P3";
    let dir = class.join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("takestones.py"),
        "import sys\nsys.stderr.write('warn \\u202e\\u2066 \\x1b[2J\\x07\\n')\nprint('Move: 1\\u200b')\n",
    )
    .unwrap();
    let out = work.path().join("out");
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", &crate::containment::one_case_suite(work.path()), "--submissions"])
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", crate::grade::python())])
        .args(["--timeout", "5s"])
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(raw_hidden(&stdout).is_empty() && raw_hidden(&stderr).is_empty(), "{stdout:?}\n{stderr:?}");
    let mut files = 0;
    let mut feedback = String::new();
    for entry in walkdir(&out) {
        let text = String::from_utf8_lossy(&fs::read(&entry).unwrap()).into_owned();
        assert!(raw_hidden(&text).is_empty(), "{} holds {:?} raw", entry.display(), raw_hidden(&text));
        if entry.extension().is_some_and(|e| e == "md") {
            feedback.push_str(&text);
        }
        files += 1;
    }
    assert!(files >= 3, "{files} files in --out");
    assert!(feedback.contains("Move: 1\\u{200b}"), "the feedback does not show where the line differs:\n{feedback}");
    let book = csv::read(fs::File::open(out.join("gradebook.csv")).unwrap()).unwrap();
    assert_eq!(book.rows.len(), 1);
    assert_eq!(book.rows[0].handin, name);
}

/// Every file under `root`.
fn walkdir(root: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}
