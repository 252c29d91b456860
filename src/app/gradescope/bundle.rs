//! `referee gradescope bundle`: from the arguments a TA gives `referee grade`, an `autograder.zip` Gradescope
//! accepts: `setup.sh` (installs the JDK and/or python3 the commands need), `run_autograder`, this referee binary,
//! the suite when it is a folder or file (the built-in suites' expected outputs are in the binary), and
//! `config.json` with the grade arguments. The arguments are checked now (parsed as `grade` would parse them, the
//! suite loaded), so a mistake shows on the TA's machine, not on every student's submission.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::Parser;
use serde::{Deserialize, Serialize};
use zip::write::SimpleFileOptions;

use crate::cli::{exit, BundleArgs, Command, GradeGame, GradescopeVisibility, RefereeCli};
use crate::harness::grade::solution::full_marks;
use crate::harness::model::{Points, SubmissionResult};

/// The configuration file inside the bundle.
pub const CONFIG: &str = "config.json";

/// Where the bundle's suite goes, and the placeholder for the bundle's folder (`/autograder/source`) in arguments.
const SUITE_DIR: &str = "suite";
/// Replaced by the autograder's `source` folder when the arguments are used.
pub const SOURCE: &str = "{source}";

/// A suite folder bigger than this is refused (Gradescope uploads the zip through a web form).
const MAX_SUITE_BYTES: u64 = 64 << 20;

/// The JDK package of Ubuntu 22.04 and 24.04 alike.
const JDK_PACKAGE: &str = "openjdk-17-jdk-headless";

/// What kind of assignment a bundle grades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Output against a suite (`referee grade --suite ...`).
    Suite,
    /// A Mancala player (`referee grade mancala ...`).
    Mancala,
    /// An Othello agent (`referee grade othello ...`).
    Othello,
    /// Written problems, each student's own variant (`referee exercise grade ...`).
    Exercise,
}

/// `config.json`: how `run_autograder` grades.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Version of this shape (1).
    pub schema: u32,
    /// The assignment's kind.
    pub kind: Kind,
    /// The `referee grade` arguments (after `grade`), `{source}` standing for the bundle's folder.
    pub grade: Vec<String>,
    /// Scale scores to this total (suite assignments).
    #[serde(default)]
    pub points: Option<Points>,
    /// Visibility of the whole result, in Gradescope's spelling.
    #[serde(default)]
    pub visibility: Option<String>,
    /// Who sees run_autograder's output.
    pub stdout_visibility: String,
    /// The referee version that made the bundle.
    pub referee: String,
    /// Exercise assignments: the field of `submission_metadata.json`'s first user that holds the id the sheets
    /// were made for (`email`, `email-login` for the part before the `@`, `sid`, `name`, `id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_field: Option<String>,
    /// The course's solution inside the bundle (`solution` or `solution.zip`), which got full marks when the
    /// bundle was made; graded again in the container when a submission loses points, to tell a broken
    /// autograder from a student's fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
}

/// Where the bundle keeps the solution's result, as `--solution` got it when the bundle was made.
pub const SOLUTION_RESULT: &str = "solution.json";

/// Gradescope's spelling of a visibility.
pub fn visibility_name(v: GradescopeVisibility) -> &'static str {
    match v {
        GradescopeVisibility::Visible => "visible",
        GradescopeVisibility::Hidden => "hidden",
        GradescopeVisibility::AfterDueDate => "after_due_date",
        GradescopeVisibility::AfterPublished => "after_published",
    }
}

/// Options the autograder supplies itself, refused in the grade arguments.
const SUPPLIED: [&str; 9] =
    ["--dir", "--submissions", "--out", "--format", "--jobs", "-j", "--fresh", "--shard", "--work"];

/// Runs `referee gradescope bundle`; returns the exit code.
pub fn run(args: &BundleArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let fail = |err: &mut dyn Write, code: u8, message: String| {
        let _ = writeln!(err, "referee gradescope bundle: {message}");
        code
    };
    let plan = match plan(args) {
        Ok(plan) => plan,
        Err(message) => return fail(err, exit::USAGE, message),
    };
    let solution = match &args.solution {
        Some(dir) => match check_solution(dir, &plan, err) {
            Ok(result) => Some((dir.clone(), result)),
            Err((code, message)) => return fail(err, code, message),
        },
        None => None,
    };
    let binary = match args.binary.clone().map_or_else(std::env::current_exe, Ok) {
        Ok(path) => path,
        Err(e) => return fail(err, exit::INTERNAL, format!("cannot find this referee binary: {e}")),
    };
    if let Err(e) = write_zip(&args.out, &plan, &binary, solution.as_ref()) {
        let _ = std::fs::remove_file(&args.out);
        return fail(err, exit::INTERNAL, format!("{}: {e}", args.out.display()));
    }
    let _ = writeln!(
        out,
        "wrote {} ({} assignment; setup.sh installs: {}); upload it as the assignment's autograder",
        args.out.display(),
        match plan.config.kind {
            Kind::Suite => "suite",
            Kind::Mancala => "Mancala",
            Kind::Othello => "Othello",
            Kind::Exercise => "written exercise",
        },
        if plan.packages.is_empty() { "nothing".to_string() } else { plan.packages.join(" ") }
    );
    exit::SUCCESS
}

