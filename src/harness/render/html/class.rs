//! The class page: a summary with a score histogram, a table per case, the causes across the class, and one row
//! per student linking to their feedback.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::causes::{case_causes, tally, Group, Tally};
use super::chart::{histogram, Bin};
use super::escape::text;
use super::page::{badge, begin, end, head, status_badge};
use crate::harness::model::{Points, RunReport, Status, SubmissionResult};
use crate::harness::render::format_points;

/// What the class page needs besides the results.
pub struct ClassPage<'a> {
    /// The page's heading (`takestones-stats-2019: class report`).
    pub title: String,
    /// How many hand-ins the class folder holds; those without a result yet are counted as still to grade.
    pub expected: usize,
    /// A student id's feedback file, as a link relative to the report (`feedback/alice.md`); already URL-safe.
    pub feedback: &'a dyn Fn(&str) -> String,
}

/// The summary numbers of a class run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Students with a result.
    pub graded: usize,
    /// Hand-ins without a result yet.
    pub pending: usize,
    /// Mean score (0 when no one is graded), exact.
    pub mean: Points,
    /// Median score, exact.
    pub median: Points,
    /// Students with every point.
    pub full_marks: usize,
    /// Students with no point.
    pub zero: usize,
    /// Students none of whose cases ran (a failed build, or only harness errors).
    pub not_run: usize,
    /// Hand-ins without a score (not graded, or the grader failed): left out of the mean, the median, the
    /// histogram and every count of scores.
    pub not_graded: usize,
}

/// The summary of `report` for a class of `expected` hand-ins.
pub fn summarize(report: &RunReport, expected: usize) -> Summary {
    let subs: Vec<&SubmissionResult> = report.submissions.iter().filter(|s| s.outcome().is_graded()).collect();
    let mut scores: Vec<Points> = subs.iter().map(|s| s.score).collect();
    scores.sort();
    let median = match scores.len() {
        0 => Points::ZERO,
        n if n % 2 == 1 => scores[n / 2],
        n => (scores[n / 2 - 1] + scores[n / 2]).share(1, 2),
    };
    Summary {
        graded: subs.len(),
        pending: expected.saturating_sub(report.submissions.len()),
        mean: scores.iter().sum::<Points>().share(1, subs.len() as u64),
        median,
        full_marks: subs.iter().filter(|s| s.max_score.is_positive() && s.score >= s.max_score).count(),
        zero: subs.iter().filter(|s| !s.score.is_positive()).count(),
        not_run: subs.iter().filter(|s| not_run(s)).count(),
        not_graded: report.submissions.len() - subs.len(),
    }
}

fn not_run(s: &SubmissionResult) -> bool {
    s.cases.iter().all(|c| matches!(c.status, Status::BuildError | Status::HarnessError))
}

/// The histogram's bins: one per whole point when everyone has the same maximum of at most 20 points and whole
/// scores, otherwise ten bins of percent of the maximum (the last one holds 90–100%).
pub fn bins(report: &RunReport) -> Vec<Bin> {
    let subs: Vec<&SubmissionResult> = report.submissions.iter().filter(|s| s.outcome().is_graded()).collect();
    let max = subs.first().map_or(Points::ZERO, |s| s.max_score);
    if max.is_positive()
        && max <= Points::whole(20)
        && max.is_whole()
        && subs.iter().all(|s| s.max_score == max && s.score.is_whole())
    {
        return (0..=max.floor())
            .map(|p| Bin { label: p.to_string(), count: subs.iter().filter(|s| s.score.floor() == p).count() })
            .collect();
    }
    let mut counts = [0usize; 10];
    for s in &subs {
        let fraction =
            if s.max_score.is_positive() { (s.score.to_f64() / s.max_score.to_f64()).clamp(0.0, 1.0) } else { 0.0 };
        counts[((fraction * 10.0) as usize).min(9)] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(i, &count)| Bin {
            label: if i == 9 { "90–100%".into() } else { format!("{}–{}%", i * 10, i * 10 + 9) },
            count,
        })
        .collect()
}

/// Writes the class page for `report`.
///
/// # Errors
///
/// Only the writer's errors.
pub fn render_class(report: &RunReport, page: &ClassPage<'_>, out: &mut dyn Write) -> io::Result<()> {
    render_class_with_notices(report, page, &[], out)
}

