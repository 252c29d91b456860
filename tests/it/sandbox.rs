//! The sandbox layers against hostile submissions that know how referee works: each fixture is graded as a student
//! and must get the right status while its attempt is refused. A test whose layer is not in force on this machine
//! prints why and checks nothing else; with `REFEREE_REQUIRE_SANDBOX=1` (CI, as root) a missing layer fails it.

use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use referee::harness::model::{Status, SubmissionResult};

use crate::grade::{fixture, python};

/// `referee sandbox`'s report: per layer, whether it is in force and the rest of its line.
fn layers() -> Vec<(String, bool, String)> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("referee")).arg("sandbox").output().unwrap();
    assert!(out.status.success());
    parse_layers(&String::from_utf8_lossy(&out.stdout))
}

/// The layers in the text `referee sandbox` printed.
pub fn parse_layers(report: &str) -> Vec<(String, bool, String)> {
    report
        .lines()
        .skip(1)
        .map(|line| {
            let line = line.trim_start();
            let (name, rest) = line.split_once(' ').unwrap();
            let rest = rest.trim_start();
            let in_force = rest.starts_with("in force");
            (name.to_string(), in_force, rest.to_string())
        })
        .collect()
}

/// Whether any of `names` is in force; when none is, prints why the test checks nothing (and fails it under
/// `REFEREE_REQUIRE_SANDBOX`).
fn in_force(names: &[&str], test: &str) -> bool {
    let all = layers();
    if all.iter().any(|(name, on, _)| *on && names.contains(&name.as_str())) {
        return true;
    }
    let why: Vec<String> =
        all.iter().filter(|(n, _, _)| names.contains(&n.as_str())).map(|(_, _, r)| r.clone()).collect();
    assert!(std::env::var_os("REFEREE_REQUIRE_SANDBOX").is_none(), "{test}: {names:?} not in force: {why:?}");
    eprintln!("SKIPPED {test}: none of {names:?} is in force here: {why:?}");
    false
}

fn is_root() -> bool {
    referee::harness::runner::sandbox::is_root()
}

/// Writes the hostile fixture `name` as `<class>/<id>/takestones.py` with its placeholders replaced.
pub fn student(class: &Path, id: &str, name: &str, replace: &[(&str, &str)]) -> PathBuf {
    let dir = class.join(id);
    fs::create_dir_all(&dir).unwrap();
    let mut text = fs::read_to_string(fixture(&format!("hostile/{name}.py"))).unwrap();
    for (from, to) in replace {
        text = text.replace(from, to);
    }
    fs::write(dir.join("takestones.py"), text).unwrap();
    dir
}