/// Grades the TA's `--solution` here, with the bundle's grade arguments, as the autograder will grade a student:
/// its result when it gets full marks; otherwise the exit code and why, and no bundle is written.
fn check_solution(dir: &Path, plan: &Plan, err: &mut dyn Write) -> Result<SubmissionResult, (u8, String)> {
    if !dir.exists() {
        return Err((exit::USAGE, format!("--solution {}: no such folder or zip", dir.display())));
    }
    let mut log = Vec::new();
    let graded = super::autograde::grade_as_student(plan.config.kind, &plan.local, dir, &mut log);
    let result = graded.map_err(|why| {
        let _ = err.write_all(&log);
        (exit::INTERNAL, format!("--solution {}: could not be graded: {why}; no bundle was written", dir.display()))
    })?;
    full_marks(&result).map_err(|why| {
        let _ = err.write_all(&log);
        (
            exit::INTERNAL,
            format!(
                "--solution {}: {why}; no bundle was written (fix the grade arguments until the solution gets \
                 full marks)",
                dir.display()
            ),
        )
    })?;
    Ok(result)
}

/// Everything the zip holds besides the scripts and the binary.
struct Plan {
    config: Config,
    /// The grade arguments as they run on this machine (the suite where it is now), for `--solution`.
    local: Vec<String>,
    /// The suite to copy in: a folder, and the file within it the arguments name (`None`: the folder itself).
    suite: Option<PathBuf>,
    packages: Vec<String>,
    checks: Vec<String>,
}

/// The fields of `submission_metadata.json`'s user an exercise bundle can take the id from (the first is the
/// default).
const ID_FIELDS: [&str; 5] = ["email", "email-login", "sid", "name", "id"];

/// Removes `--id-field F` (or `--id-field=F`) from an exercise's grade arguments and returns F, checked.
fn take_id_field(grade: &mut Vec<String>) -> Result<Option<String>, String> {
    let Some(at) = grade.iter().position(|a| a == "--id-field" || a.starts_with("--id-field=")) else {
        return Ok(None);
    };
    let flag = grade.remove(at);
    let value = match flag.split_once('=') {
        Some((_, v)) => v.to_string(),
        None if at < grade.len() => grade.remove(at),
        None => return Err("--id-field: expected a value: email, email-login, sid, name or id".into()),
    };
    if !ID_FIELDS.contains(&value.as_str()) {
        return Err(format!("--id-field {value}: expected email, email-login, sid, name or id"));
    }
    Ok(Some(value))
}

