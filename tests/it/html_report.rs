//! `report.html` of a real class run and a real tournament: its structure (insta, top-level `snapshots/`), its
//! escaping of hostile ids and output, and what headless Chromium makes of it (the DOM after load, screenshots
//! at desktop and phone width). Expected counts come from the stored results, never typed in.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use referee::harness::model::SubmissionResult;

use crate::grade::{fixture, grade, python};
use crate::util::in_snapshot_dir;
use crate::variants::{materialize, python_wrong};

/// A student id chosen to break out of markup if it were not escaped.
const HOSTILE_ID: &str = "<img src=x onerror=alert(1)>";
/// What a hostile program prints on stderr before it aborts.
const HOSTILE_STDERR: &str = "</td></tr></table><script>alert(2)</script>";

/// A class of real Python hand-ins: correct, two with named bugs, one with a wrong label, two that do not compile
/// (the same error), one that loops, one that aborts with markup on stderr, and one with a hostile id.
fn python_class(dir: &Path) {
    materialize(&fixture("submissions/python-stats"), &[], &dir.join("alice-HW2-P3"));
    python_wrong("python-depth-off-by-one", &dir.join("bob-HW2-P3"));
    python_wrong("python-depth-off-by-one", &dir.join(HOSTILE_ID));
    python_wrong("python-wrong-format", &dir.join("carol-HW2-P3"));
    for (student, source) in [
        ("erin", "def main(:\n    pass\n"),
        ("frank", "def f(:\n    return 1\n"),
        ("gina", "while True:\n    pass\n"),
        (
            "hank",
            &format!("import os, sys\nsys.stderr.write({HOSTILE_STDERR:?} + '\\n')\nsys.stderr.flush()\nos.abort()\n"),
        ),
    ] {
        let folder = dir.join(format!("{student}-HW2-P3"));
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("takestones.py"), source).unwrap();
    }
}

pub fn load_results(out: &Path) -> Vec<SubmissionResult> {
    let mut all: Vec<SubmissionResult> = fs::read_dir(out.join("results"))
        .unwrap()
        .map(|e| serde_json::from_slice(&fs::read(e.unwrap().path()).unwrap()).unwrap())
        .collect();
    all.sort_by(|a, b| a.id.cmp(&b.id));
    all
}

#[test]
fn a_class_report_counts_causes_escapes_and_renders_in_a_browser() {
    let tmp = tempfile::tempdir().unwrap();
    let (class, out) = (tmp.path().join("class"), tmp.path().join("out"));
    python_class(&class);
    let py = python();
    let run = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--submissions",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--build",
        &format!("{py} -m py_compile {{dir}}/takestones.py"),
        "--cmd",
        &format!("{py} {{dir}}/takestones.py {{args}}"),
        "--timeout",
        "2s",
        "-j",
        "2",
    ]);
    assert_eq!(run.status.code(), Some(1), "{}", String::from_utf8_lossy(&run.stderr));
    let results = load_results(&out);
    assert_eq!(results.len(), fs::read_dir(&class).unwrap().count(), "every hand-in has a result");
    let html = fs::read_to_string(out.join("report.html")).unwrap();

    // Nothing a student chose reaches the page as markup, and nothing is fetched.
    for raw in ["<img", "<script", "onerror=alert(1)>"] {
        assert!(!html.contains(raw), "{raw} must be escaped");
    }
    // The hostile name became a safe id (issue 22, item 8); the hostile stderr is escaped.
    assert!(html.contains("_img_src_x_onerror_alert_1__") && html.contains("&lt;script&gt;alert(2)"));
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("<link"), "self-contained");

    in_snapshot_dir("python_class", || insta::assert_snapshot!("html_report", structure(&html)));

    let Some(dom) = browser_dom(&out.join("report.html"), "class") else { return };
    check_class_dom(&dom, &results, &out);
}