/// Grades the class at `class` against `suite` with `-j 2`; returns each student's result.
fn grade_class(class: &Path, suite: &str, extra: &[&str]) -> Vec<SubmissionResult> {
    let out = class.parent().unwrap().join("out");
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", suite, "--submissions"])
        .arg(class)
        .arg("--out")
        .arg(&out)
        .args(["-j", "2", "--color", "never"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
    let mut results: Vec<SubmissionResult> = fs::read_dir(out.join("results"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_slice(&fs::read(e.path()).unwrap()).unwrap())
        .collect();
    results.sort_by(|a, b| a.id.cmp(&b.id));
    results
}

fn python_cmd() -> String {
    format!("{} {{dir}}/takestones.py {{args}}", python())
}

fn result<'a>(results: &'a [SubmissionResult], id: &str) -> &'a SubmissionResult {
    results.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no result for {id}"))
}

#[test]
fn referee_sandbox_reports_each_layer_and_require_refuses_without_one() {
    let all = layers();
    let names: Vec<&str> = all.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["user", "landlock", "network", "pid", "ipc", "mount", "seccomp", "cgroup", "limits"]);
    for (name, on, rest) in &all {
        let detail = rest.trim_start_matches("in force").trim_start_matches("NOT in force").trim();
        assert!(!detail.is_empty(), "{name}: no reason given");
        if std::env::var_os("REFEREE_REQUIRE_SANDBOX").is_some() {
            assert!(on, "{name} is not in force: {detail}");
        }
    }
    // --sandbox require: exit 3 before anything runs when a layer is missing, and the run goes ahead otherwise.
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    student(&class, "s1", "nonzero_exit", &[]);
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--sandbox", "require", "--submissions"])
        .arg(&class)
        .arg("--out")
        .arg(work.path().join("out"))
        .args(["--cmd", &python_cmd()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let every = all.iter().filter(|(n, _, _)| n != "user" && n != "limits").all(|(_, on, _)| *on);
    if every {
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        let s: SubmissionResult =
            serde_json::from_slice(&fs::read(work.path().join("out/results/s1.json")).unwrap()).unwrap();
        assert_eq!(s.sandbox, ["landlock", "network", "pid", "ipc", "mount", "seccomp", "cgroup"]);
    } else {
        assert_eq!(output.status.code(), Some(3), "{stderr}");
        assert!(stderr.contains("--sandbox require: not in force"), "{stderr}");
        assert!(!work.path().join("out/results").exists());
    }
}

#[test]
fn a_submission_cannot_read_the_suites_expected_output() {
    if !in_force(&["landlock"], "read the suite") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    // A copy of the course's official suite: testcase.txt and the expected outputs.
    let suite = work.path().join("suite");
    fs::create_dir_all(&suite).unwrap();
    let official = Path::new(env!("CARGO_MANIFEST_DIR")).join("testcases/takestones/stats-2019");
    for entry in fs::read_dir(official).unwrap().flatten() {
        fs::copy(entry.path(), suite.join(entry.file_name())).unwrap();
    }
    // The suite folder is world-readable, as a TA's folders usually are.
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    let class = work.path().join("class");
    student(&class, "cheat", "read_expected", &[("@SUITE@", suite.to_str().unwrap())]);
    let results = grade_class(&class, suite.to_str().unwrap(), &["--cmd", &python_cmd()]);
    let cheat = result(&results, "cheat");
    assert!(!cheat.cases.is_empty());
    for case in &cheat.cases {
        assert_eq!(case.status, Status::Failed, "{}: {}", case.name, case.stdout.text);
        assert!(case.stdout.text.starts_with("suite read denied:"), "{}", case.stdout.text);
        // Refused by Landlock, or not even there: the suite lies in the host's /tmp, hidden by a private one.
        let text = &case.stdout.text;
        assert!(text.contains("Permission denied") || text.contains("No such file"), "{text}");
    }
}

#[test]
fn a_submission_leaves_no_file_in_tmp_dev_shm_var_tmp_or_home_and_reaches_no_listener() {
    let files = in_force(&["landlock"], "shared folders");
    let network = in_force(&["landlock", "network"], "loopback");
    if !files && !network {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    let tag = format!("referee-sandbox-test-{}", std::process::id());
    let home = std::env::var("HOME").unwrap_or("/root".into());
    student(&class, "writer", "write_shared", &[("@TAG@", &tag), ("@GRADER_HOME@", &home)]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    listener.set_nonblocking(true).unwrap();
    let (stop, seen) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let watcher = {
        let (stop, seen) = (Arc::clone(&stop), Arc::clone(&seen));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if let Ok((mut stream, _)) = listener.accept() {
                    let mut text = String::new();
                    let _ = stream.read_to_string(&mut text);
                    seen.fetch_add(1, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    student(&class, "caller", "connect_loopback", &[("@PORT@", &port)]);
    let results = grade_class(&class, "builtin:takestones-stats-2019", &["--cmd", &python_cmd()]);
    stop.store(true, Ordering::Relaxed);
    watcher.join().unwrap();
    let places = ["/tmp", "/dev/shm", "/var/tmp", home.as_str()].map(|p| Path::new(p).join(&tag));
    let left: Vec<&PathBuf> = places.iter().filter(|p| p.exists()).collect();
    for p in &left {
        let _ = fs::remove_file(p);
    }
    if files {
        assert_eq!(left, Vec::<&PathBuf>::new(), "files written outside the scratch copy");
        let private = in_force(&["mount"], "private temporary folders");
        for case in &result(&results, "writer").cases {
            assert_eq!(case.status, Status::Failed);
            assert_private_or_denied(&case.stdout.text, private);
        }
    }
    if network {
        assert_eq!(seen.load(Ordering::Relaxed), 0, "the listener was reached");
        for case in &result(&results, "caller").cases {
            assert_eq!(case.status, Status::Failed);
            assert!(case.stdout.text.starts_with("connect denied"), "{}", case.stdout.text);
        }
    }
}

/// The write_shared fixture's lines: `/tmp`, `/dev/shm` and `/var/tmp` are refused, or with the mount layer
/// written in the run's own private folders (the caller checks that nothing reached the host); the grader's home is
/// refused too, unless it lies in one of those (then it is the private copy's).
pub fn assert_private_or_denied(text: &str, private: bool) {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for line in &lines {
        let temporary = ["/tmp/", "/dev/shm/", "/var/tmp/"].iter().any(|t| line.starts_with(t));
        let written = private && temporary && line.ends_with(": ok");
        assert!(written || line.contains(": denied ("), "{text}");
    }
}

#[test]
fn a_submission_cannot_see_the_graders_command_line() {
    if !in_force(&["pid", "landlock"], "grader's command line") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    student(&class, "snoop", "grader_cmdline", &[]);
    let results = grade_class(&class, "builtin:takestones-stats-2019", &["--cmd", &python_cmd()]);
    for case in &result(&results, "snoop").cases {
        assert_eq!(case.status, Status::Failed);
        assert!(!case.stdout.text.contains("seen "), "{}", case.stdout.text);
        // It may list /proc, and finds only its own processes there: itself, and in a PID namespace of its own the
        // launcher that is the namespace's init (the grader's machine runs dozens).
        // As root with every layer, each run has a uid of its own and joins the grader's hidepid /proc: no init.
        let visible = case.stdout.text.lines().find_map(|l| l.strip_prefix("visible: ")).unwrap_or_default();
        let every = layers().iter().all(|(_, on, _)| *on);
        let allowed: &[&str] = if is_root() && every { &["1"] } else { &["1", "2"] };
        assert!(allowed.contains(&visible), "{}", case.stdout.text);
    }
}

#[test]
fn a_submission_cannot_forge_how_it_ended() {
    if !in_force(&["pid"], "forged exit status") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    student(&class, "forger", "forge_status", &[]);
    let results = grade_class(&class, "builtin:takestones-stats-2019", &["--cmd", &python_cmd()]);
    for case in &result(&results, "forger").cases {
        assert_eq!(case.status, Status::NonzeroExit, "{}: {}", case.name, case.detail);
        assert!(case.detail.contains('3'), "{}", case.detail);
    }
}

#[test]
fn a_neighbour_graded_alongside_cannot_read_or_kill_another_student() {
    if !in_force(&["landlock"], "neighbour") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    student(&class, "a-neighbour", "neighbour", &[("@CLASS@", class.to_str().unwrap())]);
    let victim = class.join("b-victim");
    fs::create_dir_all(&victim).unwrap();
    fs::copy(fixture("hostile/slow_correct.py"), victim.join("takestones.py")).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), victim.join("real.py")).unwrap();
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    // One case each, so the two run side by side (-j 2) for the victim's whole run.
    let suite = work.path().join("suite.toml");
    fs::write(
        &suite,
        "[reference]\ngame = \"takestones\"\n[[case]]\nname = \"small\"\nargs = \"3 0 0\"\nreference = true\n",
    )
    .unwrap();
    let results = grade_class(&class, suite.to_str().unwrap(), &["--cmd", &python_cmd(), "--timeout", "8s"]);
    let neighbour = &result(&results, "a-neighbour").cases[0];
    assert!(!neighbour.stdout.text.lines().any(|l| l.starts_with("read ")), "{}", neighbour.stdout.text);
    assert!(!neighbour.stdout.text.lines().any(|l| l.starts_with("killed ")), "{}", neighbour.stdout.text);
    let victim = &result(&results, "b-victim").cases[0];
    assert_eq!(victim.status, Status::Passed, "{}", victim.detail);
}

#[test]
fn two_students_graded_side_by_side_cannot_talk_over_an_abstract_socket() {
    // As root the runs share one empty network namespace (so its abstract socket names); Landlock's scoping must
    // still keep each run to its own sockets.
    if !in_force(&["network"], "abstract socket between runs") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for id in ["a-left", "b-right"] {
        student(&class, id, "abstract_socket", &[]);
    }
    let suite = work.path().join("suite.toml");
    fs::write(
        &suite,
        "[reference]\ngame = \"takestones\"\n[[case]]\nname = \"small\"\nargs = \"3 0 0\"\nreference = true\n",
    )
    .unwrap();
    let results = grade_class(&class, suite.to_str().unwrap(), &["--cmd", &python_cmd(), "--timeout", "8s"]);
    let full = |(name, on, rest): &(String, bool, String)| name == "landlock" && *on && rest.contains("ABI 6 or later");
    let shared = is_root() && layers().iter().any(full);
    for id in ["a-left", "b-right"] {
        let case = &result(&results, id).cases[0];
        assert_eq!(case.status, Status::Failed, "{id}: {}", case.detail);
        let text = &case.stdout.text;
        assert!(!text.lines().any(|l| l.starts_with("connected") || l.starts_with("accepted")), "{id}: {text}");
        // Sharing a namespace, each one sees the other's name in /proc/net/unix and must have tried it.
        assert!(!shared || text.contains("refused"), "{id} never found the other one to try: {text}");
    }
}

/// Whether a bomb fixture may run here: only as root, where a dedicated uid's RLIMIT_NPROC binds it (never on a
/// TA's box), and with the cgroup layer that bounds its CPU share and memory.
fn may_run_a_bomb(test: &str) -> bool {
    if !is_root() {
        eprintln!("SKIPPED {test}: only as root (dedicated uids bound it)");
        return false;
    }
    in_force(&["cgroup"], test)
}

#[test]
fn a_fork_bomb_beside_a_correct_java_submission_does_not_change_its_status() {
    if !may_run_a_bomb("fork bomb") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    let bomb = student(&class, "a-bomb", "fork_bomb", &[]);
    fs::write(bomb.join("run.sh"), format!("exec {} \"$(dirname \"$0\")/takestones.py\" \"$@\"\n", python())).unwrap();
    fs::write(bomb.join("build.sh"), "true\n").unwrap();
    let java = class.join("b-java");
    fs::create_dir_all(&java).unwrap();
    for entry in fs::read_dir(fixture("submissions/java-stats")).unwrap().flatten() {
        fs::copy(entry.path(), java.join(entry.file_name())).unwrap();
    }
    fs::write(java.join("run.sh"), "exec java -cp \"$(dirname \"$0\")\" TakeStones \"$@\"\n").unwrap();
    fs::write(java.join("build.sh"), "cd \"$(dirname \"$0\")\" && exec javac -d . *.java\n").unwrap();
    // One case: the Java build and run overlap the bomb's first run (cut at the 6 s limit) anyway; more cases only
    // added bomb runs that ran alone.
    let suite = work.path().join("suite.toml");
    let case = "[[case]]\nname = \"c0\"\nargs = \"10 3 4 2 6 4\"\nreference = true\n";
    fs::write(&suite, format!("[reference]\ngame = \"takestones\"\n{case}")).unwrap();
    let results = grade_class(
        &class,
        suite.to_str().unwrap(),
        &["--cmd", "sh {dir}/run.sh {args}", "--build", "sh {dir}/build.sh", "--timeout", "6s"],
    );
    let java = result(&results, "b-java");
    assert!(java.build.as_ref().is_some_and(|b| b.ok), "{:?}", java.build);
    assert_eq!(java.cases.len(), 1);
    for case in &java.cases {
        assert_eq!(case.status, Status::Passed, "{}: {}", case.name, case.detail);
    }
    let bomb = result(&results, "a-bomb");
    assert!(bomb.cases.iter().all(|c| c.status != Status::Passed));
}

#[test]
fn as_root_a_missing_interpreter_is_not_found_and_another_python3_is_named() {
    if !is_root() {
        eprintln!("SKIPPED interpreter resolution: only as root (runs then use a dedicated uid)");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("s1");
    fs::create_dir_all(&dir).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), dir.join("takestones.py")).unwrap();
    let grade = |cmd: &str, path: &str| {
        Command::new(assert_cmd::cargo::cargo_bin("referee"))
            .args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir"])
            .arg(&dir)
            .args(["--cmd", cmd])
            .env("PATH", path)
            .output()
            .unwrap()
    };
    let typo = grade("python9 {dir}/takestones.py {args}", "/usr/bin:/bin");
    let stderr = String::from_utf8_lossy(&typo.stderr);
    assert_eq!(typo.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "referee grade: --cmd: command 'python9' not found for the sandbox user: no program by that name on PATH"
    );
    // A python3 of the TA's own, in a folder the sandbox user cannot enter (as a pyenv shim under /root).
    let private = work.path().join("private");
    fs::create_dir_all(&private).unwrap();
    let shim = private.join("python3");
    fs::write(&shim, "#!/bin/sh\necho 'Python 9.9.9'\n").unwrap();
    Command::new("chmod").arg("700").arg(&private).status().unwrap();
    Command::new("chmod").arg("755").arg(&shim).status().unwrap();
    let path = format!("{}:/usr/bin:/bin", private.display());
    let out = grade("python3 {dir}/takestones.py {args}", &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let note = format!(
        "referee grade: note: 'python3' is {} (Python 9.9.9) for you, but the sandbox user cannot reach it and runs \
         /usr/bin/python3 (Python 3.",
        shim.display()
    );
    assert!(stderr.contains(&note), "{stderr}");
}

#[test]
fn a_memory_bomb_is_killed_by_its_memory_limit_and_never_takes_the_grader_with_it() {
    if !may_run_a_bomb("memory bomb") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    student(&class, "a-bomb", "memory_bomb", &[]);
    let good = class.join("b-good");
    fs::create_dir_all(&good).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), good.join("takestones.py")).unwrap();
    // Asserts inside that the grader exits 0 or 1 with a result for everyone: it was not the OOM killer's pick.
    let results = grade_class(
        &class,
        "builtin:takestones-stats-2019",
        &["--cmd", &python_cmd(), "--memory", "128MiB", "--timeout", "3s"],
    );
    assert_eq!(results.len(), 2);
    for case in &result(&results, "b-good").cases {
        assert_eq!(case.status, Status::Passed, "{}: {}", case.name, case.detail);
    }
    for case in &result(&results, "a-bomb").cases {
        assert_ne!(case.status, Status::Passed);
        // The run is the OOM killer's first choice, before the grader whose thread may share its memory cgroup.
        assert!(case.stdout.text.starts_with("oom_score_adj 1000\n"), "{}", case.stdout.text);
    }
}

/// A correct program that imports `refmod`, a module only the virtual environment's site-packages holds.
fn importing_student(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let source = fs::read_to_string(fixture("submissions/python-stats/takestones.py")).unwrap();
    fs::write(dir.join("takestones.py"), format!("import refmod\n{source}")).unwrap();
}

/// A TA's two usual Pythons in `home`: a pyenv-style shim (`shims/python3`, a script that execs an interpreter
/// installed under the same home, a copy and not a link into the system) and an activated `python3 -m venv` whose
/// site-packages holds `refmod`. Returns the `PATH` of each.
fn ta_pythons(home: &Path) -> (String, String) {
    let version = home.join(".fakepyenv/versions/3.11");
    let made =
        Command::new("/usr/bin/python3").args(["-m", "venv", "--copies", "--without-pip"]).arg(&version).status();
    assert!(made.unwrap().success());
    let shims = home.join(".fakepyenv/shims");
    fs::create_dir_all(&shims).unwrap();
    let shim = shims.join("python3");
    fs::write(&shim, format!("#!/bin/sh\nexec \"{}\" \"$@\"\n", version.join("bin/python3").display())).unwrap();
    Command::new("chmod").arg("755").arg(&shim).status().unwrap();
    let venv = home.join("venv");
    let made = Command::new("/usr/bin/python3").args(["-m", "venv", "--without-pip"]).arg(&venv).status();
    assert!(made.unwrap().success());
    let site = fs::read_dir(venv.join("lib")).unwrap().flatten().next().unwrap().path().join("site-packages");
    fs::write(site.join("refmod.py"), "VALUE = 1\n").unwrap();
    (format!("{}:/usr/bin:/bin", shims.display()), format!("{}:/usr/bin:/bin", venv.join("bin").display()))
}

/// Issue 23, item 2: a pyenv-style shim and an activated virtualenv, as root and as a normal user, under `grade` and
/// `check`: a correct program passes every case (the toolchains were found and granted), never "exited 126" or a
/// `PermissionError` on `pyvenv.cfg`.
#[test]
fn pyenv_shims_and_virtualenvs_pass_a_correct_program_as_root_and_as_a_normal_user() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let (shim_path, venv_path) = ta_pythons(&home);
    let plain = work.path().join("plain");
    fs::create_dir_all(&plain).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), plain.join("takestones.py")).unwrap();
    let importing = work.path().join("importing");
    importing_student(&importing);
    let exe = work.path().join("referee");
    fs::copy(assert_cmd::cargo::cargo_bin("referee"), &exe).unwrap();
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    let cmd = "python3 {dir}/takestones.py {args}";
    let run = |who: &str, path: &str, student: &Path| {
        let as_user: Vec<String> = if who == "root" {
            Vec::new()
        } else {
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"].map(String::from).to_vec()
        };
        let out = work.path().join(format!("out-{who}-{}", student.file_name().unwrap().to_string_lossy()));
        let grade: Vec<String> = [exe.to_str().unwrap(), "grade", "--suite", "builtin:takestones-stats-2019"]
            .into_iter()
            .chain(["--dir", student.to_str().unwrap(), "--cmd", cmd, "--out", out.to_str().unwrap()])
            .map(String::from)
            .collect();
        let check: Vec<String> = [exe.to_str().unwrap(), "check", "takestones", "--cases", "3", "--seed", "1"]
            .into_iter()
            .chain(["--dir", student.to_str().unwrap(), "--cmd", cmd])
            .map(String::from)
            .collect();
        for command in [grade, check] {
            let words: Vec<String> = as_user.iter().cloned().chain(command).collect();
            let output = Command::new(&words[0])
                .args(&words[1..])
                .env("PATH", path)
                .env("HOME", &home)
                .env("TMPDIR", work.path())
                .output()
                .unwrap();
            let text =
                format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
            assert_eq!(output.status.code(), Some(0), "{who} {} with PATH={path}: {text}", words[words.len() - 5]);
            // "exit code 126" (a program the run could not execute), not any "126": the grader's pid can hold it.
            assert!(!text.contains("exit code 126") && !text.contains("pyvenv.cfg"), "{who}: {text}");
        }
    };
    if !is_root() {
        eprintln!("SKIPPED toolchains as root and as a normal user: the test needs root (setpriv)");
        return;
    }
    // Everything belongs to nobody when nobody grades; root may grade it as well.
    Command::new("chown").args(["-R", "65534:65534"]).arg(work.path()).status().unwrap();
    for who in ["root", "nobody"] {
        run(who, &shim_path, &plain);
        run(who, &venv_path, &importing);
    }
}

