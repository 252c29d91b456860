//! Issue 33, what was left of items 2 and 3: no hand-in of a class is absent from the gradebook or marked 0 for
//! what it is not. A written-problems hand-in with no answer file (a folder, a zip, an unreadable zip) is not
//! graded, with the reason; a loose file in a program suite's or a game's class folder gets a row, not graded,
//! saying what to hand in instead; the operating systems' own files are no hand-ins. Also item 3's
//! `--show-after-due-date` for the feedback files a class run writes.

use std::fs;
use std::io::Write as _;
use std::path::Path;

use proptest::prelude::*;
use referee::exercise::{variant, Kind};
use referee::harness::model::SubmissionResult;

use crate::exercise_students::answer_file;
use crate::referee::fixture;

const PYTHON: &str = "/usr/bin/python3";

fn referee(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("referee").unwrap().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn results(out: &Path) -> Vec<SubmissionResult> {
    crate::html_report::load_results(out)
}

/// The gradebook's rows (after the header), each as its cells.
fn gradebook(out: &Path) -> Vec<Vec<String>> {
    let csv = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    csv.lines().skip(1).map(|l| l.split(',').map(String::from).collect()).collect()
}

/// What a written-problems hand-in holds.
#[derive(Clone, Debug)]
enum Written {
    /// A folder with the right answers.
    Answered,
    /// A folder with these files, none an answer file.
    FolderWithout(Vec<(String, Vec<u8>)>),
    /// A zip with these files, none an answer file.
    ZipWithout(Vec<(String, Vec<u8>)>),
    /// Bytes named `.zip` that are no zip.
    BrokenZip(Vec<u8>),
}

/// Files that are no answer file: any name, contents without a `[section]` line.
fn no_answer_files() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    let name = prop_oneof![
        Just("hw2.pdf".to_string()),
        Just("notes.txt".to_string()),
        Just("answers.txt".to_string()),
        "[a-z]{1,8}\\.(txt|md|py|docx)",
    ];
    let body = prop_oneof![
        Just(Vec::new()),
        Just(b"%PDF-1.4 not text".to_vec()),
        "[a-z =0-9\n]{0,60}".prop_map(String::into_bytes),
        proptest::collection::vec(any::<u8>(), 0..64).prop_filter("no [", |b| !b.contains(&b'[')),
    ];
    proptest::collection::vec((name, body), 0..3).prop_map(|mut files| {
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files.dedup_by(|a, b| a.0 == b.0);
        files
    })
}

fn written() -> impl Strategy<Value = Written> {
    prop_oneof![
        Just(Written::Answered),
        no_answer_files().prop_map(Written::FolderWithout),
        no_answer_files().prop_map(Written::ZipWithout),
        proptest::collection::vec(any::<u8>(), 0..80).prop_map(Written::BrokenZip),
    ]
}

