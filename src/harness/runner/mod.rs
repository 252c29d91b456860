//! Running untrusted commands: one process group per run, resource limits, capped capture, a wall-clock deadline
//! that kills the whole tree (TERM, grace, KILL), and a hunt for descendants that leave the group.
//!
//! - [`process::run`]: one run, from [`RunSpec`] to [`RunOutcome`].
//! - [`Limits`]: time, CPU, memory, output, processes, file size.
//! - [`sandbox`]: the user runs execute as, the limits' system calls, marker-based cleanup.
//! - [`launcher`]: `referee __exec`, which sets the limits on itself as the sandbox user, then execs the program.
//! - [`layers`]: which sandbox layers (Landlock, network and PID namespaces, cgroups) this machine offers.
//! - [`cgroup`]: a cgroup per run.
//! - [`cgroup_slot`]: where a run's processes go: its own cgroup, or (v1) its grading thread's.
//! - [`shared_ns`]: the namespaces a grader's runs share (an empty network, a `/proc` showing only one's own user).
//! - [`policy`]: what runs may use beyond their own folder (toolchain folders, the environment), decided once.
//! - [`Template`]: `--cmd` / `--build` templates.

pub mod cgroup;
pub mod cgroup_slot;
#[cfg(target_os = "linux")]
mod confine;
pub mod launcher;
pub mod layers;
mod limits;
pub mod policy;
pub mod process;
pub mod sandbox;
pub mod shared_ns;
mod template;

pub use limits::Limits;
pub use process::{run, Exit, RunError, RunOutcome, RunSpec};
pub use sandbox::{Sandbox, SandboxOptions};
pub use template::{Template, TemplateError};
