//! The Othello commands: `match othello`, `grade othello`, `tournament othello`, and the built-in agents' `agent`
//! process (the course's game-manager protocol on stdin/stdout), and `check othello` (conformance of a student's
//! search functions).

pub mod agent;
pub mod check;
pub mod grade;
pub mod grade_check;
pub mod matches;
pub mod perft;

use crate::app::arena::{Arena, Contested};
use crate::cli::{ArenaOptions, OthelloOptions, OthelloRules};
use crate::game::othello::{Grid, Othello, Rules};
use crate::referee::spec::{AgentSpec, CourseOptions};

/// The built-in Othello agents' names, for `builtin:NAME`.
pub const BUILTINS: [&str; 3] = ["random", "greedy", "strong"];

/// Othello as the arena plays it: students hand in Python agents.
pub type OthelloContest = Contested<Othello<Grid>>;

/// The game the options describe, and its rules.
///
/// # Errors
/// A board size Othello is not played on, or a color line without `{color}` (the message names the option).
pub fn game(options: &OthelloOptions) -> Result<(Othello<Grid>, Rules), String> {
    let rules = match options.rules {
        OthelloRules::Framework => Rules::Framework,
        OthelloRules::Standard => Rules::Standard,
    };
    let game = Othello::<Grid>::new(options.size, rules).map_err(|e| format!("--size {}: {e}", options.size))?;
    if !options.color_line.contains("{color}") {
        return Err(format!("--color-line '{}' must contain {{color}}", options.color_line));
    }
    Ok((game, rules))
}

/// The game and the arena the options describe: Python agents, the course protocol, built-ins told the clock.
///
/// # Errors
/// A bad option value (the message names the option).
pub fn arena(options: &OthelloOptions, arena: &ArenaOptions) -> Result<(OthelloContest, Arena), String> {
    let (game, rules) = game(options)?;
    let seed = crate::app::seed_or_now(arena.seed);
    let mut built = Arena::new(arena, seed, "othello")?;
    built.setup.python = crate::app::reach::arena_program("--python", &options.python, &built.setup.sandbox)?.into();
    let rules_word = match rules {
        Rules::Framework => "framework",
        Rules::Standard => "standard",
    };
    built.setup.builtin_args =
        vec!["--time".into(), format!("{}ms", built.clock.per_move.as_millis()), "--rules".into(), rules_word.into()];
    built.setup.course = Some(CourseOptions { color_line: options.color_line.clone(), chatter: options.allow_chatter });
    Ok((Contested { game, student: AgentSpec::Python }, built))
}
