//! Lays a generated [`Class`] out on disk: correct hand-ins `c<k>_x` (the course's Python program), hostile ones
//! whose `takestones.py` runs `attacks.py` (tests/fixtures/hostile_class) with its plan and then the correct program
//! (`real.py`), each a folder or a zip written by `zipper.py` with its oddities.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rustix::fs::{Mode, OFlags};

use super::grammar::{Class, Element, HandIn, Layout, LinkTo, Name};
use crate::grade::{fixture, python};

/// What a hostile hand-in may aim at, and the test's marker.
pub struct Targets {
    /// A folder outside the run that hostile hand-ins try to write into.
    pub canary: PathBuf,
    /// The suite file.
    pub suite: PathBuf,
    /// Carried in the command line of every process a hostile hand-in leaves, and in every file it writes outside.
    pub tag: String,
}

/// A hand-in as laid out: its file name in the class folder and, for a correct one, the id it must be graded as.
#[derive(Debug)]
pub struct LaidOut {
    /// Its name in the class folder (a zip's with `.zip`).
    pub file_name: String,
    /// `Some(id)` for a correct hand-in.
    pub correct_id: Option<String>,
}

/// Writes `class` into the folder `dir` (created); the hand-ins in the order they were written.
pub fn lay_out(class: &Class, dir: &Path, targets: &Targets) -> Vec<LaidOut> {
    fs::create_dir_all(dir).unwrap();
    let correct_program = fs::read(fixture("submissions/python-stats/takestones.py")).unwrap();
    let mut laid = Vec::new();
    for (k, layout) in class.correct.iter().enumerate() {
        let name = format!("c{k}_x");
        let files = vec![Entry::File("takestones.py".into(), correct_program.clone())];
        laid.push(LaidOut { file_name: write_hand_in(dir, &name, *layout, &files), correct_id: Some(name) });
    }
    let classmate = laid[0].file_name.clone();
    let classmate = match class.correct[0] {
        Layout::Folder => dir.join(&classmate).join("takestones.py"),
        Layout::Zip => dir.join(&classmate),
    };
    let separators = [" ", "\t", "!", "#", "%"];
    let mut collisions = 0;
    for (i, hand_in) in class.hostile.iter().enumerate() {
        let name = match hand_in.name {
            Name::Plain => format!("s{}_x", i + 1),
            Name::Control => format!("s{}\x1b[1m\x07_x", i + 1),
            Name::Bidi => format!("s{}\u{202e}\u{2066}_x", i + 1),
            Name::Collides => {
                collisions += 1;
                format!("c0{}x", separators[collisions - 1])
            }
        };
        let files = hostile_files(hand_in, targets, &classmate, &correct_program);
        let layout = hand_in.layout();
        let file_name = write_hand_in(dir, &name, layout, &files);
        if layout == Layout::Folder {
            ship_special(&dir.join(&file_name), hand_in);
        }
        laid.push(LaidOut { file_name, correct_id: None });
    }
    laid
}

/// One entry of a hand-in as a zip would list it.
enum Entry {
    File(String, Vec<u8>),
    Dir(String),
    Link(String, String),
}

fn hostile_files(hand_in: &HandIn, targets: &Targets, classmate: &Path, correct: &[u8]) -> Vec<Entry> {
    let attacks = fs::read_to_string(fixture("hostile_class/attacks.py"))
        .unwrap()
        .replace("@TAG@", &targets.tag)
        .replace("@CANARY@", targets.canary.to_str().unwrap())
        .replace("@CLASSMATE@", classmate.to_str().unwrap());
    let plan: Vec<String> = hand_in.elements.iter().filter_map(|e| attack(*e)).collect();
    let program = format!(
        "import os, sys\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\nimport attacks\n\
         attacks.main([{}])\n",
        plan.join(", ")
    );
    let mut files = vec![
        Entry::File("takestones.py".into(), program.into_bytes()),
        Entry::File("attacks.py".into(), attacks.into_bytes()),
        Entry::File("real.py".into(), correct.to_vec()),
    ];
    let zip = hand_in.layout() == Layout::Zip;
    for element in &hand_in.elements {
        files.extend(shipped(*element, targets, classmate, zip));
    }
    files
}