fn plan(args: &BundleArgs) -> Result<Plan, String> {
    let mut grade: Vec<String> = args.grade.clone();
    if grade.first().is_some_and(|a| a == "grade") {
        grade.remove(0);
    }
    for arg in &grade {
        let flag = arg.split('=').next().unwrap_or(arg);
        if flag == "--solution" {
            return Err("--solution: give it to `gradescope bundle` itself, before the grade arguments".into());
        }
        if SUPPLIED.contains(&flag) || (arg.starts_with("-j") && arg.len() > 2 && !arg.starts_with("--")) {
            return Err(format!("{flag}: the autograder supplies this itself; leave it out of the grade arguments"));
        }
    }
    if let Some(points) = args.points {
        if !points.is_positive() {
            return Err(format!("--points {points}: expected a number above 0"));
        }
    }
    let kind = match grade.first().map(String::as_str) {
        Some("mancala") => Kind::Mancala,
        Some("othello") => Kind::Othello,
        Some("exercise") => Kind::Exercise,
        _ => Kind::Suite,
    };
    let game = matches!(kind, Kind::Mancala | Kind::Othello);
    if game && args.points.is_some() {
        return Err("--points: the game graders take their own --points (put it after `mancala`/`othello`)".into());
    }
    // `exercise --seed S --id-field sid`: the bundle's own option written among the grade arguments.
    let mut id_field = args.id_field.clone();
    if kind == Kind::Exercise {
        id_field = take_id_field(&mut grade)?.or(id_field);
    } else if id_field.is_some() {
        return Err("--id-field: only an `exercise` bundle grades each student's own variant".into());
    }
    if kind == Kind::Exercise && grade.iter().any(|a| a == "--id" || a.starts_with("--id=")) {
        return Err(
            "--id: the autograder takes each student's id from submission_metadata.json (see --id-field)".into()
        );
    }
    if game && !grade.iter().any(|a| a == "--seed" || a.starts_with("--seed=")) {
        // Every student meets the same random games: fair, and a regrade gives the same result.
        grade.extend(["--seed".to_string(), "1".to_string()]);
    }
    // Parse as `grade` would, with the submission the autograder will supply.
    let mut argv: Vec<String> = vec!["referee".into(), "grade".into()];
    argv.extend(grade.iter().cloned());
    if kind == Kind::Exercise {
        // `exercise --seed S ...` is `referee exercise grade --seed S ...`.
        argv = vec!["referee".into(), "exercise".into(), "grade".into()];
        argv.extend(grade.iter().skip(1).cloned());
    }
    argv.extend(match kind {
        Kind::Suite | Kind::Exercise => ["--dir".to_string(), "submission".to_string()],
        _ => ["--submissions".to_string(), "class".to_string()],
    });
    let cli = RefereeCli::try_parse_from(&argv).map_err(|e| crate::app::clap_failure("grade arguments", &e).0)?;
    refuse_visible_mistakes(&cli, args.solution.is_some())?;
    let local = grade.clone();
    let mut suite = None;
    if kind == Kind::Suite {
        let at = grade.iter().position(|a| a == "--suite" || a.starts_with("--suite="));
        let Some(at) = at else { return Err("the grade arguments need --suite".into()) };
        let (value, inline) = match grade[at].strip_prefix("--suite=") {
            Some(v) => (v.to_string(), true),
            None => (grade.get(at + 1).cloned().unwrap_or_default(), false),
        };
        crate::harness::suite::load(&value).map_err(|e| format!("--suite: {e}"))?;
        if !value.starts_with("builtin:") {
            let path = PathBuf::from(&value);
            let (folder, inside) = if path.is_dir() {
                (path.clone(), None)
            } else {
                let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
                (parent.to_path_buf(), path.file_name().map(|n| n.to_string_lossy().into_owned()))
            };
            let size = folder_size(&folder).map_err(|e| format!("--suite {}: {e}", folder.display()))?;
            if size > MAX_SUITE_BYTES {
                return Err(format!(
                    "--suite: the folder {} holds {size} bytes; give a folder with only the suite (at most {} MiB)",
                    folder.display(),
                    MAX_SUITE_BYTES >> 20
                ));
            }
            let replaced = match inside {
                Some(name) => format!("{SOURCE}/{SUITE_DIR}/{name}"),
                None => format!("{SOURCE}/{SUITE_DIR}"),
            };
            if inline {
                grade[at] = format!("--suite={replaced}");
            } else {
                grade[at + 1] = replaced;
            }
            suite = Some(folder);
        }
    }
    let text = grade.join(" ").to_ascii_lowercase();
    let mut packages = Vec::new();
    let mut checks = Vec::new();
    if kind == Kind::Mancala || text.contains("java") {
        packages.push(JDK_PACKAGE.to_string());
        checks.extend(["java -version".to_string(), "javac -version".to_string()]);
    }
    if kind == Kind::Othello || text.contains("python") {
        packages.push("python3".to_string());
        checks.push("python3 --version".to_string());
    }
    for extra in &args.packages {
        if extra.is_empty() || !extra.chars().all(|c| c.is_ascii_alphanumeric() || "+-.:=".contains(c)) {
            return Err(format!("--packages: '{extra}' is not a package name"));
        }
        packages.push(extra.clone());
    }
    let config = Config {
        schema: 1,
        kind,
        grade,
        points: args.points,
        // An exercise's feedback holds the right answers: shown before grades are published, a student could
        // copy them into a resubmission. The TA may still choose otherwise.
        visibility: args
            .visibility
            .map(|v| visibility_name(v).to_string())
            .or_else(|| (kind == Kind::Exercise).then(|| "after_published".to_string())),
        stdout_visibility: visibility_name(args.stdout_visibility).to_string(),
        referee: env!("CARGO_PKG_VERSION").to_string(),
        id_field: (kind == Kind::Exercise).then(|| id_field.unwrap_or_else(|| ID_FIELDS[0].to_string())),
        solution: args.solution.as_ref().map(|dir| solution_entry(dir).to_string()),
    };
    Ok(Plan { config, local, suite, packages, checks })
}

