//! A run owns no terminal and no session of the grader's (issue 32, item 1). The TA grades from a terminal (a fresh
//! pty, made by Python's `pty` module, whose session stands for the TA's shell), and a hand-in tries every way onto
//! it: `/dev/tty`, every descriptor it holds, every `/dev/pts/N`, the consoles, every terminal under `/proc/*/fd`;
//! stealing it (`TIOCSCTTY`), typing into it (`TIOCSTI`, `TIOCLINUX`) and writing on it.

use std::fs;
use std::path::Path;
use std::process::Command;

use referee::harness::model::SubmissionResult;

use crate::containment::LayerSets;
use crate::grade::{fixture, python};

/// Runs the command in its arguments (after the report and screen paths) as the only process of a new session
/// whose controlling terminal is a fresh pty, as a TA's shell runs it, and keeps reading the pty so the grader never
/// blocks on it. Once the grader has ended, what is waiting in the terminal's input is what the TA's shell would run
/// next: it is read without waiting, and `<session id> <exit code> <pending bytes in hex>` goes to the report file;
/// everything that appeared on the terminal goes to the screen file.
const TA_TERMINAL: &str = r#"
import os, pty, subprocess, sys, termios
report, screen, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
pid, master = pty.fork()
if pid == 0:
    try:
        code = subprocess.call(argv)
        attrs = termios.tcgetattr(0)
        attrs[3] &= ~(termios.ICANON | termios.ECHO)
        attrs[6][termios.VMIN] = 0
        attrs[6][termios.VTIME] = 0
        termios.tcsetattr(0, termios.TCSANOW, attrs)
        pending = b""
        while True:
            chunk = os.read(0, 4096)
            if not chunk:
                break
            pending += chunk
        with open(report, "w") as f:
            f.write("%d %d %s\n" % (os.getsid(0), code, pending.hex()))
    finally:
        os._exit(0)
seen = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
os.waitpid(pid, 0)
with open(screen, "wb") as f:
    f.write(seen)
"#;

/// What a grader run on the TA's terminal left there.
struct OnTheTerminal {
    /// The session the grader ran in (the TA's shell's).
    session: i64,
    /// The grader's exit code.
    code: i32,
    /// Bytes waiting in the terminal's input once the grader had ended.
    pending: Vec<u8>,
    /// Everything that appeared on the terminal.
    screen: String,
}

/// Grades, on a fresh terminal, a class of a hand-in that attacks it and a correct one, in every set of `sets`, in
/// `work` (which the grader may write): the terminal's driver and the grader `referee` run through `user` (a command
/// prefix that becomes the TA's user; empty: this test's). Checks that nothing reached the terminal and that each
/// run had a session of its own.
pub fn a_run_never_reaches_the_graders_terminal(work: &Path, sets: &LayerSets, user: &[String], referee: &Path) {
    let suite = crate::containment::one_case_suite(work);
    for (set, layers) in sets {
        let class = work.join(format!("class-{set}"));
        let marker = work.join(format!("injected-{set}"));
        let shout = format!("REFEREE-SHOUT-{set}");
        let replace = [("@MARK@", marker.to_str().unwrap()), ("@SHOUT@", shout.as_str())];
        crate::sandbox::student(&class, "a-injector", "tty_injector", &replace);
        let good = class.join("b-good");
        fs::create_dir_all(&good).unwrap();
        fs::copy(fixture("submissions/python-stats/takestones.py"), good.join("takestones.py")).unwrap();
        Command::new("chmod").args(["-R", "a+rX"]).arg(&class).status().unwrap();
        let out = work.join(format!("out-{set}"));
        let (report, screen) = (work.join(format!("report-{set}")), work.join(format!("screen-{set}")));
        let mut grader = vec![referee.display().to_string()];
        let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
        grader.extend(["grade", "--suite", &suite, "--submissions"].map(String::from));
        grader.extend([class.display().to_string(), "--out".into(), out.display().to_string()]);
        grader.extend(["--cmd", &cmd, "-j", "2", "--timeout", "10s", "--color", "never"].map(String::from));
        if let Some(layers) = layers {
            grader.extend(["--sandbox-layers".to_string(), layers.clone()]);
        }
        let driver =
            [python(), "-c".into(), TA_TERMINAL.into(), report.display().to_string(), screen.display().to_string()];
        let mut command = user.iter().chain(&driver).chain(&grader);
        let mut ta = Command::new(command.next().unwrap());
        let ran = ta.args(command).output().unwrap();
        assert!(ran.status.success(), "{set}: the terminal's driver: {}", String::from_utf8_lossy(&ran.stderr));
        let on = on_the_terminal(&report, &screen);
        let result = |id: &str| -> SubmissionResult {
            let path = out.join(format!("results/{id}.json"));
            let text = fs::read(&path).unwrap_or_else(|e| panic!("{set}: {}: {e}: {}", path.display(), on.screen));
            serde_json::from_slice(&text).unwrap()
        };
        let attack = result("a-injector").cases[0].stdout.text.clone();
        assert_eq!(on.code, 1, "{set}: the grader's exit code: {}", on.screen);
        // It tried: it reached its end and listed the terminals it found.
        assert!(attack.contains("\n/dev/tty: open "), "{set}: {attack}");
        // Nothing typed into the TA's terminal (its shell would run it next), nor echoed on it.
        assert_eq!(String::from_utf8_lossy(&on.pending), "", "{set}: typed into the TA's terminal: {attack}");
        assert!(!on.screen.contains(marker.to_str().unwrap()), "{set}: echoed on the TA's terminal: {attack}");
        assert!(!marker.exists(), "{set}");
        // Nothing written on it: where Landlock or the mount layer keeps the terminals out of a run's reach (else a
        // run under the TA's own uid can still open the TA's terminal by its path: see docs/containment.md).
        let reach = layers.as_deref().map_or(true, |l| l.split(',').any(|n| n == "landlock" || n == "mount"));
        if reach {
            assert!(!on.screen.contains(&shout), "{set}: written on the TA's terminal: {attack}");
        }
        // A session of its own, not the grader's (the TA's shell's).
        let session: i64 = attack
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("session ")?.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("{set}: no session line: {attack}"));
        assert_ne!(session, on.session, "{set}: the run shares the grader's session: {attack}");
        // The classmate beside it is not hurt.
        let good = result("b-good");
        assert_eq!(good.score, good.max_score, "{set}: {:?}", good.cases[0].detail);
    }
}

/// Reads the driver's report and screen files.
fn on_the_terminal(report: &Path, screen: &Path) -> OnTheTerminal {
    let screen = String::from_utf8_lossy(&fs::read(screen).unwrap()).into_owned();
    let text = fs::read_to_string(report).unwrap_or_else(|e| panic!("no report ({e}): {screen}"));
    let words: Vec<&str> = text.split_whitespace().collect();
    let pending = words.get(2).map(|hex| decode_hex(hex)).unwrap_or_default();
    OnTheTerminal { session: words[0].parse().unwrap(), code: words[1].parse().unwrap(), pending, screen }
}

fn decode_hex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect()
}

/// Issue 32, item 1, as root in every layer set this machine has and the Gradescope-like one.
#[test]
fn no_run_types_into_writes_on_or_shares_the_session_of_the_graders_terminal() {
    let work = tempfile::tempdir().unwrap();
    let sets = crate::containment::layer_sets_and_gradescope();
    a_run_never_reaches_the_graders_terminal(work.path(), &sets, &[], &assert_cmd::cargo::cargo_bin("referee"));
}