/// The run-time attack of `element` as `attacks.main`'s plan names it.
fn attack(element: Element) -> Option<String> {
    use Element::*;
    Some(match element {
        RunDeep(n) => format!("(\"deep\", ({n},))"),
        RunWide(n) => format!("(\"wide\", ({n},))"),
        RunSparse(n) => format!("(\"sparse\", ({n},))"),
        RunDeletedOpen(n) => format!("(\"deleted_open\", ({n},))"),
        RunFill(n) => format!("(\"fill\", ({n},))"),
        RunLinks => "(\"links\", ())".into(),
        RunFifoSocket => "(\"fifo_socket\", ())".into(),
        RunFork => "(\"fork\", ())".into(),
        RunSetsid => "(\"setsid\", ())".into(),
        RunDaemonize => "(\"daemonize\", ())".into(),
        RunTty => "(\"tty\", ())".into(),
        RunTtyInherited => "(\"tty_inherited\", ())".into(),
        RunKillAll => "(\"kill_all\", ())".into(),
        RunKillGroup => "(\"kill_group\", ())".into(),
        RunKillParent => "(\"kill_parent\", ())".into(),
        RunCanary => "(\"canary\", ())".into(),
        RunOddNames => "(\"odd_names\", ())".into(),
        _ => return None,
    })
}

/// The entries `element` ships (folder-only ones are made by [`ship_special`] instead).
fn shipped(element: Element, targets: &Targets, classmate: &Path, zip: bool) -> Vec<Entry> {
    use Element::*;
    let tag = &targets.tag;
    let canary = targets.canary.to_str().unwrap();
    match element {
        // A zip holds the chain as one file entry; a folder's is made by `ship_special` (past PATH_MAX).
        ShipDeep(n) if zip => vec![Entry::File(format!("{}bottom", "d/".repeat(n.into())), b"x".to_vec())],
        ShipWide(n) => (0..n).map(|i| Entry::Dir(format!("wide/{i}"))).collect(),
        ShipLink(to) => {
            let (name, target) = match to {
                LinkTo::Root => ("ln-root", "/".to_string()),
                LinkTo::Suite => ("ln-suite", targets.suite.display().to_string()),
                LinkTo::Classmate => ("ln-mate", classmate.display().to_string()),
                LinkTo::Dangling => ("ln-dangling", "/nonexistent/x".to_string()),
                LinkTo::Loop => ("ln-loop", "ln-loop".to_string()),
                LinkTo::Up => ("ln-up", "../../..".to_string()),
            };
            vec![Entry::Link(name.into(), target)]
        }
        ShipOddNames => ["\x1b[2J\x07esc", "bidi\u{202e}txt.py", "\u{2066}iso", "cr\rname"]
            .iter()
            .map(|n| Entry::File((*n).into(), b"x".to_vec()))
            .collect(),
        ShipMarker => {
            vec![Entry::File(".referee-out".into(), b"written by referee: results of a grading run\n".to_vec())]
        }
        ShipOldOutput => {
            vec![Entry::Dir("results".into()), Entry::File("gradebook.csv".into(), b"id,score,max\nx,1,1\n".to_vec())]
        }
        ZipFileAndFolder => vec![Entry::File("a".into(), b"x".to_vec()), Entry::File("a/b".into(), b"y".to_vec())],
        ZipDuplicate => vec![Entry::File("takestones.py".into(), b"print('duplicate')\n".to_vec())],
        ZipAbsolute => vec![Entry::File(format!("{canary}/absolute-{tag}"), b"x".to_vec())],
        ZipDotDot => vec![
            Entry::File(format!("../dotdot-{tag}"), b"x".to_vec()),
            Entry::File(format!("{}{}/dotdot-{tag}", "../".repeat(12), canary.trim_start_matches('/')), b"x".to_vec()),
        ],
        _ => Vec::new(),
    }
}