/// [`render_class`], with `notices` (what the TA must read before the numbers: a failure every hand-in shares,
/// hand-ins left out) shown above the summary.
///
/// # Errors
///
/// Only the writer's errors.
pub fn render_class_with_notices(
    report: &RunReport,
    page: &ClassPage<'_>,
    notices: &[String],
    out: &mut dyn Write,
) -> io::Result<()> {
    let summary = summarize(report, page.expected);
    let lead = if summary.pending > 0 {
        format!(
            "Suite {}: {} of {} students graded so far; this page is rewritten as each one finishes.",
            report.suite, summary.graded, page.expected
        )
    } else {
        format!("Suite {}: {} students graded.", report.suite, summary.graded)
    };
    let sections = [("summary", "Summary"), ("cases", "Cases"), ("causes", "Causes"), ("students", "Students")];
    begin(out, &page.title, &lead, &sections)?;
    for notice in notices {
        writeln!(out, "<p class=\"notice\" role=\"alert\"><strong>{}</strong></p>", text(notice))?;
    }
    write_summary(out, report, &summary)?;
    let tally = tally(report);
    write_cases(out, report)?;
    write_causes(out, &tally)?;
    write_students(out, report, page)?;
    end(out)
}

fn write_summary(out: &mut dyn Write, report: &RunReport, s: &Summary) -> io::Result<()> {
    writeln!(out, "<section id=\"summary\"><h2>Summary</h2><div class=\"overview\">")?;
    writeln!(out, "<dl class=\"stats\">")?;
    let max = report.submissions.first().map_or(Points::ZERO, |s| s.max_score);
    let of = if max.is_positive() { format!(" / {}", format_points(max)) } else { String::new() };
    for (term, value) in [
        ("Students graded", s.graded.to_string()),
        ("Still to grade", s.pending.to_string()),
        ("Mean score", format!("{}{of}", format_points(s.mean))),
        ("Median score", format!("{}{of}", format_points(s.median))),
        ("Full marks", s.full_marks.to_string()),
        ("Zero", s.zero.to_string()),
        ("Not run (build or grader failed)", s.not_run.to_string()),
    ]
    .into_iter()
    .chain((s.not_graded > 0).then(|| ("Not graded (no score)", s.not_graded.to_string())))
    {
        writeln!(out, "<dt>{term}</dt><dd>{}</dd>", text(&value))?;
    }
    writeln!(out, "</dl>")?;
    writeln!(out, "<figure>")?;
    writeln!(out, "{}", histogram("histogram", "Score histogram: students per score", "score", &bins(report)))?;
    writeln!(out, "<figcaption>Students per score.</figcaption></figure>")?;
    writeln!(out, "</div></section>")
}

fn write_cases(out: &mut dyn Write, report: &RunReport) -> io::Result<()> {
    let mut names: Vec<&str> = Vec::new();
    for case in report.submissions.iter().flat_map(|s| &s.cases) {
        if !names.contains(&case.name.as_str()) {
            names.push(&case.name);
        }
    }
    writeln!(out, "<section id=\"cases\"><h2>Cases</h2><div class=\"scroll\"><table id=\"case-table\">")?;
    writeln!(out, "<caption>Per case: how many students passed, and how the others failed.</caption>")?;
    writeln!(
        out,
        "{}",
        head(&["case", "~points", "#passed", "~pass rate", "most common failure", "most common cause"])
    )?;
    writeln!(out, "<tbody>")?;
    for name in names {
        let cases: Vec<_> = report.submissions.iter().filter_map(|s| s.cases.iter().find(|c| c.name == name)).collect();
        let passed = cases.iter().filter(|c| c.status.is_pass()).count();
        let mut failures: BTreeMap<&str, (usize, Status)> = BTreeMap::new();
        let mut causes: BTreeMap<String, usize> = BTreeMap::new();
        for c in cases.iter().filter(|c| !c.status.is_pass()) {
            failures.entry(c.status.label()).or_insert((0, c.status)).0 += 1;
            for n in case_causes(c) {
                *causes.entry(n.name).or_default() += 1;
            }
        }
        let failure = most_common(failures.iter().map(|(_, &(n, status))| (n, status)))
            .map_or_else(|| "—".to_string(), |(n, status)| status_badge(status, Some(n)));
        let cause = most_common(causes.iter().map(|(name, &n)| (n, name)))
            .map_or_else(|| "—".to_string(), |(n, name)| format!("{} ({n})", text(name)));
        let max = cases.first().map_or(Points::ZERO, |c| c.max_score);
        let rate = percent(Points::whole(passed as i64), Points::whole(cases.len() as i64));
        writeln!(
            out,
            "<tr><th scope=\"row\"><code>{}</code></th><td class=\"num opt\">{}</td><td class=\"num\">{passed} / {}</td>\
             <td class=\"num opt\">{rate}</td><td>{failure}</td><td>{cause}</td></tr>",
            text(name),
            format_points(max),
            cases.len()
        )?;
    }
    writeln!(out, "</tbody></table></div></section>")
}

/// The entry with the largest count (the first of equals).
fn most_common<T>(entries: impl Iterator<Item = (usize, T)>) -> Option<(usize, T)> {
    entries.fold(None, |best: Option<(usize, T)>, (n, x)| match best {
        Some((m, y)) if m >= n => Some((m, y)),
        _ => Some((n, x)),
    })
}

