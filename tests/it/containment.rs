//! Hostile submissions are contained with the right status and leave no process behind; a class run killed
//! halfway (SIGINT or SIGKILL) resumes and grades every student exactly once.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee::harness::model::{Status, SubmissionResult};

use crate::grade::{fixture, python};

pub fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0\n")).unwrap_or(false)
}

/// Processes anywhere whose environment carries a run marker of the grader with pid `grader`
/// (`REFEREE_RUN=<grader pid>-<pid namespace>-<start>-<n>`).
fn leftovers_of(grader: u32) -> Vec<String> {
    let grader = grader.to_string();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Ok(env) = fs::read(entry.path().join("environ")) {
            let marked = env
                .split(|&b| b == 0)
                .filter_map(|v| v.strip_prefix(b"REFEREE_RUN="))
                .any(|value| String::from_utf8_lossy(value).split('-').next() == Some(grader.as_str()));
            if marked {
                found.push(name);
            }
        }
    }
    found
}

pub fn one_case_suite(dir: &Path) -> String {
    let suite = dir.join("suite.toml");
    fs::write(
        &suite,
        "[reference]\ngame = \"takestones\"\n[[case]]\nname = \"small\"\nargs = \"3 0 0\"\nreference = true\n",
    )
    .unwrap();
    suite.display().to_string()
}

/// Grades each named hostile program as a student of a class in `class`, results into `out`; checks the run ends
/// in bounded time and leaves no process behind.
fn grade_hostile(programs: &[(&str, &[Status])], class: &Path, out: &Path) {
    for (name, _) in programs {
        let dir = class.join(name.replace('_', "-"));
        fs::create_dir_all(&dir).unwrap();
        fs::copy(fixture(&format!("hostile/{name}.py")), dir.join("takestones.py")).unwrap();
    }
    let start = Instant::now();
    let child = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", &one_case_suite(class.parent().unwrap()), "--submissions"])
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python())])
        .args(["--timeout", "2s", "--memory", "256MiB", "--output-limit", "1MiB", "-j", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let grader = child.id();
    let output = child.wait_with_output().unwrap();
    let elapsed = start.elapsed();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(elapsed < Duration::from_secs(90), "grading took {elapsed:?}");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(leftovers_of(grader), Vec::<String>::new(), "processes left behind");
}

#[test]
fn every_hostile_program_is_contained_with_the_right_status() {
    let work = tempfile::tempdir().unwrap();
    let mut expected: Vec<(&str, &[Status])> = vec![
        ("infinite_loop", &[Status::Timeout]),
        ("sleep", &[Status::Timeout]),
        ("memory_hog", &[Status::NonzeroExit, Status::Crashed]),
        ("output_flood", &[Status::OutputLimit]),
        ("stdin_wait", &[Status::Failed]),
        ("daemon", &[Status::Failed]),
        ("segfault", &[Status::Crashed]),
        ("abort", &[Status::Crashed]),
        ("non_utf8", &[Status::Failed]),
        ("nonzero_exit", &[Status::NonzeroExit]),
        ("escape_writer", &[Status::Failed]),
    ];
    let out = work.path().join("out");
    grade_hostile(&expected, &work.path().join("class"), &out);
    // Only a dedicated sandbox user makes RLIMIT_NPROC bite (root ignores it): never fork-bomb an unsandboxed box.
    // Graded on its own: RLIMIT_NPROC caps its processes, not their CPU share, so 512 busy processes would starve
    // whatever ran beside it on 2 cores (only cgroups could bound that).
    if is_root() {
        let bomb: Vec<(&str, &[Status])> =
            vec![("fork_bomb", &[Status::Timeout, Status::Crashed, Status::NonzeroExit])];
        grade_hostile(&bomb, &work.path().join("bomb"), &out);
        expected.extend(bomb);
    }

    for (name, allowed) in &expected {
        let path = out.join(format!("results/{}.json", name.replace('_', "-")));
        let s: SubmissionResult = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        let case = &s.cases[0];
        assert!(allowed.contains(&case.status), "{name}: {:?} ({})", case.status, case.detail);
        match *name {
            "output_flood" => assert!(case.stdout.truncated && case.stdout.bytes == 1 << 20),
            "non_utf8" => assert!(case.stdout.invalid_utf8),
            "segfault" => assert!(case.detail.contains("SIGSEGV"), "{}", case.detail),
            "abort" => assert!(case.detail.contains("SIGABRT"), "{}", case.detail),
            "nonzero_exit" => assert_eq!(case.detail, "exit code 3"),
            // Reported as soon as the parent exits, not after the grandchild's 1000 s.
            "daemon" => {
                assert!(case.elapsed_ms < 2000, "{}", case.elapsed_ms);
                assert!(case.detail.contains("left processes running"), "{}", case.detail);
            }
            "escape_writer" if is_root() => {
                let lines: Vec<&str> = case.stdout.text.lines().collect();
                assert_eq!(lines.len(), 4, "{lines:?}");
                // The scratch folders and root's home are out of reach; /tmp too under Landlock (see sandbox.rs).
                for line in &lines[..3] {
                    assert!(line.ends_with(": denied"), "{line}");
                }
                if let Some(path) = lines[3].strip_suffix(": ok") {
                    let _ = fs::remove_file(path);
                }
            }
            _ => {}
        }
    }
}

/// Five students of about 1.5 s each, graded one at a time so the run can be killed between them.
fn slow_class(work: &Path) -> (std::path::PathBuf, Vec<String>) {
    let class = work.join("class");
    let ids: Vec<String> = (1..=5).map(|i| format!("s{i}")).collect();
    for id in &ids {
        let dir = class.join(format!("{id}-HW2-P3"));
        fs::create_dir_all(&dir).unwrap();
        fs::copy(fixture("submissions/python-stats/takestones.py"), dir.join("takestones.py")).unwrap();
    }
    (class, ids)
}

fn grade_slow(class: &Path, out: &Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("referee"));
    cmd.args(["grade", "--suite", "builtin:takestones-stats-2019", "--submissions"])
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(["--shell", "--cmd", &format!("sleep 0.4; {} {{dir}}/takestones.py {{args}}", python()), "-j", "1"]);
    cmd
}

fn stored(out: &Path) -> Vec<SubmissionResult> {
    let Ok(entries) = fs::read_dir(out.join("results")) else { return Vec::new() };
    entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_slice(&fs::read(e.path()).unwrap()).unwrap())
        .collect()
}

