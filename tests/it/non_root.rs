//! Grading as a TA's normal user instead of root: no per-student uids, every run has the grader's own uid, so the
//! file modes let a submission read the suite, write the shared folders and signal its neighbour, and only Landlock
//! (and the namespaces, where user namespaces are allowed) stop it. The real `referee` runs as `nobody` through
//! `setpriv`, which needs the test itself to run as root (CI does); elsewhere it is skipped with a message.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use referee::harness::model::{Status, SubmissionResult};
use referee::harness::runner::layers::LANDLOCK_FULL;

use crate::grade::{fixture, python};
use crate::sandbox::{parse_layers, student};

/// `nobody` on Debian.
const NOBODY: &str = "65534";

/// `program args` as `nobody` (no supplementary groups), with `home` as its `HOME` and `TMPDIR`.
fn as_nobody(home: &Path, program: &Path, args: &[&str]) -> Output {
    Command::new("setpriv")
        .args([&format!("--reuid={NOBODY}"), &format!("--regid={NOBODY}"), "--clear-groups"])
        .arg(program)
        .args(args)
        .env("HOME", home)
        .env("TMPDIR", home)
        .output()
        .unwrap()
}

/// The `referee` binary where `nobody` may run it: a link to it in `dir` (the build folder may sit under `/root`).
fn reachable_referee(dir: &Path) -> PathBuf {
    let built = assert_cmd::cargo::cargo_bin("referee");
    let exe = dir.join("referee");
    if fs::hard_link(&built, &exe).is_err() {
        fs::copy(&built, &exe).unwrap();
    }
    exe
}

