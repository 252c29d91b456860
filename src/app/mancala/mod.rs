//! The Mancala commands: `match`, `grade mancala`, `tournament`, and the built-in agents' `agent` process.

pub mod agent;
pub mod grade;
pub mod matches;
pub mod tournament;

use crate::app::parse_seconds;
use crate::cli::ArenaOptions;
use crate::harness::runner::{Limits, Sandbox};
use crate::referee::agent::TimeControl;
use crate::referee::java_host::JavaTools;
use crate::referee::spec::{AgentSpec, Setup};
use std::path::PathBuf;

/// The built-in Mancala agents' names, for `builtin:NAME`.
pub const BUILTINS: [&str; 3] = ["random", "simple", "strong"];

/// What every Mancala command decides from its [`ArenaOptions`] before playing.
#[derive(Debug)]
pub struct Arena {
    /// The clock.
    pub clock: TimeControl,
    /// How agents are set up.
    pub setup: Setup,
    _work: Option<tempfile::TempDir>,
}

impl Arena {
    /// Reads the options; `seed` is the seed actually used (printed by the caller).
    ///
    /// # Errors
    /// A bad option value, or a work folder that cannot be made.
    pub fn new(options: &ArenaOptions, seed: u64) -> Result<Arena, String> {
        let clock = TimeControl {
            per_move: parse_seconds(&options.time, "--time", false)?,
            tolerance: parse_seconds(&options.tolerance, "--tolerance", true)?,
            startup: parse_seconds(&options.startup, "--startup", false)?,
        };
        let (work, keep) = match &options.work {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("--work {}: {e}", dir.display()))?;
                (dir.clone(), None)
            }
            None => {
                let temp = tempfile::Builder::new()
                    .prefix("referee-arena-")
                    .tempdir()
                    .map_err(|e| format!("cannot make a work folder: {e}"))?;
                (temp.path().to_path_buf(), Some(temp))
            }
        };
        crate::harness::grade::class::make_traversable(&work).map_err(|e| format!("{}: {e}", work.display()))?;
        let sandbox = if options.run_as_self { Sandbox::default() } else { Sandbox::default_for_this_process() };
        // Agents live for a whole game: the wall clock is the referee's, the CPU limit only a backstop for an
        // agent left behind (a game of 200 moves at the limit, plus restarts).
        let game_seconds = (clock.per_move + clock.tolerance).as_secs().max(1) * 200 + clock.startup.as_secs();
        let limits = Limits { cpu_seconds: game_seconds, ..Limits::default() };
        let setup = Setup {
            game: "mancala".into(),
            work,
            sandbox,
            limits,
            java: JavaTools { java: options.java.clone().into(), javac: options.javac.clone().into() },
            seed,
        };
        Ok(Arena { clock, setup, _work: keep })
    }

    /// A folder for one game's agent working directories.
    pub fn game_dir(&self, name: &str) -> PathBuf {
        self.setup.work.join("games").join(name)
    }
}

/// Parses an agent name for Mancala.
///
/// # Errors
/// See [`AgentSpec::parse`].
pub fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    AgentSpec::parse(text, &BUILTINS)
}