/// Issue 23, item 2: a toolchain the sandbox keeps from starting stops the run before any student, with exit 3 and
/// a message naming the path and `--allow-read` (here the TA's `--env PYTHONHOME` is a Python home whose library
/// only root's group may read); as root, a virtual environment the sandbox user cannot reach is refused the same
/// way (it would silently run another Python without the packages). No student result is written.
#[test]
fn a_toolchain_the_sandbox_hides_stops_grading_before_any_student_with_exit_3() {
    if !is_root() || !in_force(&["landlock"], "toolchain preflight") {
        eprintln!("SKIPPED preflight: as root, where the sandbox user is another uid");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("pyhome");
    let lib = home.join("lib/python3.11");
    fs::create_dir_all(&lib).unwrap();
    for part in ["encodings", "os.py"] {
        Command::new("cp").arg("-r").arg(Path::new("/usr/lib/python3.11").join(part)).arg(&lib).status().unwrap();
    }
    let student = work.path().join("s1");
    fs::create_dir_all(&student).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), student.join("takestones.py")).unwrap();
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    Command::new("chmod").arg("750").arg(home.join("lib")).status().unwrap();
    let outside = Command::new("/usr/bin/python3").args(["-c", "pass"]).env("PYTHONHOME", &home).status().unwrap();
    assert!(outside.success(), "the Python home must work outside the sandbox");
    let out = work.path().join("out");
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir"])
        .arg(&student)
        .args(["--cmd", "/usr/bin/python3 {dir}/takestones.py {args}", "--env"])
        .arg(format!("PYTHONHOME={}", home.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    let line = stderr.lines().find(|l| l.contains("sandbox keeps")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains(&lib.display().to_string()), "{line}");
    assert!(line.contains("--allow-read") && line.contains("readable by other users"), "{line}");
    assert!(!out.join("results").exists(), "a student was graded");
    // A virtual environment in a folder only root may enter, first on the TA's PATH.
    let private = work.path().join("private");
    fs::create_dir_all(&private).unwrap();
    let made =
        Command::new("/usr/bin/python3").args(["-m", "venv", "--without-pip"]).arg(private.join("venv")).status();
    assert!(made.unwrap().success());
    Command::new("chmod").arg("700").arg(&private).status().unwrap();
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--dir"])
        .arg(&student)
        .args(["--cmd", "python3 {dir}/takestones.py {args}"])
        .env("PATH", format!("{}:/usr/bin:/bin", private.join("venv/bin").display()))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("virtual environment") && stderr.contains("cannot reach"), "{stderr}");
}