#[test]
fn a_class_graded_by_a_normal_user_is_still_contained() {
    if !referee::harness::runner::sandbox::is_root() {
        eprintln!("SKIPPED grading as a normal user: the test becomes nobody with setpriv, which needs root");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    let home = root.join("home");
    fs::create_dir_all(&home).unwrap();
    let exe = reachable_referee(root);
    // The course's official suite (testcase.txt and its expected outputs), copied where nobody owns it.
    let suite = root.join("suite");
    fs::create_dir_all(&suite).unwrap();
    let official = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones/stats-2019");
    for entry in fs::read_dir(official).unwrap().flatten() {
        fs::copy(entry.path(), suite.join(entry.file_name())).unwrap();
    }
    let class = root.join("class");
    let tag = format!("referee-non-root-test-{}", std::process::id());
    student(&class, "cheat", "read_expected", &[("@SUITE@", suite.to_str().unwrap())]);
    let good = class.join("good");
    fs::create_dir_all(&good).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), good.join("takestones.py")).unwrap();
    student(&class, "writer", "write_shared", &[("@TAG@", &tag), ("@GRADER_HOME@", home.to_str().unwrap())]);
    // A second class on a one-case suite, so the neighbour's 3 s of trying run once, beside its victim (-j 2).
    let pair = root.join("pair");
    student(&pair, "a-neighbour", "neighbour", &[("@CLASS@", root.to_str().unwrap())]);
    let victim = pair.join("b-victim");
    fs::create_dir_all(&victim).unwrap();
    fs::copy(fixture("hostile/slow_correct.py"), victim.join("takestones.py")).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), victim.join("real.py")).unwrap();
    let one_case = root.join("one-case.toml");
    fs::write(
        &one_case,
        "[reference]\ngame = \"takestones\"\n[[case]]\nname = \"small\"\nargs = \"3 0 0\"\nreference = true\n",
    )
    .unwrap();
    // Everything belongs to nobody, as a TA's files belong to the TA: the file modes refuse a submission nothing.
    let chown = Command::new("chown").args(["-R", &format!("{NOBODY}:{NOBODY}")]).arg(root).status().unwrap();
    assert!(chown.success());

    let report = as_nobody(&home, &exe, &["sandbox"]);
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    let layers = parse_layers(&String::from_utf8_lossy(&report.stdout));
    let layer = |name: &str| layers.iter().find(|(n, _, _)| n == name).unwrap_or_else(|| panic!("no {name} line"));
    let (_, user_on, user) = layer("user");
    assert!(!user_on && user.contains("not root"), "user: {user}");
    let (_, landlock_on, landlock) = layer("landlock");
    if !landlock_on {
        assert!(std::env::var_os("REFEREE_REQUIRE_SANDBOX").is_none(), "landlock not in force: {landlock}");
        eprintln!("SKIPPED grading as a normal user: Landlock is not in force here ({landlock})");
        return;
    }
    // The namespaces need user namespaces for nobody: the report must say what unshare(1) finds.
    let userns = as_nobody(&home, Path::new("unshare"), &["--user", "--net", "--pid", "--fork", "true"]);
    for name in ["network", "pid"] {
        let (_, on, detail) = layer(name);
        assert_eq!(*on, userns.status.success(), "{name}: {detail}; unshare as nobody: {:?}", userns.status);
    }

    let grade = |suite: &Path, class: &Path| -> Vec<SubmissionResult> {
        let out = class.with_extension("out");
        let output = as_nobody(
            &home,
            &exe,
            &[
                "grade",
                "--suite",
                suite.to_str().unwrap(),
                "--submissions",
                class.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--cmd",
                &format!("{} {{dir}}/takestones.py {{args}}", python()),
                "-j",
                "2",
                "--timeout",
                "8s",
                "--color",
                "never",
            ],
        );
        assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
        let mut results: Vec<SubmissionResult> = fs::read_dir(out.join("results"))
            .unwrap()
            .flatten()
            .map(|e| serde_json::from_slice(&fs::read(e.path()).unwrap()).unwrap())
            .collect();
        results.sort_by(|a, b| a.id.cmp(&b.id));
        results
    };
    let results = grade(&suite, &class);
    let paired = grade(&one_case, &pair);
    let ids: Vec<&str> = results.iter().chain(&paired).map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["cheat", "good", "writer", "a-neighbour", "b-victim"]);
    let [cheat, good, writer] = &results[..] else { unreachable!() };
    let [neighbour, victim] = &paired[..] else { unreachable!() };
    // Every run had exactly the layers the report says are in force.
    let in_force: Vec<&str> =
        referee::harness::runner::layers::Layers::NAMES.into_iter().filter(|n| layer(n).1).collect();
    for result in results.iter().chain(&paired) {
        assert_eq!(result.sandbox, in_force, "{}", result.id);
    }

    assert!(!good.cases.is_empty());
    for case in &good.cases {
        assert_eq!(case.status, Status::Passed, "{}: {}", case.name, case.detail);
    }
    for case in &cheat.cases {
        assert_eq!(case.status, Status::Failed, "{}: {}", case.name, case.stdout.text);
        let text = &case.stdout.text;
        assert!(text.starts_with("suite read denied:"), "{text}");
        assert!(text.contains("Permission denied") || text.contains("No such file"), "{text}");
    }
    let places = [Path::new("/tmp"), Path::new("/dev/shm"), Path::new("/var/tmp"), &home].map(|p| p.join(&tag));
    let left: Vec<&PathBuf> = places.iter().filter(|p| p.exists()).collect();
    for p in &left {
        let _ = fs::remove_file(p);
    }
    assert_eq!(left, Vec::<&PathBuf>::new(), "files written outside the scratch copy");
    for case in &writer.cases {
        assert_eq!(case.status, Status::Failed);
        crate::sandbox::assert_private_or_denied(&case.stdout.text, layer("mount").1);
    }
    let neighbour = &neighbour.cases[0];
    assert!(!neighbour.stdout.text.lines().any(|l| l.starts_with("read ")), "{}", neighbour.stdout.text);
    // Same uid: only a PID namespace or Landlock's signal scoping (ABI 6) keeps the neighbour's kill away.
    if layer("pid").1 || landlock.ends_with(LANDLOCK_FULL) {
        assert!(!neighbour.stdout.text.lines().any(|l| l.starts_with("killed ")), "{}", neighbour.stdout.text);
        let victim = &victim.cases[0];
        assert_eq!(victim.status, Status::Passed, "{}", victim.detail);
    } else {
        eprintln!("note: neither a PID namespace nor Landlock signal scoping here; the victim's run is not checked");
    }
}