/// What the grade arguments show to be wrong before anything runs: options the game graders refuse (always),
/// and, without a `--solution` to prove the commands right, shell words without `--shell` and a `--cmd` without
/// the suite's arguments ([`crate::app::lint`]).
fn refuse_visible_mistakes(cli: &RefereeCli, solution: bool) -> Result<(), String> {
    let Command::Grade(args) = &cli.command else { return Ok(()) };
    match &args.game {
        Some(GradeGame::Mancala(game)) => crate::app::mancala::grade::check_options(game),
        Some(GradeGame::Othello(game)) => crate::app::othello::grade::check_options(game).map(|_| ()),
        None if solution => Ok(()),
        None => {
            let Some(name) = &args.suite else { return Ok(()) };
            let suite = crate::harness::suite::load(name).map_err(|e| format!("--suite: {e}"))?;
            let Some(command) = args.cmd.clone().or(suite.command.clone()) else { return Ok(()) };
            let build = args.build.clone().or(suite.build.clone());
            let mistakes = crate::app::lint::command_mistakes(&command, build.as_deref(), args.shell, &suite);
            if mistakes.is_empty() {
                return Ok(());
            }
            Err(format!(
                "{} (or give --solution DIR, a hand-in with full marks, to show the commands work)",
                mistakes.join("; ")
            ))
        }
    }
}

/// The solution's name inside the bundle: a folder's files go to `solution/`, a zip is `solution.zip`.
fn solution_entry(dir: &Path) -> &'static str {
    if dir.is_dir() {
        "solution"
    } else {
        "solution.zip"
    }
}

/// Total size of the files under `dir`.
fn folder_size(dir: &Path) -> std::io::Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        total += if kind.is_dir() {
            folder_size(&entry.path())?
        } else if kind.is_file() {
            entry.metadata()?.len()
        } else {
            0
        };
    }
    Ok(total)
}

fn write_zip(
    path: &Path,
    plan: &Plan,
    binary: &Path,
    solution: Option<&(PathBuf, SubmissionResult)>,
) -> std::io::Result<()> {
    let file = std::fs::File::create(path)?;
    let mut zip = zip::ZipWriter::new(file);
    let executable = SimpleFileOptions::default().unix_permissions(0o755);
    let plain = SimpleFileOptions::default().unix_permissions(0o644);
    let setup = include_str!("setup.sh")
        .replace("@PACKAGES@", &plan.packages.join(" "))
        .replace("@CHECKS@", &plan.checks.join("\n"));
    zip.start_file("setup.sh", executable).map_err(std::io::Error::other)?;
    zip.write_all(setup.as_bytes())?;
    zip.start_file("run_autograder", executable).map_err(std::io::Error::other)?;
    zip.write_all(include_str!("run_autograder").as_bytes())?;
    zip.start_file(CONFIG, plain).map_err(std::io::Error::other)?;
    zip.write_all(&serde_json::to_vec_pretty(&plan.config).map_err(std::io::Error::other)?)?;
    if let Some(folder) = &plan.suite {
        add_folder(&mut zip, folder, SUITE_DIR, plain)?;
    }
    if let Some((dir, result)) = solution {
        match solution_entry(dir) {
            "solution" => add_folder(&mut zip, dir, "solution", plain)?,
            name => {
                zip.start_file(name, plain).map_err(std::io::Error::other)?;
                zip.write_all(&std::fs::read(dir)?)?;
            }
        }
        zip.start_file(SOLUTION_RESULT, plain).map_err(std::io::Error::other)?;
        zip.write_all(&crate::harness::render::json_text::to_vec_pretty(result)?)?;
    }
    // The binary is the bulk of the zip: fast compression keeps bundling quick.
    zip.start_file("referee", executable.compression_level(Some(1))).map_err(std::io::Error::other)?;
    let mut bytes = Vec::new();
    std::fs::File::open(binary)?.read_to_end(&mut bytes)?;
    zip.write_all(&bytes)?;
    zip.finish().map_err(std::io::Error::other)?;
    Ok(())
}

fn add_folder(
    zip: &mut zip::ZipWriter<std::fs::File>,
    dir: &Path,
    prefix: &str,
    options: SimpleFileOptions,
) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = format!("{prefix}/{}", entry.file_name().to_string_lossy());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            add_folder(zip, &entry.path(), &name, options)?;
        } else if kind.is_file() {
            zip.start_file(name, options).map_err(std::io::Error::other)?;
            zip.write_all(&std::fs::read(entry.path())?)?;
        }
    }
    Ok(())
}
