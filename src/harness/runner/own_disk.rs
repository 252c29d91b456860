//! A run's folder on a filesystem of its own: a tmpfs as large as what its copy holds plus the disk budget
//! (`--disk-limit`), with as many inodes, mounted in the grader's own mount namespace. The kernel then counts
//! everything the run writes there (a file deleted while still open, folders at any depth, empty files, sparse
//! files as they fill) and refuses a write past it with `ENOSPC` inside that filesystem alone: a run that fills its
//! disk harms itself and no classmate, and `--work` holds nothing of it. The mount is seen by no process outside
//! the grader and its runs, goes when the case's copy is dropped, and at the latest with the grader.
//!
//! [`enter`], called when the grader starts (before any thread), moves it into a mount namespace of its own (as a
//! normal user, with a user namespace around it). Where that is refused (a container without `CAP_SYS_ADMIN`, no
//! unprivileged user namespaces), or on another system, [`available`] is `false`, and the disk budget is the
//! folder walk of [`super::disk`], with runs one at a time (see `grade::submission`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

#[cfg(unix)]
use super::disk::ENTRY_BYTES;

/// Past the budget, what a run may still write before the kernel refuses: a run is named over its budget once it
/// wrote more than the budget, so it is caught before `ENOSPC` rather than surprised by it.
pub const SLACK_BYTES: u64 = 1 << 20;

/// Whether this grader is in a mount namespace of its own (see [`enter`]).
static OWN_NAMESPACE: AtomicBool = AtomicBool::new(false);

/// The mount points made by [`OwnDisk::mount`] that are still mounted.
static MOUNTED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// On Linux, moves this process into a mount namespace of its own, which still receives the host's later mounts
/// but sends none back, and passes its own on to the namespaces its runs make from it (`slave` and `shared` at
/// once). As a normal user, inside a user namespace of its own that maps its own uid and gid to themselves (it
/// stays the same user, with no right over any file that was not already its own; runs then make their user
/// namespaces inside it). Call it before any thread is started: the kernel refuses a new mount namespace to a
/// process whose threads share its filesystem context. `true` when [`available`] now holds.
pub fn enter() -> bool {
    #[cfg(target_os = "linux")]
    {
        use rustix::mount::{mount_change, MountPropagationFlags};
        use rustix::thread::UnshareFlags;
        let root = rustix::process::geteuid().is_root();
        let (uid, gid) = (rustix::process::geteuid().as_raw(), rustix::process::getegid().as_raw());
        let flags = if root { UnshareFlags::NEWNS } else { UnshareFlags::NEWUSER | UnshareFlags::NEWNS };
        #[expect(
            deprecated,
            reason = "without CLONE_FILES, the one case rustix calls unsafe; unsafe code is forbidden here"
        )]
        let unshared = rustix::thread::unshare(flags).is_ok();
        let mapped = root
            || unshared && {
                // Kernels before 3.19 have no such file, and let the gid map be written without it.
                let _ = std::fs::write("/proc/self/setgroups", "deny");
                std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1")).is_ok()
                    && std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1")).is_ok()
            };
        let own = unshared
            && mapped
            && mount_change("/", MountPropagationFlags::DOWNSTREAM | MountPropagationFlags::REC).is_ok()
            && mount_change("/", MountPropagationFlags::SHARED | MountPropagationFlags::REC).is_ok();
        OWN_NAMESPACE.store(own, Ordering::Relaxed);
        own
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Whether each run's folder can be a filesystem of its own (the grader entered its own mount namespace).
pub fn available() -> bool {
    OWN_NAMESPACE.load(Ordering::Relaxed)
}

/// Whether runs contained by `sandbox` get folders on filesystems of their own: where the grader has its mount
/// namespace and runs have the mount layer (a machine without it, or a layer set forced without it, has no mount
/// namespace to give: the walk and one run at a time there).
pub fn for_runs(sandbox: &super::Sandbox) -> bool {
    available() && sandbox.layers.mount
}

/// A tmpfs mounted on a folder of the grader's (a case's copy goes inside it), unmounted and removed when
/// dropped.
#[derive(Debug)]
pub struct OwnDisk {
    at: PathBuf,
    /// The mounted filesystem's root, held (`O_PATH`) so it is unmounted through `/proc/self/fd` even after the
    /// folder holding it was renamed (a student's scratch is closed for removal by a rename while its cases'
    /// filesystems still wait to be unmounted in the background).
    #[cfg(target_os = "linux")]
    root: Option<rustix::fd::OwnedFd>,
}

