//! What a student's program can do to the files a grading run writes, and what of the grader a student sees,
//! through the real `referee grade` and `referee gradescope run`:
//!
//! - a program that floods stdout and stderr grows no file past a fixed excerpt per stream and case (issue 23,
//!   item 7: two flooders in 22 students made report.json 337 MB);
//! - compiler messages and tracebacks name the student's files relative to the hand-in, never the grader's
//!   scratch folder, and the sandbox layers stay out of student feedback (item 8);
//! - when grading stops, Gradescope's "could not grade" text is the line that says why, not a warning before it;
//! - `grade othello|mancala --show` keeps the reference's answers out of every file the student sees.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use referee::harness::model::{RunReport, Status, SubmissionResult, EXCERPT_BYTES};

use crate::grade::{fixture, grade, python};
use crate::variants::materialize;

/// A program that prints 6 MB on stdout and 3 MB on stderr, the error it ends with last, and exits 1.
const FLOODER: &str = "import sys\n\
    sys.stdout.write('x' * 6_000_000 + '\\n')\n\
    sys.stderr.write('debug line\\n' * 300_000)\n\
    sys.stderr.write('FINAL-ERROR-LINE\\n')\n\
    sys.exit(1)\n";

fn size(path: &Path) -> u64 {
    fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).len()
}

#[test]
fn a_flooding_program_grows_no_file_past_its_excerpt() {
    let class = tempfile::tempdir().unwrap();
    materialize(&fixture("submissions/python-stats"), &[], &class.path().join("alice-HW2-P3"));
    fs::create_dir_all(class.path().join("flo-HW2-P3")).unwrap();
    fs::write(class.path().join("flo-HW2-P3/takestones.py"), FLOODER).unwrap();
    fs::create_dir_all(class.path().join("hose-HW2-P3")).unwrap();
    fs::copy(fixture("hostile/output_flood.py"), class.path().join("hose-HW2-P3/takestones.py")).unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let out = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--submissions",
        class.path().to_str().unwrap(),
        "--out",
        out_dir.path().to_str().unwrap(),
        "--cmd",
        &cmd,
        "-j",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let o = out_dir.path();
    // Three students, three cases, two streams: at most 18 excerpts of 64 KiB, plus the JSON around them.
    assert!(size(&o.join("report.json")) < 1_500_000, "report.json is {} bytes", size(&o.join("report.json")));
    for id in ["flo", "hose"] {
        for file in [
            o.join(format!("results/{id}.json")),
            o.join(format!("feedback/{id}.md")),
            o.join(format!("gradescope/{id}/results.json")),
        ] {
            assert!(size(&file) < 600_000, "{} is {} bytes", file.display(), size(&file));
        }
    }
    assert!(size(&o.join("junit.xml")) < 1_500_000, "junit.xml is {} bytes", size(&o.join("junit.xml")));

    let flo: SubmissionResult = serde_json::from_slice(&fs::read(o.join("results/flo.json")).unwrap()).unwrap();
    for case in &flo.cases {
        assert_eq!(case.status, Status::NonzeroExit);
        // The size seen is kept, the text is an excerpt: the start of stdout, the end of stderr.
        assert_eq!(case.stdout.bytes, 6_000_001);
        assert!(case.stdout.text.len() <= EXCERPT_BYTES && case.stdout.omitted > 0);
        assert!(case.stderr.text.len() <= EXCERPT_BYTES && case.stderr.bytes > 3_000_000);
        assert!(case.stderr.text.ends_with("FINAL-ERROR-LINE\n"), "the error at the end of stderr was lost");
    }
    let hose: SubmissionResult = serde_json::from_slice(&fs::read(o.join("results/hose.json")).unwrap()).unwrap();
    assert!(hose.cases.iter().all(|c| c.status == Status::OutputLimit && c.stdout.text.len() <= EXCERPT_BYTES));
    let feedback = fs::read_to_string(o.join("feedback/flo.md")).unwrap();
    assert!(feedback.contains("FINAL-ERROR-LINE"), "{}", &feedback[..feedback.len().min(2000)]);
}

/// A Java hand-in whose `Helper.java` does not compile.
fn broken_java(into: &Path) {
    materialize(&fixture("submissions/java-stats"), &[], into);
    let helper = into.join("Helper.java");
    let text = fs::read_to_string(&helper).unwrap();
    fs::write(&helper, text.replacen('}', "} int broken = ;", 1)).unwrap();
}

