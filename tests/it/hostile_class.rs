//! Issue 32, item 8: hostile classes generated from a grammar (tests/it/hostile/grammar.rs) and graded by the real
//! `referee grade` on a terminal of its own, with the invariants checked after every class: the grader exits 0 or
//! 1 as the class earned; every hand-in has exactly one row in `gradebook.csv` and `report.json`; every correct
//! hand-in has full marks; nothing is left in `--work`, in the grader's `TMPDIR` or in the process table; no byte
//! of a hand-in reached the terminal (neither its screen nor its input), the canary folder or the class folder; no
//! case is blamed on the grader.
//!
//! A fixed seed and [`DEFAULT_CASES`] classes by default; `PROPTEST_CASES=n` for more, `HOSTILE_SEED=n` for another
//! seed, `HOSTILE_ENABLE`/`HOSTILE_ONLY` for the elements (see [`grammar::enabled`]), `HOSTILE_LAYERS=<set>` to
//! grade every class with one layer set (`full`, `no-landlock`, `no-namespaces`, `no-landlock-no-namespaces`). A
//! failing class shrinks to the smallest hostile class that still breaks an invariant, printed with every broken
//! invariant (`HOSTILE_SHRINK_ITERS` bounds the shrinking, default 200). `HOSTILE_SURVEY=1` never fails: it grades
//! every class and prints what each broke (how docs/incoming/h-prop.md's table was measured).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use referee::harness::model::{RunReport, Status};

use crate::grade::{fixture, python};
use crate::hostile::grammar::{self, Class};
use crate::hostile::layout::{lay_out, LaidOut, Targets};

/// Classes per run by default: enough to mix every kind of element over a few CI runs, few enough for ~a minute.
const DEFAULT_CASES: u32 = 4;

/// The fixed seed (32 bytes of ChaCha), changed by `HOSTILE_SEED`.
const SEED: u64 = 0x5EF0_CAFE_2026_0032;

/// Size of the tmpfs mounted as `--work` (as root): a small disk that a filler can fill for its classmates.
const WORK_MIB: u32 = 96;

/// The layer sets this machine can force: every layer, without Landlock, without the namespaces, and without both
/// (Gradescope's row), each as `--sandbox-layers` (`None`: the default, every layer).
fn layer_sets() -> Vec<(String, Option<String>)> {
    let mut sets: Vec<(String, Option<String>)> =
        crate::containment::layer_sets().into_iter().map(|(name, layers)| (name.to_string(), layers)).collect();
    let out = Command::new(assert_cmd::cargo::cargo_bin("referee")).arg("sandbox").output().unwrap();
    let gone = ["landlock", "network", "pid", "ipc", "mount", "user", "limits"];
    let left: Vec<String> = crate::sandbox::parse_layers(&String::from_utf8_lossy(&out.stdout))
        .into_iter()
        .filter(|(name, on, _)| *on && !gone.contains(&name.as_str()))
        .map(|(name, _, _)| name)
        .collect();
    if sets.len() == 3 {
        sets.push((
            "no-landlock-no-namespaces".into(),
            Some(if left.is_empty() { "none".into() } else { left.join(",") }),
        ));
    }
    sets
}

/// `HOSTILE_SEED`, else `default`, as 32 bytes of ChaCha seed.
fn seed_bytes(default: u64) -> [u8; 32] {
    let seed = std::env::var("HOSTILE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    let mut bytes = [0u8; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&(seed.rotate_left(8 * i as u32)).to_le_bytes());
    }
    bytes
}

