//! Grading one student's answer file against their variants: a case per part in the harness's result model,
//! scored by the items right ([`super::mark`]), with the misconception named ([`super::misconception`]) when the
//! answer is what a known wrong method gives on this variant.
//!
//! Nothing a student writes can stop grading or pass silently as zero: a missing section, a missing or doubled
//! answer and an answer that cannot be read each get a one-line detail naming the part, the place in the file,
//! and what was expected. An answer file made for another variant (the `variant =` line of the template) is not
//! graded against this one ([`foreign_variant`] says why): the hand-in is not graded, for the TA to look at (a
//! wrong `--seed`, or a sheet that was not this student's), never a loss of points and never a 0.

use super::answer::{parse, resolve, Answer};
use super::file::AnswerFile;
use super::mark::{gives, mark};
use super::misconception::Misconception;
use super::named::{answer_of, proven};
use super::part::Part;
use super::Variant;
use crate::harness::model::{Captured, CaseResult, FirstDifference, Points, Status};

/// Points a whole problem is worth when `--points` is not given; the parts' points add up to it.
pub const PROBLEM_POINTS: u32 = 10;

/// The case name of a part: `alphabeta: nodes never visited`.
pub fn case_name(variant: &Variant, part: &Part) -> String {
    format!("{}: {}", variant.kind.name(), part.spec.title)
}

/// A case for `part`, unscored, with what the right answer is.
fn base(variant: &Variant, part: &Part, status: Status, points: Points) -> CaseResult {
    let mut case = CaseResult::new(case_name(variant, part), status, part_points(part, points));
    case.args = vec![variant.code.clone()];
    case.expected = format!("{}\n", part.expected.show());
    case
}

/// What `part` is worth when its problem is worth `points`.
/// Exact: a part worth 3 of a 10-point problem is 3/10 of `points`.
pub fn part_points(part: &Part, points: Points) -> Points {
    points.share(u64::from(part.spec.points), u64::from(PROBLEM_POINTS))
}

/// What `variants` are worth together when each problem is worth `points` (a hand-in's maximum).
pub fn total_points(variants: &[Variant], points: Points) -> Points {
    variants.iter().flat_map(|v| &v.parts).map(|part| part_points(part, points)).sum()
}

/// Why `file` cannot be graded against `variants`: a section whose `variant =` line names another variant than
/// this student's (the reason names every such section); `None` when every section is for this student.
pub fn foreign_variant(variants: &[Variant], file: &AnswerFile) -> Option<String> {
    let reasons: Vec<String> = variants
        .iter()
        .filter_map(|variant| {
            let section = file.section(variant.kind)?;
            let (code, at) = section.variant.as_ref().filter(|(code, _)| !code.eq_ignore_ascii_case(&variant.code))?;
            Some(format!(
                "{at} says the {} answers are for variant {code}, but this student's {} problem is {}",
                variant.kind.name(),
                variant.kind.name(),
                variant.code
            ))
        })
        .collect();
    (!reasons.is_empty()).then(|| {
        format!(
            "{}; grade with the --seed the sheets were made with (and --ids with make's roster when hand-ins are \
             named as make named the students' folders), or check which sheet the student answered",
            reasons.join("; ")
        )
    })
}

/// Grades `file` against `variants`, each problem worth `points`. A section for another variant is graded as if
/// it were this student's: check [`foreign_variant`] first.
pub fn grade(variants: &[Variant], file: &AnswerFile, points: Points) -> Vec<CaseResult> {
    let mut cases = Vec::new();
    for variant in variants {
        let kind = variant.kind.name();
        let section = file.section(variant.kind);
        for part in &variant.parts {
            let case = match section {
                None => {
                    let mut case = base(variant, part, Status::Failed, points);
                    let mut detail = format!("no answer: the file has no [{kind}] section (copy it from the template)");
                    if let Some(problem) = file.problems.first() {
                        detail.push_str(&format!("; {problem}"));
                    }
                    case.detail = detail;
                    case
                }
                Some(section) => {
                    let given: Vec<Option<Answer>> = variant.parts.iter().map(|p| read(p, section)).collect();
                    answer(variant, part, section, points, &proven(&variant.parts, &given))
                }
            };
            cases.push(case);
        }
    }
    cases
}

