//! The gradebook and JUnit survive a write and a read: any student name (commas, quotes, line breaks, formula
//! starts, controls), hand-in name and score come back exactly from `gradebook.csv`; `junit.xml` always parses with a
//! conforming XML parser (roxmltree) and with quick-xml's reader, which agree on every name and value, and gives
//! back every name with its hidden characters shown as `\u{..}` (issue 32, item 7) and every score exactly.

use proptest::prelude::*;
use referee::harness::model::{Points, RunReport, Show, Status, Visibility};
use referee::harness::render::visible::strip_ansi;
use referee::harness::render::{csv, render, Format, RenderOptions};

use crate::arbitrary;

fn rendered(format: Format, report: &RunReport) -> Vec<u8> {
    let mut out = Vec::new();
    render(
        format,
        report,
        &RenderOptions { color: false, redact: true, view: referee::harness::render::view::StudentView::DEFAULT },
        &mut out,
    )
    .unwrap();
    out
}

/// A score read back from a machine format: exactly the one written when it is a decimal of at most nine decimals,
/// otherwise cut toward zero there (never above it, less than 10⁻⁹ below).
fn read_back(read: Points, written: Points) -> Result<(), TestCaseError> {
    prop_assert!(
        read <= written && written - read < Points::fraction(1, 1_000_000_000),
        "{:?} read as {:?}",
        written,
        read
    );
    prop_assert_eq!(read.machine(), written.machine());
    Ok(())
}

/// How `junit.xml` shows `raw`: its hidden characters (controls, bidi and zero-width characters, and so every
/// character XML 1.0 forbids) written as `\u{..}` (issue 32, item 7).
fn xml_visible(raw: &str) -> String {
    referee::visible::visible(raw)
}

/// An element's tag with its `name` and `value` attributes.
type Named = (String, Option<String>, Option<String>);