fn interrupt_and_resume(signal: &str) {
    let work = tempfile::tempdir().unwrap();
    let (class, ids) = slow_class(work.path());
    let out = work.path().join("out");
    let mut child = grade_slow(&class, &out).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let grader = child.id();
    let deadline = Instant::now() + Duration::from_secs(60);
    while stored(&out).len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    Command::new("kill").args([signal, &grader.to_string()]).status().unwrap();
    let status = child.wait().unwrap();
    if signal == "-INT" {
        assert_eq!(status.code(), Some(130));
    }
    let first = stored(&out);
    let graded_first = first.len();
    assert!((2..5).contains(&graded_first), "{graded_first} graded before the kill");
    let first_run = first[0].run.clone();
    assert!(first.iter().all(|r| r.run == first_run && r.cases.iter().all(|c| c.status == Status::Passed)));

    let again = grade_slow(&class, &out).output().unwrap();
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&again.stderr)
    );
    let text = String::from_utf8_lossy(&again.stdout);
    let line = format!("graded {} student(s), {graded_first} already graded earlier", 5 - graded_first);
    assert!(text.contains(&line), "{text}");
    // Every student exactly once: the ones finished before the kill kept their first result.
    let all = stored(&out);
    let mut seen: Vec<&str> = all.iter().map(|r| r.id.as_str()).collect();
    seen.sort_unstable();
    assert_eq!(seen, ids.iter().map(String::as_str).collect::<Vec<_>>());
    for r in &first {
        let now = all.iter().find(|a| a.id == r.id).unwrap();
        assert_eq!(now.run, first_run, "{} was graded twice", r.id);
    }
    assert_eq!(all.iter().filter(|r| r.run != first_run).count(), 5 - graded_first);
    let csv = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert_eq!(csv.lines().count(), 6, "{csv}");
    // The killed grader's runs were cleaned up by the second one.
    assert_eq!(leftovers_of(grader), Vec::<String>::new());
}

#[test]
fn a_class_run_interrupted_by_sigint_resumes() {
    interrupt_and_resume("-INT");
}

#[test]
fn a_class_run_killed_by_sigkill_resumes() {
    interrupt_and_resume("-KILL");
}

/// The layer sets this machine can run, as `--sandbox-layers` values: every layer in force (`None`), without
/// Landlock, and without the namespaces (network, pid, ipc, mount); a set is left out where it would equal another.
pub fn layer_sets() -> Vec<(&'static str, Option<String>)> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("referee")).arg("sandbox").output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let on: Vec<String> = crate::sandbox::parse_layers(&report)
        .into_iter()
        .filter(|(name, on, _)| *on && !["user", "limits"].contains(&name.as_str()))
        .map(|(name, _, _)| name)
        .collect();
    let without = |gone: &[&str]| on.iter().filter(|n| !gone.contains(&n.as_str())).cloned().collect::<Vec<_>>();
    let mut sets = vec![("full", None)];
    for (name, gone) in [("no-landlock", &["landlock"][..]), ("no-namespaces", &["network", "pid", "ipc", "mount"])] {
        let left = without(gone);
        if left.len() < on.len() {
            sets.push((name, Some(if left.is_empty() { "none".to_string() } else { left.join(",") })));
        }
    }
    sets
}

/// A student of `class` whose `run` script starts the fixture `program` with Python, and whose build does nothing.
fn scripted(class: &Path, id: &str, program: &str) -> std::path::PathBuf {
    let dir = class.join(id);
    fs::create_dir_all(&dir).unwrap();
    fs::copy(fixture(program), dir.join("takestones.py")).unwrap();
    fs::write(dir.join("build.sh"), "exit 0\n").unwrap();
    let run = dir.join("run");
    fs::write(&run, format!("#!/bin/sh\nexec {} \"$(dirname \"$0\")/takestones.py\" \"$@\"\n", python())).unwrap();
    Command::new("chmod").arg("755").arg(&run).status().unwrap();
    dir
}

/// A class of hostile hand-ins run as `{dir}/run {args}` after `sh {dir}/build.sh`, in `work`: a neighbour that links
/// to its classmate's copy (`a-peeker`) beside that classmate (`b-victim`, correct and slow), a build that turns the
/// program into a link to the installed reference solver (`c-linker`), a program that forges the launcher's failure
/// (`d-forger`), one that writes into every inherited descriptor (`e-fdwriter`), and a correct one (`f-good`).
/// Returns the class folder and a one-case suite.
pub fn hostile_class(work: &Path) -> (std::path::PathBuf, String) {
    // The reference solver installed where any user may run it, as a deploy recipe might put it.
    let bin = work.join("ref/bin");
    fs::create_dir_all(&bin).unwrap();
    let reference = bin.join("takestones");
    fs::copy(assert_cmd::cargo::cargo_bin("takestones"), &reference).unwrap();
    let class = work.join("class");
    scripted(&class, "a-peeker", "hostile/link_neighbour.py");
    let victim = scripted(&class, "b-victim", "hostile/slow_correct.py");
    fs::copy(fixture("submissions/python-stats/takestones.py"), victim.join("real.py")).unwrap();
    let linker = scripted(&class, "c-linker", "hostile/nonzero_exit.py");
    let build = fs::read_to_string(fixture("hostile/link_build.sh")).unwrap();
    fs::write(linker.join("build.sh"), build.replace("@REFERENCE@", reference.to_str().unwrap())).unwrap();
    scripted(&class, "d-forger", "hostile/forge_launcher.py");
    scripted(&class, "e-fdwriter", "hostile/fd_writer.py");
    scripted(&class, "f-good", "submissions/python-stats/takestones.py");
    Command::new("chmod").args(["-R", "a+rX"]).arg(work).status().unwrap();
    (class, one_case_suite(work))
}

/// `referee grade`'s arguments for the hostile class, results into `out`, with `--sandbox-layers layers`.
pub fn hostile_args(class: &Path, suite: &str, out: &Path, layers: Option<&str>) -> Vec<String> {
    let mut args: Vec<String> = vec!["grade".into(), "--suite".into(), suite.into(), "--submissions".into()];
    args.extend([class.display().to_string(), "--out".into(), out.display().to_string()]);
    args.extend(["--build".into(), "sh {dir}/build.sh".into(), "--cmd".into(), "{dir}/run {args}".into()]);
    args.extend(["--timeout".into(), "8s".into(), "-j".into(), "2".into(), "--color".into(), "never".into()]);
    if let Some(layers) = layers {
        args.extend(["--sandbox-layers".into(), layers.into()]);
    }
    args
}

