//! The grammar of hostile classes for [`crate::hostile_class`]: a class is 1-2 correct hand-ins beside 1-4 hostile
//! ones; a hostile hand-in is a folder or a zip with odd things shipped in it and a Python program that attacks when
//! it runs, then prints the correct answer. Every element is an enum variant whose numbers shrink toward small, so
//! a failing class shrinks to the fewest hand-ins with the fewest, smallest elements.
//!
//! Each element has a [`Element::key`]; keys listed in tests/fixtures/hostile_class/known-broken.txt (elements that
//! break an invariant on main, each with the branch expected to fix it: the lead deletes a line when that branch
//! merges, no rebuild needed) are left out of generation unless `HOSTILE_ENABLE` names them (or is `all`), and
//! `HOSTILE_ONLY` restricts generation to the keys it lists.

use proptest::prelude::*;
use proptest::strategy::{Union, ValueTree};

/// The keys of tests/fixtures/hostile_class/known-broken.txt: each line's first word, `#` lines left out.
pub fn known_broken() -> Vec<String> {
    let list = std::fs::read_to_string(crate::grade::fixture("hostile_class/known-broken.txt")).unwrap();
    list.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

/// How a hand-in reaches the grader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A folder in the class folder.
    Folder,
    /// A zip in the class folder.
    Zip,
}

/// The hand-in's name in the class folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    /// `s<i>_x`.
    Plain,
    /// With ESC, an SGR sequence and BEL in it.
    Control,
    /// With a right-to-left override and an isolate (U+202E, U+2066).
    Bidi,
    /// `c0 x`: the same id as the first correct hand-in `c0_x`.
    Collides,
}

/// Where a shipped link points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkTo {
    /// `/`.
    Root,
    /// The suite file (the reference's expected answers).
    Suite,
    /// The first correct classmate's program in the class folder.
    Classmate,
    /// Nowhere.
    Dangling,
    /// Itself.
    Loop,
    /// Three folders up.
    Up,
}

/// One element of a hostile hand-in: shipped in it (`Ship*`, laid out by the test) or done by its program when it
/// runs (`Run*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    /// A chain of this many folders.
    ShipDeep(u16),
    /// This many empty folders side by side (a zip's "10,000 empty folders").
    ShipWide(u16),
    /// A symbolic link (a zip entry with a link's mode, in a zip).
    ShipLink(LinkTo),
    /// A FIFO (folders only).
    ShipFifo,
    /// A bound Unix socket's file (folders only).
    ShipSocket,
    /// A 1 TiB sparse file (folders only).
    ShipSparse,
    /// Files named with control and bidi characters.
    ShipOddNames,
    /// A file named like the grader's own output marker, `.referee-out`.
    ShipMarker,
    /// `results/` and `gradebook.csv`, as an old `--out` looked.
    ShipOldOutput,
    /// A file `a` and a folder `a/` with a file in it (zips only).
    ZipFileAndFolder,
    /// The program's entry twice, the second one empty (zips only).
    ZipDuplicate,
    /// An entry named with an absolute path into the canary folder (zips only).
    ZipAbsolute,
    /// An entry named `../` into the canary folder (zips only).
    ZipDotDot,
    /// A chain of this many folders made at run time.
    RunDeep(u16),
    /// This many folders side by side made at run time.
    RunWide(u16),
    /// Links of every kind made at run time, a hard link to a classmate's file among them.
    RunLinks,
    /// A FIFO and a bound socket made at run time.
    RunFifoSocket,
    /// A sparse file of this many GiB made at run time.
    RunSparse(u16),
    /// This many MiB written into a deleted file kept open by a child.
    RunDeletedOpen(u16),
    /// Writes until the disk is full or this many MiB are written.
    RunFill(u16),
    /// A child that sleeps on.
    RunFork,
    /// A child in a new session.
    RunSetsid,
    /// A double-forked daemon.
    RunDaemonize,
    /// Opens `/dev/tty`, writes to it and pushes a command into its input (TIOCSTI).
    RunTty,
    /// The same through any standard descriptor that is a terminal.
    RunTtyInherited,
    /// `kill(-1, SIGKILL)`.
    RunKillAll,
    /// `kill(0, SIGTERM)`.
    RunKillGroup,
    /// Kills its parent.
    RunKillParent,
    /// Writes into the canary folder, the class folder and `$TMPDIR`.
    RunCanary,
    /// Makes files named with control and bidi characters and `.referee-out` at run time.
    RunOddNames,
}

