//! Issue 32, item 6: runs read only what the grader installed. A TA's virtual environment with an editable install
//! of the course repository (a `.pth` line in its site-packages) has the course folder on `sys.path`; runs of that
//! Python are granted its installation and site-packages, never the folder the `.pth` line names, and a note says
//! which `sys.path` entries were left out.

use std::fs;
use std::path::Path;
use std::process::Command;

use referee::harness::model::{Status, SubmissionResult};

use crate::grade::fixture;

/// A hand-in that solves nothing: it runs the course's own solution, found on `sys.path` (where the `.pth` line
/// put the course folder) or at the course folder's path, which it knows.
const CHEAT: &str = r#"import os, runpy, sys
course = "@COURSE@"
for folder in [p for p in sys.path if p] + [course]:
    try:
        with open(os.path.join(folder, "solution.py")) as f:
            source = f.read()
    except Exception as e:
        sys.stderr.write("cannot read %s: %s\n" % (folder, e))
        continue
    sys.argv[0] = os.path.join(folder, "solution.py")
    exec(compile(source, sys.argv[0], "exec"), {"__name__": "__main__"})
    sys.exit(0)
sys.stderr.write("no course folder\n")
"#;

/// Whether Landlock is in force here (the grants are its rules); fails under `REFEREE_REQUIRE_SANDBOX`.
fn landlock() -> bool {
    let out = Command::new(assert_cmd::cargo::cargo_bin("referee")).arg("sandbox").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let on = text.lines().any(|l| l.trim_start().starts_with("landlock") && l.contains(" in force"));
    if !on {
        assert!(std::env::var_os("REFEREE_REQUIRE_SANDBOX").is_none(), "landlock not in force: {text}");
        eprintln!("SKIPPED venv grants: Landlock is not in force here: {text}");
    }
    on
}

fn passed(results: &[SubmissionResult], id: &str) -> (usize, usize) {
    let r = results.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no result for {id}"));
    (r.cases.iter().filter(|c| c.status == Status::Passed).count(), r.cases.len())
}

#[test]
fn a_pth_line_into_the_course_folder_grants_nothing_and_is_named_in_a_note() {
    if !landlock() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let venv = work.path().join("venv");
    let made = Command::new("/usr/bin/python3").args(["-m", "venv", "--without-pip"]).arg(&venv).status();
    assert!(made.unwrap().success());
    let course = work.path().join("course");
    fs::create_dir_all(&course).unwrap();
    let solution = fixture("submissions/python-stats/takestones.py");
    fs::copy(&solution, course.join("solution.py")).unwrap();
    let site = fs::read_dir(venv.join("lib")).unwrap().flatten().next().unwrap().path().join("site-packages");
    fs::write(site.join("__editable__.course.pth"), format!("{}\n", course.display())).unwrap();
    let python = venv.join("bin/python3");
    let on_path = Command::new(&python).args(["-c", "import sys; print(sys.path)"]).output().unwrap();
    assert!(String::from_utf8_lossy(&on_path.stdout).contains(&course.display().to_string()), "the .pth line works");
    let class = work.path().join("class");
    for id in ["cheat", "good"] {
        fs::create_dir_all(class.join(id)).unwrap();
    }
    fs::write(class.join("cheat/takestones.py"), CHEAT.replace("@COURSE@", &course.display().to_string())).unwrap();
    fs::copy(&solution, class.join("good/takestones.py")).unwrap();
    // Everyone may read everything: only the grants keep a run out of the course folder.
    Command::new("chmod").args(["-R", "a+rX"]).arg(work.path()).status().unwrap();
    let out = work.path().join("out");
    let output = Command::new(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "--suite", "builtin:takestones-stats-2019", "--submissions"])
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--cmd", &format!("{} {{dir}}/takestones.py {{args}}", python.display()), "--color", "never"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
    let results: Vec<SubmissionResult> = fs::read_dir(out.join("results"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_slice(&fs::read(e.path()).unwrap()).unwrap())
        .collect();
    let (good, all) = passed(&results, "good");
    assert!(all > 0 && good == all, "the correct hand-in passes {good} of {all}: {stderr}");
    let (cheat, _) = passed(&results, "cheat");
    assert_eq!(cheat, 0, "the course's solution was readable: {results:?}");
    let real = fs::canonicalize(&course).unwrap();
    let note = stderr.lines().filter(|l| l.contains("note:") && l.contains(".pth")).collect::<Vec<_>>();
    assert_eq!(note.len(), 1, "{stderr}");
    assert!(note[0].contains(&real.display().to_string()) && note[0].contains("--allow-read"), "{}", note[0]);
    assert!(!note[0].contains(&site.display().to_string()), "site-packages is granted, not left out: {}", note[0]);
}

/// The toolchain the grader finds for the venv's Python grants its site-packages and the base installation, not
/// the venv's whole folder, and lists the `.pth` folder as left out.
#[test]
fn a_venv_toolchain_grants_site_packages_not_its_pth_folders() {
    let work = tempfile::tempdir().unwrap();
    let venv = work.path().join("venv");
    let made = Command::new("/usr/bin/python3").args(["-m", "venv", "--without-pip"]).arg(&venv).status();
    assert!(made.unwrap().success());
    let course = work.path().join("course");
    fs::create_dir_all(&course).unwrap();
    let site = fs::read_dir(venv.join("lib")).unwrap().flatten().next().unwrap().path().join("site-packages");
    fs::write(site.join("course.pth"), format!("{}\n", course.display())).unwrap();
    let python = venv.join("bin/python3").into_os_string();
    let found = referee::harness::runner::toolchain::discover(
        std::slice::from_ref(&python),
        &[("PATH".into(), "/usr/bin:/bin".into())],
        &|_: &Path| true,
    );
    let venv_python = found.iter().find(|t| t.name == python).unwrap();
    let real = |p: &Path| fs::canonicalize(p).unwrap();
    // Through its own folder or `platstdlib`'s (`<venv>/lib/python3.X`, which in a venv holds only site-packages).
    assert!(venv_python.folders.iter().any(|f| real(&site).starts_with(f)), "{venv_python:?}");
    assert!(venv_python.folders.contains(&real(&venv.join("pyvenv.cfg"))), "{venv_python:?}");
    assert!(!venv_python.folders.iter().any(|f| real(&course).starts_with(f)), "{venv_python:?}");
    assert!(!venv_python.folders.contains(&real(&venv)), "the venv's own folder is granted: {venv_python:?}");
    assert_eq!(venv_python.left_out, vec![real(&course)]);
    assert!(venv_python.note().unwrap().contains(&real(&course).display().to_string()));
}
