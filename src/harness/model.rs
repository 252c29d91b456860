//! The one result model: what a grading run found, computed once by the comparer and only formatted by renderers.
//!
//! `RunReport` -> `SubmissionResult` (one student) -> `CaseResult` (one case). Serialized as JSON (`--format json`,
//! and the per-student files of a class run), so its shape is a versioned contract: [`SCHEMA_VERSION`].

use serde::{Deserialize, Serialize};

pub use super::cause::{Cause, CauseKind};
pub use super::outcome::Outcome;
pub use super::points::Points;

/// Version of the JSON shape below; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// How a case ended. Only [`Status::Passed`] earns full credit; only [`Status::HarnessError`] is our fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The output matched (under the suite's comparison policy and accepted readings).
    Passed,
    /// The program finished normally but printed something else.
    Failed,
    /// Still running at the wall-clock limit; the whole process tree was killed.
    Timeout,
    /// Killed by a signal it did not ask for (segfault, abort, CPU or memory limit).
    Crashed,
    /// Exited with a nonzero code.
    NonzeroExit,
    /// Printed more than the output cap; killed there.
    OutputLimit,
    /// The submission's build step failed, so it never ran.
    BuildError,
    /// The grader could not run the case (a missing interpreter, an unreadable file): never blamed on the student.
    HarnessError,
}

impl Status {
    /// Every status, in the order reports count them.
    pub const ALL: [Status; 8] = [
        Status::Passed,
        Status::Failed,
        Status::Timeout,
        Status::Crashed,
        Status::NonzeroExit,
        Status::OutputLimit,
        Status::BuildError,
        Status::HarnessError,
    ];

    /// Whether the case passed.
    pub fn is_pass(self) -> bool {
        self == Status::Passed
    }

    /// The word reports use.
    pub fn label(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Timeout => "timeout",
            Status::Crashed => "crashed",
            Status::NonzeroExit => "nonzero exit",
            Status::OutputLimit => "output limit",
            Status::BuildError => "build error",
            Status::HarnessError => "harness error",
        }
    }
}

/// Who sees a case's result (Gradescope's visibility values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Always shown.
    #[default]
    Visible,
    /// Never shown to the student.
    Hidden,
    /// Shown once the due date has passed.
    AfterDueDate,
}

/// Bytes of each stream a result keeps per case ([`Captured::excerpt`]): enough for any diff or stack trace a
/// report quotes, and small enough that a class of flooders cannot grow the TA's files without bound (two
/// programs printing 8 MiB a case made a 22-student `report.json` 337 MB).
pub const EXCERPT_BYTES: usize = 64 << 10;

/// Bytes of a line a [`FirstDifference`] keeps ([`FirstDifference::excerpt`]).
pub const LINE_BYTES: usize = 1 << 10;

/// A captured stream: an excerpt of it as text (invalid UTF-8 replaced), whether the cap cut it, and its size.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Captured {
    /// The bytes as text (`U+FFFD` for invalid UTF-8): all of them, or the excerpt [`Captured::excerpt`] keeps
    /// (`omitted` says how many bytes it left out).
    pub text: String,
    /// Whether the output cap cut it short.
    pub truncated: bool,
    /// How many bytes the program printed on the stream (up to the output cap).
    pub bytes: usize,
    /// Whether the bytes were not valid UTF-8.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invalid_utf8: bool,
    /// Bytes of the stream left out of `text` (0: `text` is all of it). Where depends on the [`Keep`] it was
    /// made with: the end for [`Keep::Head`] (stdout), the start for [`Keep::Tail`] (stderr).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Which part of a long stream an excerpt keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The start: where a wrong output first differs (stdout).
    Head,
    /// The end: where the error that stopped a program is (stderr).
    Tail,
}

