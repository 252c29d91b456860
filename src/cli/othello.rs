//! The Othello commands' arguments: `match othello`, `grade othello`, `tournament othello`.

use clap::{Args, ValueEnum};

use crate::harness::model::Points;

use super::{ArenaOptions, ClassArgs, MatchArgs, TournamentArgs};

/// The rule sets, as options name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum OthelloRules {
    /// The course's manager: the game ends as soon as the side to move has no legal move.
    #[default]
    Framework,
    /// Standard Othello: a side with no move passes; the game ends when neither can move.
    Standard,
}

/// How Othello is played and how agents are spoken to.
#[derive(Debug, Clone, Args)]
pub struct OthelloOptions {
    /// Board size: even, 4 to 16 (the course used 4, 6 and 8).
    #[arg(long, default_value_t = 8)]
    pub size: usize,
    /// What happens when the side to move has no legal move.
    #[arg(long, value_enum, default_value_t)]
    pub rules: OthelloRules,
    /// The color line each agent gets, `{color}` replaced by 1 (dark) or 2 (light). The later course's form is
    /// e.g. `{color},4,0,1,1` (color, depth limit, minimax, caching, ordering).
    #[arg(long, default_value = "{color}")]
    pub color_line: String,
    /// Skip stdout lines that are not a move `i j` instead of adjudicating them as a loss (the course's manager
    /// took any line as the move).
    #[arg(long)]
    pub allow_chatter: bool,
    /// The Python that runs `<uni>_ai.py` agents.
    #[arg(long, default_value = "python3")]
    pub python: String,
}

const AGENTS: &str = "Agents: builtin:random, builtin:greedy, builtin:strong, a path to a student's <uni>_ai.py (or \
its folder or zip; run unchanged with the project's othello_shared.py beside it), or cmd:COMMAND (any program \
speaking the course's protocol). Boards are always sent as tuples of tuples.";

/// `referee match othello`.
#[derive(Debug, Clone, Args)]
#[command(after_help = format!("{AGENTS}"))]
pub struct OthelloMatchArgs {
    /// The agents and the games.
    #[command(flatten)]
    pub common: MatchArgs,
    /// The board and the protocol.
    #[command(flatten)]
    pub othello: OthelloOptions,
    /// Clock and runtime.
    #[command(flatten)]
    pub arena: ArenaOptions,
}

/// `referee grade othello`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Rubric: each agent plays builtin:random --games times with each color. The play points \
are earned in proportion to games won, in full from a win rate of --target (the course's agents at depth 4-5 win \
70-100%). Any adjudicated loss (timeout, crash, illegal or malformed move) is shown with the board and stderr. \
--check-share of the points is for the conformance check of the search functions, split evenly among the functions \
the module defines in a checkable form (a missing function earns nothing).\n\
Games are seeded from --seed (kept in --out, so a re-run replays them and resumes), the round and the seat: every \
round is another game.")]
pub struct OthelloGradeArgs {
    /// The class and where its results go.
    #[command(flatten)]
    pub class: ClassArgs,
    /// Games against builtin:random with each color.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Win rate against builtin:random that earns all the play points.
    #[arg(long, default_value_t = 0.7)]
    pub target: f64,
    /// Points for the assignment (a decimal >= 0, at most 9 decimals).
    #[arg(long, default_value = "100", value_parser = Points::parse_rubric)]
    pub points: Points,
    /// Share of the points for the conformance of the student's search functions (`referee check othello`); the
    /// rest is for games. 0 skips the check.
    #[arg(long, default_value = "0.5", value_parser = Points::parse_share)]
    pub check_share: Points,
    /// Random boards of the conformance check (on top of its fixed ones).
    #[arg(long, default_value_t = 30)]
    pub check_cases: usize,
    /// Wall-clock limit of each call of the conformance check.
    #[arg(long, default_value = "10")]
    pub check_timeout: String,
    /// The board and the protocol.
    #[command(flatten)]
    pub othello: OthelloOptions,
    /// Clock and runtime.
    #[command(flatten)]
    pub arena: ArenaOptions,
}

/// `referee tournament othello`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Every pair plays twice (each agent with each color). Ratings are Bradley-Terry maximum \
likelihood with standard errors (draws count half), Elo scale, mean 1500. Bands: top 10% and the next 15%.")]
pub struct OthelloTournamentArgs {
    /// The class and the entrants.
    #[command(flatten)]
    pub common: TournamentArgs,
    /// The board and the protocol.
    #[command(flatten)]
    pub othello: OthelloOptions,
    /// Clock and runtime.
    #[command(flatten)]
    pub arena: ArenaOptions,
}
