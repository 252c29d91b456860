//! The official Take-Stones test files, compiled in from `testcases/takestones/` so the binary can check itself
//! anywhere (`referee verify`).

use super::course::{parse_stats_2019, parse_trace_2017, CaseLine, LayoutError};
use super::Case;
use crate::reference::takestones::Edition;

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
