//! What each command does, between parsed arguments ([`crate::cli`]) and the library. Every function writes to
//! the writers it is given and returns the exit code, so tests drive it without a process.

pub mod arena;
pub mod bench;
mod bench_harness;
mod bench_scale;
mod bench_similar;
pub mod check;
pub mod class_report;
pub mod classroom50;
pub mod exercise;
pub mod gen;
pub mod grade;
pub mod gradescope;
pub mod keys;
pub mod lint;
pub mod mancala;
pub mod merge;
pub mod othello;
pub mod prairielearn;
pub mod progress;
pub mod reach;
pub mod sandbox;
pub mod shard;
pub mod shown_stderr;
pub mod similar;
pub mod takestones;
pub mod verify;

/// Runs `work` on a thread with a stack of `bytes` (a search recurses once per ply), falling back to smaller
/// stacks and finally to the current thread when the address space is limited (a grader's memory limit counts a
/// thread's stack). Returns `None` only if `work` itself panicked.
pub fn with_stack<T: Send>(bytes: usize, work: impl FnOnce() -> T + Send) -> Option<T> {
    let slot = std::sync::Mutex::new(Some(work));
    let take = || slot.lock().ok().and_then(|mut guard| guard.take());
    for size in [bytes, 64 << 20, 8 << 20] {
        let joined = std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new().stack_size(size).spawn_scoped(scope, || take().map(|f| f()));
            spawned.map(|handle| handle.join())
        });
        if let Ok(joined) = joined {
            return joined.ok().flatten();
        }
    }
    take().map(|f| f())
}

/// `--jobs`, or every core.
pub fn jobs_or_cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

/// A flag that SIGINT and SIGTERM set, so long runs stop cleanly and can resume.
pub fn cancel_on_signals() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register(signal, cancel.clone());
    }
    cancel
}

/// `10`, `0.5` (seconds) or a duration (`500ms`, `2s`).
///
/// # Errors
/// A message naming the option.
pub fn parse_seconds(text: &str, option: &str, allow_zero: bool) -> Result<std::time::Duration, String> {
    let parsed = match text.trim().parse::<f64>() {
        Ok(secs) if (0.0..1e6).contains(&secs) => Some(std::time::Duration::from_secs_f64(secs)),
        Ok(_) => None,
        Err(_) => humantime::parse_duration(text.trim()).ok(),
    };
    parsed
        .filter(|d| allow_zero || !d.is_zero())
        .ok_or(format!("{option}: '{text}' is not a time like 10, 0.5 or 500ms"))
}

/// `seed`, or one drawn from the clock (commands print the seed they used, so a run can be replayed).
pub fn seed_or_now(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    })
}

/// Parses the process arguments as `C`; on failure prints help/version to stdout or one error line to stderr and
/// returns the exit code to end with.
///
/// # Errors
/// The exit code: 0 after `--help`/`--version`, 2 for bad arguments.
pub fn parse_or_exit<C: clap::Parser>(program: &str) -> Result<C, u8> {
    let mut command = crate::cli::exit::decorate(C::command());
    let parsed =
        command.try_get_matches_from_mut(std::env::args_os()).and_then(|mut m| C::from_arg_matches_mut(&mut m));
    parsed.map_err(|e| {
        let e = e.format(&mut command);
        let (message, code) = clap_failure(program, &e);
        if code == crate::cli::exit::SUCCESS {
            print!("{message}");
        } else {
            eprintln!("{message}");
        }
        code
    })
}

/// Turns a clap error into one line for stderr and an exit code (help and version go to stdout with 0).
pub fn clap_failure(program: &str, err: &clap::Error) -> (String, u8) {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => (err.to_string(), crate::cli::exit::SUCCESS),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            (format!("{program}: a command is required (try --help)"), crate::cli::exit::USAGE)
        }
        _ => (format!("{program}: {} (try --help)", one_line(&err.to_string())), crate::cli::exit::USAGE),
    }
}

/// Clap's several-line error as one line, nothing dropped: the headline, the items listed under it (the missing
/// arguments), the possible values and clap's tips ("a similar subcommand exists" becomes "did you mean"); only
/// the usage block and the "for more information" line are left out, which `(try --help)` replaces.
fn one_line(text: &str) -> String {
    let mut head = String::new();
    let mut items: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if head.is_empty() {
            head = line.strip_prefix("error: ").unwrap_or(line).to_string();
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            notes.push(match tip.strip_prefix("a similar ").and_then(|t| t.split_once(" exists: ")) {
                Some((_, suggestion)) => format!("did you mean {suggestion}?"),
                None => tip.to_string(),
            });
        } else if let Some(values) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            notes.push(values.to_string());
        } else {
            items.push(line.to_string());
        }
    }
    if head.is_empty() {
        head = "invalid arguments".into();
    }
    let mut line = head;
    if !items.is_empty() {
        line.push_str(if line.ends_with(':') { " " } else { ": " });
        line.push_str(&items.join(", "));
    }
    for note in notes {
        line.push_str("; ");
        line.push_str(&note);
    }
    line
}
