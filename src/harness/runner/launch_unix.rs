//! The launcher on Unix systems other than Linux (macOS, a student's laptop): none of the layers (Landlock,
//! namespaces, seccomp, cgroups) and no switch of user exist there, so it sets the resource limits on itself
//! ([`super::rlimits`], the code Linux runs too), marks every inherited descriptor close-on-exec and becomes the
//! program ([`super::exec`]) by the path it has just checked. The process group and the wall clock are the
//! runner's, as on Linux. Linux runs these same steps for a request marked `+portable`, which only tests send: that
//! is how this path is tested without a Mac.

#![cfg(unix)]

use super::exec::{self, StartError};
use super::wire::Request;

/// Applies `request` to this process and becomes its program; returns only why it could not (a request for a
/// layer or a user switch is the grader's mistake here: the policy never asks for them on this system).
pub(super) fn launch(request: &Request) -> Result<i32, StartError> {
    let grader = StartError::Grader;
    let layers = request.layers.names();
    if !layers.is_empty() || request.hold {
        return Err(grader(format!(
            "launcher: {} needs Linux",
            if request.hold { "hold".into() } else { layers.join(", ") }
        )));
    }
    if let Some(id) = request.identity {
        return Err(grader(format!("launcher: running as uid {} needs Linux", id.uid)));
    }
    super::rlimits::apply(request, Some(super::rlimits::OPEN_FILES)).map_err(grader)?;
    if request.probe {
        return Ok(0);
    }
    let start = exec::locate(request.dir.as_deref(), &request.program, true)?;
    Err(exec::exec(&start, &request.args))
}
