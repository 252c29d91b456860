//! The launcher's own channel to the grader, out of the program's reach: whether the launcher started, why it
//! could not start the program, and (from a PID namespace's init) whether the program left processes behind.
//!
//! The grader makes a pipe whose ends are close-on-exec. For the moment of the launcher's spawn the write end is
//! made inheritable, under a lock that every spawn of a run takes (so no other run inherits it), and the grader
//! closes its own copy as soon as the launcher is started: from then on the launcher holds the only write end. It
//! is told the descriptor's number and a nonce on its command line, takes it first thing (before any switch of
//! user or namespace), marks it close-on-exec, writes `<nonce> started`, and on a failure `<nonce> failed <why>`
//! (or `<nonce> refused <why>` when the student's own program cannot be started, which is the student's doing).
//! Once the program runs nobody holds a write end: the program cannot print its way into the report (stdout and
//! stderr are other pipes), cannot inherit it, and no path names it (the grader keeps no copy that its
//! `/proc/<pid>/fd` could show); a line without the nonce is ignored. Nothing here needs `/proc`, so the same
//! channel serves Linux and macOS.

#[cfg(unix)]
use std::hash::{BuildHasher, Hasher};
#[cfg(unix)]
use std::io::Read;
#[cfg(unix)]
use std::os::fd::{AsRawFd, OwnedFd};
#[cfg(unix)]
use std::os::unix::fs::FileTypeExt;

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

/// Without Unix pipes there is no launcher to report (the launcher runs on Linux and macOS): making one fails.
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
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, super::platform::NO_LAUNCHER))
    }

    /// Never reached (no pipe is ever made).
    pub fn launcher_end(&self) -> (i32, String) {
        (-1, String::new())
    }

    /// Never reached (no pipe is ever made).
    ///
    /// # Errors
    /// Always.
    pub fn spawn<T>(&mut self, _spawn: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, super::platform::NO_LAUNCHER))
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

    /// What the launcher gets: the write end's descriptor number (valid in the launcher once
    /// [`ReportPipe::spawn`] started it) and the nonce.
    pub fn launcher_end(&self) -> (i32, String) {
        (self.write.as_ref().map_or(-1, AsRawFd::as_raw_fd), self.nonce.clone())
    }

    /// Runs `spawn` (which starts the launcher) with the write end inheritable, under the lock every spawn of a
    /// run takes (see [`exclusive`]), then closes the grader's copy: the launcher's is the only one left.
    ///
    /// # Errors
    /// What `spawn` returned, or why the end could not be made inheritable.
    pub fn spawn<T>(&mut self, spawn: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
        use rustix::io::{fcntl_setfd, FdFlags};
        exclusive(|| {
            let write = self.write.take().ok_or_else(|| std::io::Error::other("the report pipe was used twice"))?;
            fcntl_setfd(&write, FdFlags::empty())?;
            let spawned = spawn();
            drop(write);
            spawned
        })
    }

    /// Once the launcher's process has ended (or exec'd the program): what it reported. Reads what is in the pipe
    /// now without waiting (a launcher writes before it ends).
    pub fn finish(self) -> Report {
        let mut bytes = Vec::new();
        let _ = std::fs::File::from(self.read).take(64 * 1024).read_to_end(&mut bytes);
        parse(&String::from_utf8_lossy(&bytes), &self.nonce)
    }
}

/// Runs `spawn` while no report pipe's write end is inheritable: every spawn of a run goes through here (or
/// [`ReportPipe::spawn`]), so no run inherits another's report channel.
pub fn exclusive<T>(spawn: impl FnOnce() -> T) -> T {
    static SPAWNING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = SPAWNING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    spawn()
}

/// In the launcher: the report pipe's write end it inherited as descriptor `fd`, reopened through this process's
/// own descriptor folder (`/dev/fd`; `/proc/self/fd` on Linux, where `/dev/fd` may be missing in a container),
/// and every inherited descriptor above 2 marked close-on-exec, so the program never holds it.
///
/// # Errors
/// When `fd` is not open here, or is not a pipe (the grader never passes anything else).
#[cfg(unix)]
pub fn take_inherited(fd: i32) -> std::io::Result<std::fs::File> {
    let folder = if cfg!(target_os = "linux") { "/proc/self/fd" } else { "/dev/fd" };
    let opened = std::fs::OpenOptions::new().write(true).open(format!("{folder}/{fd}"));
    close_fds::set_fds_cloexec(3, &[]);
    let file = opened?;
    if !file.metadata()?.file_type().is_fifo() {
        return Err(std::io::Error::other(format!("descriptor {fd} is not a pipe")));
    }
    Ok(file)
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
    fn the_launcher_inherits_the_write_end_and_the_grader_keeps_none() {
        // A shell stands in for the launcher: writes `<nonce> started` to the descriptor it was told, through
        // `/dev/fd` (dash, Debian's `sh`, refuses `>&N` for N above 9: a syntax error, not a missing descriptor,
        // whenever this test binary happened to have ten descriptors open).
        let mut pipe = ReportPipe::new().unwrap();
        let (fd, nonce) = pipe.launcher_end();
        let script = format!("printf '%s\\n' '{}' > /dev/fd/{fd}", line(&nonce, "started", "").trim_end());
        let mut command = std::process::Command::new("sh");
        command.args(["-c", &script]).stderr(std::process::Stdio::null());
        assert!(pipe.spawn(|| command.spawn()).unwrap().wait().unwrap().success());
        // The grader's copy is closed once the launcher is started: no path to it is left in this process.
        assert_eq!(pipe.launcher_end().0, -1);
        assert!(pipe.finish().started);
        // Started outside `spawn`, a process inherits no report channel (the end stays close-on-exec).
        let other = ReportPipe::new().unwrap();
        let (fd, nonce) = other.launcher_end();
        let script = format!("printf '%s\\n' '{}' > /dev/fd/{fd}", line(&nonce, "started", "").trim_end());
        let status = exclusive(|| {
            std::process::Command::new("sh").args(["-c", &script]).stderr(std::process::Stdio::null()).status()
        });
        assert!(!status.unwrap().success());
        assert!(!other.finish().started);
    }

    #[test]
    fn the_launcher_takes_its_end_by_number_and_only_a_pipe() {
        let pipe = ReportPipe::new().unwrap();
        let (fd, nonce) = pipe.launcher_end();
        let mut file = take_inherited(fd).unwrap();
        std::io::Write::write_all(&mut file, line(&nonce, "refused", "'./a' is a link").as_bytes()).unwrap();
        drop(file);
        assert_eq!(pipe.finish().refused.as_deref(), Some("'./a' is a link"));
        let plain = tempfile::tempfile().unwrap();
        let error = take_inherited(plain.as_raw_fd()).unwrap_err();
        assert!(error.to_string().contains("not a pipe"), "{error}");
        assert!(take_inherited(1 << 20).is_err());
    }
}
