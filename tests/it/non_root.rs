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
pub(crate) const NOBODY: &str = "65534";

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
    // The binary is a hard link to the build's: it stays root's, or a run as nobody could rewrite every test's referee.
    assert!(Command::new("chown").arg("0:0").arg(&exe).status().unwrap().success());

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
    // The binary is a hard link to the build's: it stays root's, or a run as nobody could rewrite every test's referee.
    assert!(Command::new("chown").arg("0:0").arg(&exe).status().unwrap().success());
    let report = as_nobody(&home, &exe, &["sandbox"]);
    for (set, layers) in nobody_sets(&String::from_utf8_lossy(&report.stdout)) {
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

/// The layer sets a normal user has, from its `referee sandbox` report, as `--sandbox-layers` values: every layer in
/// force (`full`), without Landlock and without the namespaces (network, pid, ipc, mount), where a set still
/// contains anything and differs from `full`.
fn nobody_sets(report: &str) -> Vec<(&'static str, String)> {
    let on: Vec<String> = parse_layers(report)
        .into_iter()
        .filter(|(name, on, _)| *on && !["user", "limits"].contains(&name.as_str()))
        .map(|(name, _, _)| name)
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
    sets
}

/// `setpriv` to nobody, then a shell that drops the build's `referee` (given after the wrapper, and maybe out of
/// nobody's reach) and execs `exe`, with `home` as `HOME` and `tmpdir` as `TMPDIR` (where the grader's scratch goes).
pub(crate) fn nobody_wrapper(home: &Path, exe: &Path, tmpdir: &Path) -> Vec<String> {
    let (h, e, t) = (home.display(), exe.display(), tmpdir.display());
    let script = format!("shift; export HOME='{h}' TMPDIR='{t}'; exec '{e}' \"$@\"");
    let wrapper = [&format!("--reuid={NOBODY}"), &format!("--regid={NOBODY}"), "--clear-groups", "/bin/sh", "-c"];
    std::iter::once("setpriv").chain(wrapper).chain([script.as_str(), "sh"]).map(String::from).collect()
}

/// What `containment`'s tests need to grade as `nobody`: a work folder nobody may write (the classes are made in it
/// by root, readable by all), a `referee` and a home of nobody's, and nobody's layer sets.
pub(crate) struct AsNobody {
    work: tempfile::TempDir,
    pub(crate) home: PathBuf,
    pub(crate) exe: PathBuf,
    pub(crate) sets: Vec<(&'static str, Option<String>)>,
    wrapper: Vec<String>,
}

impl AsNobody {
    /// `None`, saying why, where the test cannot become nobody (not root) or Landlock is not in force for it.
    pub(crate) fn new(test: &str) -> Option<AsNobody> {
        if !referee::harness::runner::sandbox::is_root() {
            eprintln!("SKIPPED {test}: the test becomes nobody with setpriv, which needs root");
            return None;
        }
        let work = tempfile::tempdir().unwrap();
        let home = work.path().join("home");
        fs::create_dir_all(&home).unwrap();
        let exe = reachable_referee(work.path());
        let chown = Command::new("chown").arg(format!("{NOBODY}:{NOBODY}")).arg(work.path()).arg(&home).status();
        assert!(chown.unwrap().success());
        let report = as_nobody(&home, &exe, &["sandbox"]);
        let report = String::from_utf8_lossy(&report.stdout).into_owned();
        let landlock = parse_layers(&report).into_iter().find(|(name, _, _)| name == "landlock");
        if !landlock.as_ref().is_some_and(|(_, on, _)| *on) {
            assert!(std::env::var_os("REFEREE_REQUIRE_SANDBOX").is_none(), "landlock not in force: {landlock:?}");
            eprintln!("SKIPPED {test}: Landlock is not in force here ({landlock:?})");
            return None;
        }
        let sets = nobody_sets(&report).into_iter().map(|(name, layers)| (name, Some(layers))).collect();
        let wrapper = nobody_wrapper(&home, &exe, &home);
        Some(AsNobody { work, home, exe, sets, wrapper })
    }

    pub(crate) fn work(&self) -> &Path {
        self.work.path()
    }

    /// The wrapper `containment`'s tests start their grader through (see `grade_fixtures_under`).
    fn wrapper(&self) -> Vec<&str> {
        self.wrapper.iter().map(String::as_str).collect()
    }

    /// The scratch folders graders left in nobody's home (its `TMPDIR`).
    fn left_behind(&self) -> Vec<String> {
        let entries = fs::read_dir(&self.home).unwrap().flatten();
        entries.map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with("referee-")).collect()
    }
}

/// Issue 22, item 6, graded by a normal user in every layer set it has: every case starts from a fresh copy with its
/// own `HOME` and `TMPDIR` (the same hand-in and answers as `containment`'s).
#[test]
fn each_case_graded_by_a_normal_user_starts_from_a_fresh_copy() {
    let Some(nobody) = AsNobody::new("case isolation as a normal user") else { return };
    crate::containment::each_case_starts_fresh(nobody.work(), &nobody.sets, &nobody.wrapper());
    assert_eq!(nobody.left_behind(), Vec::<String>::new());
}

/// Issue 22, item 2, graded by a normal user in every layer set it has: the TA's token, ssh-agent socket, `HOME`
/// and `PWD` reach no run (item 3, the inherited descriptor, is in
/// `hostile_hand_ins_graded_by_a_normal_user_get_nothing_in_every_layer_set`).
#[test]
fn a_normal_users_environment_never_reaches_a_run_beyond_the_allowlist() {
    let Some(nobody) = AsNobody::new("environment as a normal user") else { return };
    crate::containment::the_environment_is_the_allowlist(nobody.work(), &nobody.sets, &nobody.wrapper());
}

/// Issue 22, item 5, graded by a normal user in every layer set it has: a run that fills its folder is stopped at
/// its disk budget and named for it.
#[test]
fn a_run_graded_by_a_normal_user_that_fills_the_disk_is_stopped_at_its_budget() {
    let Some(nobody) = AsNobody::new("disk as a normal user") else { return };
    let written = crate::containment::a_filler_is_stopped_at_its_budget(nobody.work(), &nobody.sets, &nobody.wrapper());
    eprintln!("as nobody, MiB written past an 8 MiB budget: {written:?}");
    assert_eq!(nobody.left_behind(), Vec::<String>::new());
}

/// Issue 32, item 2, graded by a normal user in every layer set it has: a run past its disk budget in the ways a
/// walk misses, beside a correct classmate on a small `--work` (see `disk_budget`).
#[test]
fn a_normal_users_run_past_its_disk_budget_in_any_way_harms_no_classmate() {
    let Some(nobody) = AsNobody::new("disk hogs as a normal user") else { return };
    let seen = crate::disk_budget::hogs_harm_no_classmate(nobody.work(), &nobody.sets, &nobody.wrapper());
    eprintln!("as nobody: {seen:?}");
    assert_eq!(nobody.left_behind(), Vec::<String>::new());
}

/// Issue 22, item 10, graded by a normal user in every layer set it has: the host's sockets in `/tmp` and `/run`,
/// open to every user, are out of reach with the mount layer; without it (no user namespaces for the grader) a
/// run reaches them, as it does as root: pinned here as measured.
#[test]
fn host_sockets_are_out_of_a_normal_users_runs_reach_with_the_mount_layer() {
    let Some(nobody) = AsNobody::new("host sockets as a normal user") else { return };
    let reached = crate::containment::host_sockets_reached(nobody.work(), &nobody.sets, &nobody.wrapper());
    eprintln!("as nobody, host sockets reached (set, reached, of): {reached:?}");
    for ((set, layers), (_, count, of)) in nobody.sets.iter().zip(&reached) {
        let mount = layers.as_deref().is_some_and(|l| l.split(',').any(|n| n == "mount"));
        // With the mount layer nothing (checked inside too); without it, every one: Landlock does not mediate a
        // connect by path, so this is what a TA's laptop without user namespaces gives today.
        assert_eq!(*count, if mount { 0 } else { *of }, "{set}");
    }
}

/// Issue 22, item 4, graded by a normal user (keeping a session keyring with a secret, as a TA's login does) in
/// every layer set it has: System V objects, keys and netlink reach no classmate, nothing outlives the run.
#[test]
fn ipc_objects_keyrings_and_sockets_of_a_normal_users_runs_reach_no_classmate() {
    let Some(nobody) = AsNobody::new("IPC as a normal user") else { return };
    let wrapper = nobody.wrapper();
    // The TA's session is made by nobody, between `setpriv` and the shell that starts nobody's `referee`.
    let (before, after) = wrapper.split_at(4);
    let found = crate::containment::ipc_reaches_no_classmate(nobody.work(), &nobody.sets, (before, after), false);
    eprintln!("as nobody, the classmate found: {found:?}");
    for (set, found) in &found {
        for line in ["shm none", "mq none", "key none", "ta key none", "unix refused"] {
            assert!(found.lines().any(|l| l == line), "{set}: the classmate got something: {found}");
        }
        assert!(found.contains("netlink refused"), "{set}: {found}");
    }
    assert_eq!(nobody.left_behind(), Vec::<String>::new());
}

/// A hand-in folder handed in with a folder and a file closed to everyone (mode 000, as `unzip` restores them), a
/// build that closes a folder and a file, and a run that does: a grader that is not root cannot read or empty them
/// as they are (root can), so it opens them to itself for the moment of the copy (the TA's own hand-in closed again
/// after) or the removal. Graded by `nobody` through the real `grade` and `check`: no harness error, full marks,
/// nothing left in its `TMPDIR`, the hand-in as it was.
#[test]
fn folders_and_files_closed_to_everyone_neither_stop_a_normal_users_grading_nor_stay_behind() {
    let Some(nobody) = AsNobody::new("mode-000 hand-ins as a normal user") else { return };
    let class = nobody.work().join("class");
    let real = fixture("submissions/python-stats/takestones.py");
    // Runs `real.py` (in `lib/` for a-locked) as the program, after closing a folder and a file of its copy (c-ran).
    let start = |closes: bool, lib: &str| {
        let close = "os.makedirs(os.path.join(here, 'dd'), exist_ok=True)\n\
            open(os.path.join(here, 'dd', 'f'), 'w').write('q')\n\
            open(os.path.join(here, 'g0'), 'w').write('q')\n\
            os.chmod(os.path.join(here, 'dd'), 0)\nos.chmod(os.path.join(here, 'g0'), 0)\n";
        format!(
            "import os, runpy\nhere = os.path.dirname(os.path.abspath(__file__))\n{}\
             runpy.run_path(os.path.join(here, {lib:?}, 'real.py'), run_name='__main__')\n",
            if closes { close } else { "" }
        )
    };
    let students = [
        ("a-locked", start(false, "lib"), "exit 0\n"),
        ("b-built", start(false, "."), "mkdir -p closed && echo z > closed/f && echo w > f0 && chmod 000 closed f0\n"),
        ("c-ran", start(true, "."), "exit 0\n"),
    ];
    for (id, program, build) in &students {
        let dir = class.join(id);
        let lib = if *id == "a-locked" { dir.join("lib") } else { dir.clone() };
        fs::create_dir_all(&lib).unwrap();
        fs::copy(&real, lib.join("real.py")).unwrap();
        fs::write(dir.join("takestones.py"), program).unwrap();
        fs::write(dir.join("build.sh"), build).unwrap();
    }
    let locked = class.join("a-locked");
    fs::write(locked.join("notes.txt"), "mine\n").unwrap();
    // The TA's own download, the folder and the file closed as the student's zip said.
    let chown = Command::new("chown").args(["-R", &format!("{NOBODY}:{NOBODY}")]).arg(&class).status().unwrap();
    assert!(chown.success());
    let closed = Command::new("chmod").arg("000").arg(locked.join("lib")).arg(locked.join("notes.txt")).status();
    assert!(closed.unwrap().success());
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let out = nobody.work().join("out");
    let grade = as_nobody(
        &nobody.home,
        &nobody.exe,
        &[
            "grade",
            "--suite",
            "builtin:takestones-stats-2019",
            "--submissions",
            class.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--build",
            "sh {dir}/build.sh",
            "--cmd",
            &cmd,
            "-j",
            "2",
            "--color",
            "never",
        ],
    );
    let stderr = String::from_utf8_lossy(&grade.stderr);
    for (id, _, _) in &students {
        let result: SubmissionResult =
            serde_json::from_slice(&fs::read(out.join(format!("results/{id}.json"))).unwrap()).unwrap();
        let cases: Vec<String> = result.cases.iter().map(|c| format!("{:?}: {}", c.status, c.detail)).collect();
        assert_eq!(result.score, result.max_score, "{id}: {cases:?}");
    }
    assert_eq!(grade.status.code(), Some(0), "{stderr}");
    assert_eq!(nobody.left_behind(), Vec::<String>::new(), "grade left its scratch behind");
    for id in ["a-locked", "b-built", "c-ran"] {
        let check = as_nobody(
            &nobody.home,
            &nobody.exe,
            &["check", "takestones", "--dir", class.join(id).to_str().unwrap(), "--build", "sh {dir}/build.sh"]
                .into_iter()
                .chain(["--cmd", &cmd, "--cases", "1", "--seed", "1"])
                .collect::<Vec<_>>(),
        );
        let stdout = String::from_utf8_lossy(&check.stdout);
        assert_eq!(check.status.code(), Some(0), "{id}: {stdout}{}", String::from_utf8_lossy(&check.stderr));
        assert!(stdout.contains("no divergence from the reference"), "{id}: {stdout}");
        assert_eq!(nobody.left_behind(), Vec::<String>::new(), "check left its scratch behind for {id}");
    }
    // The hand-in is as it was: closed again, nothing added.
    use std::os::unix::fs::PermissionsExt;
    for (path, mode) in [("lib", 0o40_000), ("notes.txt", 0o100_000)] {
        assert_eq!(fs::metadata(locked.join(path)).unwrap().permissions().mode(), mode, "{path}");
    }
    let mut names: Vec<String> =
        fs::read_dir(&locked).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["build.sh", "lib", "notes.txt", "takestones.py"]);
    assert_eq!(fs::read(locked.join("lib/real.py")).unwrap(), fs::read(&real).unwrap());
}

