//! File modes and links, the two Unix file facts the grader sets outside the runner's own code: on other
//! systems a mode is not kept and a link is refused, so no platform `cfg` is needed above the runner.

use std::path::Path;

/// Sets `path`'s permission bits to `mode` (Unix); elsewhere there are none to set.
///
/// # Errors
/// When the mode cannot be set.
pub fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

/// Makes `link` a symbolic link to `target` (Unix).
///
/// # Errors
/// When it cannot be made; always on systems without Unix links.
pub fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(not(unix))]
    {
        let _ = (target, link);
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "symbolic links need Linux or macOS"))
    }
}
