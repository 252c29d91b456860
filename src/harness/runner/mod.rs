//! Running untrusted commands: one process group per run, resource limits, capped capture, a wall-clock deadline
//! that kills the whole tree (TERM, grace, KILL), and a hunt for descendants that leave the group.
//!
//! Containment is a one-way pipeline: **policy** (decided once per grading run) -> **plan** (one run's launch
//! plan) -> **launch** (the launcher applying it to itself), with the runner watching from outside.
//!
//! - [`policy`]: the [`Sandbox`]: who runs execute as, with which [`layers`] (what [`probe`] found this machine
//!   offers), what they may read and the environment they start from; never derived from a student's file.
//! - [`lease`]: a uid of its own per submission.
//! - [`plan`]: one run's [`wire::Request`] to the launcher, with the grader's [`shared_ns`] and [`cgroup`]s.
//! - `session`: why a run owns no terminal and no session of the grader's.
//! - [`launcher`]: `referee __exec`, which applies a request to itself (a session of its own, namespaces, identity,
//!   limits, Landlock, seccomp, descriptors, a session keyring of its own: `keyrings`) and becomes the program; it
//!   reports out of band through [`report`].
//! - [`process::run`]: one run, from [`RunSpec`] to [`RunOutcome`]: spawn, limit, feed, capture, time out, kill.
//! - [`sandbox`]: group signals, marker-based cleanup, handing folders over to the sandbox user.
//! - [`cgroup_slot`]: where a run's processes go: its own cgroup, or (v1) its grading thread's.
//! - [`cgroup_agent`]: an agent's cgroup freezes (its pause between turns) and pins (a cpuset); [`stop_sweep`]
//!   pauses with signals where it cannot.
//! - [`Limits`]: time, CPU, memory, output, processes, file size, disk ([`disk`] watches a run's folder).
//! - [`Template`]: `--cmd` / `--build` templates.
//! - [`platform`]: what each system offers (Linux: everything above; macOS: the launcher with limits and process
//!   groups only; Windows: a Job Object per run, no launcher).

pub mod cgroup;
pub mod cgroup_agent;
pub mod cgroup_slot;
#[cfg(target_os = "linux")]
mod confine;
pub mod disk;
#[cfg(unix)]
mod exec;
#[cfg(target_os = "linux")]
mod keyrings;
#[cfg(unix)]
mod launch_unix;
pub mod launcher;
pub mod layers;
pub mod lease;
mod limits;
pub mod own_disk;
pub mod phases;
pub mod plan;
pub mod platform;
pub mod policy;
pub mod preflight;
pub mod probe;
pub mod process;
pub mod report;
#[cfg(unix)]
mod rlimits;
#[cfg(target_os = "linux")]
mod rules;
pub mod sandbox;
mod session;
pub mod shared_ns;
pub mod stop_sweep;
mod template;
pub mod toolchain;
mod tree;
pub mod walk;
pub mod wire;

pub use limits::Limits;
pub use process::{run, Exit, RunError, RunOutcome, RunSpec};
pub use sandbox::{Sandbox, SandboxOptions};
pub use template::{Template, TemplateError};