/// Issue 22, item 12: as root, `--run-as-self` is refused with one line, and `check` runs the student's program as
/// a uid of its own (here one that reads `/etc/shadow`: it gets nothing); the launcher finds itself through
/// `/proc/self/exe`, so a class graded by a `referee` whose file is deleted halfway still grades everyone.
#[test]
fn as_root_check_runs_as_a_uid_of_its_own_and_run_as_self_is_refused() {
    if !is_root() {
        eprintln!("SKIPPED root-only refusals: not root");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    let dir = student(&class, "snoop", "read_shadow", &[]);
    for command in ["grade", "check"] {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("referee"));
        if command == "grade" {
            cmd.args(["grade", "--suite", "builtin:takestones-stats-2019"]);
        } else {
            cmd.args(["check", "takestones", "--cases", "1"]);
        }
        let output = cmd.arg("--dir").arg(&dir).args(["--cmd", &python_cmd(), "--run-as-self"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(matches!(output.status.code(), Some(2 | 3)), "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(stderr.contains("--run-as-self is refused as root"), "{command}: {stderr}");
    }
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["check", "takestones", "--cases", "1", "--dir"])
        .arg(&dir)
        .args(["--cmd", &python_cmd()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("shadow: denied"), "{stdout}");
    assert!(!stdout.contains("shadow: read"), "{stdout}");
    // A referee deleted while it grades: three slow students, the binary removed after the first started.
    let exe = work.path().join("referee");
    fs::copy(assert_cmd::cargo::cargo_bin("referee"), &exe).unwrap();
    let slow = work.path().join("slow");
    for id in ["s1", "s2", "s3"] {
        let dir = slow.join(id);
        fs::create_dir_all(&dir).unwrap();
        fs::copy(fixture("submissions/python-stats/takestones.py"), dir.join("takestones.py")).unwrap();
    }
    let out = work.path().join("out");
    let child = Command::new(&exe)
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--submissions"])
        .arg(&slow)
        .arg("--out")
        .arg(&out)
        .args(["--shell", "--cmd", &format!("sleep 0.3; {} {{dir}}/takestones.py {{args}}", python()), "-j", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !out.join("results").exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    fs::remove_file(&exe).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let results = fs::read_dir(out.join("results")).unwrap().count();
    assert!(results >= 3, "{results} results");
}

/// The launcher as every run on macOS goes through it (`+portable`: the resource limits, inherited descriptors
/// closed, a program of the run's folder started by the path just checked, the report on an inherited pipe named by
/// its number; no layer, no `/proc`), driven directly on Linux: how that path is tested without a Mac.
#[test]
fn the_macos_launcher_limits_the_program_closes_its_report_and_refuses_links() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().canonicalize().unwrap();
    // A binary (no `#!` line), so it is started by its checked path; and a link to it, which is refused.
    fs::copy("/bin/sh", dir.join("prog")).unwrap();
    std::os::unix::fs::symlink(dir.join("prog"), dir.join("link")).unwrap();
    let exe = assert_cmd::cargo::cargo_bin("referee");
    let launch = |options: &str, program: &str| {
        // Descriptor 9 is the report pipe (here a copy of the captured stdout, a pipe), as the grader passes it.
        let script = format!(
            "exec 9>&1; exec '{}' __exec +portable +cpu 7 +fsize 4096 +dir '{}' +report 9 N0NCE {options} -- {program}",
            exe.display(),
            dir.display()
        );
        let out = Command::new("sh").arg("-c").arg(script).current_dir(&dir).output().unwrap();
        (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code())
    };
    let probe = "-c 'ulimit -t; ulimit -H -n; ulimit -c; [ -e /proc/self/fd/9 ] && echo leaked || echo closed'";
    let (out, code) = launch("", &format!("'{}/prog' {probe}", dir.display()));
    assert_eq!(out.lines().collect::<Vec<_>>(), ["N0NCE started", "7", "1024", "0", "closed"], "{out}");
    assert_eq!(code, Some(0));
    let (out, code) = launch("", &format!("'{}/link' {probe}", dir.display()));
    let refused = format!("N0NCE refused '{}/link' is a symbolic link: links are not followed", dir.display());
    assert_eq!(out.lines().collect::<Vec<_>>(), ["N0NCE started", refused.as_str()], "{out}");
    assert_eq!(code, Some(126));
    let (out, code) = launch("", "/surely/not/a/program");
    assert!(out.contains("N0NCE failed cannot start '/surely/not/a/program'"), "{out}");
    assert_eq!(code, Some(127));
    let (out, code) = launch("+landlock", "true");
    assert!(out.contains("N0NCE failed launcher: landlock needs Linux"), "{out}");
    assert_eq!(code, Some(127));
}

#[test]
fn the_seccomp_filter_answers_each_refused_call_and_allows_its_neighbours() {
    if !in_force(&["seccomp"], "the_seccomp_filter_answers_each_refused_call_and_allows_its_neighbours") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().canonicalize().unwrap();
    // Each call's outcome by the kernel, through the real launcher: `ok` or the errno's name.
    let probe = r#"
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
nr = {'aarch64': dict(keyctl=219, add_key=217, shmget=194, msgget=186, io_uring_setup=425, ioctl=29)}.get(
    os.uname().machine, dict(keyctl=250, add_key=248, shmget=29, msgget=68, io_uring_setup=425, ioctl=16))
def call(name, *args):
    r = libc.syscall(nr[name], *args)
    return 'ok' if r >= 0 else errno.errorcode[ctypes.get_errno()]
def sock(family, kind, proto):
    try:
        socket.socket(family, kind, proto).close()
        return 'ok'
    except OSError as e:
        return errno.errorcode[e.errno]
print('keyctl', call('keyctl', 0, -3, 0))
print('add_key', call('add_key', b'user', b'referee-test', b'x', 1, -3))
print('shmget', call('shmget', 0, 4096, 0o600))
print('msgget', call('msgget', 0, 0o600))
print('io_uring_setup', call('io_uring_setup', 1, ctypes.create_string_buffer(120)))
print('netlink user', sock(socket.AF_NETLINK, socket.SOCK_RAW, 2))
print('netlink route', sock(socket.AF_NETLINK, socket.SOCK_RAW, 0))
print('tcp', sock(socket.AF_INET, socket.SOCK_STREAM, 0))
# On no descriptor at all: the kernel would say EBADF, the filter says EPERM first.
print('TIOCSTI', call('ioctl', -1, 0x5412, 0))
print('TIOCLINUX', call('ioctl', -1, 0x541C, 0))
print('TCGETS', call('ioctl', -1, 0x5401, 0))
"#;
    let exe = assert_cmd::cargo::cargo_bin("referee");
    let launch = |layers: &[&str]| {
        let out = Command::new(&exe)
            .args(["__exec", "+dir"])
            .arg(&dir)
            .args(layers)
            .args(["--", "/usr/bin/python3", "-c", probe])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{layers:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let refused = |ipc: &str| {
        format!(
            "keyctl ENOSYS\nadd_key ENOSYS\nshmget {ipc}\nmsgget {ipc}\nio_uring_setup EPERM\nnetlink user EPERM\n\
             netlink route ok\ntcp ok\nTIOCSTI EPERM\nTIOCLINUX EPERM\nTCGETS EBADF\n"
        )
    };
    // Sharing the machine's IPC namespace, System V IPC is refused too; in an IPC namespace of its own it works.
    assert_eq!(launch(&["+seccomp"]), refused("ENOSYS"));
    assert_eq!(launch(&["+seccomp", "+ipc"]), refused("ok"));
}
