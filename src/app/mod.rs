//! What each command does, between parsed arguments ([`crate::cli`]) and the library. Every function writes to
//! the writers it is given and returns the exit code, so tests drive it without a process.

pub mod bench;
pub mod takestones;
pub mod verify;

/// Stack for the command thread. A search recurses once per stone taken, so an unlimited search on the general
/// board can go [`crate::game::takestones::MAX_STONES`] frames deep, far past the 8 MiB main-thread default.
/// Only the pages actually touched are ever committed.
pub const STACK_BYTES: usize = 1 << 30;

/// Runs `command` on a thread with [`STACK_BYTES`] of stack and returns its exit code (3 if the thread could not
/// be started or died).
pub fn with_deep_stack(command: impl FnOnce() -> u8 + Send + 'static) -> u8 {
    std::thread::Builder::new()
        .name("referee".into())
        .stack_size(STACK_BYTES)
        .spawn(command)
        .ok()
        .and_then(|thread| thread.join().ok())
        .unwrap_or(crate::cli::exit::INTERNAL)
}

/// Parses the process arguments as `C`; on failure prints help/version to stdout or one error line to stderr and
/// returns the exit code to end with.
///
/// # Errors
/// The exit code: 0 after `--help`/`--version`, 2 for bad arguments.
pub fn parse_or_exit<C: clap::Parser>(program: &str) -> Result<C, u8> {
    C::try_parse().map_err(|e| {
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
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            (err.to_string(), crate::cli::exit::SUCCESS)
        }
        _ => {
            let text = err.to_string();
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            (format!("{program}: {first} (try --help)"), crate::cli::exit::USAGE)
        }
    }
}