impl Captured {
    /// The stream `bytes` as a result keeps it: at most `limit` bytes of it (cut at a line break when one is in
    /// the last quarter, never inside a character), with its full size in `bytes` and what was left out in
    /// `omitted`. `truncated` says whether the run's output cap had already cut it.
    pub fn excerpt(bytes: &[u8], truncated: bool, keep: Keep, limit: usize) -> Captured {
        let invalid_utf8 = std::str::from_utf8(bytes).is_err();
        let kept = if bytes.len() <= limit {
            bytes
        } else {
            match keep {
                Keep::Head => {
                    let mut end = char_floor(bytes, limit);
                    if let Some(nl) = bytes[..end].iter().rposition(|&b| b == b'\n').filter(|&i| i >= end - end / 4) {
                        end = nl + 1;
                    }
                    &bytes[..end]
                }
                Keep::Tail => {
                    let mut start = char_ceil(bytes, bytes.len() - limit);
                    let window = &bytes[start..];
                    if let Some(nl) = window.iter().position(|&b| b == b'\n').filter(|&i| i < window.len() / 4) {
                        start += nl + 1;
                    }
                    &bytes[start..]
                }
            }
        };
        Captured {
            text: String::from_utf8_lossy(kept).into_owned(),
            truncated,
            bytes: bytes.len(),
            invalid_utf8,
            omitted: bytes.len() - kept.len(),
        }
    }
}

/// The largest index `<= at` that does not fall inside a UTF-8 sequence (a continuation byte has the bits 10).
fn char_floor(bytes: &[u8], at: usize) -> usize {
    let mut i = at.min(bytes.len());
    while i > 0 && i < bytes.len() && bytes[i] & 0xc0 == 0x80 && at - i < 4 {
        i -= 1;
    }
    i
}

/// The smallest index `>= at` that does not fall inside a UTF-8 sequence.
fn char_ceil(bytes: &[u8], at: usize) -> usize {
    let mut i = at;
    while i < bytes.len() && bytes[i] & 0xc0 == 0x80 && i - at < 4 {
        i += 1;
    }
    i
}

/// `text` with every mention of the scratch folder `dir` a hand-in was graded in made relative to it
/// (`/tmp/referee-x/carol/submission/X.java:82` becomes `X.java:82`, `dir` alone `.`), under `dir` as given and as
/// the system resolves it: a student reads paths of their own files, not the grader's layout.
pub fn relative_to_hand_in(text: &str, dir: &std::path::Path) -> String {
    let mut forms = vec![dir.to_string_lossy().into_owned()];
    if let Ok(real) = std::fs::canonicalize(dir) {
        forms.push(real.to_string_lossy().into_owned());
    }
    let mut out = text.to_string();
    for form in forms {
        let form = form.trim_end_matches('/');
        if form.is_empty() || !out.contains(form) {
            continue;
        }
        out = out.replace(&format!("{form}/"), "").replace(form, ".");
    }
    out
}

/// The first place the output differs from the closest accepted expected output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstDifference {
    /// 1-based line number (after normalization).
    pub line: usize,
    /// The expected line (`None`: the expected output had ended).
    pub expected: Option<String>,
    /// The printed line (`None`: the output had ended).
    pub actual: Option<String>,
}

impl FirstDifference {
    /// The same difference with each line cut to [`LINE_BYTES`] (a program that prints megabytes without a line
    /// break has one line that long), ending in `…` where it was cut.
    pub fn excerpt(self) -> FirstDifference {
        let cut = |line: Option<String>| {
            line.map(|l| {
                if l.len() <= LINE_BYTES {
                    return l;
                }
                let mut end = LINE_BYTES;
                while !l.is_char_boundary(end) {
                    end -= 1;
                }
                format!("{}…", &l[..end])
            })
        };
        FirstDifference { line: self.line, expected: cut(self.expected), actual: cut(self.actual) }
    }
}

/// What a student-facing report shows of a case (`show` in a suite, `--show` on the command line). TA-facing
/// reports (`report.html`, `report.json`, the gradebook) always show everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Show {
    /// The arguments, the expected output and the program's (a diff).
    #[default]
    Full,
    /// The arguments and the program's own output with the line where it first differs; never the expected text.
    ActualOnly,
    /// Passed or not, the status and the names of the causes; no arguments, no output.
    #[serde(rename = "none")]
    #[value(name = "none")]
    VerdictOnly,
}

