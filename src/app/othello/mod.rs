//! The Othello commands: `match othello`, `grade othello`, `tournament othello`, and the built-in agents' `agent`
//! process (the course's game-manager protocol on stdin/stdout).

pub mod agent;
pub mod grade;
pub mod matches;

use std::path::{Path, PathBuf};

use crate::app::arena::{Arena, Contest};
use crate::cli::{ArenaOptions, OthelloOptions, OthelloRules};
use crate::game::othello::{Grid, Othello, Rules};
use crate::referee::agent::TimeControl;
use crate::referee::othello::play::{draw, final_state, play_prepared};
use crate::referee::record::{GameRecord, MoveRecord};
use crate::referee::spec::{AgentSpec, CourseOptions, Prepared};

/// The built-in Othello agents' names, for `builtin:NAME`.
pub const BUILTINS: [&str; 3] = ["random", "greedy", "strong"];

/// Othello of one size and rule set, as the referee plays it.
#[derive(Clone, Copy, Debug)]
pub struct OthelloContest(pub Othello<Grid>);

impl Contest for OthelloContest {
    fn name(&self) -> &'static str {
        "othello"
    }

    fn describe(&self) -> String {
        let rules = match self.0.rules() {
            Rules::Framework => "framework",
            Rules::Standard => "standard",
        };
        format!("{0}x{0}, {rules} rules", self.0.size())
    }

    fn play(
        &self,
        seats: [&Prepared; 2],
        clock: &TimeControl,
        dir: &Path,
        pin: Option<usize>,
        on_move: &mut dyn FnMut(&MoveRecord),
    ) -> std::io::Result<GameRecord> {
        play_prepared(&self.0, seats, clock, dir, pin, on_move)
    }

    fn final_board(&self, record: &GameRecord) -> String {
        draw(&final_state(&self.0, record))
    }

    fn student(&self, path: PathBuf) -> AgentSpec {
        AgentSpec::Python(path)
    }
}

/// The game and the arena the options describe: Python agents, the course protocol, built-ins told the clock.
///
/// # Errors
/// A bad option value (the message names the option).
pub fn arena(options: &OthelloOptions, arena: &ArenaOptions) -> Result<(OthelloContest, Arena), String> {
    let rules = match options.rules {
        OthelloRules::Framework => Rules::Framework,
        OthelloRules::Standard => Rules::Standard,
    };
    let game = Othello::<Grid>::new(options.size, rules).map_err(|e| format!("--size {}: {e}", options.size))?;
    if !options.color_line.contains("{color}") {
        return Err(format!("--color-line '{}' must contain {{color}}", options.color_line));
    }
    let seed = crate::app::seed_or_now(arena.seed);
    let mut built = Arena::new(arena, seed, "othello")?;
    built.setup.python = options.python.clone().into();
    let rules_word = match rules {
        Rules::Framework => "framework",
        Rules::Standard => "standard",
    };
    built.setup.builtin_args =
        vec!["--time".into(), format!("{}ms", built.clock.per_move.as_millis()), "--rules".into(), rules_word.into()];
    built.setup.course = Some(CourseOptions { color_line: options.color_line.clone(), chatter: options.allow_chatter });
    Ok((OthelloContest(game), built))
}
