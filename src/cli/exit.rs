//! The exit codes of both binaries, in one table: README.md's "Exit codes" table is [`TABLE`] (a test compares
//! them), and every command's `--help` ends with [`help`] for that command, rendered from [`TABLE`] and
//! [`COMMANDS`] by [`decorate`], so the help, the README and the code cannot drift apart.

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

/// Interrupted (Ctrl-C, SIGTERM): a re-run of the same command resumes.
pub const INTERRUPTED: u8 = 130;

/// One row of the table: the code, its short name (what `--help` leads with) and its meaning (README's words).
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// The exit code.
    pub code: u8,
    /// A few words, the head of each command's line for this code.
    pub name: &'static str,
    /// The meaning, as README.md's table states it.
    pub meaning: &'static str,
}

/// The table, the same for every command (README.md's "Exit codes").
pub const TABLE: [Row; 7] = [
    Row { code: SUCCESS, name: "success", meaning: "success: everything passed, no divergence" },
    Row {
        code: FAILED,
        name: "did not pass",
        meaning: "something did not pass: a case failed, a check diverged, a build failed, a hand-in was not graded",
    },
    Row {
        code: USAGE,
        name: "bad arguments or input",
        meaning: "bad arguments or input, with one line saying what and where",
    },
    Row {
        code: INTERNAL,
        name: "the grader's fault",
        meaning:
            "the grader's, the TA's or the machine's fault (a missing `java`, a `--solution` short of full marks): \
                  never the student's",
    },
    Row {
        code: GAME_OVER,
        name: "game over",
        meaning: "(Take-Stones) the position has no legal move: the game is already over",
    },
    Row {
        code: SUSPECT,
        name: "suspected grader problem",
        meaning: "in a class of at least 3, most hand-ins (a strict majority) failed a case the same way, or most \
                  print the other Take-Stones edition's output: a suspected grader problem (the grades are not final)",
    },
    Row {
        code: INTERRUPTED,
        name: "interrupted",
        meaning: "interrupted (Ctrl-C); run the same command again to resume",
    },
];

/// The platform runners' one difference, stated under README.md's table and in their help.
pub const PLATFORM_NOTE: &str = "Platform runners (`gradescope run`, `prairielearn`, `grade --format classroom50`) \
exit 0 once the platform's result file holds a score, whatever the score: the platform reads the score from the \
file.";

/// What one command can return: its path (`"grade mancala"`), and for each code it uses, the command's own words.
#[derive(Debug, Clone, Copy)]
pub struct Codes {
    /// The command's words after the binary's name (`"takestones"` for the `takestones` binary itself).
    pub command: &'static str,
    /// Each code the command can return, with what it means for this command.
    pub codes: &'static [(u8, &'static str)],
}

const CLASS_SUSPECT: &str = "most of a class (a strict majority, at least 3) failed a case the same way; named above \
the summary with what to check";