/// The student's answer to `part`, when there is exactly one and it reads.
fn read(part: &Part, section: &super::file::Section) -> Option<Answer> {
    match section.answers(part.spec.key).as_slice() {
        [one] if !one.value.trim().is_empty() => {
            parse(part.spec.form, &one.value).and_then(|a| resolve(a, &part.vocabulary, part.what)).ok()
        }
        _ => None,
    }
}

/// The case of one part of a section; `named` are the wrong methods the student's answers to the whole variant
/// prove ([`proven`]).
fn answer(
    variant: &Variant,
    part: &Part,
    section: &super::file::Section,
    points: Points,
    named: &[Misconception],
) -> CaseResult {
    let kind = variant.kind.name();
    let key = part.spec.key;
    let expected = format!("expected {}", part.spec.form.example());
    let given = section.answers(key);
    let mut case = base(variant, part, Status::Failed, points);
    let entry = match given.as_slice() {
        [] => {
            let unknown: Vec<String> = section.unknown.iter().map(|(k, at)| format!("'{k}' ({at})")).collect();
            let hint = if unknown.is_empty() {
                String::new()
            } else {
                format!("; the section has unknown keys {}", unknown.join(", "))
            };
            case.detail = format!("no answer: [{kind}] has no '{key} =' line{hint}");
            case.stdout = captured("");
            return case;
        }
        [one] => *one,
        several => {
            let places: Vec<&str> = several.iter().map(|e| e.at.as_str()).collect();
            case.detail = format!(
                "cannot tell which answer counts: '{key}' is answered {} times ({}); keep one",
                several.len(),
                places.join(", ")
            );
            case.stdout = captured(&several.iter().map(|e| e.value.as_str()).collect::<Vec<_>>().join("\n"));
            return case;
        }
    };
    case.stdout = captured(&entry.value);
    if entry.value.trim().is_empty() {
        case.detail = format!("no answer: '{key} =' is blank ({}); {expected}", entry.at);
        return case;
    }
    let read = parse(part.spec.form, &entry.value).and_then(|a| resolve(a, &part.vocabulary, part.what));
    let given: Answer = match read {
        Ok(a) => a,
        Err(why) => {
            case.detail = format!("cannot read the answer to '{key}' ({}): {why}; {expected}", entry.at);
            return case;
        }
    };
    let marked = mark(&part.expected, &given);
    // Exact: every item right is the part's points, `right` of `items` that share of them.
    let all = marked.items == 0 || marked.right >= marked.items;
    case.score = if all { case.max_score } else { case.max_score.share(marked.right as u64, marked.items as u64) };
    if all {
        case.status = Status::Passed;
        case.detail = "right".into();
        return case;
    }
    let right = if marked.items > 1 {
        format!("{} of {} items right", marked.right, marked.items)
    } else {
        "wrong".to_string()
    };
    let notes = if marked.notes.is_empty() { String::new() } else { format!(" ({})", marked.notes.join("; ")) };
    case.detail = format!("{right}{notes}");
    case.difference =
        Some(FirstDifference { line: 1, expected: Some(part.expected.show()), actual: Some(given.show()) });
    case.causes = named
        .iter()
        .map(|&m| (m, answer_of(part, m)))
        .filter(|(_, w)| gives(w, &given))
        .map(|(m, w)| m.cause(&given.show(), &w.show(), &part.expected.show()))
        .collect();
    if case.causes.len() > 1 {
        // Each method gives every answer of the variant alone; the answers cannot tell which was used, and must not
        // pretend to.
        case.detail.push_str(&format!(
            "; {} known wrong methods give this same answer, so it does not show which one was used",
            case.causes.len()
        ));
    }
    case
}

/// The answer as the case's output (a blank one shown as such, so no report says a program printed nothing).
fn captured(text: &str) -> Captured {
    let text = if text.trim().is_empty() { "(no answer)\n".to_string() } else { format!("{}\n", text.trim_end()) };
    Captured { bytes: text.len(), text, ..Captured::default() }
}