fn write_causes(out: &mut dyn Write, tally: &Tally) -> io::Result<()> {
    writeln!(out, "<section id=\"causes\"><h2>Causes across the class</h2>")?;
    writeln!(
        out,
        "<p class=\"note\">Each cause with the students whose output it explains, most common first: one \
         announcement can reach them all.</p>"
    )?;
    write_groups(out, "causes-bugs", "Named bugs and located faults", "cause", &tally.bugs, true)?;
    if !tally.unexplained.is_empty() {
        writeln!(
            out,
            "<p class=\"note\" id=\"unexplained\">Wrong output no known cause explains ({}): {}</p>",
            tally.unexplained.len(),
            text(&tally.unexplained.join(", "))
        )?;
    }
    write_groups(out, "causes-readings", "Accepted readings", "reading", &tally.readings, false)?;
    write_groups(
        out,
        "causes-builds",
        "Build errors, by the compiler's first error",
        "first error",
        &tally.builds,
        false,
    )?;
    writeln!(out, "<h3>Timeouts and crashes</h3>")?;
    if tally.troubles.is_empty() {
        writeln!(out, "<p class=\"empty\">None.</p>")?;
    } else {
        writeln!(out, "<div class=\"scroll\"><table id=\"causes-troubles\">")?;
        writeln!(out, "<caption>Runs that timed out, crashed, exited nonzero or hit the output cap.</caption>")?;
        writeln!(out, "{}", head(&["student", "status", "cases", "what happened", "last stderr line"]))?;
        writeln!(out, "<tbody>")?;
        for t in &tally.troubles {
            writeln!(
                out,
                "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td><td class=\"mono\">{}</td></tr>",
                text(&t.student),
                status_badge(t.status, Some(t.cases.len())),
                text(&t.cases.join(", ")),
                text(&t.detail),
                text(&t.stderr)
            )?;
        }
        writeln!(out, "</tbody></table></div>")?;
    }
    writeln!(out, "</section>")
}

fn write_groups(
    out: &mut dyn Write,
    id: &str,
    heading: &str,
    what: &str,
    groups: &[Group],
    with_kind: bool,
) -> io::Result<()> {
    writeln!(out, "<h3>{heading}</h3>")?;
    if groups.is_empty() {
        return writeln!(out, "<p class=\"empty\">None.</p>");
    }
    writeln!(out, "<div class=\"scroll\"><table id=\"{id}\">")?;
    let mut columns = vec![what];
    if with_kind {
        columns.push("?kind");
    }
    columns.extend(["#students", "who"]);
    writeln!(out, "{}", head(&columns))?;
    writeln!(out, "<tbody>")?;
    for g in groups {
        let kind = if with_kind { format!("<td class=\"opt\">{}</td>", g.kind.label()) } else { String::new() };
        let sentence = if g.sentence.is_empty() {
            String::new()
        } else {
            format!("<br><small class=\"sentence\">{}</small>", text(&g.sentence))
        };
        writeln!(
            out,
            "<tr><th scope=\"row\"><code>{}</code>{sentence}</th>{kind}<td class=\"num\">{}</td><td class=\"who\">{}</td></tr>",
            text(&g.key),
            g.students.len(),
            text(&g.students.join(", "))
        )?;
    }
    writeln!(out, "</tbody></table></div>")
}

fn write_students(out: &mut dyn Write, report: &RunReport, page: &ClassPage<'_>) -> io::Result<()> {
    writeln!(out, "<section id=\"students\"><h2>Students</h2><div class=\"scroll\"><table class=\"students\" id=\"student-table\">")?;
    writeln!(out, "<caption>One row per student; the id links to their feedback file.</caption>")?;
    writeln!(out, "{}", head(&["student", "#score", "~%", "status", "causes"]))?;
    writeln!(out, "<tbody>")?;
    for s in &report.submissions {
        let mut counts: Vec<(Status, usize)> = Vec::new();
        for c in &s.cases {
            match counts.iter_mut().find(|(st, _)| *st == c.status) {
                Some((_, n)) => *n += 1,
                None => counts.push((c.status, 1)),
            }
        }
        let mut badges = String::new();
        let outcome = s.outcome();
        if let Some(line) = outcome.reason_line() {
            badges.push_str(&badge("s-not-graded", &line));
        } else if s.max_score.is_positive() && s.score >= s.max_score {
            badges.push_str(&badge("s-full", "full marks"));
        } else if !s.score.is_positive() {
            badges.push_str(&badge("s-zero", "zero"));
        }
        for (status, n) in counts {
            badges.push_str(&status_badge(status, Some(n)));
        }
        let mut names: Vec<String> = s.cases.iter().flat_map(case_causes).map(|n| n.name).collect();
        names.sort();
        names.dedup();
        let percent = if outcome.is_graded() { percent(s.score, s.max_score) } else { "—".to_string() };
        writeln!(
            out,
            "<tr><th scope=\"row\"><a href=\"{}\">{}</a></th><td class=\"num\">{}</td><td class=\"num opt\">{percent}</td>\
             <td class=\"badges\">{badges}</td><td>{}</td></tr>",
            text(&(page.feedback)(&s.id)),
            text(&s.id),
            text(&outcome.score_text(true)),
            text(&names.join(", "))
        )?;
    }
    writeln!(out, "</tbody></table></div></section>")
}