/// What the browser must show for the class: the histogram with every student in it, the causes with the counts
/// the stored results give, and one working feedback link per student.
fn check_class_dom(dom: &str, results: &[SubmissionResult], out: &Path) {
    let histogram = section(dom, "<svg class=\"chart histogram\"", "</svg>");
    assert_eq!(histogram.matches("<rect class=\"bar\"").count(), 4, "one bar per point, 0 to 3");
    let desc = section(histogram, "<desc", "</desc>");
    let plotted: usize = desc
        .split("; ")
        .map(|p| p.rsplit(": ").next().unwrap().trim_end_matches("</desc>").parse::<usize>().unwrap())
        .sum();
    assert_eq!(plotted, results.len(), "{desc}");

    // Named bugs: each row's count is the number of students with a case diagnosed with it.
    let bugs = rows(section(dom, "id=\"causes-bugs\"", "</table>"));
    assert!(!bugs.is_empty());
    for row in &bugs {
        let (name, count) = (row[0].lines().next().unwrap(), row[2].parse::<usize>().unwrap());
        let have = results
            .iter()
            .filter(|s| {
                s.cases.iter().any(|c| {
                    c.causes.iter().any(|cause| cause.name == name)
                        || c.diagnosis.as_deref().unwrap_or("").lines().any(|l| {
                            l.starts_with(&format!("matches the reference with {name} ("))
                                || (name == "label typos" && l.starts_with("labels differ"))
                        })
                })
            })
            .count();
        assert_eq!(count, have, "{row:?}");
    }
    let hostile = results.iter().find(|s| s.source.ends_with(HOSTILE_ID)).map(|s| s.id.as_str()).unwrap();
    assert!(bugs[0][3].contains("bob") && bugs[0][3].contains(hostile), "the shared bug comes first: {bugs:?}");
    // Build errors: grouped by the first error line; together they hold every student whose build failed.
    let builds = rows(section(dom, "id=\"causes-builds\"", "</table>"));
    let failed_builds: Vec<&str> =
        results.iter().filter(|s| s.build.as_ref().is_some_and(|b| !b.ok)).map(|s| s.id.as_str()).collect();
    assert_eq!(builds.iter().map(|r| r[1].parse::<usize>().unwrap()).sum::<usize>(), failed_builds.len());
    for row in &builds {
        let with_line = results
            .iter()
            .filter(|s| s.build.as_ref().is_some_and(|b| !b.ok && b.message.contains(row[0].as_str())))
            .count();
        assert_eq!(row[1].parse::<usize>().unwrap(), with_line, "{row:?}");
    }
    // Timeouts and crashes: every student with such a run is listed.
    let troubles = rows(section(dom, "id=\"causes-troubles\"", "</table>"));
    for s in results {
        let bad = s.cases.iter().any(|c| {
            matches!(c.status, referee::harness::model::Status::Timeout | referee::harness::model::Status::Crashed)
        });
        assert_eq!(bad, troubles.iter().any(|r| r[0] == s.id), "{}: {troubles:?}", s.id);
    }
    // One row and one link per student, each to a file that exists.
    let students = section(dom, "id=\"student-table\"", "</table>");
    let links = hrefs(students);
    assert_eq!(links.len(), results.len());
    for link in links {
        assert!(out.join(percent_decoded(&link)).is_file(), "{link} does not resolve");
    }
}

/// The tournament's `report.html` in `out` (called by the tournament test of `referee_grade`, so the games are
/// played once): its shape, and in the browser the standings of `standings.csv`, a point and an error bar per
/// entrant, and cross-table links to every saved game.
pub fn check_tournament_report(out: &Path) {
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    let standings = fs::read_to_string(out.join("standings.csv")).unwrap();
    let entrants: Vec<Vec<&str>> = standings.lines().skip(1).map(|l| l.split(',').collect()).collect();
    // Ratings, results and ranks depend on the games; the snapshot holds the page's shape.
    in_snapshot_dir("mancala_tournament", || insta::assert_snapshot!("html_report", skeleton(&html)));

    let Some(dom) = browser_dom(&out.join("report.html"), "tournament") else { return };
    let table = rows(section(&dom, "id=\"standings-table\"", "</table>"));
    assert_eq!(table.len(), entrants.len());
    for (row, csv) in table.iter().zip(&entrants) {
        assert_eq!(row[1].trim_end_matches(" (reference)"), csv[1], "same order as standings.csv");
        assert_eq!(row[2..6], csv[2..6], "won, drawn, lost, forfeits of {}", csv[1]);
    }
    let chart = section(&dom, "id=\"rating-chart\"", "</svg>");
    assert_eq!(chart.matches("<circle").count(), entrants.len(), "one point per entrant");
    assert_eq!(chart.matches("class=\"whisker\"").count(), 3 * entrants.len(), "an error bar per entrant");
    let cross = section(&dom, "id=\"cross-table\"", "</table>");
    let games = hrefs(cross);
    assert_eq!(games.len(), fs::read_dir(out.join("games")).unwrap().count() * 2, "each game from both sides");
    for link in games.iter().chain(&hrefs(section(&dom, "id=\"standings-table\"", "</table>"))) {
        assert!(out.join(percent_decoded(link)).is_file(), "{link} does not resolve");
    }
    assert!(dom.contains("id=\"excluded\"") && dom.contains("broken: "), "the hand-in that did not build is named");
}

