//! The resource limits a launcher sets on itself before it becomes the program (inherited by everything the program
//! starts): CPU time, data segment, file size, processes, open files, no core dumps. The same code on Linux and
//! macOS; what each system really enforces differs (see [`OPEN_FILES`] and the notes below).

#![cfg(unix)]

use rustix::process::{setrlimit, Resource, Rlimit};

use super::wire::Request;

/// RLIMIT_NOFILE the macOS launcher sets, whose system's default hard limit is unlimited (a run could hold the
/// whole system's descriptors); Linux keeps the grader's (1024 soft by default) and its other layers.
pub const OPEN_FILES: u64 = 1024;

/// Sets `request`'s limits on this process (each as both soft and hard limit, so the program cannot raise them),
/// and `open_files` when given.
/// macOS accepts RLIMIT_DATA but its allocator maps memory past it, so there it bounds little: a failure to set it
/// is not an error there.
///
/// # Errors
/// The first limit the system refused, in words.
pub fn apply(request: &Request, open_files: Option<u64>) -> Result<(), String> {
    let set = |resource, value: u64| setrlimit(resource, Rlimit { current: Some(value), maximum: Some(value) });
    let mut results = vec![set(Resource::Core, 0)];
    for (resource, value) in [(Resource::Cpu, request.cpu), (Resource::Fsize, request.fsize)] {
        if value > 0 {
            results.push(set(resource, value));
        }
    }
    if request.data > 0 {
        let data = set(Resource::Data, request.data);
        if cfg!(target_os = "linux") {
            results.push(data);
        }
    }
    if request.nproc > 0 {
        results.push(set(Resource::Nproc, request.nproc));
    }
    if let Some(files) = open_files {
        results.push(set(Resource::Nofile, files));
    }
    results.into_iter().find_map(Result::err).map_or(Ok(()), |e| Err(format!("cannot set resource limits: {e}")))
}
