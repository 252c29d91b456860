//! Kernel keyrings, where no seccomp filter refuses them: each run gets a session keyring of its own, and a run
//! under a leased uid finds that uid's own keyrings empty.
//!
//! Without this a run inherits the grader's session keyring (a TA's login gives one; a root grader's runs would
//! share it across uids, and read the TA's keys in it), and the user, user-session and persistent keyrings of a
//! leased uid keep what the uid's earlier runs stored (another student's, once the uid is lent again). So the
//! launcher, once it is the run's uid and before the program starts, empties those three (only for a leased uid:
//! a normal user's own keyrings are the TA's) and joins a new anonymous session keyring, which ends with the run.
//! Every process of a leased uid is started by a launcher, and a uid is lent only when none of its processes is
//! alive, so nothing a run stores reaches a later student.
//!
//! Not closed without seccomp: a *named* session keyring that one run opens to everyone can be joined by name by
//! a classmate graded at the same moment under another uid (names are per user namespace, and runs as root share
//! the machine's); only the seccomp layer refuses that.

#![cfg(target_os = "linux")]

use keyutils_raw as raw;

/// Where the kernel has no keyrings (ENOSYS) or a filter the program inherits refuses them (EPERM, as Docker's
/// default seccomp profile does): the run cannot reach any keyring either, so there is nothing to do.
fn unreachable(errno: i32) -> bool {
    const EPERM: i32 = 1;
    const ENOSYS: i32 = 38;
    errno == ENOSYS || errno == EPERM
}

/// Empties the uid's keyrings when `leased`, then joins a new session keyring. Call as the run's uid.
///
/// # Errors
/// A message naming the keyring the kernel would not empty or make.
pub fn fresh(leased: bool) -> Result<(), String> {
    if leased {
        for (ring, name) in [(raw::KEY_SPEC_USER_KEYRING, "user"), (raw::KEY_SPEC_USER_SESSION_KEYRING, "user-session")]
        {
            match raw::keyctl_clear(ring) {
                Ok(()) => {}
                Err(e) if unreachable(e.0) => return Ok(()),
                Err(e) => return Err(format!("cannot empty the uid's {name} keyring: {e}")),
            }
        }
    }
    join_new_session()?;
    if leased {
        // Linked into the new session keyring, which ends with the run; absent where the kernel has none.
        if let Ok(persistent) = raw::keyctl_get_persistent(u32::MAX, raw::KEY_SPEC_SESSION_KEYRING) {
            raw::keyctl_clear(persistent).map_err(|e| format!("cannot empty the uid's persistent keyring: {e}"))?;
        }
    }
    Ok(())
}

/// Joins a new anonymous session keyring. Keys emptied just before are freed by the kernel's collector a moment
/// later, so a uid whose quota an earlier run filled may be refused once or twice (EDQUOT): retried for up to
/// about 100 ms.
fn join_new_session() -> Result<(), String> {
    const EDQUOT: i32 = 122;
    let mut tries = 0;
    loop {
        match raw::keyctl_join_session_keyring(None) {
            Ok(_) => return Ok(()),
            Err(e) if unreachable(e.0) => return Ok(()),
            Err(e) if e.0 == EDQUOT && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            Err(e) => return Err(format!("cannot give the run a session keyring of its own: {e}")),
        }
    }
}