/// `part` of `whole` as a whole percentage, rounded to the nearest but never to 100% short of the whole nor to 0%
/// above nothing (99.6% of the points is `99%`, not full marks); `—` when `whole` is 0.
fn percent(part: Points, whole: Points) -> String {
    if !whole.is_positive() {
        return "—".to_string();
    }
    let share = 100.0 * part.to_f64() / whole.to_f64();
    let mut shown = share.round();
    if part < whole {
        shown = shown.min(99.0);
    }
    if part.is_positive() {
        shown = shown.max(1.0);
    }
    format!("{shown:.0}%")
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::harness::model::{BuildResult, CaseResult, Cause, CauseKind, SubmissionResult};

    const EVIL: &str = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&";

    fn student(id: &str, cases: Vec<CaseResult>, build: Option<BuildResult>) -> SubmissionResult {
        let max = cases.iter().map(|c| c.max_score).sum();
        let score = cases.iter().map(|c| c.score).sum();
        SubmissionResult {
            id: id.into(),
            source: EVIL.into(),
            build,
            cases,
            score,
            max_score: max,
            run: String::new(),
            fingerprint: String::new(),
            handin: String::new(),
            sandbox: Vec::new(),
            not_graded: None,
        }
    }

    /// Every string a student controls, hostile at once: id, case name, stderr, detail, diagnosis, reading, cause,
    /// compiler message. None of it may open a tag.
    #[test]
    fn hostile_strings_never_become_markup() {
        let mut crashed = CaseResult::new(EVIL.into(), Status::Crashed, 1.0);
        crashed.stderr.text = format!("boom\n{EVIL}\n");
        crashed.detail = EVIL.into();
        let mut failed = CaseResult::new("c2".into(), Status::Failed, 1.0);
        failed.diagnosis = Some(format!("matches the reference with {EVIL} (bug): {EVIL}"));
        failed.causes = vec![Cause::new(EVIL, CauseKind::Bug, EVIL)];
        let mut passed = CaseResult::new("c3".into(), Status::Passed, 1.0);
        passed.score = Points::whole(1);
        passed.reading = Some(EVIL.into());
        let build = BuildResult {
            ok: false,
            command: EVIL.into(),
            message: format!("x:\nA.java:1: error: {EVIL}"),
            elapsed_ms: 0,
        };
        let report = RunReport {
            schema: 1,
            suite: EVIL.into(),
            submissions: vec![
                student(EVIL, vec![crashed, failed, passed], None),
                student("b", vec![CaseResult::new("c1".into(), Status::BuildError, 1.0)], Some(build)),
            ],
        };
        let feedback = |id: &str| super::super::escape::href(&["feedback", &format!("{id}.md")]);
        let page = ClassPage { title: EVIL.into(), expected: 3, feedback: &feedback };
        let mut out = Vec::new();
        render_class(&report, &page, &mut out).unwrap();
        let html = String::from_utf8(out).unwrap();
        for raw in ["<script", "<img", "onerror=alert(2)>", "\"'&"] {
            assert!(!html.contains(raw), "{raw} reached the page unescaped");
        }
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "shown as text");
        assert!(html.contains("href=\"feedback/%3Cscript%3Ealert"), "the link is percent-encoded");
        assert!(html.contains("<dt>Still to grade</dt><dd>1</dd>"), "three hand-ins, two results");
    }

    #[test]
    fn a_percentage_never_rounds_a_partial_score_to_full_marks_or_to_nothing() {
        assert_eq!(percent(Points::from_f64(0.996), Points::from_f64(1.0)), "99%");
        assert_eq!(percent(Points::from_f64(0.849), Points::from_f64(1.0)), "85%");
        assert_eq!(percent(Points::from_f64(1.0), Points::from_f64(1.0)), "100%");
        assert_eq!(percent(Points::from_f64(0.001), Points::from_f64(1.0)), "1%");
        assert_eq!(percent(Points::from_f64(0.0), Points::from_f64(1.0)), "0%");
        assert_eq!(percent(Points::from_f64(1.0), Points::from_f64(0.0)), "—");
    }
}
