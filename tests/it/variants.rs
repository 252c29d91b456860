//! Wrong submissions written as declared changes to the correct fixtures, made into real programs at test time:
//! one correct program each in Python and Java, and every wrong one is that program with the changes below, so a
//! fix to the correct program reaches every variant and each variant has exactly its bug.

use std::fs;
use std::path::Path;

use crate::grade::fixture;

/// A change to one file of a correct submission: `(file, from, to)`; `from` must occur exactly once in the file.
pub type Change = (&'static str, &'static str, &'static str);

/// Copies every file of `source` into `into` (created) and applies `changes`.
pub fn materialize(source: &Path, changes: &[Change], into: &Path) {
    fs::create_dir_all(into).unwrap();
    for entry in fs::read_dir(source).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), into.join(entry.file_name())).unwrap();
    }
    for (file, from, to) in changes {
        let path = into.join(file);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{from:?} must occur exactly once in {file}");
        fs::write(&path, text.replace(from, to)).unwrap();
    }
}

/// Wrong Python stats submissions: changes to `submissions/python-stats`.
pub const PYTHON_WRONG: &[(&str, &[Change])] = &[
    ("python-depth-off-by-one", &[("takestones.py", "depth == self.depth_limit:", "depth == self.depth_limit - 1:")]),
    (
        "python-wrong-format",
        &[("takestones.py", r#""Number of Nodes Visited: %d""#, r#""Number of nodes visited: %d""#)],
    ),
    (
        "python-crlf",
        &[(
            "takestones.py",
            r#"sys.stdout.write("\n".join(lines) + "\n")"#,
            r#"sys.stdout.buffer.write(("\r\n".join(lines) + "\r\n").encode())"#,
        )],
    ),
    (
        "python-no-final-newline",
        &[("takestones.py", r#"sys.stdout.write("\n".join(lines) + "\n")"#, r#"sys.stdout.write("\n".join(lines))"#)],
    ),
];

/// A wrong Python stats submission by name, written into `into`.
pub fn python_wrong(name: &str, into: &Path) {
    let (_, changes) = PYTHON_WRONG.iter().find(|(n, _)| *n == name).unwrap();
    materialize(&fixture("submissions/python-stats"), changes, into);
}

const ABP: &str = "AlphaBetaPruning.java";

/// A class of Java hand-ins, folder name and changes to `submissions/java-stats` (stats edition).
pub const CLASS: &[(&str, &[Change])] = &[
    // Correct.
    ("alice-HW2-P3", &[]),
    // Depth off by one (and a hand-in name without dashes).
    ("bobHW2P3", &[(ABP, "depth == limit) {", "depth == limit - 1) {")]),
    // CRLF line endings.
    (
        "carol-HW2-P3",
        &[
            (ABP, r#"System.out.println("Move: " + bestMove);"#, r#"System.out.print("Move: " + bestMove + "\r\n");"#),
            (
                ABP,
                r#"System.out.println("Value: " + String.format("%.1f", bestValue));"#,
                r#"System.out.print("Value: " + String.format("%.1f", bestValue) + "\r\n");"#,
            ),
            (
                ABP,
                r#"System.out.println("Number of Nodes Visited: " + nodesVisited);"#,
                r#"System.out.print("Number of Nodes Visited: " + nodesVisited + "\r\n");"#,
            ),
            (
                ABP,
                r#"System.out.println("Number of Nodes Evaluated: " + nodesEvaluated);"#,
                r#"System.out.print("Number of Nodes Evaluated: " + nodesEvaluated + "\r\n");"#,
            ),
            (
                ABP,
                r#"System.out.println("Max Depth Reached: " + maxDepthReached);"#,
                r#"System.out.print("Max Depth Reached: " + maxDepthReached + "\r\n");"#,
            ),
            (
                ABP,
                r#"System.out.println("Avg Effective Branching Factor: " + String.format("%.1f", branching));"#,
                r#"System.out.print("Avg Effective Branching Factor: " + String.format("%.1f", branching) + "\r\n");"#,
            ),
        ],
    ),
    // Does not compile: a missing semicolon.
    (
        "dave-HW2-P3",
        &[(
            "GameState.java",
            "getLargestPrimeFactor(lastMove);\n            int count = 0;",
            "getLargestPrimeFactor(lastMove);\n            int count = 0",
        )],
    ),
    // No final newline (passes the course's comparison).
    (
        "erin-HW2-P3",
        &[(
            ABP,
            r#"System.out.println("Avg Effective Branching Factor: " + String.format("%.1f", branching));"#,
            r#"System.out.print("Avg Effective Branching Factor: " + String.format("%.1f", branching));"#,
        )],
    ),
    // Strict cuts.
    ("frank-HW2-P3", &[(ABP, "if (v >= beta) {", "if (v > beta) {"), (ABP, "if (v <= alpha) {", "if (v < alpha) {")]),
];

/// Student-style Mancala players with one bug each: changes to `mancala/goodPlayer.java` (besides the class name).
pub const MANCALA_PLAYERS: &[(&str, &[(&str, &str)])] = &[
    // Never sets `move`: the result stays in a local variable.
    (
        "silentPlayer",
        &[
            ("        int maxDepth = 1;\n", "        int maxDepth = 1;\n        int bestMove = -1;\n"),
            (
                "            move = maxAction(new GameState(state), maxDepth);",
                "            bestMove = maxAction(new GameState(state), maxDepth); // bug: never copied into `move`",
            ),
        ],
    ),
    // Correct, and done within a millisecond: deepens to 8 plies and returns, so a game costs what the referee does
    // rather than a full deadline per move (for tests about grading and reporting, not about the clock).
    (
        "quickPlayer",
        &[(
            "        int maxDepth = 1;\n        while (true) {\n            move = maxAction(new GameState(state), \
             maxDepth);\n            maxDepth++;\n        }",
            "        for (int maxDepth = 1; maxDepth <= 8; maxDepth++) {\n            move = maxAction(new \
             GameState(state), maxDepth);\n        }",
        )],
    ),
    // The runaway: iterative deepening that forgot to deepen, busy forever at depth 1.
    ("loopPlayer", &[("            maxDepth++;\n", "            // bug: maxDepth++ is missing\n")]),
    // Returns after depth 6 on turns 1 and 2, then throws (an array sized for two turns) before setting `move`.
    (
        "throwPlayer",
        &[
            (
                "    private static final int INFINITY = 1_000_000;\n",
                "    private static final int INFINITY = 1_000_000;\n\n    private final int[] scoreAtTurnStart = new \
                 int[2]; // bug: one slot per turn, but only two of them\n    private int turn = 0;\n",
            ),
            (
                "        int maxDepth = 1;\n        while (true) {\n            move = maxAction(new GameState(state), \
                 maxDepth);\n            maxDepth++;\n        }",
                "        scoreAtTurnStart[turn] = state.stoneCount(6);\n        turn++;\n        for (int maxDepth = 1; \
                 maxDepth <= 6; maxDepth++) {\n            move = maxAction(new GameState(state), maxDepth);\n        }",
            ),
        ],
    ),
];

/// Writes Mancala player `name` (`goodPlayer`, `illegalPlayer`, or one of [`MANCALA_PLAYERS`]) as `<name>.java`
/// alone in `dir` and returns its path.
pub fn mancala_player(name: &str, dir: &Path) -> std::path::PathBuf {
    fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("{name}.java"));
    if let Ok(text) = fs::read_to_string(fixture(&format!("mancala/{name}.java"))) {
        fs::write(&path, text).unwrap();
        return path;
    }
    let (_, changes) = MANCALA_PLAYERS.iter().find(|(n, _)| *n == name).unwrap();
    let mut text = fs::read_to_string(fixture("mancala/goodPlayer.java")).unwrap();
    let renamed = [
        (
            " * goodPlayer: a correct agent",
            " * made from goodPlayer by a change in tests/it/variants.rs (see there why): an agent",
        ),
        ("public class goodPlayer ", "public class __NAME__ "),
    ];
    for (from, to) in renamed.iter().chain(changes.iter()) {
        assert_eq!(text.matches(from).count(), 1, "{from:?} must occur exactly once in goodPlayer.java");
        text = text.replace(from, &to.replace("__NAME__", name));
    }
    fs::write(&path, text).unwrap();
    path
}