/// What keeps a normal user's runs apart without Landlock is the mount layer's private `/tmp`: the grader's scratch
/// (under `TMPDIR`) is hidden with it, and only the run's own copy bound back. A TA whose `TMPDIR` lies elsewhere
/// (here the build's `target/tmp`) gets no such hiding: the same uid everywhere, a classmate graded alongside reads
/// the run's files through a link and connects to its Unix socket. Pinned here as measured (NOT held), so that a
/// fix shows.
#[test]
fn without_landlock_a_normal_users_scratch_outside_tmp_is_hidden_from_classmates() {
    let Some(nobody) = AsNobody::new("scratch outside /tmp as a normal user") else { return };
    let Some((_, Some(layers))) = nobody.sets.iter().find(|(name, _)| *name == "no-landlock") else {
        eprintln!("SKIPPED scratch outside /tmp: no layer set without Landlock that still contains anything here");
        return;
    };
    // A scratch folder outside every folder the mount layer makes private (a TA's `TMPDIR=~/tmp` or a data disk).
    let outside = Path::new("/var/lib").join(format!("referee-non-root-scratch-{}", std::process::id()));
    fs::create_dir_all(&outside).unwrap();
    Command::new("chown").arg(format!("{NOBODY}:{NOBODY}")).arg(&outside).status().unwrap();
    let reachable = as_nobody(&nobody.home, Path::new("test"), &["-w", outside.to_str().unwrap()]).status.success();
    if !reachable {
        let _ = fs::remove_dir_all(&outside);
        eprintln!("SKIPPED scratch outside /tmp: nobody cannot write {}", outside.display());
        return;
    }
    let wrapper = nobody_wrapper(&nobody.home, &nobody.exe, &outside);
    let wrapper: Vec<&str> = wrapper.iter().map(String::as_str).collect();
    let sets = [("no-landlock-scratch-outside-tmp", Some(layers.clone()))];
    let found = crate::containment::ipc_reaches_no_classmate(nobody.work(), &sets, wrapper.split_at(4), false);
    let found = &found[0].1;
    let work = nobody.work();
    let suite = crate::containment::one_case_suite(work);
    let victim = work.join("class-peek/b-victim");
    fs::create_dir_all(&victim).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), victim.join("real.py")).unwrap();
    let students: [crate::containment::Student; 2] =
        [("a-peeker", "link_neighbour", &[]), ("b-victim", "slow_correct", &[])];
    let extra = ["-j", "2", "--timeout", "8s", "--sandbox-layers", layers];
    let results = crate::containment::grade_fixtures_under(&wrapper, work, "peek", &students, &suite, &extra);
    let left: Vec<String> = fs::read_dir(&outside).unwrap().flatten().map(|e| e.path().display().to_string()).collect();
    let _ = fs::remove_dir_all(&outside);
    let peek = &results["a-peeker"].cases[0].stdout.text;
    let read: Vec<&str> = peek.lines().filter(|l| l.starts_with("read ")).collect();
    eprintln!("scratch outside /tmp, no Landlock: the classmate found {found:?}; the peeker {read:?}");
    // Before the mount layer hid every top-level folder beyond the system's from such runs, the classmate connected
    // to the run's socket and the peeker read both copies of the victim's `takestones.py`.
    assert!(!found.lines().any(|l| l == "unix connected"), "the classmate reached the run's socket: {found}");
    assert!(!read.iter().any(|l| l.contains("b-victim")), "the peeker read its classmate's copy: {peek}");
    let victim = &results["b-victim"];
    assert_eq!(victim.score, victim.max_score, "{:?}", victim.cases[0].detail);
    assert_eq!(left, Vec::<String>::new(), "scratch left behind");
}

/// Issue 32, item 1, graded by a normal user from a terminal of its own (the pty is nobody's, as a TA's terminal is
/// the TA's) in every layer set it has: no run types into it, writes on it or shares the grader's session.
#[test]
fn no_run_of_a_normal_users_grader_reaches_its_terminal() {
    let Some(nobody) = AsNobody::new("the terminal as a normal user") else { return };
    let home = nobody.home.display();
    let user: Vec<String> = [&format!("--reuid={NOBODY}"), &format!("--regid={NOBODY}"), "--clear-groups", "env"]
        .into_iter()
        .map(String::from)
        .chain([format!("HOME={home}"), format!("TMPDIR={home}")])
        .collect();
    let user: Vec<String> = std::iter::once("setpriv".to_string()).chain(user).collect();
    crate::terminal::a_run_never_reaches_the_graders_terminal(nobody.work(), &nobody.sets, &user, &nobody.exe);
    assert_eq!(nobody.left_behind(), Vec::<String>::new());
}