/// Every element's tag with its `name` and `value` attributes, in document order, read with quick-xml's reader
/// (attribute values unescaped and normalized as XML 1.0 says); an error for a document it cannot read.
fn quick_xml_names(xml: &str) -> Result<Vec<Named>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut found = Vec::new();
    loop {
        let element = match reader.read_event().map_err(|e| e.to_string())? {
            Event::Start(e) | Event::Empty(e) => e,
            Event::Eof => return Ok(found),
            _ => continue,
        };
        let tag = String::from_utf8_lossy(element.name().as_ref()).into_owned();
        let (mut name, mut value) = (None, None);
        for attribute in element.attributes() {
            let attribute = attribute.map_err(|e| e.to_string())?;
            let text = attribute.normalized_value(quick_xml::XmlVersion::Implicit1_0).map_err(|e| e.to_string())?;
            match attribute.key.as_ref() {
                b"name" => name = Some(text.into_owned()),
                b"value" => value = Some(text.into_owned()),
                _ => {}
            }
        }
        found.push((tag, name, value));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every id, case name, score, maximum and status read back from the gradebook is the one written.
    #[test]
    fn the_gradebook_gives_back_every_field(report in arbitrary::report()) {
        let written = rendered(Format::Csv, &report);
        let book = csv::read(written.as_slice()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut columns: Vec<&str> = Vec::new();
        for case in report.submissions.iter().flat_map(|s| &s.cases) {
            if !columns.contains(&case.name.as_str()) {
                columns.push(&case.name);
            }
        }
        prop_assert_eq!(&book.cases, &columns);
        prop_assert_eq!(book.rows.len(), report.submissions.len());
        for (row, s) in book.rows.iter().zip(&report.submissions) {
            prop_assert_eq!(&row.id, &s.id);
            read_back(row.max_score, s.max_score)?;
            // Issue 33, item 2: only a graded hand-in has a score; the cell of one without is empty, never 0, and
            // the outcome column says why.
            match s.outcome().score() {
                Some(score) => {
                    let read = row.score.ok_or_else(|| TestCaseError::fail(format!("no score for {:?}", s.id)))?;
                    read_back(read, score)?;
                    prop_assert_eq!(read == row.max_score, s.score == s.max_score, "{:?} of {:?}", s.score, s.max_score);
                }
                None => {
                    prop_assert_eq!(row.score, None);
                    prop_assert_eq!(Some(row.outcome.clone()), s.outcome().reason());
                }
            }
            let named = report.submissions.iter().any(|s| !s.source.is_empty());
            let handin = std::path::Path::new(&s.source).file_name().map(|n| n.to_string_lossy().into_owned());
            prop_assert_eq!(&row.handin, &if named { handin.unwrap_or_default() } else { String::new() });
            for (name, status) in columns.iter().zip(&row.statuses) {
                let expected = s.cases.iter().find(|c| c.name == *name).map_or("", |c| c.status.label());
                prop_assert_eq!(status.as_str(), expected);
            }
        }
    }

    /// The XML parses; names and messages come back with hidden characters shown as their code, the score
    /// properties exactly, hidden cases keep their verdict and give away nothing else.
    #[test]
    fn junit_parses_and_gives_back_names_and_scores(report in arbitrary::report()) {
        let written = String::from_utf8(rendered(Format::Junit, &report)).unwrap();
        let doc = roxmltree::Document::parse(&written)
            .map_err(|e| TestCaseError::fail(format!("invalid XML ({e}):\n{written}")))?;
        // quick-xml's reader gives back the same names and values as the conforming parser.
        let quick = quick_xml_names(&written).map_err(|e| TestCaseError::fail(format!("quick-xml: {e}\n{written}")))?;
        let strict: Vec<_> = doc
            .descendants()
            .filter(|n| n.is_element())
            .map(|n| (n.tag_name().name().to_string(), n.attribute("name").map(String::from),
                n.attribute("value").map(String::from)))
            .collect();
        prop_assert_eq!(&quick, &strict);
        let suite_names: Vec<_> = quick.iter().filter(|(tag, ..)| tag == "testsuite").map(|(_, n, _)| n.clone()).collect();
        let ids: Vec<_> = report.submissions.iter().map(|s| Some(xml_visible(&s.id))).collect();
        prop_assert_eq!(suite_names, ids);
        let root = doc.root_element();
        prop_assert_eq!(root.attribute("name").map(String::from), Some(xml_visible(&report.suite)));
        let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
        prop_assert_eq!(suites.len(), report.submissions.len());
        for (suite, s) in suites.iter().zip(&report.submissions) {
            prop_assert_eq!(suite.attribute("name").map(String::from), Some(xml_visible(&s.id)));
            let property = |name: &str| {
                suite.descendants().find(|p| p.has_tag_name("property") && p.attribute("name") == Some(name))
                    .and_then(|p| p.attribute("value")).map(String::from)
            };
            let max = Points::parse_decimal(&property("max_score").unwrap()).unwrap();
            read_back(max, s.max_score)?;
            match s.outcome().score() {
                Some(_) => {
                    let score = Points::parse_decimal(&property("score").unwrap()).unwrap();
                    read_back(score, s.score)?;
                    prop_assert_eq!(score == max, s.score == s.max_score);
                }
                None => {
                    prop_assert_eq!(property("score"), None);
                    prop_assert_eq!(property("outcome").map(|o| o.contains("not graded")), Some(true));
                }
            }
            // A JUnit report has no due-date gate: after-due-date cases are hidden in it too.
            let hidden = s.cases.iter().filter(|c| c.visibility != Visibility::Visible).count();
            prop_assert_eq!(property("hidden_tests"), (hidden > 0).then(|| hidden.to_string()));

            let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
            prop_assert_eq!(cases.len(), s.cases.len());
            let mut hidden_seen = 0;
            for (testcase, case) in cases.iter().zip(&s.cases) {
                prop_assert_eq!(testcase.attribute("classname").map(String::from), Some(xml_visible(&s.id)));
                let verdict = testcase.children().find(|n| n.has_tag_name("failure") || n.has_tag_name("error"));
                prop_assert_eq!(verdict.is_none(), case.status.is_pass());
                if case.visibility != Visibility::Visible {
                    hidden_seen += 1;
                    let name = testcase.attribute("name").map(String::from);
                    prop_assert_eq!(name, Some(format!("hidden test {hidden_seen}")));
                    if let Some(v) = verdict {
                        prop_assert_eq!(v.attribute("message"), Some(case.status.label()));
                        let said = Some(format!("a hidden test: {}", case.status.label()));
                        prop_assert_eq!(v.text().map(String::from), said);
                    }
                    continue;
                }
                prop_assert_eq!(testcase.attribute("name").map(String::from), Some(xml_visible(&case.name)));
                if let Some(v) = verdict {
                    let message = if case.detail.is_empty() || case.show == Show::VerdictOnly {
                        case.status.label().to_string()
                    } else {
                        format!("{}: {}", case.status.label(), case.detail)
                    };
                    prop_assert_eq!(v.attribute("message").map(String::from), Some(xml_visible(&strip_ansi(&message))));
                    let element = if case.status == Status::HarnessError { "error" } else { "failure" };
                    prop_assert!(v.has_tag_name(element));
                }
            }
        }
    }
}

/// A name with every character a hand-written codec gets wrong, through both files.
#[test]
fn a_hostile_name_survives_both_files() {
    let name = "=Smith, \"J\"\r\n'O'Brien\t<b>&amp;";
    let report = RunReport {
        schema: referee::harness::model::SCHEMA_VERSION,
        suite: "s".into(),
        submissions: vec![referee::harness::model::SubmissionResult {
            id: name.into(),
            source: String::new(),
            build: None,
            cases: vec![referee::harness::model::CaseResult::new(name.into(), Status::Passed, 0.849)],
            score: Points::from_f64(0.849),
            max_score: Points::from_f64(0.849),
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        }],
    };
    let book = csv::read(rendered(Format::Csv, &report).as_slice()).unwrap();
    assert_eq!(
        (book.rows[0].id.as_str(), book.cases[0].as_str(), book.rows[0].score),
        (name, name, Some(Points::from_f64(0.849)))
    );
    let xml = String::from_utf8(rendered(Format::Junit, &report)).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suite = doc.descendants().find(|n| n.has_tag_name("testsuite")).unwrap();
    let case = doc.descendants().find(|n| n.has_tag_name("testcase")).unwrap();
    let shown = xml_visible(name);
    assert_eq!((suite.attribute("name"), case.attribute("name")), (Some(shown.as_str()), Some(shown.as_str())));
    let quick = quick_xml_names(&xml).unwrap();
    for tag in ["testsuite", "testcase"] {
        assert!(quick.contains(&(tag.to_string(), Some(shown.clone()), None)), "{tag}: {quick:?}\n{xml}");
    }
}
