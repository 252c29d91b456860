//! Issue 32, item 2, the disk: a run that takes disk past its budget in the ways a folder walk misses (a file
//! deleted while held open, files 300 and 3000 folders down, empty files and folders, a sparse file filled) is
//! stopped and named for its budget, having held no more than about the budget, and a correct classmate graded
//! beside it at `-j 2` on a small `--work` gets full marks; nothing is left mounted or in `--work`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use referee::harness::model::Status;

use crate::containment::{grade_fixtures_under, is_root, layers_on, one_case_suite, LayerSets, Student};
use crate::grade::fixture;

/// How `hostile/disk_hog.py` takes disk.
pub const HOG_MODES: [&str; 5] = ["deleted", "deep300", "deep3000", "empty", "sparse"];

/// The budget the class is graded with, in MiB.
const BUDGET_MIB: u64 = 8;

/// A small tmpfs the test mounts as `--work` (root only), unmounted when dropped.
pub struct SmallDisk {
    path: PathBuf,
}

impl SmallDisk {
    /// Mounts a tmpfs of 48 MiB and 6,000 inodes (writable by all) on the new folder `path`.
    pub fn mount(path: &Path) -> SmallDisk {
        fs::create_dir_all(path).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=48m,nr_inodes=6000,mode=1777", "referee-test-work"])
            .arg(path)
            .status()
            .unwrap();
        assert!(status.success(), "cannot mount a tmpfs on {}", path.display());
        SmallDisk { path: path.to_path_buf() }
    }

    /// What is left in it.
    pub fn left(&self) -> Vec<String> {
        fs::read_dir(&self.path).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).status();
    }
}

/// The mounts this process sees that a grader made for a run's folder.
fn case_mounts() -> Vec<String> {
    let table = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    table.lines().filter(|l| l.contains("referee-case")).map(String::from).collect()
}

/// A correct classmate that needs a little disk, 0.5 s after it starts (while a hog beside it holds what it
/// took): 2 MiB and a few files in its `TMPDIR`, then the right answer.
fn needy_classmate(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let correct = fs::read_to_string(fixture("submissions/python-stats/takestones.py")).unwrap();
    let prelude = "import os as _os, time as _time\n_time.sleep(0.5)\n_d = _os.environ.get('TMPDIR', '.')\n\
                   for _n in range(8):\n    open(_os.path.join(_d, 'scratch-%d' % _n), 'wb').write(b'y' * (256 << 10))\n";
    fs::write(dir.join("takestones.py"), format!("{prelude}{correct}")).unwrap();
}

/// Per layer set and hog: what the hog's case said. Where runs have the mount layer, the kernel counts what each
/// hog took: each is named for its budget, having held no more than about the budget. Elsewhere the walk counts
/// what it can see (files at any depth, the sparse file's blocks) and runs go one at a time, so a hog harms only
/// itself.
pub fn hogs_harm_no_classmate(
    work: &Path,
    sets: &LayerSets,
    wrapper: &[&str],
) -> Vec<(&'static str, &'static str, String)> {
    let suite = one_case_suite(work);
    let mut seen = Vec::new();
    for (set, layers) in sets.iter().cloned() {
        let disk = SmallDisk::mount(&work.join(format!("disk-{set}")));
        let kernel =
            layers.as_deref().map_or_else(|| layers_on().contains(&"mount".to_string()), |l| l.contains("mount"));
        let class = work.join(format!("class-{set}"));
        let modes: Vec<(String, String)> = HOG_MODES
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("{}-hog", (b'a' + i as u8) as char), m.to_string()))
            .collect();
        let replaced: Vec<[(&str, &str); 1]> = modes.iter().map(|(_, m)| [("@MODE@", m.as_str())]).collect();
        let students: Vec<Student> =
            modes.iter().zip(&replaced).map(|((id, _), r)| (id.as_str(), "disk_hog", &r[..])).collect();
        for (id, _) in &modes {
            needy_classmate(&class.join(id.replace("hog", "good")));
        }
        let disk_path = disk.path.display().to_string();
        let mut extra = vec!["-j", "2", "--disk-limit", "8MiB", "--timeout", "20s", "--work", disk_path.as_str()];
        if let Some(layers) = &layers {
            extra.extend(["--sandbox-layers", layers.as_str()]);
        }
        let results = grade_fixtures_under(wrapper, work, set, &students, &suite, &extra);
        for ((id, mode), hog_mode) in modes.iter().zip(HOG_MODES) {
            let case = &results[id.as_str()].cases[0];
            let held =
                case.stdout.text.lines().find_map(|l| l.strip_prefix("held ")).map(|n| n.parse::<u64>().unwrap());
            eprintln!("{set}: {mode}: {:?} {} ({} ms), held {held:?}", case.status, case.detail, case.elapsed_ms);
            // What it held before it was stopped: about the budget (MiB, or entries at 512 bytes each).
            let most = if mode == "empty" { (BUDGET_MIB + 2) << 11 } else { BUDGET_MIB + 2 };
            if kernel {
                assert!(
                    held.map_or(true, |h| h <= most),
                    "{set}: {mode}: held {held:?} past a {BUDGET_MIB} MiB budget"
                );
            }
            assert_ne!(case.status, Status::Passed, "{set}: {mode}");
            assert_ne!(case.status, Status::HarnessError, "{set}: {mode}: {}", case.detail);
            if kernel || mode.starts_with("deep") || mode == "sparse" {
                assert_eq!(case.status, Status::Crashed, "{set}: {mode}: {}", case.detail);
                assert!(case.detail.contains("disk budget of 8 MiB"), "{set}: {mode}: {}", case.detail);
            }
            seen.push((set, hog_mode, case.detail.clone()));
        }
        for (id, mode) in &modes {
            let good = id.replace("hog", "good");
            let path = work.join(format!("out-{set}/results/{good}.json"));
            let result: referee::harness::model::SubmissionResult =
                serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
            assert_eq!(result.score, result.max_score, "{set}: beside {mode}: {:?}", result.cases[0]);
        }
        assert_eq!(disk.left(), Vec::<String>::new(), "{set}: left in --work");
        assert_eq!(case_mounts(), Vec::<String>::new(), "{set}: left mounted");
    }
    seen
}

/// As root, in every layer set CI can force: the kernel counts what each hog took, wherever and however.
#[test]
fn a_run_past_its_disk_budget_in_any_way_is_named_for_it_and_harms_no_classmate() {
    if !is_root() {
        eprintln!("SKIPPED disk hogs: mounting the small --work needs root");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    hogs_harm_no_classmate(work.path(), &crate::containment::all_sets(), &[]);
}