/// Every command's codes (the leaves of both binaries' command trees; a test checks none is missing).
pub const COMMANDS: &[Codes] = &[
    Codes {
        command: "takestones",
        codes: &[(SUCCESS, "the move was printed"), (USAGE, "a bad position or option"), (GAME_OVER, "no legal move")],
    },
    Codes {
        command: "referee takestones",
        codes: &[(SUCCESS, "the move was printed"), (USAGE, "a bad position or option"), (GAME_OVER, "no legal move")],
    },
    Codes {
        command: "referee grade",
        codes: &[
            (SUCCESS, "every case of every hand-in passed"),
            (FAILED, "some case did not pass, or a hand-in was not graded"),
            (USAGE, "a usage or suite error"),
            (INTERNAL, "a harness error (also a --solution short of full marks)"),
            (SUSPECT, CLASS_SUSPECT),
            (INTERRUPTED, "a class run resumes where it stopped"),
        ],
    },
    Codes {
        command: "referee grade mancala",
        codes: &[
            (SUCCESS, "every student passed every part of the rubric"),
            (FAILED, "some student lost a part of the rubric or was not graded"),
            (USAGE, "bad arguments"),
            (INTERNAL, "no JDK, or a --solution short of full marks"),
            (SUSPECT, CLASS_SUSPECT),
            (INTERRUPTED, "a re-run resumes, with the seed kept in --out"),
        ],
    },
    Codes {
        command: "referee grade othello",
        codes: &[
            (SUCCESS, "every student passed every part of the rubric"),
            (FAILED, "some student lost a part of the rubric or was not graded"),
            (USAGE, "bad arguments"),
            (INTERNAL, "no python3, or a --solution short of full marks"),
            (SUSPECT, CLASS_SUSPECT),
            (INTERRUPTED, "a re-run resumes, with the seed kept in --out"),
        ],
    },
    Codes {
        command: "referee check",
        codes: &[
            (SUCCESS, "no divergence"),
            (FAILED, "a divergence (shrunk and diagnosed above), a function that disagrees, or a failed build"),
            (USAGE, "bad arguments, e.g. a missing file"),
            (INTERNAL, "the program or Python could not be started"),
            (INTERRUPTED, "stopped"),
        ],
    },
    Codes {
        command: "referee gen",
        codes: &[(SUCCESS, "the suite was written"), (USAGE, "bad arguments"), (INTERNAL, "it could not be written")],
    },
    Codes {
        command: "referee verify",
        codes: &[
            (SUCCESS, "every official case matched"),
            (FAILED, "an official case differs"),
            (INTERNAL, "output could not be written"),
        ],
    },
    Codes {
        command: "referee bench",
        codes: &[(SUCCESS, "measured"), (USAGE, "bad arguments"), (INTERNAL, "output could not be written")],
    },
    Codes {
        command: "referee sandbox",
        codes: &[(SUCCESS, "printed"), (USAGE, "bad arguments"), (INTERNAL, "output could not be written")],
    },
    Codes {
        command: "referee match mancala",
        codes: &[
            (SUCCESS, "the games were played (whatever the result)"),
            (FAILED, "an agent cannot play (it does not compile)"),
            (USAGE, "bad arguments"),
            (INTERNAL, "an agent could not be set up for a reason that is not its own (no JDK, an unwritable folder)"),
        ],
    },
    Codes {
        command: "referee match othello",
        codes: &[
            (SUCCESS, "the games were played (whatever the result)"),
            (FAILED, "an agent cannot play (a syntax error)"),
            (USAGE, "bad arguments"),
            (INTERNAL, "an agent could not be set up for a reason that is not its own (no python3)"),
        ],
    },
    Codes {
        command: "referee tournament mancala",
        codes: &[
            (SUCCESS, "the games were played"),
            (USAGE, "bad arguments"),
            (INTERNAL, "a grader error"),
            (INTERRUPTED, "a re-run resumes"),
        ],
    },
    Codes {
        command: "referee tournament othello",
        codes: &[
            (SUCCESS, "the games were played"),
            (USAGE, "bad arguments"),
            (INTERNAL, "a grader error"),
            (INTERRUPTED, "a re-run resumes"),
        ],
    },
    Codes {
        command: "referee agent mancala",
        codes: &[(SUCCESS, "the game ended"), (USAGE, "a bad agent name or protocol line"), (INTERNAL, "an I/O error")],
    },
    Codes {
        command: "referee agent othello",
        codes: &[(SUCCESS, "the game ended"), (USAGE, "a bad agent name or protocol line"), (INTERNAL, "an I/O error")],
    },
    Codes {
        command: "referee csp",
        codes: &[
            (SUCCESS, "the key was printed"),
            (USAGE, "bad arguments or input (the message gives the line and column)"),
            (INTERNAL, "output could not be written"),
        ],
    },
    Codes {
        command: "referee mdp",
        codes: &[
            (SUCCESS, "the key was printed"),
            (USAGE, "bad arguments or input (the message gives the line and column)"),
            (INTERNAL, "output could not be written"),
        ],
    },
    Codes {
        command: "referee tree",
        codes: &[
            (SUCCESS, "the key was printed"),
            (USAGE, "bad arguments or input (the message gives the line and column)"),
            (INTERNAL, "output could not be written"),
        ],
    },
    Codes {
        command: "referee hillclimb",
        codes: &[
            (SUCCESS, "the key was printed"),
            (USAGE, "bad arguments or input (the message gives the line and column)"),
            (INTERNAL, "output could not be written"),
        ],
    },
    Codes {
        command: "referee merge",
        codes: &[
            (SUCCESS, "as the merged command's: everyone passed (games: graded with no one short)"),
            (FAILED, "as the merged command's: someone did not pass or was not graded"),
            (USAGE, "a missing, duplicated, unfinished or foreign shard (named)"),
            (INTERNAL, "an I/O error"),
            (SUSPECT, "over the whole class, most failed a case the same way"),
        ],
    },
    Codes {
        command: "referee gradescope bundle",
        codes: &[
            (SUCCESS, "autograder.zip was written"),
            (USAGE, "bad arguments: what `grade` would refuse, refused now rather than on Gradescope"),
            (INTERNAL, "the zip could not be written, or the --solution did not get full marks"),
        ],
    },
    Codes {
        command: "referee gradescope run",
        codes: &[
            (SUCCESS, "results.json written with a score (whatever it is)"),
            (FAILED, "results.json written without a score: the hand-in was not graded (it says why)"),
            (INTERNAL, "a grader error (results.json says so), or it could not be written"),
        ],
    },
    Codes {
        command: "referee prairielearn",
        codes: &[(SUCCESS, "results.json written (whatever it says)"), (INTERNAL, "it could not be written")],
    },
    Codes {
        command: "referee exercise make",
        codes: &[(SUCCESS, "written"), (USAGE, "bad arguments or roster"), (INTERNAL, "a file could not be written")],
    },
    Codes {
        command: "referee exercise grade",
        codes: &[
            (SUCCESS, "every part right"),
            (FAILED, "some part lost points or a hand-in was not graded"),
            (USAGE, "a usage error"),
            (INTERNAL, "a file could not be written"),
            (INTERRUPTED, "a class run resumes"),
        ],
    },
    Codes {
        command: "referee exercise check",
        codes: &[
            (SUCCESS, "every part present and readable"),
            (FAILED, "something to fix (listed)"),
            (USAGE, "the file cannot be read"),
        ],
    },
    Codes {
        command: "referee similar",
        codes: &[
            (SUCCESS, "compared (whatever it found: similarity is evidence for the TA, not a verdict)"),
            (USAGE, "bad arguments or an unreadable class folder"),
            (INTERNAL, "an output could not be written"),
        ],
    },
    Codes {
        command: "referee perft othello",
        codes: &[(SUCCESS, "counted"), (USAGE, "bad arguments"), (INTERNAL, "output could not be written")],
    },
];