/// Issue 22, items 1, 3 and 7, graded by a normal user (no uid per student: only Landlock and the namespaces stand
/// between a run and the grader's files), in every layer set this user has: the same hostile class as
/// `containment`'s, and the same answers, with the TA's `7>>notes.txt` inherited.
#[test]
fn hostile_hand_ins_graded_by_a_normal_user_get_nothing_in_every_layer_set() {
    if !referee::harness::runner::sandbox::is_root() {
        eprintln!("SKIPPED hostile class as a normal user: the test becomes nobody with setpriv, which needs root");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    let home = root.join("home");
    fs::create_dir_all(&home).unwrap();
    let exe = reachable_referee(root);
    let (class, suite) = crate::containment::hostile_class(root);
    // Item 3 holds even where no launcher runs (a normal user, no layer): the grader closes what it inherited.
    let alone = root.join("alone");
    fs::create_dir_all(&alone).unwrap();
    Command::new("cp").arg("-a").arg(class.join("e-fdwriter")).arg(&alone).status().unwrap();
    let chown = Command::new("chown").args(["-R", &format!("{NOBODY}:{NOBODY}")]).arg(root).status().unwrap();
    assert!(chown.success());
    let report = as_nobody(&home, &exe, &["sandbox"]);
    let layers = parse_layers(&String::from_utf8_lossy(&report.stdout));
    let on: Vec<String> = layers
        .iter()
        .filter(|(name, on, _)| *on && !["user", "limits"].contains(&name.as_str()))
        .map(|(name, _, _)| name.clone())
        .collect();
    let mut sets: Vec<(&str, String)> = vec![("full", on.join(","))];
    let without = |gone: &[&str]| on.iter().filter(|n| !gone.contains(&n.as_str())).cloned().collect::<Vec<_>>();
    for (name, gone) in [("no-landlock", &["landlock"][..]), ("no-namespaces", &["network", "pid", "ipc", "mount"])] {
        let left = without(gone);
        // Without Landlock and without namespaces, a run under the grader's own uid can reach the grader's every
        // file and process: nothing holds there, and `referee sandbox` says so.
        let contained = left.iter().any(|l| l == "landlock" || l == "pid");
        if left.len() < on.len() && contained {
            sets.push((name, left.join(",")));
        }
    }
    for (set, layers) in sets {
        let out = root.join(format!("out-{set}"));
        let notes = root.join(format!("notes-{set}.txt"));
        fs::write(&notes, "").unwrap();
        Command::new("chown").arg(format!("{NOBODY}:{NOBODY}")).arg(&notes).status().unwrap();
        let mut args = vec!["-c".to_string(), "exec \"$0\" \"$@\" 7>>\"$NOTES\"".into(), exe.display().to_string()];
        args.extend(crate::containment::hostile_args(&class, &suite, &out, Some(&layers)));
        let output = Command::new("setpriv")
            .args([&format!("--reuid={NOBODY}"), &format!("--regid={NOBODY}"), "--clear-groups", "sh"])
            .args(&args)
            .env("HOME", &home)
            .env("TMPDIR", &home)
            .env("NOTES", &notes)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{set}: {}", String::from_utf8_lossy(&output.stderr));
        let landlock = layers.split(',').any(|l| l == "landlock");
        crate::containment::assert_hostile_class_got_nothing(set, &out, &notes, landlock, false);
    }
    let notes = root.join("notes-none.txt");
    fs::write(&notes, "").unwrap();
    Command::new("chown").arg(format!("{NOBODY}:{NOBODY}")).arg(&notes).status().unwrap();
    let out = root.join("out-none");
    let mut args = vec!["-c".to_string(), "exec \"$0\" \"$@\" 7>>\"$NOTES\"".into(), exe.display().to_string()];
    args.extend(crate::containment::hostile_args(&alone, &suite, &out, Some("none")));
    let output = Command::new("setpriv")
        .args([&format!("--reuid={NOBODY}"), &format!("--regid={NOBODY}"), "--clear-groups", "sh"])
        .args(&args)
        .env("HOME", &home)
        .env("TMPDIR", &home)
        .env("NOTES", &notes)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "none: {}", String::from_utf8_lossy(&output.stderr));
    let result: SubmissionResult =
        serde_json::from_slice(&fs::read(out.join("results/e-fdwriter.json")).unwrap()).unwrap();
    assert_eq!(result.cases[0].stdout.text, "written []\n");
    assert_eq!(fs::read_to_string(&notes).unwrap(), "", "no layer: the TA's notes were written");
}