/// What each attacker of [`hostile_class`] got, graded into `out` by a grader that inherited `notes` as fd 7:
/// no marks, no bytes read or written, no blame shifted, and the correct students beside them passed. `landlock`:
/// the layer was on; `own_uid`: each run had a uid of its own (root).
pub fn assert_hostile_class_got_nothing(set: &str, out: &Path, notes: &Path, landlock: bool, own_uid: bool) {
    let result = |id: &str| -> SubmissionResult {
        serde_json::from_slice(&fs::read(out.join(format!("results/{id}.json"))).unwrap()).unwrap()
    };
    // The correct students are not hurt by their neighbours.
    for id in ["b-victim", "f-good"] {
        let r = result(id);
        assert_eq!(r.score, r.max_score, "{set}: {id}: {:?}", r.cases[0].detail);
    }
    // Item 1: the linked reference earns nothing, whether the link was refused at build or at exec.
    let linked = result("c-linker");
    assert_eq!(linked.score, 0.0, "{set}: the link to the reference scored: {:?}", linked.cases[0]);
    let case = &linked.cases[0];
    assert_eq!(case.status, Status::NonzeroExit, "{set}: {}", case.detail);
    assert!(case.detail.contains("could not be started"), "{set}: {}", case.detail);
    if landlock {
        assert!(case.detail.contains("is not there"), "{set}: {}", case.detail);
    } else {
        assert!(case.detail.contains("symbolic link"), "{set}: {}", case.detail);
    }
    // Item 1: no byte of the classmate's copy through a link; no link at all under Landlock; as root a copy of
    // its own (700, 600) whatever Landlock does.
    let peek = &result("a-peeker").cases[0].stdout.text;
    assert!(!peek.lines().any(|l| l.starts_with("read ")), "{set}: {peek}");
    assert!(peek.lines().any(|l| l.starts_with("link ")), "{set}: it tried nothing: {peek}");
    if landlock {
        assert!(!peek.lines().any(|l| l.starts_with("link ") && l.ends_with(": ok")), "{set}: {peek}");
    }
    if own_uid {
        assert!(peek.starts_with("modes 700 600 True\n"), "{set}: {peek}");
    }
    // Item 7: a forged launcher failure is the program's own nonzero exit, never a harness error.
    let forged = &result("d-forger").cases[0];
    assert_eq!(forged.status, Status::NonzeroExit, "{set}: {}", forged.detail);
    assert_eq!(forged.detail, "exit code 127", "{set}");
    assert_eq!(forged.stdout.text, "forged 0\n", "{set}");
    // Item 3: nothing inherited reached the program, and the TA's file is untouched.
    assert_eq!(result("e-fdwriter").cases[0].stdout.text, "written []\n", "{set}");
    assert_eq!(fs::read_to_string(notes).unwrap(), "", "{set}: the TA's notes were written");
}

/// Issue 22, items 1, 3 and 7, as root in every layer set this machine has and the Gradescope-like one (see
/// [`hostile_class`]); the grader is started with a TA's `7>>notes.txt`.
#[test]
fn hostile_hand_ins_get_no_marks_no_bytes_and_no_blame_shifted_in_every_layer_set() {
    let work = tempfile::tempdir().unwrap();
    let (class, suite) = hostile_class(work.path());
    for (set, layers) in layer_sets_and_gradescope() {
        let out = work.path().join(format!("out-{set}"));
        let notes = work.path().join(format!("notes-{set}.txt"));
        fs::write(&notes, "").unwrap();
        let output = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" 7>>\"$NOTES\"")
            .arg(assert_cmd::cargo::cargo_bin("referee"))
            .args(hostile_args(&class, &suite, &out, layers.as_deref()))
            .env("NOTES", &notes)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{set}: {}", String::from_utf8_lossy(&output.stderr));
        let landlock = layers.as_deref().map_or(true, |l| l.contains("landlock"));
        assert_hostile_class_got_nothing(set, &out, &notes, landlock, is_root());
    }
}

/// Issue 22, item 11: two graders with different temp folders lease different uids at the same moment; a uid with a
/// live process (started by no grader) is not lent; the start-up sweep kills the runs a dead grader of this PID
/// namespace left, never those whose marker names another namespace (a grader in a container, seen from the host).
#[test]
fn uid_leases_are_machine_wide_and_sweeps_touch_only_their_own_runs() {
    if !is_root() {
        eprintln!("SKIPPED uid leases: only as root (runs get leased uids)");
        return;
    }
    use std::os::unix::fs::MetadataExt;
    let work = tempfile::tempdir().unwrap();
    // A process of the first leasable uid that no grader started. It is started while this test holds the uid's
    // lease lock (waiting for a grader of a test running alongside that holds it: that grader's lease ends by
    // killing every process of its uid), so no grader holds the uid while it lives.
    let locks = Path::new(referee::harness::runner::lease::LOCK_DIR);
    std::os::unix::fs::DirBuilderExt::mode(fs::DirBuilder::new().recursive(true), 0o700).create(locks).unwrap();
    let lock = fs::OpenOptions::new().create(true).truncate(false).write(true).open(locks.join("600000")).unwrap();
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive).unwrap();
    let mut squatter = Command::new("setpriv")
        .args(["--reuid=600000", "--regid=65534", "--clear-groups", "sleep", "30"])
        .spawn()
        .unwrap();
    while !referee::harness::runner::lease::uid_in_use(600_000) {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(lock);
    let namespace = fs::metadata("/proc/self/ns/pid").unwrap().ino();
    let mut dead = Command::new("true").spawn().unwrap();
    let dead_pid = dead.id();
    dead.wait().unwrap();
    // Left by a dead grader of this namespace, and by one of another namespace.
    let mut orphan =
        Command::new("sleep").arg("30").env("REFEREE_RUN", format!("{dead_pid}-{namespace}-1-0")).spawn().unwrap();
    let mut foreign = Command::new("sleep")
        .arg("30")
        .env("REFEREE_RUN", format!("{dead_pid}-{}-1-0", namespace + 1))
        .spawn()
        .unwrap();
    let suite = one_case_suite(work.path());
    let graders: Vec<(std::process::Child, std::path::PathBuf)> = ["a", "b"]
        .iter()
        .map(|name| {
            let tmp = work.path().join(format!("tmp-{name}"));
            let class = work.path().join(format!("class-{name}"));
            let dir = class.join(format!("s-{name}"));
            fs::create_dir_all(&dir).unwrap();
            fs::create_dir_all(&tmp).unwrap();
            fs::copy(fixture("hostile/whoami_slow.py"), dir.join("takestones.py")).unwrap();
            let out = work.path().join(format!("out-{name}"));
            let child = Command::new(assert_cmd::cargo::cargo_bin("referee"))
                .args(["grade", "--suite", &suite, "--submissions"])
                .arg(&class)
                .arg("--out")
                .arg(&out)
                .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python())])
                .env("TMPDIR", &tmp)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            (child, out.join(format!("results/s-{name}.json")))
        })
        .collect();
    let mut uids = Vec::new();
    for (mut child, result) in graders {
        child.wait().unwrap();
        let s: SubmissionResult = serde_json::from_slice(&fs::read(&result).unwrap()).unwrap();
        let text = s.cases[0].stdout.text.clone();
        uids.push(text.trim().strip_prefix("uid ").unwrap_or_else(|| panic!("{text}")).parse::<u32>().unwrap());
    }
    assert_ne!(uids[0], uids[1], "two graders ran their students under one uid at once");
    assert!(!uids.contains(&600_000), "a uid with a live process was lent: {uids:?}");
    assert!(orphan.try_wait().unwrap().is_some(), "the dead grader's run of this namespace was not swept");
    assert!(foreign.try_wait().unwrap().is_none(), "another namespace's run was killed");
    assert!(squatter.try_wait().unwrap().is_none(), "a process no grader started was killed");
    for mut process in [foreign, squatter] {
        let _ = process.kill();
        let _ = process.wait();
    }
}

