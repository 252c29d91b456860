//! The launcher's own channel to the grader, out of the program's reach: whether the launcher started, why it
//! could not start the program, and (from a PID namespace's init) whether the program left processes behind.
//!
//! The grader makes a pipe whose ends are close-on-exec and gives the launcher the write end's path
//! (`/proc/<grader>/fd/<n>`) and a nonce. The launcher opens it first thing (as the grader's user, before any
//! switch), writes `<nonce> started`, and on a failure `<nonce> failed <why>` (or `<nonce> refused <why>` when the
//! student's own program cannot be started, which is the student's doing); its copy is close-on-exec, so once
//! the program runs nobody holds a write end but the grader. A program cannot print its way into the report
//! (stdout and stderr are other pipes), cannot inherit it, and cannot reach the grader's `/proc/<pid>/fd` (another
//! uid, Landlock's `/proc` rules, or a private `/proc`); a line without the nonce is ignored. Only a run with none of
//! those (the grader's own user with no Landlock and no PID namespace) could open it, and such a run can do
//! anything the grader can: `referee sandbox` says so.

#[cfg(unix)]
use std::hash::{BuildHasher, Hasher};
#[cfg(unix)]
use std::io::Read;
#[cfg(unix)]
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;

/// What the launcher said about one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// It started (and so any outcome is the program's).
    pub started: bool,
    /// Why it could not start the program: the grader's problem, never the student's.
    pub failure: Option<String>,
    /// The program left processes running in its PID namespace (all killed with it).
    pub leftovers: bool,
    /// The student's program inside the run's folder could not be started, and why: the submission's doing.
    pub refused: Option<String>,
}

/// The grader's end of one launcher's report channel.
#[cfg(unix)]
#[derive(Debug)]
pub struct ReportPipe {
    read: OwnedFd,
    write: Option<OwnedFd>,
    nonce: String,
}

/// Without Unix pipes there is no launcher to report (the launcher is Linux-only): making one fails.
#[cfg(not(unix))]
#[derive(Debug)]
pub struct ReportPipe;

#[cfg(not(unix))]
impl ReportPipe {
    /// Always an error: no launcher runs on this system.
    ///
    /// # Errors
    /// Always.
    pub fn new() -> std::io::Result<ReportPipe> {
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "running programs needs Linux (or WSL) for now"))
    }

    /// Never reached (no pipe is ever made).
    pub fn launcher_end(&self) -> (PathBuf, String) {
        (PathBuf::new(), String::new())
    }

    /// Never reached (no pipe is ever made).
    pub fn finish(self) -> Report {
        Report::default()
    }
}

#[cfg(unix)]
impl ReportPipe {
    /// A new channel.
    ///
    /// # Errors
    /// When no pipe can be made.
    pub fn new() -> std::io::Result<ReportPipe> {
        #[cfg(target_os = "linux")]
        let (read, write) = {
            use rustix::pipe::{pipe_with, PipeFlags};
            pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)?
        };
        // No pipe2 on macOS: the same flags, set one call after the other.
        #[cfg(not(target_os = "linux"))]
        let (read, write) = {
            use rustix::io::{fcntl_setfd, FdFlags};
            let (read, write) = rustix::pipe::pipe()?;
            fcntl_setfd(&read, FdFlags::CLOEXEC)?;
            fcntl_setfd(&write, FdFlags::CLOEXEC)?;
            rustix::fs::fcntl_setfl(&read, rustix::fs::OFlags::NONBLOCK)?;
            (read, write)
        };
        Ok(ReportPipe { read, write: Some(write), nonce: nonce() })
    }

    /// What the launcher gets: the write end's path and the nonce.
    pub fn launcher_end(&self) -> (PathBuf, String) {
        let fd = self.write.as_ref().map_or(-1, AsRawFd::as_raw_fd);
        (PathBuf::from(format!("/proc/{}/fd/{fd}", std::process::id())), self.nonce.clone())
    }

    /// Once the launcher's process has ended (or exec'd the program): what it reported. Reads what is in the pipe
    /// now without waiting (a launcher writes before it ends).
    pub fn finish(mut self) -> Report {
        self.write = None;
        let mut bytes = Vec::new();
        let _ = std::fs::File::from(self.read).take(64 * 1024).read_to_end(&mut bytes);
        parse(&String::from_utf8_lossy(&bytes), &self.nonce)
    }
}

/// The report in `text`: only lines that start with `nonce` count.
#[cfg(unix)]
fn parse(text: &str, nonce: &str) -> Report {
    let mut report = Report::default();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix(nonce).and_then(|r| r.strip_prefix(' ')) else { continue };
        match rest.split_once(' ').map_or((rest, ""), |(word, tail)| (word, tail)) {
            ("started", _) => report.started = true,
            ("leftovers", _) => report.leftovers = true,
            ("failed", why) => {
                report.failure.get_or_insert_with(|| why.replace("\\n", "\n"));
            }
            ("refused", why) => {
                report.refused.get_or_insert_with(|| why.replace("\\n", "\n"));
            }
            _ => {}
        }
    }
    report
}

/// The launcher's lines: `<nonce> started`, `<nonce> failed <why>`, `<nonce> refused <why>` (newlines escaped),
/// `<nonce> leftovers`.
pub fn line(nonce: &str, word: &str, detail: &str) -> String {
    if detail.is_empty() {
        format!("{nonce} {word}\n")
    } else {
        format!("{nonce} {word} {}\n", detail.replace('\n', "\\n"))
    }
}

/// 128 unpredictable bits: SipHash under the process's random keys, of a counter and the time.
#[cfg(unix)]
fn nonce() -> String {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let time = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let half = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        h.write_u128(time);
        h.write_u64(salt);
        h.finish()
    };
    format!("{:016x}{:016x}", half(1), half(2))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_lines_with_the_nonce_count() {
        let text = format!(
            "{}{}forged failed it was the grader\n{}",
            line("n1", "started", ""),
            line("n2", "failed", "not this one"),
            line("n1", "failed", "cannot start 'x':\nPermission denied")
        );
        let report = parse(&text, "n1");
        assert!(report.started && !report.leftovers);
        assert_eq!(report.failure.as_deref(), Some("cannot start 'x':\nPermission denied"));
        assert_eq!(parse("started\nfailed x\n", "n1"), Report::default());
        assert_ne!(nonce(), nonce());
    }

    #[test]
    fn the_launcher_end_is_a_path_to_the_write_end() {
        let pipe = ReportPipe::new().unwrap();
        let (path, nonce) = pipe.launcher_end();
        std::fs::write(&path, line(&nonce, "started", "")).unwrap();
        assert!(pipe.finish().started);
    }
}
