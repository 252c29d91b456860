//! Issue 32, item 3: no hand-in can crash, stall or hide from the grader through the tree it hands in or makes.
//! One class mixes correct hand-ins with hostile ones (a case that makes a chain of 24,000 folders, a build that
//! nests 300 deep, a zip holding `a` and `a/b`, a folder holding the grader's old output marks, FIFOs, sockets,
//! links and closed files) and the run must end normally with one row per hand-in, full marks for every correct
//! program, each refusal named as the hand-in's, and nothing left in `--work`.

use std::fs;
use std::path::Path;

use referee::harness::model::{Status, SubmissionResult};

use crate::grade::{fixture, grade_python_class, python};
use crate::variants::{materialize, Change};

/// The results a class run stored, by id.
fn stored(out: &Path) -> std::collections::BTreeMap<String, SubmissionResult> {
    fs::read_dir(out.join("results"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_slice::<SubmissionResult>(&fs::read(e.unwrap().path()).unwrap()).unwrap())
        .map(|r| (r.id.clone(), r))
        .collect()
}

/// The correct program, with `prefix` run first (after its imports) and a `build.py` of `build`.
fn hand_in(into: &Path, prefix: &str, build: &str) {
    let to: &'static str = Box::leak(format!("import sys\n{prefix}\n").into_boxed_str());
    let changes: Vec<Change> = if prefix.is_empty() { Vec::new() } else { vec![("takestones.py", "import sys\n", to)] };
    materialize(&fixture("submissions/python-stats"), &changes, into);
    fs::write(into.join("build.py"), build).unwrap();
}

#[test]
fn hostile_trees_neither_crash_nor_hide_nor_blame_the_grader() {
    use std::os::unix::fs::PermissionsExt;
    // On a tmpfs where there is one (on this project's ext4 VM each `rmdir` of a 24,000-folder chain waits on the
    // journal: minutes, measuring the disk), open to the runs' uid as a class folder is.
    let shm = Path::new("/dev/shm");
    let work = if shm.is_dir() { tempfile::tempdir_in(shm).unwrap() } else { tempfile::tempdir().unwrap() };
    fs::set_permissions(work.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let class = work.path().join("class");
    let scratch = work.path().join("work");
    fs::create_dir_all(&scratch).unwrap();
    let ok = "pass\n";
    // Correct, plainly.
    hand_in(&class.join("alice-HW2-P3"), "", ok);
    // Correct, and every case leaves a chain of 24,000 folders in its copy (on main: the remover's stack
    // overflowed and the grader aborted). Built from the bottom up at the top of its copy: Landlock checks a path
    // from the folder up to the ruleset's root, so a mkdir at the chain's bottom costs its depth (24,000 of those
    // take minutes), while a new top folder and two renames cost the same at any depth.
    let chain = "import os\nos.mkdir('c')\nfor _ in range(24000):\n    os.mkdir('n')\n    os.rename('c', 'n/d')\n    os.rename('n', 'c')";
    hand_in(&class.join("deep-HW2-P3"), chain, ok);
    // Correct, holding every file that marked a folder as the grader's own (on main: skipped, no row, exit 0).
    let hider = class.join("hider-HW2-P3");
    hand_in(&hider, "", ok);
    fs::write(hider.join(".referee-out"), "").unwrap();
    fs::write(hider.join(".referee-owner"), "1 1\n").unwrap();
    fs::write(hider.join("gradebook.csv"), "id\n").unwrap();
    fs::create_dir_all(hider.join("results")).unwrap();
    // Correct, beside a FIFO, a socket, links of every kind and a closed file and folder.
    let odd = class.join("odd-HW2-P3");
    hand_in(&odd, "", ok);
    rustix::fs::mknodat(rustix::fs::CWD, odd.join("fifo"), rustix::fs::FileType::Fifo, rustix::fs::Mode::RUSR, 0)
        .unwrap();
    drop(std::os::unix::net::UnixListener::bind(odd.join("sock")).unwrap());
    std::os::unix::fs::symlink("/etc/passwd", odd.join("abs")).unwrap();
    std::os::unix::fs::symlink("..", odd.join("up")).unwrap();
    std::os::unix::fs::symlink("missing", odd.join("dangling")).unwrap();
    std::os::unix::fs::symlink("abs", odd.join("loop")).unwrap();
    fs::create_dir_all(odd.join("shut/inner")).unwrap();
    fs::write(odd.join("shut/inner/f"), "x").unwrap();
    fs::write(odd.join("closed.txt"), "x").unwrap();
    fs::set_permissions(odd.join("closed.txt"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::set_permissions(odd.join("shut"), fs::Permissions::from_mode(0o000)).unwrap();
    // A build that nests folders 300 deep (on main: "the grader could not take the built folder back", exit 3).
    let nest = "import os\nfor _ in range(300):\n    os.mkdir('n')\n    os.chdir('n')\n";
    hand_in(&class.join("nest-HW2-P3"), "", nest);
    // A zip holding `a` as a file and `a/b` (on main: "the grader could not read the hand-in", exit 3).
    let mut zip = zip::ZipWriter::new(fs::File::create(class.join("clash-HW2-P3.zip")).unwrap());
    for (name, bytes) in
        [("takestones.py", fs::read(class.join("alice-HW2-P3/takestones.py")).unwrap()), ("a", vec![]), ("a/b", vec![])]
    {
        zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut zip, &bytes).unwrap();
    }
    zip.finish().unwrap();

    let out = work.path().join("out");
    let build = format!("{} {{dir}}/build.py", python());
    let started = std::time::Instant::now();
    let output = grade_python_class(&class, &out, &["-j", "2", "--build", &build, "--work", scratch.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(matches!(output.status.code(), Some(0 | 1)), "exit {:?}\n{stdout}\n{stderr}", output.status);
    let results = stored(&out);
    let ids: Vec<&str> = results.keys().map(String::as_str).collect();
    assert_eq!(ids, ["alice", "clash", "deep", "hider", "nest", "odd"], "{stderr}");
    let gradebook = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert_eq!(gradebook.lines().count(), 1 + ids.len(), "{gradebook}");
    for id in ["alice", "deep", "hider", "odd"] {
        let r = &results[id];
        assert!(r.max_score.is_positive() && r.score == r.max_score, "{id}: {} of {}: {r:?}", r.score, r.max_score);
    }
    for (id, why) in [("clash", "both as a file and as a folder"), ("nest", "nests folders more than 128 deep")] {
        let r = &results[id];
        // Said where the student reads it: the unpacking's refusal as the build's message, the built tree's
        // refusal (its build itself ran) on every case.
        let build = r.build.as_ref().map_or("", |b| b.message.as_str());
        for said in std::iter::once(build).chain(r.cases.iter().map(|c| c.detail.as_str())) {
            assert!(!said.contains("grader"), "{id}: {said}");
        }
        let named = build.contains(why) || r.cases.iter().all(|c| c.detail.contains(why));
        assert!(named, "{id}: {build}: {r:?}");
        assert!(r.cases.iter().all(|c| c.status == Status::BuildError), "{id}: {r:?}");
    }
    let left: Vec<_> = fs::read_dir(&scratch).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "left in --work: {left:?}");
    eprintln!("class of 6 with hostile trees graded in {:?}", started.elapsed());
}