/// A student of [`grade_fixtures`]: id, fixture under `hostile/`, placeholder replacements.
pub type Student<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// A class of `students` (id, fixture under `hostile/`, placeholder replacements) graded with `-j jobs` against
/// `suite` with `extra` arguments; each student's result. (The tests above now go through [`grade_fixtures_under`],
/// so that `non_root` can start their grader as a normal user; kept for tests that only grade as root.)
#[allow(dead_code)]
fn grade_fixtures(
    work: &Path,
    name: &str,
    students: &[Student],
    suite: &str,
    extra: &[&str],
) -> std::collections::BTreeMap<String, SubmissionResult> {
    grade_fixtures_under(&[], work, name, students, suite, extra)
}

/// [`grade_fixtures`] with the grader started through `wrapper` (a program and its arguments, which then execs the
/// grader's command line given after them).
pub fn grade_fixtures_under(
    wrapper: &[&str],
    work: &Path,
    name: &str,
    students: &[Student],
    suite: &str,
    extra: &[&str],
) -> std::collections::BTreeMap<String, SubmissionResult> {
    let class = work.join(format!("class-{name}"));
    for (id, program, replace) in students {
        crate::sandbox::student(&class, id, program, replace);
    }
    Command::new("chmod").args(["-R", "a+rX"]).arg(&class).status().unwrap();
    let out = work.join(format!("out-{name}"));
    let output = grader_command(wrapper)
        .args(["grade", "--suite", suite, "--submissions"])
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python()), "--color", "never"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{name}: {stderr}");
    students
        .iter()
        .map(|(id, _, _)| {
            let path = out.join(format!("results/{id}.json"));
            let text = fs::read(&path).unwrap_or_else(|e| panic!("{name}: {}: {e}: {stderr}", path.display()));
            (id.to_string(), serde_json::from_slice(&text).unwrap())
        })
        .collect()
}

/// The grader's command, started through `wrapper` (a program and its arguments, which then execs the grader's
/// command line given after them; empty: the grader itself).
fn grader_command(wrapper: &[&str]) -> Command {
    let referee = assert_cmd::cargo::cargo_bin("referee");
    match wrapper.split_first() {
        Some((program, args)) => {
            let mut command = Command::new(program);
            command.args(args).arg(&referee);
            command
        }
        None => Command::new(&referee),
    }
}

/// The layer sets a test below grades in: a name and a `--sandbox-layers` value (`None`: every layer in force).
pub type LayerSets = [(&'static str, Option<String>)];

/// [`layer_sets`], plus neither Landlock nor namespaces (`no-landlock-no-namespaces`: Gradescope's kernel 4.14 in
/// a Docker container, where only seccomp, the cgroup and the uid are left).
pub fn layer_sets_and_gradescope() -> Vec<(&'static str, Option<String>)> {
    let mut sets = layer_sets();
    let gone = ["landlock", "network", "pid", "ipc", "mount"];
    let left: Vec<String> = layers_on().into_iter().filter(|n| !gone.contains(&n.as_str())).collect();
    if sets.len() == 3 {
        sets.push(("no-landlock-no-namespaces", Some(if left.is_empty() { "none".into() } else { left.join(",") })));
    }
    sets
}

/// The layers `referee sandbox` says are in force here.
pub fn layers_on() -> Vec<String> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("referee")).arg("sandbox").output().unwrap();
    crate::sandbox::parse_layers(&String::from_utf8_lossy(&out.stdout))
        .into_iter()
        .filter(|(name, on, _)| *on && !["user", "limits"].contains(&name.as_str()))
        .map(|(name, _, _)| name)
        .collect()
}

