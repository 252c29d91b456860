//! What each command does, between parsed arguments ([`crate::cli`]) and the library. Every function writes to
//! the writers it is given and returns the exit code, so tests drive it without a process.

pub mod bench;
pub mod takestones;
pub mod verify;

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
