//! `referee`: grading, refereeing and the reference solvers. See `referee --help`.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use referee::app;
use referee::cli::{Command, RefereeCli};

fn main() -> ExitCode {
    let cli = match app::parse_or_exit::<RefereeCli>("referee") {
        Ok(cli) => cli,
        Err(code) => return ExitCode::from(code),
    };
    ExitCode::from(app::with_deep_stack(move || {
        let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
        let mut err = io::stderr();
        let code = match &cli.command {
            Command::Takestones(args) => app::takestones::run("referee takestones", args, &mut out, &mut err),
            Command::Verify(args) => app::verify::run(args, &mut out),
            Command::Bench(args) => app::bench::run(args, &mut out, &mut err),
        };
        let _ = out.flush();
        code
    }))
}
