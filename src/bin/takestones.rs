//! `takestones [--edition stats|trace] N K T1 .. TK DEPTH`: the reference Take-Stones program.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::Parser;
use referee::app;
use referee::cli::TakeStonesCli;

fn main() -> ExitCode {
    let cli = match TakeStonesCli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let (message, code) = app::clap_failure("takestones", &e);
            if code == 0 {
                print!("{message}");
            } else {
                eprintln!("{message}");
            }
            return ExitCode::from(code);
        }
    };
    ExitCode::from(app::with_deep_stack(move || {
        let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
        app::takestones::run("takestones", &cli.args, &mut out, &mut io::stderr())
    }))
}
