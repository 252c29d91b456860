//! What `match`, `grade GAME` and `tournament` share across games: the clock and agent set-up read from
//! [`ArenaOptions`], and the [`Contest`] a game provides (how one refereed game is played and drawn).

pub mod cases;
pub mod grading;
pub mod matches;
pub mod report;
pub mod standings;
pub mod tournament;

use std::path::{Path, PathBuf};

use crate::app::parse_seconds;
use crate::cli::ArenaOptions;
use crate::harness::runner::Limits;
use crate::referee::agent::TimeControl;
use crate::referee::game_loop::{play_prepared, Refereed};
use crate::referee::java_host::JavaTools;
use crate::referee::record::{GameRecord, MoveRecord};
use crate::referee::spec::{AgentSpec, Prepared, Setup};

/// A game the referee can run between prepared agents.
pub trait Contest: Sync {
    /// The game's name (`mancala`), used in titles and messages.
    fn name(&self) -> &'static str;

    /// Its parameters in words (`4 stones`, `8x8, framework rules`).
    fn describe(&self) -> String;

    /// Plays one game, `seats[0]` moving first, agents working under `dir` (removed afterwards) and pinned to CPU
    /// `pin` when given, built-in agents drawing from `seed` (the game's,
    /// [`crate::referee::game_loop::game_seed`]); `on_move` sees every move
    /// as it is played.
    ///
    /// # Errors
    /// When a working folder cannot be made.
    fn play(
        &self,
        seats: [&Prepared; 2],
        clock: &TimeControl,
        dir: &Path,
        pin: Option<usize>,
        seed: Option<u64>,
        on_move: &mut dyn FnMut(&MoveRecord),
    ) -> std::io::Result<GameRecord>;

    /// The final position of a played game, drawn over several lines.
    fn final_board(&self, record: &GameRecord) -> String;

    /// The spec of a student's submission at `path` (Java for Mancala, Python for Othello).
    fn student(&self, path: PathBuf) -> AgentSpec;
}

/// A [`Refereed`] game as a [`Contest`], with what a student's submission is.
#[derive(Clone, Copy, Debug)]
pub struct Contested<G> {
    /// The game with its parameters.
    pub game: G,
    /// A student's submission as an agent ([`AgentSpec::Java`], [`AgentSpec::Python`]).
    pub student: fn(PathBuf) -> AgentSpec,
}

impl<G: Refereed + Sync> Contest for Contested<G> {
    fn name(&self) -> &'static str {
        self.game.name()
    }

    fn describe(&self) -> String {
        self.game.params()
    }

    fn play(
        &self,
        seats: [&Prepared; 2],
        clock: &TimeControl,
        dir: &Path,
        pin: Option<usize>,
        seed: Option<u64>,
        on_move: &mut dyn FnMut(&MoveRecord),
    ) -> std::io::Result<GameRecord> {
        play_prepared(&self.game, seats, clock, dir, pin, seed, on_move)
    }

    fn final_board(&self, record: &GameRecord) -> String {
        self.game.draw(&self.game.replay(record))
    }

    fn student(&self, path: PathBuf) -> AgentSpec {
        (self.student)(path)
    }
}

/// The clock the options give.
///
/// # Errors
/// A time that is not one (the message names the option).
pub fn clock(options: &ArenaOptions) -> Result<TimeControl, String> {
    Ok(TimeControl {
        per_move: parse_seconds(&options.time, "--time", false)?,
        tolerance: parse_seconds(&options.tolerance, "--tolerance", true)?,
        startup: parse_seconds(&options.startup, "--startup", false)?,
    })
}

/// What every refereeing command decides from its [`ArenaOptions`] before playing.
#[derive(Debug)]
pub struct Arena {
    /// The clock.
    pub clock: TimeControl,
    /// How agents are set up.
    pub setup: Setup,
    _work: Option<crate::harness::grade::scratch::Scratch>,
}

impl Arena {
    /// Reads the options for `game` (the protocol's game name); `seed` is the seed actually used (printed by the
    /// caller). Othello's commands fill in the Python and course-protocol parts of [`Arena::setup`] afterwards.
    ///
    /// # Errors
    /// A bad option value, or a work folder that cannot be made.
    pub fn new(options: &ArenaOptions, seed: u64, game: &str) -> Result<Arena, String> {
        let clock = clock(options)?;
        let (work, keep) = match &options.work {
            Some(dir) => {
                // Agents run in folders under it: a relative --work would name nothing from there.
                let dir = crate::app::reach::absolute(dir);
                std::fs::create_dir_all(&dir).map_err(|e| format!("--work {}: {e}", dir.display()))?;
                (dir, None)
            }
            None => {
                // Also removes the work folders of earlier referees that were killed.
                let temp = crate::harness::grade::scratch::Scratch::create(&std::env::temp_dir(), "referee-arena-")
                    .map_err(|e| format!("cannot make a work folder: {e}"))?;
                (temp.path().to_path_buf(), Some(temp))
            }
        };
        crate::harness::grade::class::make_traversable(&work).map_err(|e| format!("{}: {e}", work.display()))?;
        let sandbox = crate::app::sandbox::untrusted(&options.sandbox, options.run_as_self)?;
        let java = crate::app::reach::arena_program("--java", &options.java, &sandbox)?;
        let javac = crate::app::reach::arena_program("--javac", &options.javac, &sandbox)?;
        // Agents live for a whole game: the wall clock is the referee's, the CPU limit only a backstop for an
        // agent left behind (a game of 200 moves at the limit, plus restarts).
        let game_seconds = (clock.per_move + clock.tolerance).as_secs().max(1) * 200 + clock.startup.as_secs();
        let limits = Limits { cpu_seconds: game_seconds, ..Limits::default() };
        let setup = Setup {
            game: game.into(),
            work,
            sandbox,
            limits,
            java: JavaTools { java: java.into(), javac: javac.into() },
            python: "python3".into(),
            seed,
            builtin_args: Vec::new(),
            course: None,
        };
        Ok(Arena { clock, setup, _work: keep })
    }

    /// A folder for one game's agent working directories.
    pub fn game_dir(&self, name: &str) -> PathBuf {
        self.setup.work.join("games").join(name)
    }
}
