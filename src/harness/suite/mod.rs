//! Suites: named cases, each the arguments (or stdin) of one run, the output it must print, and its points.
//!
//! Loaded from three places ([`load`]): a course folder with a `testcase.txt` in one of the two Take-Stones
//! layouts ([`course`]), a native TOML file ([`native`]), or a suite built into the binary
//! (`builtin:takestones-stats-2019`, [`builtin`]). All become one [`Suite`].

pub mod builtin;
pub mod course;
pub mod native;
pub mod readings;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::compare::ComparePolicy;
use crate::harness::model::{Points, Show, Visibility};
use crate::reference::takestones::Edition;

pub use readings::Reading;

/// The course's per-case time limit.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// One test case (the course layouts' form: arguments and expected output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// A short name (`output2.txt`, say).
    pub name: String,
    /// The program's arguments, without the program (`["7", "1", "1", "2"]`).
    pub args: Vec<String>,
    /// The output the program must print.
    pub expected: String,
}

/// Where a case's expected output comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Fixed text (inline, or read from a file at load time).
    Text(String),
    /// Computed by the built-in reference named in the suite, at grade time.
    Reference,
}

/// A reference implementation a suite can ask for expected output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ReferenceSpec {
    /// The game (only `takestones` so far).
    pub game: ReferenceGame,
    /// The edition.
    #[serde(default)]
    pub edition: EditionName,
}

/// Games with a built-in reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReferenceGame {
    /// Take-Stones.
    Takestones,
}

/// A Take-Stones edition as suites spell it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EditionName {
    /// Fall 2019 six lines.
    #[default]
    Stats,
    /// Spring 2017 trace.
    Trace,
}

impl From<EditionName> for Edition {
    fn from(e: EditionName) -> Edition {
        match e {
            EditionName::Stats => Edition::Stats,
            EditionName::Trace => Edition::Trace,
        }
    }
}

/// One case of a [`Suite`].
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteCase {
    /// Unique within the suite.
    pub name: String,
    /// Substituted for `{args}` in the command template.
    pub args: Vec<String>,
    /// Fed to standard input (closed when `None`).
    pub stdin: Option<Vec<u8>>,
    /// The expected output.
    pub expected: Expected,
    /// Points for a pass (exact).
    pub points: Points,
    /// Overrides the suite's time limit.
    pub timeout: Option<Duration>,
    /// Free-form labels (reports group by them).
    pub tags: Vec<String>,
    /// Who sees the result.
    pub visibility: Visibility,
    /// What student-facing reports show of it (the suite's `show`, or the case's own).
    pub show: Show,
    /// Overrides the suite's comparison policy.
    pub compare: Option<ComparePolicy>,
}

/// A loaded suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    /// A display name.
    pub name: String,
    /// Where it was loaded from (a path or `builtin:NAME`).
    pub source: String,
    /// Folder that relative paths in the suite are resolved against.
    pub dir: Option<PathBuf>,
    /// The cases, in order.
    pub cases: Vec<SuiteCase>,
    /// The comparison policy.
    pub compare: ComparePolicy,
    /// Default per-case time limit.
    pub timeout: Duration,
    /// The reference that computes `Expected::Reference` cases and accepted readings.
    pub reference: Option<ReferenceSpec>,
    /// Spec-silent readings accepted as well as the default.
    pub accept: Vec<Reading>,
    /// Default command template (`--cmd` overrides it).
    pub command: Option<String>,
    /// Default build template (`--build` overrides it).
    pub build: Option<String>,
}

/// Why a suite could not be loaded; every variant names the file (and line or case) at fault.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The path does not exist or cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A course `testcase.txt` that does not fit its layout.
    #[error("{path}: {source}")]
    Layout {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: course::LayoutError,
    },
    /// Invalid TOML or a field of the wrong kind.
    #[error("{path}: {message}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// The parser's message, with line and column.
        message: String,
    },
    /// A well-formed suite that says something impossible.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong, naming the case.
        message: String,
    },
    /// No such built-in suite.
    #[error("no built-in suite '{0}' (known: {known})", known = builtin::NAMES.join(", "))]
    UnknownBuiltin(String),
}

/// Loads a suite from `spec`: `builtin:NAME`, a `.toml` file, a folder holding `suite.toml`, or a course folder
/// holding `testcase.txt`.
///
/// # Errors
/// [`SuiteError`], naming the file and the problem.
pub fn load(spec: &str) -> Result<Suite, SuiteError> {
    if let Some(name) = spec.strip_prefix("builtin:") {
        return builtin::suite(name);
    }
    let path = Path::new(spec);
    let io = |source| SuiteError::Io { path: path.to_path_buf(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        if path.join("suite.toml").is_file() {
            return native::load_file(&path.join("suite.toml"));
        }
        if !path.join(course::TESTCASE_FILE).is_file() {
            return Err(SuiteError::Invalid { path: path.display().to_string(), message: not_a_suite_folder(path) });
        }
        return course::load_dir(path);
    }
    if let Some(folder) = course_file_folder(path) {
        return Err(SuiteError::Invalid {
            path: path.display().to_string(),
            message: format!(
                "a file of a course suite, not a suite: give the folder that holds it, --suite {}",
                folder.display()
            ),
        });
    }
    native::load_file(path)
}

/// What to say of a folder that holds neither `suite.toml` nor `testcase.txt`: the suites below it, if any.
fn not_a_suite_folder(path: &Path) -> String {
    let mut below: Vec<String> = std::fs::read_dir(path)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join(course::TESTCASE_FILE).is_file() || p.join("suite.toml").is_file())
                .map(|p| p.display().to_string())
                .collect()
        })
        .unwrap_or_default();
    below.sort();
    if below.is_empty() {
        format!(
            "holds neither {} (a course folder) nor suite.toml (a native suite, see docs/grading.md)",
            course::TESTCASE_FILE
        )
    } else {
        format!("a folder of suites, not a suite: give one of them, --suite {}", below.join(" or --suite "))
    }
}

/// The course folder of `path` when it is one of a course suite's own files (`testcase.txt`, `outputN.txt`,
/// `accept.txt`, `show.txt`) rather than a native suite.
fn course_file_folder(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let course_file = name == course::TESTCASE_FILE
        || name == readings::ACCEPT_FILE
        || name == course::SHOW_FILE
        || (name.starts_with("output") && name.ends_with(".txt"));
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    (course_file && folder.join(course::TESTCASE_FILE).is_file()).then(|| folder.to_path_buf())
}

impl Suite {
    /// Sets what student-facing reports show of every case (`--show`, which outranks the suite's settings).
    pub fn show_all(&mut self, show: Show) {
        for case in &mut self.cases {
            case.show = show;
        }
    }

    /// A stable fingerprint of everything that decides a grade (cases, expectations, points, policy), so a
    /// resumed class run re-grades students graded against something else.
    pub fn fingerprint(&self, extra: &str) -> String {
        let mut h = Fnv::default();
        h.write(extra.as_bytes());
        h.write(format!("{:?}{:?}{:?}{:?}", self.compare, self.reference, self.accept, self.timeout).as_bytes());
        for c in &self.cases {
            h.write(format!("{:?}", c).as_bytes());
        }
        format!("{:016x}", h.0)
    }
}

/// FNV-1a: stable across toolchains, unlike `DefaultHasher`.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