#[test]
fn generated_hostile_classes_keep_every_invariant() {
    // As a normal user every run has the test's own uid, so `kill(-1)` would kill the test and its cargo (and
    // `--work` is no tmpfs); CI runs as root, and the normal user's rows are graded as nobody (below).
    if !referee::harness::runner::sandbox::is_root() {
        eprintln!("SKIPPED hostile classes: only as root (a hostile run of the test's own uid could kill the test)");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    // Runs of leased uids must reach the class, suite and scratch folders below it.
    Command::new("chmod").arg("755").arg(root.path()).status().unwrap();
    run_classes(root.path(), &layer_sets(), None, SEED);
}

/// The same grammar graded by a TA's normal user (`nobody`, through `setpriv`) in every layer set it has: every
/// run has the grader's own uid, so only Landlock and the namespaces stand between a hand-in and the grader.
#[test]
fn generated_hostile_classes_graded_by_a_normal_user_keep_every_invariant() {
    let Some(nobody) = crate::non_root::AsNobody::new("hostile classes as a normal user") else { return };
    Command::new("chmod").arg("755").arg(nobody.work()).status().unwrap();
    let sets: Vec<(String, Option<String>)> =
        nobody.sets.iter().map(|(name, layers)| (format!("nobody {name}"), layers.clone())).collect();
    run_classes(nobody.work(), &sets, Some(&nobody), SEED ^ 0x0B0D);
}

/// Grades `PROPTEST_CASES` generated classes under `root`, each in one of `sets`, as `nobody` when given; panics
/// with the smallest class that broke an invariant.
fn run_classes(root: &Path, sets: &[(String, Option<String>)], nobody: Option<&crate::non_root::AsNobody>, seed: u64) {
    let mut sets = sets.to_vec();
    if let Ok(only) = std::env::var("HOSTILE_LAYERS") {
        sets.retain(|(name, _)| name.ends_with(only.as_str()));
        if sets.is_empty() {
            eprintln!("HOSTILE_LAYERS={only}: no such layer set here");
            return;
        }
    }
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let survey = std::env::var("HOSTILE_SURVEY").is_ok_and(|v| v == "1");
    let cases = env("PROPTEST_CASES").unwrap_or(DEFAULT_CASES);
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: env("HOSTILE_SHRINK_ITERS").unwrap_or(200),
        max_shrink_time: 600_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(seed)));
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let result = runner.run(&grammar::class(sets.len()), |class| {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (set, layers) = &sets[class.layers.min(sets.len() - 1)];
        let dir = root.join(format!("class-{n}"));
        let broken = grade_and_check(&class, &dir, n, set, layers.as_deref(), nobody);
        if broken.is_empty() || survey {
            Ok(())
        } else {
            Err(TestCaseError::fail(format!("layer set {set}: {}", broken.join("; "))))
        }
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Everything one class's run leaves for the checks.
struct Run {
    code: i32,
    transcript: Vec<u8>,
    grader: u32,
    elapsed: Duration,
}

/// Lays `class` out under `dir`, grades it with layer set `layers` on a terminal, checks every invariant, cleans up;
/// the invariants it broke, each in one line.
fn grade_and_check(
    class: &Class,
    dir: &Path,
    n: usize,
    set: &str,
    layers: Option<&str>,
    nobody: Option<&crate::non_root::AsNobody>,
) -> Vec<String> {
    let tag = format!("hostile-{}-{n}", std::process::id());
    let paths = Paths::new(dir);
    let suite = paths.suite();
    let targets = Targets { canary: paths.canary.clone(), suite: suite.clone(), tag: tag.clone() };
    let laid = lay_out(class, &paths.class, &targets);
    Command::new("chmod").args(["-R", "a+rX"]).arg(&paths.class).status().unwrap();
    let before = listing(&paths.class);
    let tmpfs = mount_work(&paths.work, nobody.is_some());
    if nobody.is_some() {
        // The grader's own folders are the TA's (nobody's); the class and the canary stay root's, read-only to it.
        let mine = [&paths.root, &paths.work, &paths.tmp];
        let chown = Command::new("chown").arg(format!("{0}:{0}", crate::non_root::NOBODY)).args(mine).status();
        assert!(chown.unwrap().success());
    }
    let wrapper = nobody.map(|who| crate::non_root::nobody_wrapper(&who.home, &who.exe, &paths.tmp));
    let run = grade(&paths, &suite, layers, wrapper.as_deref());
    let mut broken = Vec::new();
    // Processes first: the longer they live, the more they can do.
    std::thread::sleep(Duration::from_millis(300));
    let alive = leftovers(&tag, run.grader);
    if !alive.is_empty() {
        broken.push(format!("processes alive after grade returned: {alive:?}"));
        for pid in &alive {
            let _ = Command::new("kill").args(["-KILL", pid]).status();
        }
    }
    broken.extend(check_results(&paths.out, &laid, run.code));
    broken.extend(check_terminal(&run.transcript));
    for (what, folder) in [("--work", &paths.work), ("the grader's TMPDIR", &paths.tmp), ("the canary", &paths.canary)]
    {
        let left: Vec<String> = fs::read_dir(folder)
            .map(|d| d.flatten().map(|e| format!("{:?}", e.file_name())).collect())
            .unwrap_or_default();
        if !left.is_empty() {
            broken.push(format!("left in {what}: {}", left.join(", ")));
        }
    }
    let after = listing(&paths.class);
    if before != after {
        let changed: Vec<&String> = before.symmetric_difference(&after).take(5).collect();
        broken.push(format!("the class folder changed: {changed:?}"));
    }
    eprintln!(
        "hostile class {n} ({set}, {}): exit {} in {:.1} s{}",
        summary(class),
        run.code,
        run.elapsed.as_secs_f64(),
        if broken.is_empty() { String::new() } else { format!(", BROKEN: {}", broken.join("; ")) }
    );
    if tmpfs {
        let _ = Command::new("umount").arg("-l").arg(&paths.work).status();
    }
    // `rm` walks trees of any depth (the shipped chains are past PATH_MAX).
    let _ = Command::new("rm").arg("-rf").arg(dir).status();
    broken
}

/// The class in one line: each correct hand-in's layout, then each hostile one's name, layout and elements.
fn summary(class: &Class) -> String {
    let correct = class.correct.iter().map(|l| format!("{l:?}")).collect::<Vec<_>>().join(",");
    let hostile: Vec<String> = class
        .hostile
        .iter()
        .map(|h| {
            let elements: Vec<String> = h.elements.iter().map(|e| format!("{e:?}")).collect();
            format!("{:?} {:?} [{}]", h.name, h.layout(), elements.join(" "))
        })
        .collect();
    format!("correct {correct}; hostile {}", hostile.join(" | "))
}

/// The folders of one class's run.
struct Paths {
    root: PathBuf,
    class: PathBuf,
    canary: PathBuf,
    tmp: PathBuf,
    work: PathBuf,
    out: PathBuf,
}

impl Paths {
    fn new(root: &Path) -> Paths {
        let p = Paths {
            root: root.to_path_buf(),
            class: root.join("class"),
            canary: root.join("canary"),
            tmp: root.join("tmp"),
            work: root.join("work"),
            out: root.join("out"),
        };
        for folder in [&p.root, &p.canary, &p.tmp, &p.work] {
            fs::create_dir_all(folder).unwrap();
        }
        p
    }

    /// A one-case suite (`3 0 0`, answers from the reference) beside the class.
    fn suite(&self) -> PathBuf {
        let suite = self.root.join("suite.toml");
        fs::write(
            &suite,
            "[reference]\ngame = \"takestones\"\n[[case]]\nname = \"small\"\nargs = \"3 0 0\"\nreference = true\n",
        )
        .unwrap();
        suite
    }
}

/// As root, `work` becomes a small tmpfs of its own (so a hand-in that fills the disk fills only that), nobody's
/// when the grader is nobody; whether it was mounted.
fn mount_work(work: &Path, nobodys: bool) -> bool {
    if !referee::harness::runner::sandbox::is_root() {
        return false;
    }
    let owner = if nobodys { format!(",uid={0},gid={0}", crate::non_root::NOBODY) } else { String::new() };
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={WORK_MIB}m,mode=755{owner}"), "tmpfs"])
        .arg(work)
        .status()
        .is_ok_and(|s| s.success())
}

/// `referee grade` of the class on a pseudo-terminal of its own (tests/fixtures/hostile_class/pty_grader.py),
/// through `wrapper` when given (the `setpriv` to nobody, which then starts its own `referee`).
fn grade(paths: &Paths, suite: &Path, layers: Option<&str>, wrapper: Option<&[String]>) -> Run {
    let transcript = paths.root.join("transcript");
    let pid_file = paths.root.join("grader.pid");
    let mut command = Command::new(python());
    command.arg(fixture("hostile_class/pty_grader.py")).arg(&transcript).arg(&pid_file);
    match wrapper {
        // The pty helper execs without a PATH search: the wrapper's program by its full path.
        Some(words) => {
            let program = ["/usr/bin", "/bin"].iter().map(|d| Path::new(d).join(&words[0])).find(|p| p.exists());
            command.arg(program.unwrap_or_else(|| PathBuf::from(&words[0]))).args(&words[1..]).arg("referee")
        }
        None => command.arg(assert_cmd::cargo::cargo_bin("referee")),
    };
    command
        .args(["grade", "--suite"])
        .arg(suite)
        .arg("--submissions")
        .arg(&paths.class)
        .arg("--out")
        .arg(&paths.out)
        .arg("--work")
        .arg(&paths.work)
        .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python())])
        .args(["--timeout", "4s", "--memory", "512MiB", "--disk-limit", "16MiB", "--output-limit", "64KiB"])
        .args(["-j", "2", "--color", "never"])
        .env("TMPDIR", &paths.tmp);
    if let Some(layers) = layers {
        command.args(["--sandbox-layers", layers]);
    }
    let start = Instant::now();
    let status = command.status().unwrap();
    let elapsed = start.elapsed();
    let grader = fs::read_to_string(&pid_file).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    Run { code: status.code().unwrap_or(-1), transcript: fs::read(&transcript).unwrap_or_default(), grader, elapsed }
}