impl OwnDisk {
    /// Makes the folder `at` (it must not exist) and mounts on it a tmpfs (`0711`, root's) with room for
    /// `bytes` and `inodes`, enough for any copy the grader will make; [`OwnDisk::seal`] then shrinks it.
    ///
    /// # Errors
    /// When the folder cannot be made or the mount is refused (the folder is removed again).
    pub fn mount(at: &Path, bytes: u64, inodes: u64) -> std::io::Result<OwnDisk> {
        #[cfg(target_os = "linux")]
        {
            use rustix::mount::{mount, MountFlags};
            std::fs::create_dir(at)?;
            let data = std::ffi::CString::new(format!("size={bytes},nr_inodes={inodes},mode=0711"))?;
            let flags = MountFlags::NOSUID | MountFlags::NODEV;
            if let Err(e) = mount("referee-case", at, "tmpfs", flags, data.as_c_str()) {
                let _ = std::fs::remove_dir(at);
                return Err(e.into());
            }
            MOUNTED.lock().unwrap_or_else(|p| p.into_inner()).push(at.to_path_buf());
            let flags = rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC;
            let root = rustix::fs::open(at, flags, rustix::fs::Mode::empty()).ok();
            Ok(OwnDisk { at: at.to_path_buf(), root })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (at, bytes, inodes);
            Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "no filesystem per run on this system"))
        }
    }

    /// Shrinks the filesystem to what it holds now plus `budget` bytes (and [`SLACK_BYTES`]), and as many inodes
    /// as `budget` pays for at [`ENTRY_BYTES`] each: past that, every write and every new file fails.
    ///
    /// # Errors
    /// When the kernel refuses.
    pub fn seal(&self, budget: u64) -> std::io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use rustix::mount::{mount_remount, MountFlags};
            let held = rustix::fs::statvfs(&self.at)?;
            let used_bytes = held.f_blocks.saturating_sub(held.f_bfree).saturating_mul(held.f_frsize);
            let used_inodes = held.f_files.saturating_sub(held.f_ffree);
            let room = budget.saturating_add(SLACK_BYTES);
            let size = used_bytes.saturating_add(room);
            let inodes = used_inodes.saturating_add(room / ENTRY_BYTES);
            let data = format!("size={size},nr_inodes={inodes}");
            mount_remount(&self.at, MountFlags::NOSUID | MountFlags::NODEV, data.as_str())?;
            Ok(())
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = budget;
            Ok(())
        }
    }

    /// The mount point.
    pub fn path(&self) -> &Path {
        &self.at
    }
}

impl Drop for OwnDisk {
    /// Unmounts (detached: whatever a run left there goes with its last holder) and removes the folder (when it
    /// is still where it was made: otherwise whoever moved it removes it).
    fn drop(&mut self) {
        MOUNTED.lock().unwrap_or_else(|p| p.into_inner()).retain(|m| m != &self.at);
        #[cfg(target_os = "linux")]
        {
            use rustix::fd::AsRawFd;
            let flags = rustix::mount::UnmountFlags::DETACH;
            match self.root.take() {
                Some(root) => {
                    let _ = rustix::mount::unmount(format!("/proc/self/fd/{}", root.as_raw_fd()).as_str(), flags);
                }
                None => {
                    let _ = rustix::mount::unmount(&self.at, flags);
                }
            }
        }
        let _ = std::fs::remove_dir(&self.at);
    }
}

/// What the filesystem of its own that `dir` lies in holds ([`OwnDisk`]), in the disk budget's measure (bytes of
/// blocks held, plus [`ENTRY_BYTES`] per inode); `None` when `dir` is not on one. One `statvfs`, whatever the run
/// made.
pub fn usage(dir: &Path) -> Option<u64> {
    let on_own = MOUNTED.lock().unwrap_or_else(|p| p.into_inner()).iter().any(|m| dir.starts_with(m));
    if !on_own {
        return None;
    }
    #[cfg(unix)]
    {
        let held = rustix::fs::statvfs(dir).ok()?;
        let bytes = held.f_blocks.saturating_sub(held.f_bfree).saturating_mul(held.f_frsize);
        let inodes = held.f_files.saturating_sub(held.f_ffree);
        Some(bytes.saturating_add(inodes.saturating_mul(ENTRY_BYTES)))
    }
    #[cfg(not(unix))]
    {
        None
    }
}