impl Show {
    /// Whether this is [`Show::Full`] (the serialized result leaves the default out).
    pub fn is_full(&self) -> bool {
        *self == Show::Full
    }

    /// The word suites and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            Show::Full => "full",
            Show::ActualOnly => "actual-only",
            Show::VerdictOnly => "none",
        }
    }

    /// Whether the expected output may be shown.
    pub fn expected(self) -> bool {
        self == Show::Full
    }

    /// Whether the arguments and the program's own output may be shown.
    pub fn actual(self) -> bool {
        self != Show::VerdictOnly
    }

    /// What a grading run's settings fingerprint gets from this setting: nothing for `full` (so results stored
    /// before the setting existed still count), ` show=NAME` otherwise, so a stored result written under another
    /// setting is graded again rather than its files kept showing what they no longer may.
    pub fn fingerprint(self) -> String {
        if self.is_full() {
            String::new()
        } else {
            format!(" show={}", self.name())
        }
    }
}

impl std::str::FromStr for Show {
    type Err = String;

    fn from_str(s: &str) -> Result<Show, String> {
        match s.trim() {
            "full" => Ok(Show::Full),
            "actual-only" => Ok(Show::ActualOnly),
            "none" => Ok(Show::VerdictOnly),
            other => Err(format!("'{other}' is not a show setting (full, actual-only or none)")),
        }
    }
}

/// One case of one submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// The program's arguments.
    pub args: Vec<String>,
    /// How it ended.
    pub status: Status,
    /// Points earned (exact; a JSON number by [`Points`]'s rule).
    pub score: Points,
    /// Points available.
    pub max_score: Points,
    /// Who sees it.
    pub visibility: Visibility,
    /// What student-facing reports show of it.
    #[serde(default, skip_serializing_if = "Show::is_full")]
    pub show: Show,
    /// The case's tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// One line on what happened ("exit code 3", "killed by SIGSEGV", "no output after 10 s").
    pub detail: String,
    /// The spec-silent reading the output matched, when it was not the reference default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// Which known bug (or accepted reading) reproduces a wrong output, when the diagnosis could tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    /// Why the case failed (or which reading it passed under), in the shared cause vocabulary.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<Cause>,
    /// Lines matched / lines expected, when the suite gives per-line credit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_matched: Option<(usize, usize)>,
    /// Where the output first differs (failed cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difference: Option<FirstDifference>,
    /// The expected output (the reference default reading).
    pub expected: String,
    /// What the program printed: the start of it, at most [`EXCERPT_BYTES`] ([`Keep::Head`]).
    pub stdout: Captured,
    /// What it printed on stderr: the end of it, at most [`EXCERPT_BYTES`] ([`Keep::Tail`]).
    pub stderr: Captured,
    /// Wall-clock time of the run.
    pub elapsed_ms: u64,
}

impl CaseResult {
    /// A visible case named `name` with `status`, worth `max_score` and scored 0, with nothing run or compared yet:
    /// the base that builders fill in.
    pub fn new(name: String, status: Status, max_score: impl Into<Points>) -> CaseResult {
        CaseResult {
            name,
            args: Vec::new(),
            status,
            score: Points::ZERO,
            max_score: max_score.into(),
            visibility: Visibility::Visible,
            show: Show::Full,
            tags: Vec::new(),
            detail: String::new(),
            reading: None,
            diagnosis: None,
            causes: Vec::new(),
            lines_matched: None,
            difference: None,
            expected: String::new(),
            stdout: Captured::default(),
            stderr: Captured::default(),
            elapsed_ms: 0,
        }
    }
}

/// The build step of a submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildResult {
    /// Whether it succeeded.
    pub ok: bool,
    /// The command that ran.
    pub command: String,
    /// What went wrong, with the compiler's message (empty when it succeeded).
    pub message: String,
    /// Wall-clock time.
    pub elapsed_ms: u64,
}

