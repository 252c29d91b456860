//! Written exercises, issue 33: every id `exercise make` accepts is graded in a class run (spaces, `+`, `'`, a
//! roster's ids against make's own folder names), and `exercise check` reads an answer file exactly as
//! `exercise grade` does: a comma-separated climb, a byte order mark, Windows line ends and trailing spaces are
//! read alike, and check prints what grade reads. The answers are the key solvers' and the wrong methods' (via
//! `exercise_students`), never typed in; grading runs through the real binary.

use std::fs;
use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use proptest::prelude::*;
use referee::exercise::answer::{parse, resolve};
use referee::exercise::grade::case_name;
use referee::exercise::misconception::Misconception;
use referee::exercise::{file, variant, Kind, Variant};
use referee::harness::grade::class::safe_name;
use referee::harness::model::{RunReport, Status};

use crate::exercise_students::{answer_file, answers};

const SEED: u64 = 4242;
const KINDS: [Kind; 2] = [Kind::Hillclimb, Kind::Csp];
const KIND_ARG: &str = "hillclimb,csp";

fn referee(args: &[&str]) -> Output {
    Command::cargo_bin("referee").unwrap().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn variants(id: &str) -> Vec<Variant> {
    KINDS.iter().map(|&k| variant(SEED, id, k)).collect()
}

fn write(path: &Path, contents: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

fn class_grade(class: &Path, out: &Path, extra: &[&str]) -> Output {
    let seed = SEED.to_string();
    let mut args = vec!["exercise", "grade", "--seed", &seed, "--kind", KIND_ARG];
    args.extend(["--submissions", class.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    args.extend(extra);
    referee(&args)
}

/// Ids `exercise make` accepts that a file name cannot hold as they are.
const IDS: [&str; 5] = ["bob smith", "carol+1@uni.edu", "o'neil@uni.edu", "Dana Lee", "alice"];

#[test]
fn every_id_make_accepts_is_graded_in_a_class_run() {
    let tmp = tempfile::tempdir().unwrap();
    let roster = IDS.join(",");
    let made = tmp.path().join("made");
    let seed = SEED.to_string();
    let run = referee(
        &["exercise", "make", "--kind", KIND_ARG, "--ids", &roster, "--seed", &seed, "--out"]
            .into_iter()
            .chain([made.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    // Hand-ins named by the ids themselves, and hand-ins in make's own folders (named by safe_name).
    let by_id = tmp.path().join("by-id");
    let by_folder = tmp.path().join("by-folder");
    for id in IDS {
        let vs = variants(id);
        let template = made.join("students").join(safe_name(id)).join("answers.txt");
        assert_eq!(fs::read_to_string(&template).unwrap(), file::template(id, &vs), "make's sheet is {id}'s");
        let filled = answer_file(id, &vs, &[], &[]);
        write(&by_id.join(id).join("answers.txt"), filled.as_bytes());
        write(&by_folder.join(safe_name(id)).join("answers.txt"), filled.as_bytes());
    }
    let full_marks = |out: &Path, run: &Output| {
        assert_eq!(run.status.code(), Some(0), "{}{}", text(&run.stdout), text(&run.stderr));
        let results = crate::html_report::load_results(out);
        assert_eq!(results.len(), IDS.len());
        for r in &results {
            assert!(
                r.max_score.is_positive() && r.score == r.max_score,
                "{}: {} of {}: {:?}",
                r.id,
                r.score,
                r.max_score,
                r
            );
        }
    };
    let out = tmp.path().join("res-by-id");
    full_marks(&out, &class_grade(&by_id, &out, &[]));
    let out = tmp.path().join("res-by-folder");
    full_marks(&out, &class_grade(&by_folder, &out, &["--ids", &roster]));
    // Without the roster, a folder name that lost characters cannot say whose sheet it is: that hand-in is not
    // graded (no score, the reason and what to give: exit 1), and no student loses a point for it.
    let out = tmp.path().join("res-no-roster");
    let run = class_grade(&by_folder, &out, &[]);
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stdout));
    assert!(text(&run.stdout).contains("--ids"), "{}", text(&run.stdout));
    for r in crate::html_report::load_results(&out) {
        let whole = r.score == r.max_score && r.not_graded.is_none();
        let not_graded = r.not_graded.is_some() && r.cases.is_empty();
        assert!(whole || not_graded, "{}: {:?} {:?}", r.id, r.not_graded, r.cases);
    }
}

/// `exercise check` on `body` (as `alice.txt`): its exit code and stdout.
fn check(dir: &Path, body: &[u8]) -> (Option<i32>, String) {
    let path = dir.join("alice.txt");
    fs::write(&path, body).unwrap();
    let run = referee(&["exercise", "check", "--kind", KIND_ARG, "--answers", path.to_str().unwrap()]);
    (run.status.code(), text(&run.stdout))
}

/// `exercise grade --dir` on `body` (as `alice.txt`): its exit code and report.
fn grade(dir: &Path, body: &[u8]) -> (Option<i32>, RunReport) {
    let path = dir.join("alice.txt");
    fs::write(&path, body).unwrap();
    let seed = SEED.to_string();
    let args = ["exercise", "grade", "--seed", &seed, "--kind", KIND_ARG, "--format", "json", "--dir"];
    let run = referee(&args.into_iter().chain([path.to_str().unwrap()]).collect::<Vec<_>>());
    let report: RunReport = serde_json::from_slice(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&run.stdout), text(&run.stderr)));
    (run.status.code(), report)
}

/// Alice's right answers with `climb` in place of the right climb.
fn alice_with_climb(climb: &str) -> String {
    let vs = variants("alice");
    let right: Vec<_> = vs.iter().map(|v| answers(v, None)).collect();
    file::answered("alice", &vs, |v, part| {
        if part.spec.key == "climb" {
            return Some(climb.to_string());
        }
        right[vs.iter().position(|x| x.code == v.code).unwrap()].get(part.spec.key).cloned()
    })
}

/// The right climb as its steps: `(locations, length)`, from the key solver's answer (`ACBDE 17; ...`).
fn right_steps(id: &str, method: Option<Misconception>) -> Vec<(Vec<String>, String)> {
    let v = variant(SEED, id, Kind::Hillclimb);
    answers(&v, method)["climb"]
        .split("; ")
        .map(|s| {
            let (tour, len) = s.split_once(' ').unwrap();
            (tour.chars().map(String::from).collect(), len.to_string())
        })
        .collect()
}

#[test]
fn the_issues_spellings_are_read_alike_by_check_and_grade() {
    let tmp = tempfile::tempdir().unwrap();
    let steps = right_steps("alice", None);
    let commas: Vec<String> = steps.iter().map(|(t, l)| format!("{} {l}", t.join("-"))).collect();
    let expected = variants("alice")[0].parts[1].expected.show();
    // A comma-separated climb: check calls it ready only if grade gives it full marks.
    let body = alice_with_climb(&commas.join(", "));
    let (code, out) = check(tmp.path(), body.as_bytes());
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("[hillclimb] climb (alice.txt line "), "{out}");
    assert!(out.contains(&format!("reads as {expected}\n")), "check prints what grade reads: {out}");
    let (code, report) = grade(tmp.path(), body.as_bytes());
    let r = &report.submissions[0];
    assert_eq!((code, r.score), (Some(0), r.max_score), "{:?}", r.cases);
    // A byte order mark, Windows line ends and trailing spaces: both read the file, and alike.
    let spelled = alice_with_climb(&commas.join("; ")).replace('\n', "  \r\n");
    let body = [&[0xEF, 0xBB, 0xBF][..], spelled.as_bytes()].concat();
    let (code, out) = check(tmp.path(), &body);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.ends_with("the form is ready to hand in (whether the answers are right is not checked)\n"), "{out}");
    let (code, report) = grade(tmp.path(), &body);
    assert_eq!((code, report.submissions[0].score), (Some(0), report.submissions[0].max_score));
}

/// Spellings of an answer file: how each step's tour is joined, how its length follows, what separates steps,
/// and the file's own habits (a key's `=` or `:`, trailing spaces, Windows line ends, a byte order mark).
#[derive(Clone, Debug)]
struct Spelling {
    id: usize,
    wrong: bool,
    joiner: usize,
    length: usize,
    separator: usize,
    lower: bool,
    key: usize,
    trailing: bool,
    crlf: bool,
    bom: bool,
}

const JOINERS: [&str; 4] = ["-", ",", " ", ""];
const LENGTHS: [&str; 4] = [" {}", " ({})", ": {}", "  {} "];
const SEPARATORS: [&str; 6] = ["; ", ", ", " ; ", ";\n  ", ",\n", "\n  "];
const KEYS: [&str; 3] = [" = ", ": ", "="];
const STUDENTS: [&str; 3] = ["alice", "bob smith", "carol+1@uni.edu"];

fn spelling() -> impl Strategy<Value = Spelling> {
    (
        (0..STUDENTS.len(), any::<bool>(), 0..JOINERS.len(), 0..LENGTHS.len(), 0..SEPARATORS.len()),
        (any::<bool>(), 0..KEYS.len(), any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(|((id, wrong, joiner, length, separator), (lower, key, trailing, crlf, bom))| Spelling {
            id,
            wrong,
            joiner,
            length,
            separator,
            lower,
            key,
            trailing,
            crlf,
            bom,
        })
}

/// The answer file `s` spells (for `STUDENTS[s.id]`, named `alice.txt` all the same: `--id` says whose it is).
fn spell(s: &Spelling) -> Vec<u8> {
    let id = STUDENTS[s.id];
    let vs = variants(id);
    let method = |k: Kind| match (s.wrong, k) {
        (false, _) => None,
        (true, Kind::Hillclimb) => Some(Misconception::FirstImprovement),
        (true, _) => Some(Misconception::MrvTiesAlphabetical),
    };
    let worked: Vec<_> = vs.iter().map(|v| answers(v, method(v.kind))).collect();
    let climb: Vec<String> = right_steps(id, method(Kind::Hillclimb))
        .iter()
        .map(|(tour, len)| {
            let tour = tour.join(JOINERS[s.joiner]);
            let tour = if s.lower { tour.to_lowercase() } else { tour };
            format!("{tour}{}", LENGTHS[s.length].replace("{}", len))
        })
        .collect();
    let mut body = file::answered(id, &vs, |v, part| {
        let i = vs.iter().position(|x| x.code == v.code).unwrap();
        if part.spec.key == "climb" {
            return Some(climb.join(SEPARATORS[s.separator]));
        }
        worked[i].get(part.spec.key).cloned()
    });
    for v in &vs {
        for part in &v.parts {
            body = body.replace(&format!("\n{} = ", part.spec.key), &format!("\n{}{}", part.spec.key, KEYS[s.key]));
        }
    }
    if s.trailing {
        body = body.replace('\n', " \t\n");
    }
    if s.crlf {
        body = body.replace('\n', "\r\n");
    }
    let mut bytes = if s.bom { vec![0xEF, 0xBB, 0xBF] } else { Vec::new() };
    bytes.extend(body.as_bytes());
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// For every part: check reads it exactly when grade does (graded, right or wrong, rather than "cannot read"
    /// or "no answer"), and what check prints is what grade read (labels in the variant's spelling).
    #[test]
    fn check_prints_what_grade_reads(s in spelling()) {
        let tmp = tempfile::tempdir().unwrap();
        let id = STUDENTS[s.id];
        let body = spell(&s);
        let (check_code, out) = check(tmp.path(), &body);
        let path = tmp.path().join("alice.txt");
        let seed = SEED.to_string();
        let run = referee(&["exercise", "grade", "--seed", &seed, "--kind", KIND_ARG, "--format", "json", "--id", id,
            "--dir", path.to_str().unwrap()]);
        let report: RunReport = serde_json::from_slice(&run.stdout).unwrap();
        let cases = &report.submissions[0].cases;
        let mut all_read = true;
        for v in variants(id) {
            for part in &v.parts {
                let case = cases.iter().find(|c| c.name == case_name(&v, part)).unwrap();
                let graded = match case.status {
                    Status::Passed => Some(part.expected.show()),
                    _ => case.difference.as_ref().and_then(|d| d.actual.clone()),
                };
                let head = format!("[{}] {} (", v.kind.name(), part.spec.key);
                let read = out.lines().find(|l| l.starts_with(&head)).and_then(|l| l.split_once("): reads as "))
                    .map(|(_, r)| r.to_string());
                all_read &= read.is_some();
                prop_assert_eq!(read.is_some(), graded.is_some(), "{}: check {:?}, grade {:?} ({})\n{}", head,
                    read, graded, case.detail, out);
                if let (Some(read), Some(graded)) = (read, graded) {
                    let resolved = parse(part.spec.form, &read).and_then(|a| resolve(a, &part.vocabulary, part.what));
                    prop_assert_eq!(resolved.map(|a| a.show()), Ok(graded), "{}", out);
                }
            }
        }
        if check_code == Some(0) {
            prop_assert!(all_read, "check said ready: {}", out);
        }
    }
}
