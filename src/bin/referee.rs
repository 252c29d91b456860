//! `referee`: grading, refereeing and the reference solvers. See `referee --help`.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use referee::app;
use referee::cli::{AgentGame, CheckTarget, Command, MatchGame, PerftGame, RefereeCli, TournamentGame};

fn main() -> ExitCode {
    // The runner's launcher step (see `harness::runner::launcher`), before any argument parsing.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == referee::harness::runner::launcher::SUBCOMMAND) {
        let code = referee::harness::runner::launcher::exec(&args[2..]);
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    // As root, every run's folder gets a filesystem of its own in the grader's own mount namespace, which can only
    // be entered before a thread is started (see `harness::runner::own_disk`).
    referee::harness::runner::own_disk::enter();
    let cli = match app::parse_or_exit::<RefereeCli>("referee") {
        Ok(cli) => cli,
        Err(code) => return ExitCode::from(code),
    };
    ExitCode::from({
        let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
        // Every message of every command reaches the terminal with a student's hidden characters shown.
        let mut err = referee::app::shown_stderr::ShownStderr::new(io::stderr());
        let code = match &cli.command {
            Command::Takestones(args) => app::takestones::run("referee takestones", args, &mut out, &mut err),
            Command::Grade(args) => app::grade::run(args, &mut out, &mut err),
            Command::Check(args) if args.game == CheckTarget::Othello => {
                app::othello::check::run(args, &mut out, &mut err)
            }
            Command::Check(args) => app::check::run(args, &mut out, &mut err),
            Command::Gen(args) => app::gen::run(args, &mut out, &mut err),
            Command::Verify(args) => app::verify::run(args, &mut out),
            Command::Bench(args) => app::bench::run(args, &mut out, &mut err),
            Command::Sandbox => app::sandbox::run(&mut out),
            Command::Perft(PerftGame::Othello(args)) => app::othello::perft::run(args, &mut out, &mut err),
            Command::Match(MatchGame::Mancala(args)) => app::mancala::matches::run(args, &mut out, &mut err),
            Command::Match(MatchGame::Othello(args)) => app::othello::matches::run(args, &mut out, &mut err),
            Command::Tournament(TournamentGame::Mancala(args)) => {
                app::mancala::matches::tournament(args, &mut out, &mut err)
            }
            Command::Tournament(TournamentGame::Othello(args)) => {
                app::othello::matches::tournament(args, &mut out, &mut err)
            }
            Command::Agent(AgentGame::Mancala(args)) => {
                let stdin = io::stdin();
                app::mancala::agent::run(&args.name, args.seed, &mut stdin.lock(), &mut out, &mut err)
            }
            Command::Agent(AgentGame::Othello(args)) => {
                let stdin = io::stdin();
                app::othello::agent::run(args, &mut stdin.lock(), &mut out, &mut err)
            }
            Command::Csp(args) => app::keys::csp::run(args, &mut out, &mut err),
            Command::Mdp(args) => app::keys::mdp::run(args, &mut out, &mut err),
            Command::Tree(args) => app::keys::tree::run(args, &mut out, &mut err),
            Command::Hillclimb(args) => app::keys::hillclimb::run(args, &mut out, &mut err),
            Command::Merge(args) => app::merge::run(args, &mut out, &mut err),
            Command::Gradescope(command) => app::gradescope::run(command, &mut out, &mut err),
            Command::Prairielearn(args) => app::prairielearn::run(args, &mut out, &mut err),
            Command::Exercise(command) => app::exercise::run(command, &mut out, &mut err),
            Command::Similar(args) => app::similar::run(args, &mut out, &mut err),
        };
        let _ = out.flush();
        code
    })
}