/// Things only a folder can hold, made in the hand-in folder `dir` (once each).
fn ship_special(dir: &Path, hand_in: &HandIn) {
    let mut done = Vec::new();
    for element in &hand_in.elements {
        if done.contains(&element.key()) && !matches!(element, Element::ShipDeep(_)) {
            continue;
        }
        done.push(element.key());
        match element {
            Element::ShipDeep(n) => deep_chain(dir, *n),
            Element::ShipFifo => {
                assert!(Command::new("mkfifo").arg(dir.join("fifo")).status().unwrap().success());
            }
            Element::ShipSocket => drop(std::os::unix::net::UnixListener::bind(dir.join("sock")).unwrap()),
            Element::ShipSparse => fs::File::create(dir.join("sparse")).unwrap().set_len(1 << 40).unwrap(),
            _ => {}
        }
    }
}

/// A chain of `levels` folders `d` under `dir`, made through descriptors (a deep one is past PATH_MAX).
fn deep_chain(dir: &Path, levels: u16) {
    let open = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
    let mut fd = rustix::fs::open(dir, open, Mode::empty()).unwrap();
    for _ in 0..levels {
        match rustix::fs::mkdirat(&fd, "d", Mode::from_raw_mode(0o755)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => panic!("{e}"),
        }
        fd = rustix::fs::openat(&fd, "d", open, Mode::empty()).unwrap();
    }
    let bottom = OFlags::CREATE | OFlags::WRONLY | OFlags::CLOEXEC;
    drop(rustix::fs::openat(&fd, "bottom", bottom, Mode::from_raw_mode(0o644)).unwrap());
}

/// Writes a hand-in named `name` with `entries` as a folder or a zip in `dir`; its file name.
fn write_hand_in(dir: &Path, name: &str, layout: Layout, entries: &[Entry]) -> String {
    match layout {
        Layout::Folder => {
            let root = dir.join(name);
            fs::create_dir_all(&root).unwrap();
            for entry in entries {
                match entry {
                    Entry::File(path, bytes) => {
                        let path = root.join(path);
                        fs::create_dir_all(path.parent().unwrap()).unwrap();
                        fs::write(path, bytes).unwrap();
                    }
                    Entry::Dir(path) => fs::create_dir_all(root.join(path)).unwrap(),
                    // An element twice ships its link once.
                    Entry::Link(path, target) => match std::os::unix::fs::symlink(target, root.join(path)) {
                        Ok(()) => {}
                        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists, "{path}: {e}"),
                    },
                }
            }
            name.to_string()
        }
        Layout::Zip => {
            let file_name = format!("{name}.zip");
            let mut lines = String::new();
            for entry in entries {
                let (kind, path, data) = match entry {
                    Entry::File(path, bytes) => ("file", path, String::from_utf8_lossy(bytes).into_owned()),
                    Entry::Dir(path) => ("dir", path, String::new()),
                    Entry::Link(path, target) => ("link", path, target.clone()),
                };
                lines.push_str(&format!("{kind}\t{}\t{}\n", escape(path), escape(&data)));
            }
            let mut zipper = Command::new(python())
                .arg(fixture("hostile_class/zipper.py"))
                .arg(dir.join(&file_name))
                .stdin(Stdio::piped())
                .spawn()
                .unwrap();
            zipper.stdin.take().unwrap().write_all(lines.as_bytes()).unwrap();
            assert!(zipper.wait().unwrap().success(), "zipper.py failed for {name:?}");
            file_name
        }
    }
}

/// `text` in ASCII as Python's `unicode_escape` codec reads it back.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x1_0000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out
}