/// Processes whose command line carries `tag`, or whose environment carries the run marker of the grader `grader`.
fn leftovers(tag: &str, grader: u32) -> Vec<String> {
    let marker = format!("REFEREE_RUN={grader}-");
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let cmdline = fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let environ = fs::read(entry.path().join("environ")).unwrap_or_default();
        let carries = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
        if carries(&cmdline, tag.as_bytes()) || (grader != 0 && carries(&environ, marker.as_bytes())) {
            found.push(name);
        }
    }
    found
}

/// The exit code, the rows and the marks against what the class earned; each broken invariant in a line.
fn check_results(out: &Path, laid: &[LaidOut], code: i32) -> Vec<String> {
    let mut broken = Vec::new();
    let report: Option<RunReport> =
        fs::read(out.join("report.json")).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let Some(report) = report else {
        return vec![format!("no readable report.json (exit {code})")];
    };
    if report.submissions.len() != laid.len() {
        let ids: Vec<&str> = report.submissions.iter().map(|s| s.id.as_str()).collect();
        broken.push(format!("{} hand-ins but {} in report.json: {ids:?}", laid.len(), report.submissions.len()));
    }
    let ids: BTreeSet<&str> = report.submissions.iter().map(|s| s.id.as_str()).collect();
    if ids.len() != report.submissions.len() {
        broken.push("an id has two rows in report.json".into());
    }
    match gradebook_rows(out) {
        Ok(rows) if rows.len() != laid.len() => {
            broken.push(format!("{} hand-ins but {} rows in gradebook.csv: {rows:?}", laid.len(), rows.len()));
        }
        Ok(_) => {}
        Err(e) => broken.push(format!("gradebook.csv: {e}")),
    }
    for hand_in in laid {
        let Some(id) = &hand_in.correct_id else { continue };
        match report.submissions.iter().find(|s| &s.id == id) {
            Some(s) if s.max_score.is_positive() && s.score == s.max_score => {}
            Some(s) => {
                let details: Vec<&str> = s.cases.iter().map(|c| c.detail.as_str()).collect();
                broken.push(format!("correct {id} got {} / {}: {details:?}", s.score, s.max_score));
            }
            None => broken.push(format!("correct {id} has no row")),
        }
    }
    for s in &report.submissions {
        for case in s.cases.iter().filter(|c| c.status == Status::HarnessError) {
            broken.push(format!("{} blamed on the grader: {}", s.id, case.detail));
        }
    }
    let all_passed = report.submissions.iter().all(|s| s.all_passed());
    let expected = if all_passed { 0 } else { 1 };
    if code != expected {
        broken.push(format!("exit {code}, not {expected}"));
    }
    broken
}