/// System V objects on this machine (shared memory and message queues) under the fixtures' key 0x5EF0CAFE.
fn sysv_objects_with_fixture_key() -> Vec<String> {
    let key = 0x5EF0_CAFE_u32.to_string();
    ["shm", "msg"]
        .iter()
        .flat_map(|table| {
            let text = fs::read_to_string(format!("/proc/sysvipc/{table}")).unwrap_or_default();
            text.lines()
                .skip(1)
                .filter(|l| l.split_whitespace().next() == Some(key.as_str()))
                .map(|l| format!("{table}: {l}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Issue 22, item 4: a run that opens every channel no file stands for (a System V segment and queue, a key in its
/// uid's keyring, a netlink user socket, a Unix socket in its folder) beside a classmate who looks for them. In
/// every layer set this machine has, the classmate finds nothing, and nothing of the run is left on the machine
/// after grading. As root also with neither an IPC namespace nor seccomp: what the run left is removed after it
/// (the slot's uid is cleaned before anyone else gets it).
#[test]
fn ipc_objects_keyrings_and_sockets_reach_no_classmate_and_outlive_no_run() {
    let work = tempfile::tempdir().unwrap();
    ipc_reaches_no_classmate(work.path(), &all_sets(), (&[], &[]), is_root());
}

/// [`layer_sets_and_gradescope`] and, as root, the set with neither an IPC namespace nor seccomp (the one where
/// item 4 holds least), so each promise's row in the guide is measured there too.
pub fn all_sets() -> Vec<(&'static str, Option<String>)> {
    let mut sets = layer_sets_and_gradescope();
    if is_root() {
        let bare: Vec<String> = layers_on().into_iter().filter(|n| !["ipc", "seccomp"].contains(&n.as_str())).collect();
        sets.push(("no-ipc-no-seccomp", Some(bare.join(","))));
    }
    sets
}

/// [`ipc_objects_keyrings_and_sockets_reach_no_classmate_and_outlive_no_run`] in `work` (which the grader may
/// write) in `sets`, the grader started through `around.0`, then the TA's session (a Python that makes it), then
/// `around.1` (see [`grade_fixtures_under`]); `own_uid`: each run has a uid of its own (root). Per set, what the
/// classmate found.
pub fn ipc_reaches_no_classmate(
    work: &Path,
    sets: &LayerSets,
    around: (&[&str], &[&str]),
    own_uid: bool,
) -> Vec<(&'static str, String)> {
    // A second case under the same uid looks for what the first left in the uid's own keyrings.
    let suite = work.join("two.toml");
    let cases: String =
        [3, 4].iter().map(|n| format!("[[case]]\nname = \"c{n}\"\nargs = \"{n} 0 0\"\nreference = true\n")).collect();
    fs::write(&suite, format!("[reference]\ngame = \"takestones\"\n{cases}")).unwrap();
    let suite = suite.display().to_string();
    // The grader holds a session keyring with a secret in it, as a TA's login session does.
    let session = "import ctypes, os, sys\n\
        libc = ctypes.CDLL(None)\n\
        keyctl, add_key = {'aarch64': (219, 217)}.get(os.uname().machine, (250, 248))\n\
        libc.syscall(keyctl, 1, b'referee-ta-session')\n\
        libc.syscall(add_key, b'user', b'referee-ta-secret', b's3cret', 6, -3)\n\
        os.execv(sys.argv[1], sys.argv[1:])\n";
    let python = python();
    let wrapper: Vec<&str> =
        around.0.iter().copied().chain([python.as_str(), "-c", session]).chain(around.1.iter().copied()).collect();
    let on = layers_on();
    let mut finds = Vec::new();
    for (set, layers) in sets {
        let mut extra = vec!["-j", "2", "--timeout", "8s"];
        if let Some(layers) = layers {
            extra.extend(["--sandbox-layers", layers.as_str()]);
        }
        let students: [Student; 2] = [("a-leaver", "ipc_leave", &[]), ("b-finder", "ipc_find", &[])];
        let results = grade_fixtures_under(&wrapper, work, set, &students, &suite, &extra);
        let left = &results["a-leaver"].cases[0].stdout.text;
        let later = &results["a-leaver"].cases[1].stdout.text;
        let found = &results["b-finder"].cases[0].stdout.text;
        let detail = |id: &str| {
            let case = &results[id].cases[0];
            format!("{:?}: {}, {} ms", case.status, case.detail, case.elapsed_ms)
        };
        eprintln!(
            "{set}: leaver {left:?} ({}), then {later:?}, finder {found:?} ({})",
            detail("a-leaver"),
            detail("b-finder")
        );
        let layer = |name: &str| layers.as_deref().map_or(on.iter().any(|n| n == name), |l| l.contains(name));
        assert_eq!(sysv_objects_with_fixture_key(), Vec::<String>::new(), "{set}: left on the machine");
        if layer("ipc") || layer("seccomp") {
            for line in ["shm none", "mq none"] {
                assert!(found.lines().any(|l| l == line), "{set}: the classmate got something: {found}");
            }
            assert!(!found.contains("mq found"), "{set}: {found}");
        }
        // Keyrings in every set, seccomp or not: the classmate finds neither the run's key nor the TA's (a
        // session keyring of its own), and the uid's next run finds nothing the first left (its keyrings emptied).
        for line in ["key none", "ta key none"] {
            assert!(found.lines().any(|l| l == line), "{set}: the classmate got a key: {found}");
        }
        // A normal user's own keyrings are the TA's: emptied for leased uids only (as root).
        if layer("seccomp") || own_uid {
            assert_eq!(later, "own key none\n", "{set}: the uid's next run got what the first stored ({left})");
        }
        if !layer("seccomp") {
            assert!(left.contains("key stored"), "{set}: nothing was tried: {left}");
        }
        if layer("seccomp") {
            assert!(found.contains("netlink refused"), "{set}: {found}");
            assert!(left.contains("key refused") && left.contains("netlink refused"), "{set}: {left}");
        }
        if layer("seccomp") && !layer("ipc") {
            assert!(left.contains("shm refused") && left.contains("mq refused"), "{set}: {left}");
        }
        if layer("landlock") {
            assert!(left.contains("unix refused"), "{set}: {left}");
        }
        // A socket file in its own folder: none under Landlock, and as root the folder is its uid's alone.
        if layer("landlock") || own_uid {
            assert!(found.lines().any(|l| l == "unix refused"), "{set}: {found}");
        }
        finds.push((*set, found.clone()));
    }
    finds
}

/// Issue 22, item 6: every case runs in a fresh copy of the built hand-in with its own `HOME` and `TMPDIR`: a
/// program that leaves its arguments behind and rewrites its own source finds nothing of the earlier cases, in
/// every layer set.
#[test]
fn each_case_starts_from_a_fresh_copy_with_its_own_home_and_tmpdir() {
    let work = tempfile::tempdir().unwrap();
    each_case_starts_fresh(work.path(), &all_sets(), &[]);
}

/// [`each_case_starts_from_a_fresh_copy_with_its_own_home_and_tmpdir`] in `work` (which the grader may write) in
/// `sets`, the grader started through `wrapper` (see [`grade_fixtures_under`]).
pub fn each_case_starts_fresh(work: &Path, sets: &LayerSets, wrapper: &[&str]) {
    let suite = work.join("three.toml");
    let cases: String = (3..6)
        .map(|n| format!("[[case]]\nname = \"c{n}\"\nargs = \"{n} 0 0\"\nreference = true\nvisibility = \"hidden\"\n"))
        .collect();
    fs::write(&suite, format!("[reference]\ngame = \"takestones\"\n{cases}")).unwrap();
    let suite = suite.display().to_string();
    for (set, layers) in sets.iter().cloned() {
        let mut extra = vec!["-j", "1"];
        if let Some(layers) = &layers {
            extra.extend(["--sandbox-layers", layers.as_str()]);
        }
        let students: [Student; 1] = [("carrier", "case_carry", &[])];
        let results = grade_fixtures_under(wrapper, work, set, &students, &suite, &extra);
        let cases = &results["carrier"].cases;
        assert_eq!(cases.len(), 3, "{set}");
        for case in cases {
            assert_eq!(case.stdout.text, "seen 0\nhome inside\n", "{set}: {}: {}", case.name, case.detail);
        }
    }
}

/// Issue 22, item 5: a run that fills its folder is stopped at its disk budget (`--disk-limit 8MiB`) and fails as
/// over it, long before it has written what it meant to; a correct program graded with the same budget passes.
#[test]
fn a_run_that_fills_the_disk_is_stopped_at_its_budget_and_named_for_it() {
    let work = tempfile::tempdir().unwrap();
    a_filler_is_stopped_at_its_budget(work.path(), &all_sets(), &[]);
}

/// [`a_run_that_fills_the_disk_is_stopped_at_its_budget_and_named_for_it`] in `work` (which the grader may write)
/// in `sets`, the grader started through `wrapper` (see [`grade_fixtures_under`]). Per set, the MiB written.
pub fn a_filler_is_stopped_at_its_budget(work: &Path, sets: &LayerSets, wrapper: &[&str]) -> Vec<(&'static str, u64)> {
    let suite = one_case_suite(work);
    let mut written = Vec::new();
    for (set, layers) in sets.iter().cloned() {
        let mut extra = vec!["-j", "2", "--disk-limit", "8MiB", "--timeout", "20s"];
        if let Some(layers) = &layers {
            extra.extend(["--sandbox-layers", layers.as_str()]);
        }
        let class = work.join(format!("class-{set}"));
        fs::create_dir_all(class.join("good")).unwrap();
        fs::copy(fixture("submissions/python-stats/takestones.py"), class.join("good/takestones.py")).unwrap();
        let students: [Student; 1] = [("filler", "disk_filler", &[])];
        let results = grade_fixtures_under(wrapper, work, set, &students, &suite, &extra);
        let case = &results["filler"].cases[0];
        assert_eq!(case.status, Status::Crashed, "{set}: {}", case.detail);
        assert!(case.detail.contains("disk budget of 8 MiB"), "{set}: {}", case.detail);
        let wrote: u64 =
            case.stdout.text.lines().last().and_then(|l| l.strip_prefix("wrote ")).map_or(0, |n| n.parse().unwrap());
        eprintln!("{set}: the filler wrote {wrote} MiB before it was stopped ({} ms)", case.elapsed_ms);
        assert!(wrote < 512, "{set}: it wrote everything it meant to");
        let good: SubmissionResult =
            serde_json::from_slice(&fs::read(work.join(format!("out-{set}/results/good.json"))).unwrap()).unwrap();
        assert_eq!(good.score, good.max_score, "{set}: {}", good.cases[0].detail);
        written.push((set, wrote));
    }
    written
}

/// Issue 22, item 10: the host's Unix sockets in `/tmp` and `/run`, open to every user, are out of a run's reach
/// where the mount layer is in force (a private `/tmp`, an empty `/run`); where it is not, the test says so.
#[test]
fn host_sockets_in_tmp_and_run_are_out_of_reach_with_the_mount_layer() {
    let work = tempfile::tempdir().unwrap();
    host_sockets_reached(work.path(), &layer_sets_and_gradescope(), &[]);
}

/// [`host_sockets_in_tmp_and_run_are_out_of_reach_with_the_mount_layer`] in `work` (which the grader may write) in
/// `sets`, the grader started through `wrapper` (see [`grade_fixtures_under`]). Per set, how many of how many host
/// sockets the run reached.
pub fn host_sockets_reached(work: &Path, sets: &LayerSets, wrapper: &[&str]) -> Vec<(&'static str, usize, usize)> {
    use std::os::unix::net::UnixListener;
    let suite = one_case_suite(work);
    let unique = work.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let tag = format!("referee-host-{}-{unique}.sock", std::process::id());
    let paths: Vec<std::path::PathBuf> =
        ["/tmp", "/run"].iter().map(|d| Path::new(d).join(&tag)).filter(|p| p.parent().unwrap().is_dir()).collect();
    let listeners: Vec<UnixListener> = paths
        .iter()
        .map(|p| {
            let _ = fs::remove_file(p);
            let l = UnixListener::bind(p).unwrap();
            Command::new("chmod").arg("777").arg(p).status().unwrap();
            l.set_nonblocking(true).unwrap();
            l
        })
        .collect();
    let list = format!("{:?}", paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>());
    let mut reached = Vec::new();
    for (set, layers) in sets.iter().cloned() {
        let mut extra = vec!["-j", "1"];
        if let Some(layers) = &layers {
            extra.extend(["--sandbox-layers", layers.as_str()]);
        }
        let students: [Student; 1] = [("caller", "host_socket", &[("@SOCKETS@", &list)])];
        let results = grade_fixtures_under(wrapper, work, set, &students, &suite, &extra);
        let text = &results["caller"].cases[0].stdout.text;
        let accepted = listeners.iter().filter(|l| l.accept().is_ok()).count();
        let mount = layers.as_deref().map_or(layers_on().iter().any(|n| n == "mount"), |l| l.contains("mount"));
        eprintln!("{set}: mount {mount}: {accepted} host socket(s) reached: {text:?}");
        if mount {
            assert_eq!(accepted, 0, "{set}: {text}");
            assert_eq!(text.lines().filter(|l| l.contains(": refused (")).count(), paths.len(), "{set}: {text}");
        }
        reached.push((set, accepted, paths.len()));
    }
    for p in &paths {
        let _ = fs::remove_file(p);
    }
    reached
}

/// Issue 22, item 2: a grader started with a token, an ssh-agent socket and its own `HOME` and `PWD` passes none of
/// them on: the run's environment is the allowlist (`PATH`, the locale, `TZ`, `JAVA_HOME`), `HOME` and `TMPDIR` in
/// the case's own copy, the run marker, and what `--env` adds; in every layer set.
#[test]
fn the_graders_environment_never_reaches_a_run_beyond_the_allowlist() {
    let work = tempfile::tempdir().unwrap();
    the_environment_is_the_allowlist(work.path(), &all_sets(), &[]);
}

/// [`the_graders_environment_never_reaches_a_run_beyond_the_allowlist`] in `work` (which the grader may write) in
/// `sets`, the grader started through `wrapper` (see [`grade_fixtures_under`]).
pub fn the_environment_is_the_allowlist(work: &Path, sets: &LayerSets, wrapper: &[&str]) {
    let suite = one_case_suite(work);
    for (set, layers) in sets {
        let class = work.join(format!("class-{set}"));
        crate::sandbox::student(&class, "dumper", "env_dump", &[]);
        Command::new("chmod").args(["-R", "a+rX"]).arg(&class).status().unwrap();
        let out = work.join(format!("out-{set}"));
        let mut command = grader_command(wrapper);
        command
            .args(["grade", "--suite", &suite, "--submissions"])
            .arg(&class)
            .arg("--out")
            .arg(&out)
            .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python())])
            .args(["--env", "REFEREE_TA_ASKED=yes"])
            .env("REFEREE_SECRET_TOKEN", "s3cret")
            .env("SSH_AUTH_SOCK", "/tmp/ssh-agent.sock")
            .env("HOME", work)
            .env("LC_NUMERIC", "C");
        if let Some(layers) = &layers {
            command.args(["--sandbox-layers", layers]);
        }
        let output = command.output().unwrap();
        assert!(matches!(output.status.code(), Some(0 | 1)), "{set}: {}", String::from_utf8_lossy(&output.stderr));
        let result: SubmissionResult =
            serde_json::from_slice(&fs::read(out.join("results/dumper.json")).unwrap()).unwrap();
        let text = &result.cases[0].stdout.text;
        let vars: Vec<(&str, &str)> = text.lines().filter_map(|l| l.split_once('=')).collect();
        let cwd = vars.iter().find(|(n, _)| *n == "cwd").map(|(_, v)| *v).unwrap_or_else(|| panic!("{set}: {text}"));
        let allowed =
            ["PATH", "LANG", "LANGUAGE", "TZ", "JAVA_HOME", "HOME", "TMPDIR", "REFEREE_RUN", "REFEREE_TA_ASKED"];
        for (name, value) in &vars {
            if *name == "cwd" {
                continue;
            }
            assert!(allowed.contains(name) || name.starts_with("LC_"), "{set}: {name} reached the run: {text}");
            assert!(!value.contains("s3cret") && !value.contains("ssh-agent"), "{set}: {name}={value}");
        }
        for name in ["HOME", "TMPDIR"] {
            let value = vars.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
            assert_eq!(value, Some(cwd), "{set}: {name} is not the case's own folder: {text}");
        }
        assert!(vars.contains(&("LC_NUMERIC", "C")) && vars.contains(&("REFEREE_TA_ASKED", "yes")), "{set}: {text}");
    }
}

/// Issue 22, item 6, for `check`: every run starts from a fresh copy of the built folder with its own `HOME` and
/// `TMPDIR`, and the student's own folder is never written. The hand-in is a correct solver that answers wrongly
/// (printing the arguments it found) whenever an earlier run left something in its folder, `HOME` or `TMPDIR`, or
/// changed its source: `check` finds no divergence, and no run's output shows another run's arguments.
#[test]
fn every_run_of_check_starts_from_a_fresh_copy_with_its_own_home_and_tmpdir() {
    let work = tempfile::tempdir().unwrap();
    let dir = crate::sandbox::student(&work.path().join("class"), "carrier", "check_carry", &[]);
    fs::copy(fixture("submissions/python-stats/takestones.py"), dir.join("real.py")).unwrap();
    fs::write(dir.join("build.sh"), "echo built > built.txt\n").unwrap();
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    let source = fs::read(dir.join("takestones.py")).unwrap();
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["check", "takestones", "--cases", "2", "--seed", "7", "--dir"])
        .arg(&dir)
        .args(["--build", "sh {dir}/build.sh", "--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python())])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let runs = stdout.lines().filter_map(|l| l.split_once(" matched").map(|(head, _)| head.to_string())).count();
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("no divergence from the reference") && runs == 2, "{stdout}");
    assert!(!stdout.contains("seen ") && !stdout.contains("tampered"), "a run saw another's leftovers: {stdout}");
    assert_eq!(fs::read(dir.join("takestones.py")).unwrap(), source, "the student's own source was changed");
    for left in ["carry.txt", "built.txt"] {
        assert!(!dir.join(left).exists(), "{left} was written into the student's own folder");
    }
}

/// The folders a process of this test creates cgroups in (as `referee` finds its own): the cgroup v2 folder when
/// cpu, memory and pids are enabled below it, else the v1 cpu, memory and pids folders.
fn own_cgroup_parents() -> Vec<std::path::PathBuf> {
    let own = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mounts = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let path_of = |controller: &str| {
        own.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
            let hit = if controller.is_empty() { list.is_empty() } else { list.split(',').any(|c| c == controller) };
            hit.then(|| path.to_string())
        })
    };
    let mut v1 = Vec::new();
    for line in mounts.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let Some(dash) = fields.iter().position(|f| *f == "-") else { continue };
        let (root, point, fstype, options) = (fields[3], fields[4], fields[dash + 1], fields[dash + 3]);
        let dir =
            |path: String| Path::new(point).join(path.strip_prefix(root).unwrap_or(&path).trim_start_matches('/'));
        if fstype == "cgroup2" {
            if let Some(dir) = path_of("").map(dir) {
                let enabled = fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default();
                if ["cpu", "memory", "pids"].iter().all(|c| enabled.split_whitespace().any(|w| w == *c)) {
                    return vec![dir];
                }
            }
        } else if fstype == "cgroup" {
            for controller in ["cpu", "memory", "pids"] {
                if options.split(',').any(|o| o == controller) {
                    v1.extend(path_of(controller).map(dir));
                }
            }
        }
    }
    v1
}