impl Element {
    /// The element's name without its numbers, as known-broken.txt, `HOSTILE_ENABLE` and `HOSTILE_ONLY` name it.
    pub fn key(self) -> &'static str {
        use Element::*;
        match self {
            ShipDeep(_) => "ship-deep",
            ShipWide(_) => "ship-wide",
            ShipLink(_) => "ship-link",
            ShipFifo => "ship-fifo",
            ShipSocket => "ship-socket",
            ShipSparse => "ship-sparse",
            ShipOddNames => "ship-odd-names",
            ShipMarker => "ship-marker",
            ShipOldOutput => "ship-old-output",
            ZipFileAndFolder => "zip-file-and-folder",
            ZipDuplicate => "zip-duplicate",
            ZipAbsolute => "zip-absolute",
            ZipDotDot => "zip-dotdot",
            RunDeep(_) => "run-deep",
            RunWide(_) => "run-wide",
            RunLinks => "run-links",
            RunFifoSocket => "run-fifo-socket",
            RunSparse(_) => "run-sparse",
            RunDeletedOpen(_) => "run-deleted-open",
            RunFill(_) => "run-fill",
            RunFork => "run-fork",
            RunSetsid => "run-setsid",
            RunDaemonize => "run-daemonize",
            RunTty => "run-tty",
            RunTtyInherited => "run-tty-inherited",
            RunKillAll => "run-kill-all",
            RunKillGroup => "run-kill-group",
            RunKillParent => "run-kill-parent",
            RunCanary => "run-canary",
            RunOddNames => "run-odd-names",
        }
    }

    /// Whether only a zip can hold it (a hand-in with one is a zip).
    pub fn zip_only(self) -> bool {
        matches!(self, Element::ZipFileAndFolder | Element::ZipDuplicate | Element::ZipAbsolute | Element::ZipDotDot)
    }
}

/// One hostile hand-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandIn {
    /// Its name.
    pub name: Name,
    /// Folder or zip (a zip whenever an element needs one).
    pub layout: Layout,
    /// What it ships and does, in order.
    pub elements: Vec<Element>,
}

impl HandIn {
    /// The layout it is laid out with.
    pub fn layout(&self) -> Layout {
        if self.elements.iter().any(|e| e.zip_only()) {
            Layout::Zip
        } else {
            self.layout
        }
    }
}

/// A class: correct hand-ins (folders or zips) beside hostile ones, graded with one layer set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// The layouts of the correct hand-ins `c0_x`, `c1_x`.
    pub correct: Vec<Layout>,
    /// The hostile hand-ins `s1_x`, `s2_x`, ... (before their [`Name`]).
    pub hostile: Vec<HandIn>,
    /// Index into the layer sets the test found on this machine (0: every layer).
    pub layers: usize,
}

/// Whether generation may use the element named `key`: `HOSTILE_ONLY` (a comma list) restricts to its keys;
/// otherwise every key not [`known_broken`], plus those `HOSTILE_ENABLE` lists (`all`: every one).
pub fn enabled(key: &str) -> bool {
    let list = |var: &str| std::env::var(var).ok().map(|v| v.split(',').map(str::trim).map(String::from).collect());
    let only: Option<Vec<String>> = list("HOSTILE_ONLY");
    if let Some(only) = only {
        return only.iter().any(|k| k == key);
    }
    let enable: Vec<String> = list("HOSTILE_ENABLE").unwrap_or_default();
    !known_broken().iter().any(|k| k == key) || enable.iter().any(|k| k == key || k == "all")
}

