//! Naming agents on the command line (`builtin:NAME`, `cmd:COMMAND`, a student's `xxxPlayer.java` or its folder or
//! zip) and preparing each once (compiling the Java ones) so it can be started for any number of games.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::harness::grade::class::{make_traversable, safe_name};
use crate::harness::runner::sandbox::{hand_over, Lease, Sandbox};
use crate::harness::runner::Limits;

use super::agent::{Agent, Dialect};
use super::process::Launch;
use super::{java_host, python_host};

pub use super::prepare_error::PrepareError;

/// An agent as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// `builtin:NAME`: an agent of this binary, run as `referee agent GAME NAME`.
    Builtin(String),
    /// `cmd:COMMAND`: any program that speaks the protocol (split like a shell would, run without one).
    Command(String),
    /// A student's `xxxPlayer.java`, or a folder or zip holding one, run through the Java host.
    Java(PathBuf),
    /// A student's `<uni>_ai.py`, or a folder or zip holding one, run with Python beside `othello_shared.py`.
    Python(PathBuf),
}

impl AgentSpec {
    /// Parses `text`. Anything that is not `builtin:` or `cmd:` is a path to a student's code, which `student`
    /// turns into a spec ([`AgentSpec::Java`] for Mancala, [`AgentSpec::Python`] for Othello).
    ///
    /// # Errors
    /// An unknown built-in, an empty command, or a path that does not exist.
    pub fn parse(text: &str, builtins: &[&str], student: impl Fn(PathBuf) -> AgentSpec) -> Result<AgentSpec, String> {
        if let Some(name) = text.strip_prefix("builtin:") {
            if builtins.contains(&name) {
                return Ok(AgentSpec::Builtin(name.to_string()));
            }
            return Err(format!("unknown built-in agent '{name}' (known: {})", builtins.join(", ")));
        }
        if let Some(command) = text.strip_prefix("cmd:") {
            return match shlex::split(command) {
                Some(words) if !words.is_empty() => Ok(AgentSpec::Command(command.to_string())),
                _ => Err(format!("cannot split the command '{command}' into words")),
            };
        }
        let path = PathBuf::from(text);
        if path.exists() {
            Ok(student(path))
        } else {
            let kind = match student(PathBuf::new()) {
                AgentSpec::Python(_) => "<uni>_ai.py",
                _ => "xxxPlayer.java",
            };
            Err(format!("agent '{text}': no such file (expected builtin:NAME, cmd:COMMAND or a path to {kind})"))
        }
    }

    /// The label reports use: `builtin:simple`, `cmd:...`, or the Java file's or folder's name.
    pub fn label(&self) -> String {
        match self {
            AgentSpec::Builtin(name) => format!("builtin:{name}"),
            AgentSpec::Command(command) => format!("cmd:{command}"),
            AgentSpec::Java(path) | AgentSpec::Python(path) => {
                path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
            }
        }
    }
}

/// Where and how agents are prepared and run.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The game's protocol name (`mancala`).
    pub game: String,
    /// Folder for compiled code and per-game working folders.
    pub work: PathBuf,
    /// Who untrusted agents run as.
    pub sandbox: Sandbox,
    /// Limits of every agent process (the per-move clock is the referee's, not these).
    pub limits: Limits,
    /// The `java` and `javac` to use.
    pub java: java_host::JavaTools,
    /// The `python3` to run Python agents with.
    pub python: OsString,
    /// Seed for built-in agents that draw random numbers.
    pub seed: u64,
    /// More arguments for built-in agents (`--time 10 --rules framework` for Othello's).
    pub builtin_args: Vec<String>,
    /// Agents speak the Othello course's protocol, with these options; `None`: the project's protocol.
    pub course: Option<CourseOptions>,
}

/// How the Othello course's protocol is spoken to every agent of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseOptions {
    /// The color line, `{color}` replaced by 1 (dark) or 2 (light): `{color}` for the original course,
    /// `{color},4,0,1,1` for the later one.
    pub color_line: String,
    /// Skip stdout lines that are not a move (the course's manager would have taken them as the move).
    pub chatter: bool,
}

impl Setup {
    /// The setup for one student's agent: a work folder of its own, so students' builds never meet.
    pub fn for_student(&self, id: &str) -> Setup {
        let work = self.work.join("students").join(safe_name(id));
        let _ = make_traversable(&work);
        Setup { work, ..self.clone() }
    }
}

/// An agent ready to be started for any number of games.
#[derive(Debug)]
pub struct Prepared {
    /// Its label.
    pub label: String,
    /// A student's Python agent file as laid out for play (for checks that import it).
    pub python_file: Option<PathBuf>,
    game: String,
    launch: Launch,
    course: Option<CourseOptions>,
    trusted: bool,
    _lease: Option<Lease>,
}

impl Prepared {
    /// A fresh [`Agent`] for one game in `seat` (1 or 2), working in `dir` (created, and given to the sandbox user).
    ///
    /// # Errors
    /// When the folder cannot be made.
    pub fn agent(&self, game_params: &[String], seat: u8, dir: &Path, pin: Option<usize>) -> std::io::Result<Agent> {
        self.seeded_agent(game_params, seat, dir, pin, None)
    }