/// Everything about one submission (one student). Its [`Outcome`](super::outcome::Outcome) decides what every
/// report says of it: serialized, a hand-in that was not graded (or that the grader failed on) has `"score": null`,
/// never 0.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SubmissionResult {
    /// The student id (from the folder or zip name), or `submission` for a single one.
    pub id: String,
    /// Where it came from.
    pub source: String,
    /// The build step, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<BuildResult>,
    /// One result per case, in suite order.
    pub cases: Vec<CaseResult>,
    /// Sum of case scores (exact); what it means depends on the outcome (only a graded hand-in has a score).
    #[serde(default, deserialize_with = "score_or_null")]
    pub score: Points,
    /// Sum of case maxima (exact).
    pub max_score: Points,
    /// Identifies the grading run that produced this result (class runs resume by it).
    pub run: String,
    /// Fingerprint of the suite and commands graded against; a resumed run re-grades on a mismatch.
    pub fingerprint: String,
    /// Fingerprint of the hand-in's files (class runs; empty otherwise); a resumed run re-grades a resubmission.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub handin: String,
    /// The sandbox layers its runs were started with (`landlock`, `network`, `pid`, `cgroup`; see `referee sandbox`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sandbox: Vec<String>,
    /// Why the hand-in was not graded (an answer file for another variant, a loose file that is no answer file,
    /// a class whose every hand-in failed the same way): then it has no score ([`super::outcome::Outcome`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_graded: Option<String>,
}

/// A stored score: `null` (a hand-in without a score) reads as no points, which its outcome never shows.
fn score_or_null<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
    Ok(Option::<Points>::deserialize(deserializer)?.unwrap_or_default())
}

impl Serialize for SubmissionResult {
    /// The fields in declaration order, the optional ones left out when empty; `score` is `null` unless the
    /// hand-in was graded.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("SubmissionResult", 11)?;
        out.serialize_field("id", &self.id)?;
        out.serialize_field("source", &self.source)?;
        match &self.build {
            Some(build) => out.serialize_field("build", build)?,
            None => out.skip_field("build")?,
        }
        out.serialize_field("cases", &self.cases)?;
        out.serialize_field("score", &self.outcome().score())?;
        out.serialize_field("max_score", &self.max_score)?;
        out.serialize_field("run", &self.run)?;
        out.serialize_field("fingerprint", &self.fingerprint)?;
        if self.handin.is_empty() {
            out.skip_field("handin")?;
        } else {
            out.serialize_field("handin", &self.handin)?;
        }
        if self.sandbox.is_empty() {
            out.skip_field("sandbox")?;
        } else {
            out.serialize_field("sandbox", &self.sandbox)?;
        }
        match &self.not_graded {
            Some(reason) => out.serialize_field("not_graded", reason)?,
            None => out.skip_field("not_graded")?,
        }
        out.end()
    }
}

impl SubmissionResult {
    /// Whether every case passed.
    pub fn all_passed(&self) -> bool {
        self.cases.iter().all(|c| c.status.is_pass())
    }

    /// Whether any case was the grader's fault.
    pub fn has_harness_error(&self) -> bool {
        self.cases.iter().any(|c| c.status == Status::HarnessError)
    }

    /// How it ended: graded, not graded, or the grader's failure ([`super::outcome::Outcome`]).
    pub fn outcome(&self) -> super::outcome::Outcome<'_> {
        super::outcome::Outcome::of(self)
    }

    /// The same result with every score and maximum multiplied by `points / max_score`, exactly, so that it is out
    /// of `points` (a platform's `--points`): a student with every point has exactly `points`. Unchanged when it
    /// has no points to scale.
    pub fn scaled_to(&self, points: Points) -> SubmissionResult {
        let mut out = self.clone();
        let Some(factor) = points.over(self.max_score) else {
            return out;
        };
        for case in &mut out.cases {
            case.score = case.score.times(factor);
            case.max_score = case.max_score.times(factor);
        }
        out.score = out.cases.iter().map(|c| c.score).sum();
        out.max_score = out.cases.iter().map(|c| c.max_score).sum();
        out
    }

    /// Sets what student-facing reports show of every case (the game graders' `--show`).
    pub fn show_all(&mut self, show: Show) {
        for case in &mut self.cases {
            case.show = show;
        }
    }
}

