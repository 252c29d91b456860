//! The exit codes of both binaries, in one table.

/// Success (verify: every case matched).
pub const SUCCESS: u8 = 0;
/// Some check failed (verify: an official case differs).
pub const FAILED: u8 = 1;
/// Bad arguments or input; the message names it.
pub const USAGE: u8 = 2;
/// Our own fault or the environment's (an output that cannot be written); never blamed on a submission.
pub const INTERNAL: u8 = 3;
/// The position has no legal move at the root: the game is already over, so there is no move to print.
pub const GAME_OVER: u8 = 4;

/// A class run where most hand-ins (a strict majority, at least 3) failed a case the same way, or most print the
/// other Take-Stones edition's output: a suspected grader problem (a command, build step, suite, edition or
/// limit), said above the summary with what to check; the grades are not final.
pub const SUSPECT: u8 = 5;

/// The table as `--help` shows it.
pub const HELP: &str = "Exit codes:\n  0  success\n  1  a check failed (verify: an official case differs)\n  \
2  bad arguments or input (one line on stderr says what and where)\n  3  internal or I/O error\n  \
4  the position has no legal move: the game is already over\n  \
5  a class run (of at least 3) in which most hand-ins failed a case the same way, or most print the other \
Take-Stones edition's output: a suspected grader problem (the grades are not final)";