fn write_handin(class: &Path, id: &str, handin: &Written) {
    let kinds = [Kind::Alphabeta];
    match handin {
        Written::Answered => {
            let vs: Vec<_> = kinds.iter().map(|&k| variant(7, id, k)).collect();
            fs::create_dir_all(class.join(id)).unwrap();
            fs::write(class.join(id).join("answers.txt"), answer_file(id, &vs, &[], &[])).unwrap();
        }
        Written::FolderWithout(files) => {
            fs::create_dir_all(class.join(id)).unwrap();
            for (name, body) in files {
                fs::write(class.join(id).join(name), body).unwrap();
            }
        }
        Written::ZipWithout(files) => {
            let mut zip = zip::ZipWriter::new(fs::File::create(class.join(format!("{id}.zip"))).unwrap());
            for (name, body) in files {
                zip.start_file(format!("{id}/{name}"), zip::write::SimpleFileOptions::default()).unwrap();
                zip.write_all(body).unwrap();
            }
            zip.finish().unwrap();
        }
        Written::BrokenZip(bytes) => fs::write(class.join(format!("{id}.zip")), bytes).unwrap(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Every hand-in has exactly one row; one without an answer file (or a zip that cannot be read) is not graded,
    /// with a reason that says what was looked for, never a score of 0; the run exits 1 when one is not graded.
    /// On main such a folder or zip was a graded 0 ("the build failed") in the gradebook and the feedback.
    #[test]
    fn a_written_hand_in_without_answers_is_not_graded_never_zero(
        handins in proptest::collection::vec(written(), 1..5)
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let (class, out) = (tmp.path().join("class"), tmp.path().join("out"));
        fs::create_dir_all(&class).unwrap();
        let ids: Vec<String> = (0..handins.len()).map(|i| format!("s{i}")).collect();
        for (id, h) in ids.iter().zip(&handins) {
            write_handin(&class, id, h);
        }
        let run = referee(&[
            "exercise", "grade", "--seed", "7", "--kind", "alphabeta", "--submissions", class.to_str().unwrap(),
            "--out", out.to_str().unwrap(),
        ]);
        let all_answered = handins.iter().all(|h| matches!(h, Written::Answered));
        prop_assert_eq!(run.status.code(), Some(if all_answered { 0 } else { 1 }), "{}", text(&run.stderr));
        let stored = results(&out);
        let rows = gradebook(&out);
        prop_assert_eq!(rows.len(), handins.len(), "one row per hand-in: {:?}", rows);
        for (id, h) in ids.iter().zip(&handins) {
            let r = stored.iter().find(|r| &r.id == id).unwrap();
            let row = rows.iter().find(|row| &row[0] == id).unwrap();
            let feedback = fs::read_to_string(out.join("feedback").join(format!("{id}.md"))).unwrap();
            match h {
                Written::Answered => {
                    prop_assert!(r.not_graded.is_none());
                    prop_assert_eq!(r.score, r.max_score);
                }
                _ => {
                    let why = r.not_graded.as_deref().unwrap_or("");
                    let named = why.contains("no answer file") && why.contains("answers.txt")
                        || why.contains("not a readable zip");
                    prop_assert!(named, "{}: {:?} {:?}", id, h, why);
                    prop_assert!(r.cases.is_empty(), "{:?}", r.cases);
                    // The gradebook's score cell is empty, never 0; the feedback says not graded.
                    prop_assert_eq!(row[1].as_str(), "", "{:?}", row);
                    prop_assert!(feedback.contains("not graded"), "{}", feedback);
                    prop_assert!(!feedback.contains(": 0 /"), "{}", feedback);
                }
            }
        }
    }
}

/// A class folder with `right` (a correct Take-Stones program), a loose `bob.py` and `notes.txt`, and the
/// operating systems' own files.
fn class_with_loose_files(class: &Path) {
    fs::create_dir_all(class.join("right")).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), class.join("right/takestones.py")).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), class.join("bob.py")).unwrap();
    fs::write(class.join("notes.txt"), "late: carol\n").unwrap();
    for junk in [".DS_Store", "Thumbs.db", "desktop.ini"] {
        fs::write(class.join(junk), b"\0\0").unwrap();
    }
    fs::create_dir_all(class.join("__MACOSX/right")).unwrap();
}