/// Issue 22, item 4: run cgroups are named with the grader's PID namespace, pid and start time, so a grader whose
/// pid an earlier grader had (every grader in a fresh container has the same one) is not stopped by what that one
/// left: with `referee-<its pid>-probe` (the old name) and `referee-<its pid>-<namespace>-<another start>-0` made
/// before it starts, the cgroup layer is still in force and the second, a dead grader's, is removed; the cgroups of
/// a live grader (this test process stands for one) and of another PID namespace are left alone.
#[test]
fn cgroup_names_carry_pid_namespace_and_start_time_so_a_reused_pid_neither_collides_nor_sweeps_the_living() {
    use std::os::unix::fs::MetadataExt;
    if !layers_on().iter().any(|n| n == "cgroup") {
        eprintln!("SKIPPED cgroup names: no cgroup layer here");
        return;
    }
    let parents = own_cgroup_parents();
    assert!(!parents.is_empty(), "the cgroup layer is in force but no cgroup folder of ours was found");
    let namespace = fs::metadata("/proc/self/ns/pid").unwrap().ino();
    let me = std::process::id();
    let stat = fs::read_to_string(format!("/proc/{me}/stat")).unwrap();
    let started: u64 = stat[stat.rfind(')').unwrap() + 1..].split_whitespace().nth(19).unwrap().parse().unwrap();
    let kept = [format!("referee-{me}-{namespace}-{started}-0"), format!("referee-1-{}-1-0", namespace + 1)];
    for parent in &parents {
        for name in &kept {
            fs::create_dir(parent.join(name)).unwrap();
        }
    }
    // The grader's pid is the shell's: it makes the leftovers of an earlier grader with that pid, then becomes it.
    let child = Command::new("sh")
        .arg("-c")
        .arg("for p in \"$@\"; do mkdir \"$p/referee-$$-probe\" \"$p/referee-$$-$NS-1-0\" || exit 9; done; exec \"$REFEREE\" sandbox")
        .arg("sh")
        .args(&parents)
        .env("NS", namespace.to_string())
        .env("REFEREE", assert_cmd::cargo::cargo_bin("referee"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let grader = child.id();
    let output = child.wait_with_output().unwrap();
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let made = [format!("referee-{grader}-probe"), format!("referee-{grader}-{namespace}-1-0")];
    let left = |name: &str| parents.iter().filter(|p| p.join(name).exists()).count();
    let found: Vec<usize> = kept.iter().chain(&made).map(|name| left(name)).collect();
    for parent in &parents {
        for name in kept.iter().chain(&made) {
            let _ = fs::remove_dir(parent.join(name));
        }
    }
    assert_eq!(output.status.code(), Some(0), "{report}{}", String::from_utf8_lossy(&output.stderr));
    let cgroup = crate::sandbox::parse_layers(&report).into_iter().find(|(name, _, _)| name == "cgroup");
    let (_, on, detail) = cgroup.unwrap_or_else(|| panic!("{report}"));
    assert!(on, "an earlier grader's leftovers with this pid stopped the cgroup layer: {detail}");
    let n = parents.len();
    assert_eq!(found[..2], [n, n], "a live grader's or another namespace's cgroups were swept");
    assert_eq!(found[3], 0, "a dead grader's cgroups under the new grader's own pid were kept");
}

/// What `othello_carry_ai.py` adds to the correct `limit_ai.py`: called by the check (not by its own search),
/// `compute_utility` raises, naming what it found, when an earlier call left a file in its folder, `HOME`, `TMPDIR`
/// or working folder, or changed `othello_shared.py` beside it; on a start board (the fixed cases ask five) it
/// leaves the board there and appends to `othello_shared.py`. A write that fails raises too.
const OTHELLO_CARRY: &str = r#"

import os as _os
import sys as _sys

_PLACES = [_os.path.dirname(_os.path.abspath(__file__)), _os.environ["HOME"], _os.environ["TMPDIR"], _os.getcwd()]
_WRITTEN = [0]
_inner = compute_utility


def compute_utility(board, color):
    if _sys._getframe(1).f_code.co_filename != __file__:
        seen = []
        for place in _PLACES:
            for name in sorted(_os.listdir(place)):
                if name.startswith("seen-"):
                    with open(_os.path.join(place, name)) as f:
                        seen.append(f.read())
        with open(_os.path.join(_PLACES[0], "othello_shared.py")) as f:
            if "TAMPERED" in f.read():
                seen.append("othello_shared.py tampered with")
        if seen:
            raise RuntimeError("seen %d: %s" % (len(seen), " | ".join(seen)))
        if sum(v != 0 for row in board for v in row) == 4:
            for i, place in enumerate(_PLACES):
                _WRITTEN[0] += 1
                with open(_os.path.join(place, "seen-%d-%d" % (i, _WRITTEN[0])), "w") as f:
                    f.write("%r color %d" % (board, color))
            with open(_os.path.join(_PLACES[0], "othello_shared.py"), "a") as f:
                f.write("\nTAMPERED = 1\n")
    return _inner(board, color)
"#;

/// Issue 22, item 6, for `check othello`: no call of the student's functions finds what an earlier one left in
/// its folder, `HOME` or `TMPDIR`, nor runs a file an earlier one changed (a call that changes its folder ends
/// its Python; the next starts in a fresh copy). The module is correct but for what it finds, so every call agrees;
/// its own folder is untouched and nothing of the check is left in the temporary folder.
#[test]
fn every_call_of_check_othello_starts_from_a_folder_no_earlier_call_changed() {
    let work = tempfile::tempdir().unwrap();
    let (student, temp) = (work.path().join("student"), work.path().join("tmp"));
    fs::create_dir_all(&student).unwrap();
    fs::create_dir_all(&temp).unwrap();
    let correct = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/othello/modules/limit_ai.py");
    let source = fs::read_to_string(correct).unwrap() + OTHELLO_CARRY;
    let agent = student.join("othello_carry_ai.py");
    fs::write(&agent, &source).unwrap();
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["check", "othello", "--python", &python(), "--cases", "0", "--seed", "1", "--agent"])
        .arg(&agent)
        .env("TMPDIR", &temp)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stdout.contains("seen ") && !stdout.contains("tampered"), "a call found another's leftovers: {stdout}");
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("compute_utility(board, color): 25/25 agree"), "{stdout}");
    let names: Vec<_> = fs::read_dir(&student).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["othello_carry_ai.py"], "written into the student's own folder");
    assert_eq!(fs::read_to_string(&agent).unwrap(), source, "the student's own module was changed");
    let left: Vec<_> = fs::read_dir(&temp).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
}