/// The page without its style sheet (the CSS is not structure).
fn structure(html: &str) -> String {
    let start = html.find("<style>").unwrap();
    let end = html.find("</style>").unwrap();
    format!("{}<style>…</style>{}", &html[..start], &html[end + "</style>".len()..])
}

/// The page's tags only, one per line, with numbers masked: what stays the same whatever the games' results.
fn skeleton(html: &str) -> String {
    let body = structure(html);
    let mut out = String::new();
    let mut rest = body.as_str();
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else { break };
        let tag = &rest[open..open + close + 1];
        let name: String =
            tag.trim_start_matches(['<', '/']).chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if !["a", "td", "span", "circle", "line", "g", "title", "text"].contains(&name.as_str()) {
            let masked: String = tag.chars().map(|c| if c.is_ascii_digit() { '#' } else { c }).collect();
            out.push_str(&masked);
            out.push('\n');
        }
        rest = &rest[open + close + 1..];
    }
    out
}

/// `text` from `start` (the first occurrence) up to and including the next `end`.
fn section<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start} in the DOM"));
    let to = text[from..].find(end).map_or(text.len(), |i| from + i + end.len());
    &text[from..to]
}

/// The body rows of a table: each cell's text, tags dropped, entities decoded.
fn rows(table: &str) -> Vec<Vec<String>> {
    let body = table.split("<tbody>").nth(1).unwrap_or("");
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            let mut cells = Vec::new();
            let mut rest = row;
            while let Some(i) = rest.find(['<']) {
                let after = &rest[i..];
                if after.starts_with("<td") || after.starts_with("<th") {
                    let open = after.find('>').unwrap() + 1;
                    let close = after.find("</t").unwrap();
                    cells.push(decoded(&without_tags(&after[open..close].replace("<br>", "\n"))));
                    rest = &after[close + 3..];
                } else {
                    rest = &after[1..];
                }
            }
            cells
        })
        .collect()
}

fn without_tags(html: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

fn decoded(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"").skip(1).map(|s| decoded(&s[..s.find('"').unwrap()])).collect()
}

fn percent_decoded(link: &str) -> PathBuf {
    let bytes = link.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            out.push(u8::from_str_radix(&link[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    PathBuf::from(String::from_utf8(out).unwrap())
}

/// The browser to test with: Debian's `chromium` (or a Chrome on the PATH). Missing, the test is skipped with a
/// reason, except in CI (`CI` set), where `.ci/run` installs it and a missing browser fails.
fn browser() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok_and(|o| o.status.success()));
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must have chromium (.ci/run installs it)");
        eprintln!("skipped the browser checks: no chromium on this machine (apt-get install chromium)");
    }
    found
}

/// Loads `page` in headless Chromium: screenshots at desktop and phone width into the test temp folder
/// (`target/tmp/html-report/`, with a copy of the page), and the DOM after load.
pub fn browser_dom(page: &Path, name: &str) -> Option<String> {
    let browser = browser()?;
    let url = format!("file://{}", page.display());
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    fs::create_dir_all(&shots).unwrap();
    fs::copy(page, shots.join(format!("{name}.html"))).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let headless = |extra: &[String]| {
        let out = Command::new("timeout")
            .args(["120", browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(&url)
            .output()
            .unwrap();
        assert!(out.status.success(), "{browser}: {}", String::from_utf8_lossy(&out.stderr));
        out
    };
    for (label, size) in [("desktop", "1280,2400"), ("phone", "390,3200")] {
        let shot = shots.join(format!("{name}-{label}.png"));
        let _ = fs::remove_file(&shot);
        headless(&[format!("--screenshot={}", shot.display()), format!("--window-size={size}")]);
        assert!(fs::metadata(&shot).is_ok_and(|m| m.len() > 10_000), "{} is not a screenshot", shot.display());
    }
    let dom = String::from_utf8(headless(&["--dump-dom".to_string()]).stdout).unwrap();
    assert!(dom.contains("</html>"), "no DOM: {dom}");
    Some(dom)
}
