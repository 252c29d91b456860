//! The Java host: the project's own API-compatible `GameState` and `Player` plus `RefereeHost` (the protocol side),
//! compiled with `javac` together with a student's unchanged `xxxPlayer.java` and its helper classes.
//!
//! The host runs the student's `move()` on a thread, reports every change of `move`, and at `stop` either ends the
//! turn (the method returned) or exits so the referee starts a fresh JVM for the next turn: a runaway search can
//! never keep running into later moves, on any Java version (`Thread.stop` throws since Java 20).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::harness::grade::workspace::lay_out;
use crate::harness::runner::sandbox::{hand_over, Sandbox};
use crate::harness::runner::{run, Limits, RunSpec};

use super::prepare_error::PrepareError;

/// The host's sources, written next to the student's files before compiling.
pub const SOURCES: [(&str, &str); 3] = [
    ("GameState.java", include_str!("mancala/java/GameState.java")),
    ("Player.java", include_str!("mancala/java/Player.java")),
    ("RefereeHost.java", include_str!("mancala/java/RefereeHost.java")),
];

/// JVM flags: one processor as far as the JVM knows (serial GC, few compiler threads), so an agent thinking on its
/// core does not spill onto the core of the game next to it; safepoints inside counted loops, so the host answers
/// `stop` at once even while a student's tight `for` loop runs (without them Java 17 answered 1.8 s late); and the
/// JVM's own warnings on stderr, where they cannot break the protocol.
pub const JVM_FLAGS: [&str; 5] = [
    "-XX:ActiveProcessorCount=1",
    "-XX:+UseSerialGC",
    "-XX:+UseCountedLoopSafepoints",
    "-XX:LoopStripMiningIter=1000",
    "-XX:+DisplayVMOutputToStderr",
];

/// Files of the course framework a student may have handed in along with the player; the host provides its own
/// versions, and the GUI cannot run headless.
const FRAMEWORK: [&str; 5] = ["GameState.java", "Player.java", "Mancala.java", "Match.java", "RefereeHost.java"];

/// The `java` and `javac` commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaTools {
    /// `java`.
    pub java: OsString,
    /// `javac`.
    pub javac: OsString,
}

impl Default for JavaTools {
    fn default() -> JavaTools {
        JavaTools { java: "java".into(), javac: "javac".into() }
    }
}

/// A compiled player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The class folder.
    pub classes: PathBuf,
    /// The player's class name.
    pub class: String,
}

/// Lays `source` (a `.java` file, a folder or a zip) out under `dir`, finds the one `xxxPlayer.java`, and compiles
/// it with its helper classes and the host.
///
/// # Errors
/// [`PrepareError::Build`] for a missing or ambiguous player or a compile error (with javac's message);
/// [`PrepareError::Setup`] when the folder cannot be written or javac cannot run.
pub fn build(source: &Path, dir: &Path, tools: &JavaTools, sandbox: &Sandbox) -> Result<Built, PrepareError> {
    let setup = |what: &str, e: &dyn std::fmt::Display| PrepareError::Setup(format!("{what}: {e}"));
    let _ = crate::harness::grade::workspace::remove_tree(dir);
    let src = dir.join("src");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).map_err(|e| setup(&dir.display().to_string(), &e))?;
    let (root, wanted) = if source.is_file() && source.extension().is_some_and(|x| x == "java") {
        std::fs::create_dir_all(&src).map_err(|e| setup(&src.display().to_string(), &e))?;
        let folder = source.parent().unwrap_or(Path::new("."));
        for file in java_files(folder) {
            if file == source || !is_framework(&file) {
                let name = file.file_name().unwrap_or_default();
                std::fs::copy(&file, src.join(name)).map_err(|e| setup(&file.display().to_string(), &e))?;
            }
        }
        (src.clone(), source.file_stem().map(|s| s.to_string_lossy().into_owned()))
    } else {
        let root = lay_out(source, &src, &Sandbox::default())?;
        (root, None)
    };
    let files: Vec<PathBuf> = java_files(&root).into_iter().filter(|f| !is_framework(f)).collect();
    let class = match wanted {
        Some(class) => class,
        None => find_player(&files, source)?,
    };
    for (name, text) in SOURCES {
        std::fs::write(root.join(name), text).map_err(|e| setup(name, &e))?;
    }
    hand_over(dir, sandbox).map_err(|e| setup(&dir.display().to_string(), &e))?;
    let mut args: Vec<OsString> = ["-d".into(), classes.clone().into_os_string(), "-encoding".into(), "UTF-8".into()]
        .into_iter()
        .chain(["-nowarn".into()])
        .collect();
    args.extend(files.iter().map(|f| f.clone().into_os_string()));
    args.extend(SOURCES.iter().map(|(name, _)| root.join(name).into_os_string()));
    let spec = RunSpec {
        program: tools.javac.clone(),
        args,
        // The folder above the sources and the classes: under Landlock a run writes only below its own folder.
        cwd: dir.to_path_buf(),
        stdin: None,
        env: Vec::new(),
        limits: Limits::default().with_timeout(std::time::Duration::from_secs(120)),
        sandbox: sandbox.clone(),
        cancel: None,
    };
    let outcome = run(&spec).map_err(|e| PrepareError::Setup(format!("cannot run javac: {e}")))?;
    let ok = matches!(outcome.exit, crate::harness::runner::Exit::Code(0)) && !outcome.timed_out;
    if !ok {
        let text = String::from_utf8_lossy(&outcome.stderr);
        let first: Vec<&str> = text.lines().take(12).collect();
        let why = if outcome.timed_out { "javac timed out".to_string() } else { first.join("\n") };
        return Err(PrepareError::Build(format!("{class}.java does not compile:\n{why}")));
    }
    if !classes.join(format!("{class}.class")).is_file() {
        return Err(PrepareError::Build(format!(
            "compiling produced no class '{class}' (is it in the default package?)"
        )));
    }
    Ok(Built { classes, class })
}

fn java_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    files
}

/// A course framework file (replaced by the host's) or GUI code (cannot run headless).
fn is_framework(file: &Path) -> bool {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if FRAMEWORK.contains(&name.as_str()) {
        return true;
    }
    let text = std::fs::read_to_string(file).unwrap_or_default();
    text.contains("import javax.swing") || text.contains("import java.awt")
}

/// The single `xxxPlayer.java` among `files`.
fn find_player(files: &[PathBuf], source: &Path) -> Result<String, PrepareError> {
    let players: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|stem| stem.ends_with("Player") && stem != "Player")
        .collect();
    match players.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(PrepareError::Build(format!("{}: no xxxPlayer.java found", source.display()))),
        many => Err(PrepareError::Build(format!(
            "{}: several players ({}); name the file to play",
            source.display(),
            many.join(", ")
        ))),
    }
}