fn link_to() -> impl Strategy<Value = LinkTo> {
    prop_oneof![
        Just(LinkTo::Root),
        Just(LinkTo::Suite),
        Just(LinkTo::Classmate),
        Just(LinkTo::Dangling),
        Just(LinkTo::Loop),
        Just(LinkTo::Up),
    ]
}

/// Every element, each with its numbers' ranges (the upper ends are the sizes: thousands of levels, 10,000
/// folders, disks filled).
fn every_element() -> Vec<BoxedStrategy<Element>> {
    use Element::*;
    vec![
        (1u16..=2000).prop_map(ShipDeep).boxed(),
        (1u16..=10_000).prop_map(ShipWide).boxed(),
        link_to().prop_map(ShipLink).boxed(),
        Just(ShipFifo).boxed(),
        Just(ShipSocket).boxed(),
        Just(ShipSparse).boxed(),
        Just(ShipOddNames).boxed(),
        Just(ShipMarker).boxed(),
        Just(ShipOldOutput).boxed(),
        Just(ZipFileAndFolder).boxed(),
        Just(ZipDuplicate).boxed(),
        Just(ZipAbsolute).boxed(),
        Just(ZipDotDot).boxed(),
        (1u16..=30_000).prop_map(RunDeep).boxed(),
        (1u16..=10_000).prop_map(RunWide).boxed(),
        Just(RunLinks).boxed(),
        Just(RunFifoSocket).boxed(),
        (1u16..=1024).prop_map(RunSparse).boxed(),
        (1u16..=96).prop_map(RunDeletedOpen).boxed(),
        (1u16..=128).prop_map(RunFill).boxed(),
        Just(RunFork).boxed(),
        Just(RunSetsid).boxed(),
        Just(RunDaemonize).boxed(),
        Just(RunTty).boxed(),
        Just(RunTtyInherited).boxed(),
        Just(RunKillAll).boxed(),
        Just(RunKillGroup).boxed(),
        Just(RunKillParent).boxed(),
        Just(RunCanary).boxed(),
        Just(RunOddNames).boxed(),
    ]
}

/// 1-3 elements generation may use (see [`enabled`]; one sample of each strategy decides its key), or none when
/// nothing is enabled (hostile hand-ins then differ only by name and layout).
fn elements() -> BoxedStrategy<Vec<Element>> {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let allowed: Vec<BoxedStrategy<Element>> = every_element()
        .into_iter()
        .filter(|s| s.new_tree(&mut runner).map(|t| enabled(t.current().key())).unwrap_or(false))
        .collect();
    if allowed.is_empty() {
        return Just(Vec::new()).boxed();
    }
    proptest::collection::vec(Union::new(allowed), 1..=3).boxed()
}

fn hand_in() -> impl Strategy<Value = HandIn> {
    let name = prop_oneof![Just(Name::Plain), Just(Name::Control), Just(Name::Bidi), Just(Name::Collides)];
    let layout = prop_oneof![Just(Layout::Folder), Just(Layout::Zip)];
    (name, layout, elements()).prop_map(|(name, layout, elements)| HandIn { name, layout, elements })
}

/// Classes of 2-6 hand-ins (1-2 correct, 1-4 hostile) graded with one of `layer_sets` sets.
pub fn class(layer_sets: usize) -> impl Strategy<Value = Class> {
    let layout = prop_oneof![Just(Layout::Folder), Just(Layout::Zip)];
    (proptest::collection::vec(layout, 1..=2), proptest::collection::vec(hand_in(), 1..=4), 0..layer_sets.max(1))
        .prop_map(|(correct, hostile, layers)| Class { correct, hostile, layers })
}