#[test]
fn compiler_messages_name_the_students_files_not_the_graders_scratch() {
    let class = tempfile::tempdir().unwrap();
    broken_java(&class.path().join("carol-HW2-P3"));
    let out_dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let out = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--submissions",
        class.path().to_str().unwrap(),
        "--out",
        out_dir.path().to_str().unwrap(),
        "--work",
        work.path().to_str().unwrap(),
        "--shell",
        "--build",
        "javac -d {dir} {dir}/*.java",
        "--cmd",
        "java -cp {dir} TakeStones {args}",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let scratch = work.path().to_str().unwrap();
    for file in ["feedback/carol.md", "gradescope/carol/results.json", "results/carol.json", "report.json"] {
        let text = fs::read_to_string(out_dir.path().join(file)).unwrap();
        assert!(!text.contains(scratch) && !text.contains("/submission/"), "{file} shows the scratch path:\n{text}");
        assert!(text.contains("Helper.java:"), "{file} lost the compiler's file and line:\n{text}");
    }
    for file in ["feedback/carol.md", "gradescope/carol/results.json"] {
        let text = fs::read_to_string(out_dir.path().join(file)).unwrap();
        assert!(!text.contains("Sandbox:") && !text.contains("landlock"), "{file} shows the sandbox:\n{text}");
    }
}

#[test]
fn a_traceback_names_the_students_file_relative_to_the_hand_in() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("takestones.py"), "import sys\n\nraise ValueError('boom')\n").unwrap();
    let work = tempfile::tempdir().unwrap();
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let out = grade(&[
        "--suite",
        "builtin:takestones-stats-2019",
        "--dir",
        dir.path().to_str().unwrap(),
        "--work",
        work.path().to_str().unwrap(),
        "--cmd",
        &cmd,
        "--format",
        "json",
    ]);
    let report: RunReport = serde_json::from_slice(&out.stdout).unwrap();
    let case = &report.submissions[0].cases[0];
    assert_eq!(case.status, Status::NonzeroExit);
    assert!(case.stderr.text.contains("File \"takestones.py\", line 3"), "{}", case.stderr.text);
    assert!(!case.stderr.text.contains(work.path().to_str().unwrap()), "{}", case.stderr.text);
}

#[test]
fn could_not_grade_quotes_the_line_that_says_why_not_a_warning() {
    use referee::app::gradescope::autograde::problem_line;
    let log = "referee grade othello: warning: sandbox without cgroup: no delegated cgroup (see `referee sandbox`; \
               --sandbox require refuses to grade without them)\n\
               referee grade othello: note: 'python3' is /root/.pyenv/shims/python3 for you\n\
               referee grade othello: --size 7: board size 7 is not supported\n";
    let line = problem_line(2, log);
    assert!(line.ends_with("referee grade othello: --size 7: board size 7 is not supported"), "{line}");
    assert!(problem_line(3, "referee grade: warning: only this\n").contains("warning: only this"));
    assert!(problem_line(3, "").contains("no message"));

    // And through the real `gradescope run`, with a configuration an older bundle could hold.
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("source")).unwrap();
    fs::create_dir_all(root.path().join("submission")).unwrap();
    fs::write(root.path().join("submission/agent.py"), "x = 1\n").unwrap();
    let config = serde_json::json!({
        "schema": 1, "kind": "othello", "grade": ["othello", "--size", "7"],
        "stdout_visibility": "hidden", "referee": "test",
    });
    fs::write(root.path().join("source/config.json"), config.to_string()).unwrap();
    let out = Command::cargo_bin("referee")
        .unwrap()
        .args(["gradescope", "run", "--root", root.path().to_str().unwrap()])
        .output()
        .unwrap();
    // Issue 33, item 2: the grader's failure writes no results.json (Gradescope records no score, never a 0) and
    // exits 3; the line that says why is the autograder output the staff see.
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!root.path().join("results/results.json").exists());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("board size 7"), "{text}");
    assert!(!text.contains("warning:"), "{text}");
}

