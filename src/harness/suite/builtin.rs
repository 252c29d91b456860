//! The official Take-Stones test files, compiled in from `testcases/takestones/` so the binary can check itself
//! anywhere (`referee verify`).

use super::course::{parse_stats_2019, parse_trace_2017, suite_from, CaseLine, LayoutError};
use super::{Case, Suite, SuiteError};
use crate::reference::takestones::Edition;

/// The names `builtin:NAME` accepts.
pub const NAMES: &[&str] = &["takestones-stats-2019", "takestones-trace-2017"];

/// The built-in suite `name` (the official files of one edition).
///
/// # Errors
/// [`SuiteError::UnknownBuiltin`] for any other name.
pub fn suite(name: &str) -> Result<Suite, SuiteError> {
    let shipped = match name {
        "takestones-stats-2019" => &STATS_2019,
        "takestones-trace-2017" => &TRACE_2017,
        _ => return Err(SuiteError::UnknownBuiltin(name.to_string())),
    };
    let read = |file: &str| {
        shipped
            .outputs
            .iter()
            .find(|(n, _)| *n == file)
            .map(|(_, t)| t.to_string())
            .ok_or(format!("no shipped file {file}"))
    };
    suite_from(shipped.testcase, &format!("builtin:{name}"), read).map_err(|(line, problem)| SuiteError::Invalid {
        path: format!("builtin:{name}"),
        message: format!("line {line}: {problem}"),
    })
}

/// The files of one shipped suite: its `testcase.txt` and its `outputN.txt` files by name.
struct Shipped {
    testcase: &'static str,
    outputs: &'static [(&'static str, &'static str)],
}

const STATS_2019: Shipped = Shipped {
    testcase: include_str!("../../../testcases/takestones/stats-2019/testcase.txt"),
    outputs: &[
        ("output1.txt", include_str!("../../../testcases/takestones/stats-2019/output1.txt")),
        ("output2.txt", include_str!("../../../testcases/takestones/stats-2019/output2.txt")),
        ("output3.txt", include_str!("../../../testcases/takestones/stats-2019/output3.txt")),
    ],
};

const TRACE_2017: Shipped = Shipped {
    testcase: include_str!("../../../testcases/takestones/trace-2017/testcase.txt"),
    outputs: &[
        ("output1.txt", include_str!("../../../testcases/takestones/trace-2017/output1.txt")),
        ("output2.txt", include_str!("../../../testcases/takestones/trace-2017/output2.txt")),
        ("output3.txt", include_str!("../../../testcases/takestones/trace-2017/output3.txt")),
        ("output4.txt", include_str!("../../../testcases/takestones/trace-2017/output4.txt")),
        ("output5.txt", include_str!("../../../testcases/takestones/trace-2017/output5.txt")),
    ],
};

/// The official cases of `edition`, in the order the course listed them.
///
/// # Errors
/// Only if the compiled-in files were edited into something unreadable (a test guards against it).
pub fn official_cases(edition: Edition) -> Result<Vec<Case>, LayoutError> {
    let (shipped, lines) = match edition {
        Edition::Stats => (&STATS_2019, parse_stats_2019(STATS_2019.testcase)?),
        Edition::Trace => (&TRACE_2017, parse_trace_2017(TRACE_2017.testcase)),
    };
    lines
        .into_iter()
        .enumerate()
        .map(|(i, CaseLine { output_file, args })| {
            let expected = shipped.outputs.iter().find(|(name, _)| *name == output_file).map(|(_, text)| *text);
            let expected = expected
                .ok_or_else(|| LayoutError { line: i + 1, problem: format!("no shipped file {output_file}") })?;
            Ok(Case { name: output_file, args, expected: expected.to_string() })
        })
        .collect()
}
