//! `referee exercise` end to end through the real binary: sheets, templates and the key made for a roster (a pure
//! function of the seed and the id), a synthetic class of 31 students graded with every misconception named from
//! answers that the wrong methods' implementations computed, unreadable and hostile hand-ins, a wrong seed
//! reported as the TA's, resume, shards and merge, the form check, the HTML sheet in a browser, and a Gradescope
//! bundle grading the student `submission_metadata.json` names.

use std::fs;
use std::io::Write as _;
use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use referee::exercise::misconception::Misconception;
use referee::exercise::{file, variant, Kind, Variant};
use referee::harness::model::{Points, Status, SubmissionResult};
use referee::harness::render::csv;

use crate::exercise_students::{answer_file, answers, kind_of, ALL};

const SEED: u64 = 2024;
const KINDS: &str = "alphabeta,expectimax,mdp,csp,hillclimb";

fn referee(args: &[&str]) -> Output {
    Command::cargo_bin("referee").unwrap().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn variants(id: &str) -> Vec<Variant> {
    Kind::ALL.iter().map(|&k| variant(SEED, id, k)).collect()
}

fn make(out: &Path, ids: &str, seed: u64) -> Output {
    referee(&[
        "exercise",
        "make",
        "--kind",
        KINDS,
        "--ids",
        ids,
        "--seed",
        &seed.to_string(),
        "--out",
        out.to_str().unwrap(),
    ])
}

fn grade(class: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["exercise", "grade", "--seed", "2024", "--kind", KINDS];
    args.extend(["--submissions", class.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    args.extend(extra);
    referee(&args)
}

fn load(out: &Path) -> Vec<SubmissionResult> {
    crate::html_report::load_results(out)
}

fn write(path: &Path, contents: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

#[test]
fn make_writes_sheets_templates_and_a_key_each_a_pure_function_of_seed_and_id() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let roster = tmp.path().join("roster.csv");
    // A Canvas gradebook export: the id column is SIS Login ID, and "Points Possible" has none.
    write(&roster, "Student,ID,SIS User ID,SIS Login ID,Section\n    Points Possible,,,,\n\"Smith, Gina\",1,9,smithgina,S1\nBob,2,8,bob,S1\nCarol,3,7,carol,S1\n");
    let run = make(&one, roster.to_str().unwrap(), SEED);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(text(&run.stdout).contains("for 3 student(s) with seed 2024"), "{}", text(&run.stdout));
    for id in ["smithgina", "bob", "carol"] {
        let dir = one.join("students").join(id);
        let vs = variants(id);
        // The template is the library's for this student's variants: what grading makes again from the seed.
        assert_eq!(fs::read_to_string(dir.join("answers.txt")).unwrap(), file::template(id, &vs));
        let html = fs::read_to_string(dir.join("sheet.html")).unwrap();
        let md = fs::read_to_string(dir.join("sheet.md")).unwrap();
        for v in &vs {
            assert!(html.contains(&v.code) && md.contains(&v.code), "{id}: {}", v.code);
            for part in &v.parts {
                assert!(md.contains(&format!("`{} = ...`", part.spec.key)), "{id}: {}", part.spec.key);
            }
        }
        assert_eq!(html.matches("<svg").count(), 4, "trees, grid and graph drawn inline");
        assert!(
            !html.contains("<script")
                && !html.contains("http://")
                && !html.contains("https://")
                && !html.contains("<link")
        );
        assert!(html.contains("@media print"));
    }
    let key = fs::read_to_string(one.join("key.md")).unwrap();
    let csv = fs::read_to_string(one.join("key.csv")).unwrap();
    assert!(key.contains("seed 2024") && key.contains("## smithgina"));
    let parts: usize = variants("bob").iter().map(|v| v.parts.len()).sum();
    assert_eq!(csv.lines().count(), 1 + 3 * parts);
    // The sheets of one student made alone are the same bytes: any sheet can be made again.
    let run = make(&two, "carol", SEED);
    assert_eq!(run.status.code(), Some(0));
    for name in ["sheet.md", "sheet.html", "answers.txt"] {
        assert_eq!(
            fs::read(one.join("students/carol").join(name)).unwrap(),
            fs::read(two.join("students/carol").join(name)).unwrap()
        );
    }
    // Another seed, other problems.
    let other = variant(SEED + 1, "carol", Kind::Csp);
    assert_ne!(other.code, variant(SEED, "carol", Kind::Csp).code);
    assert_ne!(variant(SEED, "Carol", Kind::Csp).code, variant(SEED, "carl", Kind::Csp).code);
    assert_eq!(variant(SEED, " Carol ", Kind::Csp).code, variant(SEED, "carol", Kind::Csp).code, "ids ignore case");
}

#[test]
fn bad_rosters_and_arguments_are_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    for (ids, message) in
        [("alice,Alice", "are the same student"), ("nowhere/roster.csv", "no such file"), (",", "no ids")]
    {
        let run = make(&out, ids, 1);
        assert_eq!(run.status.code(), Some(2), "{ids}");
        let err = text(&run.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{ids}: {err}");
    }
    crate::util::assert_usage_error(
        &["exercise", "make", "--kind", "chess", "--ids", "a", "--seed", "1", "--out", "x"],
        "chess",
    );
    crate::util::assert_usage_error(&["exercise", "grade", "--kind", "csp", "--seed", "1"], "required");
    crate::util::assert_usage_error(
        &["exercise", "grade", "--kind", "csp", "--dir", "x", "--seed", "1"],
        "no such hand-in",
    );
}

/// Who is in the synthetic class and what they do.
struct Student {
    id: &'static str,
    methods: Vec<Misconception>,
    garbage: Vec<(Kind, &'static str, &'static str)>,
}

fn student(id: &'static str, methods: &[Misconception]) -> Student {
    Student { id, methods: methods.to_vec(), garbage: Vec::new() }
}

/// The answer files of a class of 31: right ones in every layout (folders, a zip, a loose file, a Canvas
/// name), two students per misconception, two with two misconceptions, one with unreadable answers, one with a
/// section left out, one with no answer file, and one whose answer file is a link to the grader's key.
fn class(dir: &Path, key: &Path) -> Vec<Student> {
    use Misconception::*;
    let names = [
        ["strict1", "strict2"],
        ["rtl1", "rtl2"],
        ["swap1", "swap2"],
        ["bound1", "bound2"],
        ["uniform1", "uniform2"],
        ["seidel1", "seidel2"],
        ["disc1", "disc2"],
        ["fc1", "fc2"],
        ["mrv1", "mrv2"],
        ["first1", "first2"],
    ];
    let mut students =
        vec![student("right1", &[]), student("right2", &[]), student("rightzip", &[]), student("rightloose", &[])];
    students.push(student("smithgina", &[]));
    for (m, ids) in ALL.iter().zip(names) {
        for id in ids {
            students.push(student(id, &[*m]));
        }
    }
    students.push(student("double1", &[StrictPruning, GaussSeidel]));
    students.push(student("double2", &[IgnoresProbabilities, FirstImprovement]));
    students.push(Student {
        id: "garbage",
        methods: Vec::new(),
        garbage: vec![
            (Kind::Alphabeta, "window", "alpha 3 beta 5"),
            (Kind::Alphabeta, "pruned", "q, zz9"),
            (Kind::Mdp, "vk", "A = 1/0"),
            (Kind::Csp, "domains", "B = 1, 2"),
            (Kind::Hillclimb, "climb", "A-B-C-D-E"),
        ],
    });
    for s in &students {
        let body = answer_file(s.id, &variants(s.id), &s.methods, &s.garbage);
        match s.id {
            "rightzip" => {
                let file = fs::File::create(dir.join("rightzip-HW2-P1.zip")).unwrap();
                let mut zip = zip::ZipWriter::new(file);
                zip.start_file("rightzip-HW2-P1/answers.txt", zip::write::SimpleFileOptions::default()).unwrap();
                zip.write_all(body.as_bytes()).unwrap();
                zip.finish().unwrap();
            }
            "rightloose" => write(&dir.join("rightloose.txt"), &body),
            "smithgina" => write(&dir.join("smithgina_12345_67890_answers-1.txt"), &body),
            id => write(&dir.join(format!("{id}-HW2-P1")).join("answers.txt"), &body),
        }
    }
    // No [csp] section, and one blank answer.
    let partial = answer_file("partial", &variants("partial"), &[], &[]);
    let cut = partial.find("[csp]").unwrap();
    let end = partial.find("[hillclimb]").unwrap();
    let partial =
        format!("{}{}", &partial[..cut], &partial[end..]).replacen("\nvalue = ", "\nvalue =   # not sure\n#", 1);
    write(&dir.join("partial/answers.txt"), &partial);
    students.push(student("partial", &[]));
    write(&dir.join("nofile/hw2-written.pdf"), "%PDF-1.4 not text");
    students.push(student("nofile", &[]));
    fs::create_dir_all(dir.join("sneaky")).unwrap();
    std::os::unix::fs::symlink(key, dir.join("sneaky/answers.txt")).unwrap();
    students.push(student("sneaky", &[]));
    students
}

#[test]
fn a_class_of_31_is_graded_with_each_misconception_named_from_its_wrong_method() {
    let tmp = tempfile::tempdir().unwrap();
    let (made, class_dir, out) = (tmp.path().join("made"), tmp.path().join("class"), tmp.path().join("out"));
    let students = class(&class_dir, &made.join("key.md"));
    let ids: Vec<&str> = students.iter().map(|s| s.id).collect();
    assert!(ids.len() >= 30);
    let run = make(&made, &ids.join(","), SEED);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    fs::write(class_dir.join("README.txt"), "grading notes\n").unwrap();

    let run = grade(&class_dir, &out, &["-j", "2"]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(1), "a student lost points\n{stdout}\n{stderr}");
    // Issue 33, item 2: a loose file that is no answer file gets a row too (not graded), never silently left out.
    assert!(stderr.contains("README.txt is no answer file"), "{stderr}");
    let mut results = load(&out);
    let readme = results.iter().position(|r| r.id == "README").unwrap();
    assert!(results.remove(readme).not_graded.is_some());
    assert_eq!(
        results.iter().map(|r| r.id.as_str()).collect::<std::collections::BTreeSet<_>>(),
        ids.iter().copied().collect()
    );
    // Kept for a look (and a browser): the class's report, gradebook, one feedback file and the summary.
    let keep = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exercise-class");
    fs::create_dir_all(&keep).unwrap();
    for file in ["report.html", "gradebook.csv", "feedback/double1.md"] {
        fs::copy(out.join(file), keep.join(file.replace('/', "-"))).unwrap();
    }
    fs::write(keep.join("grade-stdout.txt"), &stdout).unwrap();

    let mut named = std::collections::BTreeMap::new();
    for s in &students {
        let r = results.iter().find(|r| r.id == s.id).unwrap();
        if ["nofile", "sneaky"].contains(&s.id) {
            // Issue 33: a folder with no answer file is not graded (no score, the reason), never a 0.
            let why = r.not_graded.as_deref().unwrap_or_else(|| panic!("{}: graded {:?}", s.id, r.score));
            assert!(why.starts_with("no answer file: the hand-in holds") && why.contains("answers.txt"), "{why}");
            assert!(r.cases.is_empty(), "{}", s.id);
            continue;
        }
        let vs = variants(s.id);
        let cases: Vec<(&Variant, &str)> =
            vs.iter().flat_map(|v| v.parts.iter().map(move |p| (v, p.spec.key))).collect();
        assert_eq!(r.cases.len(), cases.len(), "{}", s.id);
        for (case, (v, key)) in r.cases.iter().zip(&cases) {
            let what = format!("{} {}: {} ({})", s.id, case.name, case.detail, case.stdout.text.trim());
            for cause in &case.causes {
                *named.entry(cause.name.clone()).or_insert(0) += 1;
            }
            match s.id {
                "partial" if v.kind == Kind::Csp => {
                    assert!(case.detail.starts_with("no answer: the file has no [csp] section"), "{what}");
                    continue;
                }
                "partial" if v.kind == Kind::Alphabeta && *key == "value" => {
                    assert!(case.detail.starts_with("no answer: 'value =' is blank"), "{what}");
                    continue;
                }
                _ => {}
            }
            if let Some((_, _, _)) = s.garbage.iter().find(|(k, gk, _)| *k == v.kind && gk == key) {
                assert_eq!((case.status, case.score), (Status::Failed, Points::ZERO), "{what}");
                assert!(
                    case.detail.starts_with(&format!("cannot read the answer to '{key}' (answers.txt line ")),
                    "{what}"
                );
                assert!(case.detail.contains("; expected "), "{what}");
                assert!(case.causes.is_empty(), "{what}");
                continue;
            }
            let method = s.methods.iter().copied().find(|m| kind_of(*m).contains(&v.kind));
            let affected = method.filter(|&m| answers(v, Some(m))[key] != answers(v, None)[key]);
            match affected {
                None => {
                    assert_eq!(case.status, Status::Passed, "{what}");
                    assert_eq!(case.score, case.max_score, "{what}");
                    assert!(case.causes.is_empty(), "{what}");
                }
                Some(m) => {
                    assert_eq!(case.status, Status::Failed, "{what}");
                    assert!(case.score < case.max_score, "{what}");
                    assert!(case.causes.iter().any(|c| c.name == m.name()), "{what}: {:?}", case.causes);
                    assert!(case.causes.iter().all(|c| !c.evidence.is_empty()));
                    // Two methods that give the same answer are both named, and the case says it cannot tell.
                    assert_eq!(case.causes.len() > 1, case.detail.contains("does not show which one"), "{what}");
                }
            }
        }
    }
    for m in ALL {
        assert!(named.get(m.name()).copied().unwrap_or(0) >= 2, "{} named for both its students: {named:?}", m.name());
    }
    let right = results.iter().filter(|r| r.score == r.max_score).count();
    assert_eq!(right, 5, "the five right students, whatever their layout");
    // The sneaky student's link to the grader's key was never followed into their feedback.
    let feedback = fs::read_to_string(out.join("feedback/sneaky.md")).unwrap();
    assert!(!feedback.contains("Keep this file"), "{feedback}");
    let report = fs::read_to_string(out.join("report.html")).unwrap();
    for m in ALL {
        assert!(report.contains(m.name()), "{} in report.html", m.name());
    }
    // One row per student and one for README.txt (not graded), after the header.
    assert_eq!(fs::read_to_string(out.join("gradebook.csv")).unwrap().lines().count(), 2 + students.len());
    assert!(stdout.contains("misconception(s) named"), "{stdout}");

    // Run again: everyone kept; change one answer file: only that student again.
    let again = grade(&class_dir, &out, &[]);
    assert!(
        // Every student and README.txt (a row of its own, not graded) kept.
        text(&again.stdout).starts_with(&format!("graded 0 student(s), {} already graded earlier", students.len() + 1)),
        "{}",
        text(&again.stdout)
    );
    let path = class_dir.join("strict1-HW2-P1/answers.txt");
    let fixed = answer_file("strict1", &variants("strict1"), &[], &[]);
    fs::write(&path, fixed).unwrap();
    let again = grade(&class_dir, &out, &[]);
    let again_out = text(&again.stdout);
    assert!(again_out.contains("re-graded 1 student whose hand-in changed since the last run: strict1"), "{again_out}");
    let strict1 = load(&out).into_iter().find(|r| r.id == "strict1").unwrap();
    assert_eq!(strict1.score, strict1.max_score);
}

#[test]
fn a_wrong_seed_is_reported_as_the_tas_mistake_not_the_students() {
    let tmp = tempfile::tempdir().unwrap();
    let (class_dir, out) = (tmp.path().join("class"), tmp.path().join("out"));
    write(&class_dir.join("alice/answers.txt"), &answer_file("alice", &variants("alice"), &[], &[]));
    let run = referee(&[
        "exercise",
        "grade",
        "--seed",
        "2025",
        "--kind",
        KINDS,
        "--submissions",
        class_dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    // Issue 33, item 2: "never marked wrong" means not graded, with the reason, and no score anywhere (main
    // showed `0 / 50` in the summary and the gradebook, and exited 3 as if the grader had failed).
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    let alice = &load(&out)[0];
    let reason = alice.not_graded.as_deref().unwrap_or_default();
    assert!(reason.contains("grade with the --seed the sheets were made with"), "{alice:?}");
    assert!(alice.cases.iter().all(|c| !c.score.is_positive() && c.status != Status::Failed), "{:?}", alice.cases);
    let line = stdout.lines().find(|l| l.trim_start().starts_with("alice")).unwrap();
    assert!(line.contains("not graded: ") && !line.contains(" 0 / "), "{stdout}");
    let book = csv::read(fs::File::open(out.join("gradebook.csv")).unwrap()).unwrap();
    let row = &book.rows[0];
    assert_eq!((row.id.as_str(), row.score), ("alice", None), "an empty score cell");
    assert_eq!(row.max_score, alice.max_score);
    assert!(row.max_score.is_positive());
    assert_eq!(Some(row.outcome.clone()), alice.outcome().reason());
    let report: serde_json::Value = serde_json::from_slice(&fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["submissions"][0]["score"], serde_json::Value::Null);
    assert!(!out.join("gradescope/alice/results.json").exists(), "no platform file holds a score for alice");
    let feedback = fs::read_to_string(out.join("feedback/alice.md")).unwrap();
    assert!(feedback.starts_with("# alice: not graded\n"), "{feedback}");
    // The single-hand-in terminal report says the same.
    let one = referee(&[
        "exercise",
        "grade",
        "--seed",
        "2025",
        "--kind",
        KINDS,
        "--dir",
        class_dir.join("alice").to_str().unwrap(),
        "--color",
        "never",
    ]);
    let said = text(&one.stdout);
    assert_eq!(one.status.code(), Some(1), "{said}");
    assert!(said.contains("score: not graded") && said.contains("not graded: "), "{said}");
    assert!(!said.contains("0 / 50"), "{said}");
    // Graded with the right seed, the same file has full marks.
    let run = referee(&[
        "exercise",
        "grade",
        "--seed",
        "2024",
        "--kind",
        KINDS,
        "--dir",
        class_dir.join("alice").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stdout));
}

#[test]
fn shards_merge_into_what_one_run_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let class_dir = tmp.path().join("class");
    for (i, id) in ["ann", "ben", "cat", "dan", "eve"].iter().enumerate() {
        let methods = if i % 2 == 0 { vec![] } else { vec![ALL[i]] };
        write(&class_dir.join(format!("{id}.txt")), &answer_file(id, &variants(id), &methods, &[]));
    }
    let whole = tmp.path().join("whole");
    assert_eq!(grade(&class_dir, &whole, &[]).status.code(), Some(1));
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = tmp.path().join(format!("shard-{k}"));
        // Shard 1 holds ann, cat and eve, all right (exit 0); shard 2 ben and dan, who lose points (exit 1).
        assert_eq!(grade(&class_dir, &part, &["--shard", &format!("{k}/2")]).status.code(), Some(k - 1));
        parts.push(part);
    }
    let merged = tmp.path().join("merged");
    let run =
        referee(&["merge", parts[0].to_str().unwrap(), parts[1].to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "merge keeps grade's exit code: {}", text(&run.stderr));
    for file in ["gradebook.csv", "report.json"] {
        assert_eq!(
            fs::read_to_string(whole.join(file)).unwrap(),
            fs::read_to_string(merged.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn check_reports_the_form_and_never_whether_an_answer_is_right() {
    let tmp = tempfile::tempdir().unwrap();
    let check = |body: &str| {
        let path = tmp.path().join("answers.txt");
        fs::write(&path, body).unwrap();
        referee(&["exercise", "check", "--kind", KINDS, "--answers", path.to_str().unwrap()])
    };
    let vs = variants("alice");
    let blank = check(&file::template("alice", &vs));
    assert_eq!(blank.status.code(), Some(1));
    let parts: usize = vs.iter().map(|v| v.parts.len()).sum();
    assert!(
        text(&blank.stdout).ends_with(&format!("0 of {parts} parts present and readable\n")),
        "{}",
        text(&blank.stdout)
    );
    assert!(text(&blank.stdout).contains("[alphabeta] pruned (answers.txt line "), "{}", text(&blank.stdout));
    let right = check(&answer_file("alice", &vs, &[], &[]));
    let wrong = check(&answer_file("alice", &vs, &ALL, &[]));
    assert_eq!(right.status.code(), Some(0), "{}", text(&right.stdout));
    // Each answer is printed as grading reads it; beyond that, the same words for right and wrong answers.
    let verdict =
        |o: &Output| text(&o.stdout).lines().filter(|l| !l.contains("): reads as ")).collect::<Vec<_>>().join("\n");
    assert!(text(&right.stdout).contains("): reads as "), "{}", text(&right.stdout));
    assert_eq!(
        (right.status.code(), verdict(&right)),
        (wrong.status.code(), verdict(&wrong)),
        "the same words for right and wrong answers"
    );
    let garbage = check(&answer_file("alice", &vs, &[], &[(Kind::Mdp, "vk", "B = 1/0"), (Kind::Csp, "next", "B, C")]));
    assert_eq!(garbage.status.code(), Some(1));
    let out = text(&garbage.stdout);
    assert!(out.contains("[mdp] vk (answers.txt line ") && out.contains("divides by zero"), "{out}");
    assert!(out.contains("[csp] next (answers.txt line ") && out.contains("write one label"), "{out}");
    let missing =
        referee(&["exercise", "check", "--kind", "csp", "--answers", tmp.path().join("none.txt").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn the_html_sheet_loads_in_a_browser_with_its_figures() {
    let tmp = tempfile::tempdir().unwrap();
    let made = tmp.path().join("made");
    assert_eq!(make(&made, "alice", SEED).status.code(), Some(0));
    let page = made.join("students/alice/sheet.html");
    let Some(dom) = crate::html_report::browser_dom(&page, "exercise-sheet") else { return };
    let vs = variants("alice");
    assert_eq!(dom.matches("<svg").count(), 4, "every figure is in the page");
    for v in &vs {
        assert!(dom.contains(&format!("id=\"{}\"", v.kind.name())), "{}", v.kind.name());
        for part in &v.parts {
            assert!(dom.contains(&format!("<code>{} = ...</code>", part.spec.key)));
        }
    }
    let tree = referee::keys::tree::notation::parse(&vs[0].input).unwrap();
    for id in 0..tree.len() {
        assert!(dom.contains(&format!(">{}</text>", tree.name(id))), "node {} drawn", tree.name(id));
    }
}

fn metadata(root: &Path, users: &str) {
    fs::write(root.join("submission_metadata.json"), format!("{{\"id\": 1, \"users\": {users}}}")).unwrap();
}

#[test]
fn a_gradescope_bundle_grades_the_student_the_metadata_names() {
    let tmp = tempfile::tempdir().unwrap();
    let zip = crate::gradescope::bundle_with(
        tmp.path(),
        "exercise",
        &["--id-field", "email-login"],
        &["exercise", "--seed", "2024", "--kind", "alphabeta,csp"],
    );
    let kinds = [Kind::Alphabeta, Kind::Csp];
    let run_for = |email: &str, methods: &[Misconception]| {
        let root = tempfile::tempdir().unwrap();
        crate::gradescope::install(&zip, root.path());
        let vs: Vec<Variant> = kinds.iter().map(|&k| variant(SEED, "alice", k)).collect();
        fs::write(root.path().join("submission/answers.txt"), answer_file("alice", &vs, methods, &[])).unwrap();
        metadata(root.path(), &format!("[{{\"email\": \"{email}\", \"id\": 7, \"name\": \"Alice\"}}]"));
        (crate::gradescope::run_autograder(root.path()), vs)
    };
    let (right, vs) = run_for("alice@wisc.edu", &[]);
    let parts: usize = vs.iter().map(|v| v.parts.len()).sum();
    assert_eq!(right["tests"].as_array().unwrap().len(), parts);
    assert_eq!(right["score"].as_f64(), Some(20.0), "{right}");
    assert_eq!(right["visibility"], "after_published", "the feedback holds the right answers: hidden until published");
    let (wrong, _) = run_for("alice@wisc.edu", &[Misconception::MrvTiesAlphabetical]);
    let output: Vec<&str> = wrong["tests"].as_array().unwrap().iter().map(|t| t["output"].as_str().unwrap()).collect();
    assert!(output.iter().any(|o| o.contains("mrv-ties-alphabetical")), "{output:?}");
    // Someone else's answers under alice's sheet: bob's variant line does not match, so nothing is taken from him.
    // Issue 33, item 2: not graded, so no results.json and no score (main wrote "score": 0.0); exit 1.
    let root = tempfile::tempdir().unwrap();
    crate::gradescope::install(&zip, root.path());
    let vs: Vec<Variant> = kinds.iter().map(|&k| variant(SEED, "alice", k)).collect();
    fs::write(root.path().join("submission/answers.txt"), answer_file("alice", &vs, &[], &[])).unwrap();
    metadata(root.path(), "[{\"email\": \"bob@wisc.edu\", \"id\": 8, \"name\": \"Bob\"}]");
    let (code, said) = crate::gradescope::run_autograder_unscored(root.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("not graded") && said.contains("variant"), "{said}");
    // No users in the metadata: the autograder cannot tell who it is; no score, never a crash.
    let root = tempfile::tempdir().unwrap();
    crate::gradescope::install(&zip, root.path());
    metadata(root.path(), "[]");
    let (code, said) = crate::gradescope::run_autograder_unscored(root.path());
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("cannot tell which student this is"), "{said}");
}

/// The hand-ins the written-problems guide grades (`tests/fixtures/exercise/hand-ins`, seed 48151, ids of
/// `roster.csv`): what the synthetic students write, so the guide's output follows from real methods. With
/// `REFEREE_WRITE_FIXTURES=1` the test writes them instead (after a generator change).
#[test]
fn the_guides_hand_ins_are_what_the_synthetic_students_write() {
    use Misconception::*;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exercise/hand-ins");
    let of = |id: &str| Kind::ALL.iter().map(|&k| variant(48151, id, k)).collect::<Vec<_>>();
    let files = [
        ("lee7.txt", answer_file("lee7", &of("lee7"), &[], &[])),
        ("jnunez-HW2-P1/answers.txt", answer_file("jnunez", &of("jnunez"), &[StrictPruning, GaussSeidel], &[])),
        (
            "gsmith_104_5551_answers.txt",
            answer_file("gsmith", &of("gsmith"), &[MrvTiesAlphabetical], &[(Kind::Hillclimb, "length", "twelve")]),
        ),
    ];
    let write = std::env::var_os("REFEREE_WRITE_FIXTURES").is_some();
    for (name, body) in files {
        let path = dir.join(name);
        if write {
            self::write(&path, &body);
        }
        assert_eq!(
            fs::read_to_string(&path).unwrap_or_default(),
            body,
            "{name} is stale: REFEREE_WRITE_FIXTURES=1 cargo test --test it exercise::the_guides_hand_ins"
        );
    }
}

#[test]
fn a_gradescope_bundle_takes_the_id_field_written_after_exercise_and_refuses_unknown_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let zip = tmp.path().join("written.zip");
    let zip_arg = zip.to_str().unwrap();
    // As the issue writes it: no `--`, and --id-field among the exercise's arguments.
    let run = referee(&[
        "gradescope",
        "bundle",
        "--out",
        zip_arg,
        "exercise",
        "--seed",
        "2024",
        "--kind",
        "csp",
        "--id-field",
        "sid",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let root = tempfile::tempdir().unwrap();
    crate::gradescope::install(&zip, root.path());
    let vs = [variant(SEED, "9071234567", Kind::Csp)];
    fs::write(root.path().join("submission/answers.txt"), answer_file("9071234567", &vs, &[], &[])).unwrap();
    // The email names someone else: only the sid decides whose variant is graded.
    metadata(root.path(), "[{\"email\": \"bob@wisc.edu\", \"sid\": \"9071234567\", \"name\": \"Alice\"}]");
    let result = crate::gradescope::run_autograder(root.path());
    assert_eq!(result["score"].as_f64(), Some(10.0), "{result}");

    for (args, says) in [
        (vec!["exercise", "--seed", "1", "--kind", "csp", "--id-field", "login"], "--id-field login: expected"),
        (vec!["exercise", "--seed", "1", "--kind", "csp", "--id-field"], "--id-field: expected a value"),
        (vec!["exercise", "--seed", "1", "--kind", "csp", "--id", "alice"], "--id: the autograder takes"),
    ] {
        let mut argv = vec!["gradescope", "bundle", "--out", zip_arg];
        argv.extend(args);
        let run = referee(&argv);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says) && stderr.lines().count() == 1, "{stderr}");
    }
    let run = referee(&[
        "gradescope",
        "bundle",
        "--out",
        zip_arg,
        "--id-field",
        "sid",
        "--",
        "--suite",
        "builtin:takestones-stats-2019",
        "--cmd",
        "true",
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("only an `exercise` bundle"), "{}", text(&run.stderr));
}

/// Issue 33, item 2: an empty, garbage or oversized loose answer file in `--submissions` is a hand-in without a
/// score: a row in the gradebook (empty score cell, the reason) and a nonzero exit, never skipped with exit 0 (as
/// on main, which printed one stderr line and left it out).
#[test]
fn loose_files_that_are_no_answer_files_get_a_row_not_graded_and_the_exit_code_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let (class_dir, out) = (tmp.path().join("class"), tmp.path().join("out"));
    write(&class_dir.join("alice.txt"), &answer_file("alice", &variants("alice"), &[], &[]));
    write(&class_dir.join("empty.txt"), "");
    fs::write(class_dir.join("garbage.txt"), [0xffu8, 0x00, 0xfe, b'\n', 0x1b, b'[', b'2', b'J']).unwrap();
    write(&class_dir.join("huge.txt"), &format!("[alphabeta]\n{}", "x".repeat((1 << 20) + 10)));
    let run = grade(&class_dir, &out, &[]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    // alice has full marks: only the three loose files keep the run from exit 0.
    assert_eq!(run.status.code(), Some(1), "{stdout}\n{stderr}");
    let book = csv::read(fs::File::open(out.join("gradebook.csv")).unwrap()).unwrap();
    let ids: Vec<&str> = book.rows.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["alice", "empty", "garbage", "huge"], "{stdout}");
    let alice = &book.rows[0];
    assert_eq!(alice.score, Some(alice.max_score));
    assert_eq!(alice.outcome, "graded");
    let results = load(&out);
    for row in &book.rows[1..] {
        assert_eq!(row.score, None, "{}: an empty score cell, never 0", row.id);
        let result = results.iter().find(|r| r.id == row.id).unwrap();
        assert_eq!(Some(row.outcome.clone()), result.outcome().reason(), "{}", row.id);
        assert!(row.outcome.starts_with("not graded: "), "{}: {}", row.id, row.outcome);
        let line = stdout.lines().find(|l| l.trim_start().starts_with(row.id.as_str())).unwrap();
        assert!(line.contains("not graded: "), "{line}");
    }
    assert!(book.rows[3].outcome.contains("larger than 1 MiB"), "{}", book.rows[3].outcome);
    // Graded alone, alice's class exits 0: the exit code above is the loose files'.
    let alone = tmp.path().join("alone");
    write(&alone.join("alice.txt"), &answer_file("alice", &variants("alice"), &[], &[]));
    assert_eq!(grade(&alone, &tmp.path().join("out2"), &[]).status.code(), Some(0));
}