/// The student-facing files a game grader writes for `id`, by name: feedback, Gradescope, the class's JUnit.
fn game_student_files(out: &Path, id: &str) -> Vec<(String, String)> {
    [format!("feedback/{id}.md"), format!("gradescope/{id}/results.json"), "junit.xml".to_string()]
        .into_iter()
        .map(|file| {
            let text = fs::read_to_string(out.join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            (file, text)
        })
        .collect()
}

fn stored(out: &Path, id: &str) -> SubmissionResult {
    serde_json::from_slice(&fs::read(out.join(format!("results/{id}.json"))).unwrap()).unwrap()
}

/// `referee grade GAME` on `class` into `out` with `extra` options; asserts it graded (exit 0 or 1).
fn grade_game(game: &str, class: &Path, out: &Path, extra: &[&str]) -> String {
    let run = Command::cargo_bin("referee")
        .unwrap()
        .args(["grade", game])
        .args(extra)
        .arg("--submissions")
        .arg(class)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    // 0 when the student passed every part, 1 otherwise (issue 33, item 6): the gradebook says which.
    let gradebook = fs::read_to_string(out.join("gradebook.csv")).unwrap_or_default();
    let everyone_full = gradebook.lines().skip(1).all(|row| {
        let cells: Vec<&str> = row.split(',').collect();
        cells.len() > 2 && cells[1] == cells[2]
    });
    assert_eq!(run.status.code(), Some(if everyone_full { 0 } else { 1 }), "{stdout}\n{stderr}\n{gradebook}");
    stdout.into_owned()
}

/// Issue 26, item 3, for `grade othello`: a module whose minimax keeps the last of equal moves fails the
/// conformance check, and each failing function's case shows its first failing call, with the reference's answer
/// as the expected output. Under `--show actual-only` and `--show none` that answer is in no file the student
/// sees (feedback, Gradescope, JUnit), only in the TA's; `actual-only` still shows the student's own answer and
/// the call, `none` neither. Changing `--show` on the same `--out` grades again rather than keeping files that
/// show too much.
#[test]
fn othello_under_actual_only_and_none_never_shows_the_references_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let (class, out) = (tmp.path().join("class"), tmp.path().join("out"));
    let limit = fs::read_to_string(crate::referee::fixture("othello/modules/limit_ai.py")).unwrap();
    // The minimax node functions come first in the file: keep the last of equal moves there.
    let ties = limit.replacen("        if value < best_value:", "        if value <= best_value:", 1).replacen(
        "        if value > best_value:",
        "        if value >= best_value:",
        1,
    );
    assert_ne!(ties, limit);
    fs::create_dir_all(class.join("ts1234")).unwrap();
    fs::write(class.join("ts1234/ts1234_ai.py"), ties).unwrap();
    let options = |show: &'static str| {
        let mut o = vec!["othello", "--size", "4", "--time", "5", "--games", "1", "--seed", "5"];
        o.extend(["--check-share", "0.5", "--check-cases", "0", "--python", "/usr/bin/python3", "--show", show]);
        o
    };
    let othello = |show: &'static str| {
        let o = options(show);
        grade_game(o[0], &class, &out, &o[1..])
    };

    othello("full");
    let full = stored(&out, "ts1234");
    // The reference's answers: the expected side of every failing call shown, unless the student gave it too.
    let printed: Vec<&str> = full.cases.iter().flat_map(|c| c.stdout.text.lines()).collect();
    let secrets: Vec<String> = full
        .cases
        .iter()
        .filter_map(|c| c.difference.as_ref()?.expected.clone())
        .filter(|e| !printed.iter().any(|p| p.contains(e.as_str())))
        .collect();
    let answers: Vec<String> = full.cases.iter().filter_map(|c| c.difference.as_ref()?.actual.clone()).collect();
    assert!(!secrets.is_empty() && !answers.is_empty(), "no failing conformance call: {:#?}", full.cases);
    for (file, text) in game_student_files(&out, "ts1234") {
        assert!(secrets.iter().any(|s| text.contains(s.as_str())), "{file} under full hides the answer:\n{text}");
    }

    for show in ["actual-only", "none"] {
        let stdout = othello(show);
        assert!(stdout.contains("graded 1 student(s), 0 already graded earlier"), "{show} kept old files: {stdout}");
        let result = stored(&out, "ts1234");
        assert_eq!(result.score, full.score, "the setting changed the grade");
        for (file, text) in game_student_files(&out, "ts1234") {
            for secret in &secrets {
                assert!(!text.contains(secret.as_str()), "{file} under {show} shows '{secret}':\n{text}");
            }
            let own = answers.iter().any(|a| text.contains(a.as_str())) && text.contains("with board = ");
            assert_eq!(own, show == "actual-only", "{file} under {show}: the student's answer and call:\n{text}");
        }
        // The TA's files keep everything.
        let ta = fs::read_to_string(out.join("results/ts1234.json")).unwrap();
        assert!(secrets.iter().all(|s| ta.contains(s.as_str())), "results/ts1234.json lost the answer under {show}");
    }
}

/// Issue 26, item 3, for `grade mancala`: under `--show none` a game's case gives the student only its verdict: no
/// move of the game in any file the student sees, while the TA's result keeps them. (A game has no expected
/// output, so `actual-only` shows what `full` shows: the moves, as `render.rs` checks for any record.)
#[test]
fn mancala_under_none_shows_the_verdict_only() {
    if !crate::referee::have_java() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (class, out) = (tmp.path().join("class"), tmp.path().join("out"));
    crate::variants::mancala_player("quickPlayer", &class.join("good-HW3-P4"));
    let options = ["--stones", "2", "--time", "0.2", "--tolerance", "0.2", "--seed", "3", "--show", "none"];
    let stdout = grade_game("mancala", &class, &out, &options);
    assert!(stdout.contains("graded 1 student(s)"), "{stdout}");
    let result = stored(&out, "good");
    let games: Vec<_> = result.cases.iter().filter(|c| c.stdout.text.contains(" plays ")).collect();
    assert_eq!(games.len(), 4, "the TA's result lost the games: {:#?}", result.cases);
    let moves: Vec<&str> = games.iter().flat_map(|c| c.stdout.text.lines()).filter(|l| l.contains(" plays ")).collect();
    for (file, text) in game_student_files(&out, "good") {
        assert!(!text.contains(" plays "), "{file} under none shows a move:\n{text}");
        for m in &moves {
            assert!(!text.contains(m.trim()), "{file} under none shows '{m}':\n{text}");
        }
        assert!(text.contains("beats builtin:random"), "{file} lost the rubric:\n{text}");
    }
}