/// The codes of `command` (its path, e.g. `"referee grade mancala"`), if it is one of [`COMMANDS`].
pub fn codes(command: &str) -> Option<&'static Codes> {
    COMMANDS.iter().find(|c| c.command == command)
}

/// The "Exit codes" section of `command`'s `--help`: each code it returns, named as [`TABLE`] names it, then the
/// command's own words. Empty for a command without a table (a parent of subcommands).
pub fn help(command: &str) -> String {
    if command == "referee" {
        let mut text = String::from(
            "Exit codes (the same for every command; each command's --help says what they mean for it):\n",
        );
        for row in &TABLE {
            text.push_str(&format!("  {:<3} {}\n", row.code, row.meaning));
        }
        return text + PLATFORM_NOTE + "\n";
    }
    let Some(codes) = codes(command) else { return String::new() };
    let mut text = String::from("Exit codes (README.md's table):\n");
    for (code, words) in codes.codes {
        let name = TABLE.iter().find(|r| r.code == *code).map_or("", |r| r.name);
        text.push_str(&format!("  {code:<3} {name}: {words}\n"));
    }
    if ["referee gradescope run", "referee prairielearn", "referee grade"].contains(&command) {
        text.push_str(PLATFORM_NOTE);
        text.push('\n');
    }
    text
}

/// `cmd` (a binary's clap command) with every command's `--help` ending in its [`help`] section, after its own
/// text.
#[must_use]
pub fn decorate(cmd: clap::Command) -> clap::Command {
    let path = cmd.get_name().to_string();
    with_exit_help(cmd, &path)
}

fn with_exit_help(mut cmd: clap::Command, path: &str) -> clap::Command {
    let section = help(path);
    if !section.is_empty() {
        let text = match cmd.get_after_help() {
            Some(own) => format!("{own}\n\n{section}"),
            None => section,
        };
        cmd = cmd.after_help(text.trim_end().to_string());
    }
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        let sub_path = format!("{path} {name}");
        cmd = cmd.mut_subcommand(&name, |s| with_exit_help(s, &sub_path));
    }
    cmd
}