/// The `handin` column of every row of `gradebook.csv`.
fn gradebook_rows(out: &Path) -> Result<Vec<String>, String> {
    let mut reader = csv::Reader::from_path(out.join("gradebook.csv")).map_err(|e| e.to_string())?;
    let headers = reader.headers().map_err(|e| e.to_string())?.clone();
    let column = headers.iter().position(|h| h == "handin").ok_or("no handin column")?;
    reader
        .records()
        .map(|r| r.map(|r| r.get(column).unwrap_or_default().to_string()).map_err(|e| e.to_string()))
        .collect()
}

/// What reached the terminal: no hand-in's writes or pushed input, none of its names' control or bidi characters.
fn check_terminal(transcript: &[u8]) -> Vec<String> {
    let mut broken = Vec::new();
    let text = String::from_utf8_lossy(transcript);
    let (screen, queued) = text.split_once("\n--- input queue ---\n").unwrap_or((text.as_ref(), ""));
    if !queued.is_empty() {
        broken.push(format!("input pushed into the terminal: {queued:?}"));
    }
    for needle in ["TTY-WRITE-", "TTY-PUSH-", "TTY-FD-"] {
        if screen.contains(needle) {
            broken.push(format!("a hand-in's {needle} bytes reached the terminal"));
        }
    }
    for (what, needle) in [
        ("BEL", "\x07"),
        ("an SGR", "\x1b[1m"),
        ("a screen clear", "\x1b[2J"),
        ("U+202E", "\u{202e}"),
        ("U+2066", "\u{2066}"),
    ] {
        if screen.contains(needle) {
            broken.push(format!("{what} of a hand-in's name reached the terminal"));
        }
    }
    broken
}

/// Every path under `dir` with its size and kind (`find`, which walks any depth), to see that nothing changed.
fn listing(dir: &Path) -> BTreeSet<String> {
    let out = Command::new("find").arg(dir).args(["-printf", "%P %y %s %T@\\n"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect()
}