/// A whole grading run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The suite's name.
    pub suite: String,
    /// One entry per submission, sorted by id.
    pub submissions: Vec<SubmissionResult>,
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn a_short_stream_is_kept_whole() {
        let c = Captured::excerpt(b"a\nb\n", false, Keep::Head, 64);
        assert_eq!((c.text.as_str(), c.bytes, c.omitted, c.invalid_utf8), ("a\nb\n", 4, 0, false));
    }

    #[test]
    fn a_long_stream_keeps_its_head_or_its_tail_at_a_line_break() {
        let text: String = (0..100).map(|i| format!("line {i:03}\n")).collect();
        let head = Captured::excerpt(text.as_bytes(), false, Keep::Head, 100);
        assert_eq!(head.text, text[..99]);
        assert_eq!((head.bytes, head.omitted), (text.len(), text.len() - 99));
        let tail = Captured::excerpt(text.as_bytes(), true, Keep::Tail, 100);
        assert!(tail.text.ends_with("line 099\n") && tail.text.starts_with("line "), "{:?}", tail.text);
        assert_eq!(tail.omitted + tail.text.len(), text.len());
        assert!(tail.truncated);
    }

    #[test]
    fn an_excerpt_never_splits_a_character() {
        let text = "é".repeat(50);
        for limit in 1..20 {
            let head = Captured::excerpt(text.as_bytes(), false, Keep::Head, limit);
            let tail = Captured::excerpt(text.as_bytes(), false, Keep::Tail, limit);
            assert!(!head.text.contains('\u{fffd}') && !tail.text.contains('\u{fffd}'), "{limit}");
            assert_eq!(head.text.len() + head.omitted, text.len());
            assert!(!head.invalid_utf8);
        }
        assert!(Captured::excerpt(b"\xff\xfe", false, Keep::Head, 64).invalid_utf8);
    }

    #[test]
    fn a_line_with_no_end_is_cut_in_the_first_difference() {
        let d = FirstDifference { line: 1, expected: Some("x".into()), actual: Some("y".repeat(5000)) }.excerpt();
        assert_eq!(d.expected.as_deref(), Some("x"));
        assert!(d.actual.as_ref().is_some_and(|a| a.len() == LINE_BYTES + '…'.len_utf8()));
    }

    #[test]
    fn scratch_paths_become_relative_to_the_hand_in() {
        let dir = std::path::Path::new("/tmp/referee-abc/carol/submission");
        assert_eq!(
            relative_to_hand_in("/tmp/referee-abc/carol/submission/X.java:82: error: ';' expected", dir),
            "X.java:82: error: ';' expected"
        );
        assert_eq!(relative_to_hand_in("cd /tmp/referee-abc/carol/submission && run", dir), "cd . && run");
        assert_eq!(relative_to_hand_in("nothing here", dir), "nothing here");
    }

    #[test]
    fn show_settings_read_and_round_trip() {
        for show in [Show::Full, Show::ActualOnly, Show::VerdictOnly] {
            assert_eq!(show.name().parse::<Show>(), Ok(show));
            assert_eq!(serde_json::to_value(show).unwrap(), show.name());
        }
        assert!("hidden".parse::<Show>().is_err());
    }

    #[test]
    fn results_written_before_show_and_excerpts_still_read() {
        let old = r#"{"name":"c","args":[],"status":"failed","score":0.0,"max_score":1.0,"visibility":"visible",
            "detail":"","expected":"x","stdout":{"text":"y","truncated":false,"bytes":1},
            "stderr":{"text":"","truncated":false,"bytes":0},"elapsed_ms":3}"#;
        let case: CaseResult = serde_json::from_str(old).unwrap();
        assert_eq!((case.show, case.stdout.omitted), (Show::Full, 0));
        let json = serde_json::to_string(&case).unwrap();
        assert!(!json.contains("show") && !json.contains("omitted"), "{json}");
    }
}
