//! `takestones [--edition stats|trace] N K T1 .. TK DEPTH`: the reference Take-Stones program.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use referee::app;
use referee::cli::TakeStonesCli;

fn main() -> ExitCode {
    let cli = match app::parse_or_exit::<TakeStonesCli>("takestones") {
        Ok(cli) => cli,
        Err(code) => return ExitCode::from(code),
    };
    ExitCode::from({
        let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
        app::takestones::run("takestones", &cli.args, &mut out, &mut io::stderr())
    })
}