/// On main `grade --submissions` passed `bob.py` and `notes.txt` over in silence (exit 0, no row).
#[test]
fn a_loose_file_in_a_program_class_gets_a_not_graded_row_saying_what_to_hand_in() {
    let tmp = tempfile::tempdir().unwrap();
    let (class, out) = (tmp.path().join("class"), tmp.path().join("out"));
    class_with_loose_files(&class);
    let run = referee(&[
        "grade",
        "--suite",
        "builtin:takestones-stats-2019",
        "--cmd",
        &format!("{PYTHON} {{dir}}/takestones.py {{args}}"),
        "--submissions",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "a hand-in was not graded: {stdout}\n{}", text(&run.stderr));
    let rows = gradebook(&out);
    let ids: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(ids, ["bob", "notes", "right"], "one row per hand-in, none for the OS's files: {rows:?}");
    for r in results(&out) {
        if r.id == "right" {
            assert_eq!((r.score, r.not_graded.as_deref()), (r.max_score, None));
            continue;
        }
        let why = r.not_graded.clone().unwrap_or_default();
        assert!(why.contains("a loose file, not a hand-in") && why.contains("hand in a folder or a .zip"), "{why}");
        assert!(r.max_score.is_positive(), "the row shows what the assignment is worth");
        assert!(stdout.contains(&why), "the summary says why: {stdout}");
    }
    assert!(rows.iter().filter(|r| r[0] != "right").all(|r| r[1].is_empty()), "no score, never 0: {rows:?}");
    let bob = fs::read_to_string(out.join("feedback/bob.md")).unwrap();
    assert!(bob.contains("not graded") && bob.contains("bob/bob.py"), "{bob}");
}

/// The same for a game: `grade othello` gives the loose file a row without playing it (no Python runs here).
#[test]
fn a_loose_file_in_a_game_class_gets_a_not_graded_row() {
    let tmp = tempfile::tempdir().unwrap();
    let (class, out) = (tmp.path().join("class"), tmp.path().join("out"));
    fs::create_dir_all(&class).unwrap();
    fs::write(class.join("ab2101_ai.py"), "def select_move(board, color):\n    return 0, 0\n").unwrap();
    fs::write(class.join(".DS_Store"), b"\0").unwrap();
    let run = referee(&[
        "grade",
        "othello",
        "--size",
        "4",
        "--games",
        "1",
        "--python",
        PYTHON,
        "--points",
        "10",
        "--submissions",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1), "{}\n{}", text(&run.stdout), text(&run.stderr));
    let rows = gradebook(&out);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0][0].as_str(), rows[0][1].as_str(), rows[0][2].as_str()), ("ab2101_ai", "", "10"), "{rows:?}");
    let r = &results(&out)[0];
    assert!(r.not_graded.as_deref().is_some_and(|w| w.contains("ab2101_ai/ab2101_ai.py")), "{:?}", r.not_graded);
}

/// Item 3: a class run's feedback files show an after-due-date case only when the TA says so; on main they hid it
/// whatever `--show-after-due-date` said.
#[test]
fn class_feedback_shows_after_due_date_cases_only_when_the_ta_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    fs::create_dir_all(class.join("ann")).unwrap();
    fs::write(class.join("ann/takestones.py"), "print('hello from ann')\n").unwrap();
    let suite = tmp.path().join("suite.toml");
    fs::write(
        &suite,
        "[[case]]\nname = \"open\"\nargs = \"1\"\nexpected = \"open answer\\n\"\n\
         [[case]]\nname = \"later\"\nargs = \"2\"\nexpected = \"secret answer\\n\"\nvisibility = \"after-due-date\"\n",
    )
    .unwrap();
    let feedback = |extra: &[&str]| {
        let out = tmp.path().join(format!("out{}", extra.len()));
        let run = referee(
            &[
                &[
                    "grade",
                    "--suite",
                    suite.to_str().unwrap(),
                    "--cmd",
                    &format!("{PYTHON} {{dir}}/takestones.py {{args}}"),
                    "--submissions",
                    class.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                ][..],
                extra,
            ]
            .concat(),
        );
        assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
        let junit = fs::read_to_string(out.join("junit.xml")).unwrap();
        (fs::read_to_string(out.join("feedback/ann.md")).unwrap(), junit)
    };
    let (hidden, junit_hidden) = feedback(&[]);
    assert!(hidden.contains("open answer"), "{hidden}");
    assert!(!hidden.contains("secret answer"), "hidden by default: {hidden}");
    assert!(!junit_hidden.contains("secret answer"), "{junit_hidden}");
    let (shown, junit_shown) = feedback(&["--show-after-due-date"]);
    assert!(shown.contains("open answer") && shown.contains("secret answer"), "the TA said so: {shown}");
    assert!(junit_shown.contains("secret answer"), "{junit_shown}");
}