    /// [`Prepared::agent`], a built-in agent drawing its random numbers from `seed` when given (one game's seed,
    /// `referee::game_loop::game_seed`) rather than from the run's.
    ///
    /// # Errors
    /// When the folder cannot be made.
    pub fn seeded_agent(
        &self,
        game_params: &[String],
        seat: u8,
        dir: &Path,
        pin: Option<usize>,
        seed: Option<u64>,
    ) -> std::io::Result<Agent> {
        make_traversable(dir)?;
        if !self.trusted {
            hand_over(dir, &self.launch.sandbox)?;
        }
        let mut launch = self.launch.clone();
        if launch.cwd.as_os_str().is_empty() {
            launch.cwd = dir.to_path_buf();
        }
        launch.pin = pin;
        if let (true, Some(seed)) = (self.trusted, seed) {
            if let Some(at) = launch.args.iter().position(|a| a == "--seed") {
                if let Some(value) = launch.args.get_mut(at + 1) {
                    *value = seed.to_string().into();
                }
            }
        }
        let dialect = match &self.course {
            Some(course) => Dialect::Course {
                color_line: course.color_line.replace("{color}", &seat.to_string()),
                chatter: course.chatter,
            },
            None => Dialect::Referee(super::protocol::hello(&self.game, game_params, seat)),
        };
        Ok(Agent::new(self.label.clone(), launch, dialect))
    }
}

/// Prepares `spec`: nothing to do for built-ins and commands; a Java player is laid out and compiled with the host.
///
/// # Errors
/// [`PrepareError::Build`] when the student's code is at fault, [`PrepareError::Setup`] otherwise.
pub fn prepare(spec: &AgentSpec, setup: &Setup) -> Result<Prepared, PrepareError> {
    // A student's code is copied and run from folders under the work folder: paths relative to the TA's current
    // folder (a bare `ab2101_ai.py`, a relative --submissions or --work) would name nothing from there.
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let setup = &Setup { work: absolute(&setup.work), ..setup.clone() };
    let spec = &match spec {
        AgentSpec::Java(path) => AgentSpec::Java(absolute(path)),
        AgentSpec::Python(path) => AgentSpec::Python(absolute(path)),
        other => other.clone(),
    };
    let label = spec.label();
    let env = Vec::new();
    let game = setup.game.clone();
    let course = setup.course.clone();
    match spec {
        AgentSpec::Builtin(name) => {
            let exe = crate::harness::runner::plan::launcher_path()
                .ok_or_else(|| PrepareError::Setup("the referee binary was not found for built-in agents".into()))?;
            let mut args = ["agent", &setup.game, name, "--seed", &setup.seed.to_string()].map(OsString::from).to_vec();
            args.extend(setup.builtin_args.iter().map(OsString::from));
            let launch = Launch {
                program: exe.into_os_string(),
                args,
                cwd: PathBuf::new(),
                env,
                limits: setup.limits,
                sandbox: Sandbox::default(),
                pin: None,
                readable: Vec::new(),
            };
            Ok(Prepared { label, python_file: None, game, launch, course, trusted: true, _lease: None })
        }
        AgentSpec::Command(command) => {
            let words = shlex::split(command).unwrap_or_default();
            let (program, args) =
                words.split_first().ok_or_else(|| PrepareError::Setup(format!("empty command '{command}'")))?;
            let (sandbox, lease) = setup.sandbox.lease();
            let cwd = std::env::current_dir().map_err(|e| PrepareError::Setup(format!("current folder: {e}")))?;
            let launch = Launch {
                program: program.into(),
                args: args.iter().map(OsString::from).collect(),
                cwd,
                env,
                limits: setup.limits,
                sandbox,
                pin: None,
                readable: Vec::new(),
            };
            Ok(Prepared { label, python_file: None, game, launch, course, trusted: false, _lease: Some(lease) })
        }
        AgentSpec::Java(path) => {
            let (sandbox, lease) = setup.sandbox.lease();
            let dir = setup.work.join("agents").join(safe_name(&label));
            let built = java_host::build(path, &dir, &setup.java, &sandbox)?;
            let mut args: Vec<OsString> = java_host::JVM_FLAGS.iter().map(OsString::from).collect();
            let readable = vec![built.classes.clone()];
            args.extend([
                OsString::from("-cp"),
                built.classes.into_os_string(),
                "RefereeHost".into(),
                built.class.into(),
            ]);
            let launch = Launch {
                program: setup.java.java.clone(),
                args,
                cwd: PathBuf::new(),
                env,
                limits: setup.limits,
                sandbox,
                pin: None,
                readable,
            };
            Ok(Prepared { label, python_file: None, game, launch, course, trusted: false, _lease: Some(lease) })
        }
        AgentSpec::Python(path) => {
            let (sandbox, lease) = setup.sandbox.lease();
            let dir = setup.work.join("agents").join(safe_name(&label));
            let built = python_host::build(path, &dir, &setup.python, &sandbox)?;
            let python_file = Some(built.file.clone());
            // Unbuffered: an agent that forgets to flush still answers (the course's manager would have hung).
            let env = vec![
                (OsString::from("PYTHONUNBUFFERED"), OsString::from("1")),
                (OsString::from("PYTHONDONTWRITEBYTECODE"), OsString::from("1")),
            ];
            let readable = built.file.parent().map(Path::to_path_buf).into_iter().collect();
            let launch = Launch {
                program: setup.python.clone(),
                args: vec![built.file.into_os_string()],
                cwd: PathBuf::new(),
                env,
                limits: setup.limits,
                sandbox,
                pin: None,
                readable,
            };
            Ok(Prepared { label, python_file, game, launch, course, trusted: false, _lease: Some(lease) })
        }
    }
}
