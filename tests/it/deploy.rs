//! The deploy recipes (`deploy/**`) and the install advice put `referee` where the programs it grades cannot run
//! or read it (issue 22, item 9): never in a system folder, root-only (0700). Checked in the recipes' own text, by
//! running `deploy/install.sh`, and by a hostile hand-in that runs the installed reference to print its answers.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use referee::harness::model::SubmissionResult;

use crate::grade::python;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn recipes(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            recipes(&path, found);
        } else {
            found.push(path);
        }
    }
}

/// The folders every run's Landlock view holds, where a reference would be every hand-in's.
const SYSTEM: [&str; 6] = ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/"];

#[test]
fn no_recipe_installs_the_reference_where_a_run_can_reach_it() {
    let mut files = Vec::new();
    recipes(&repo().join("deploy"), &mut files);
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let name = file.strip_prefix(repo()).unwrap().display().to_string();
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            for system in SYSTEM {
                assert!(!line.contains(&format!("{system}referee")), "{name}: {line}");
                assert!(!line.contains(&format!("{system}local/bin/referee")), "{name}: {line}");
            }
            let loosens = ["chmod +x", "0755", "0o755", "a+x", "o+x"];
            assert!(!(line.contains("referee") && loosens.iter().any(|l| line.contains(l))), "{name}: {line}");
        }
        if file.file_name().is_some_and(|n| n == "Dockerfile") {
            let copy = text.lines().find(|l| l.starts_with("COPY referee ")).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(copy, "COPY referee /opt/referee/referee", "{name}");
            assert!(text.contains("RUN chmod 0700 /opt/referee /opt/referee/referee"), "{name}");
        }
    }
    let entry = fs::read_to_string(repo().join("deploy/prairielearn/info.json")).unwrap();
    assert!(entry.contains("\"/opt/referee/referee\", \"prairielearn\""), "{entry}");
}

/// `deploy/install.sh PREFIX FROM`, as root or not; `None` when it refused.
fn install(prefix: &Path) -> std::process::Output {
    let from = assert_cmd::cargo::cargo_bin("referee").parent().unwrap().to_path_buf();
    std::process::Command::new("sh").arg(repo().join("deploy/install.sh")).arg(prefix).arg(&from).output().unwrap()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// A class of one: a hand-in whose "program" runs `reference` (the installed referee) with the case's arguments,
/// so it prints the reference's answers if it may run it. Returns its score of 3.
fn hostile_score(reference: &Path, layers: &str) -> f64 {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class/mallory-HW2-P3");
    fs::create_dir_all(&class).unwrap();
    fs::write(
        class.join("takestones.py"),
        format!("import os, sys\nos.execv({0:?}, [{0:?}, 'takestones', *sys.argv[1:]])\n", reference.display()),
    )
    .unwrap();
    let out = work.path().join("out");
    let cmd = format!("{} {{dir}}/takestones.py {{args}}", python());
    let run = Command::cargo_bin("referee")
        .unwrap()
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--cmd", &cmd, "--sandbox-layers", layers])
        .arg("--submissions")
        .arg(work.path().join("class"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(matches!(run.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&run.stderr));
    let result: SubmissionResult =
        serde_json::from_slice(&fs::read(out.join("results/mallory.json")).unwrap()).unwrap();
    result.score.to_f64()
}

#[test]
fn the_install_script_makes_the_reference_root_only_and_a_hand_in_gets_nothing_from_it() {
    let tmp = tempfile::tempdir().unwrap();
    // Everything above the prefix may be entered, as /opt is: only the prefix's own modes stand in the way.
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let prefix = tmp.path().join("opt/referee");
    let done = install(&prefix);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert_eq!(mode(&prefix), 0o700);
    for binary in ["referee", "takestones"] {
        assert_eq!(mode(&prefix.join(binary)), 0o700, "{binary}");
    }
    let refused = install(Path::new("/usr/local/bin"));
    assert_eq!(refused.status.code(), Some(2), "{}", String::from_utf8_lossy(&refused.stderr));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("every run may read and execute"));

    if !referee::harness::runner::sandbox::is_root() {
        return; // Runs are this user's own: only Landlock keeps them out (sandbox.rs tests that view).
    }
    // As the old recipes installed it (world-executable), the hand-in copies the reference's answers: the
    // attack is real, so the test below can fail.
    let open = tmp.path().join("usr-local-bin");
    fs::create_dir_all(&open).unwrap();
    fs::copy(prefix.join("referee"), open.join("referee")).unwrap();
    fs::set_permissions(open.join("referee"), fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(hostile_score(&open.join("referee"), "none"), 3.0, "a world-executable reference is every run's");
    // Installed by the script, it gets nothing: without Landlock (its uid may not enter the prefix) and with it.
    assert_eq!(hostile_score(&prefix.join("referee"), "none"), 0.0);
    assert_eq!(hostile_score(&prefix.join("referee"), "landlock,network,pid,cgroup"), 0.0);
}
