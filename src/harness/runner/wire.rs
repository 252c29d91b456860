//! What the grader tells the launcher: one run's launch plan as the launcher's command line, written by
//! [`super::plan`] and read by [`super::launcher`]. Both ends are this crate, so the format is free to change with
//! them; nothing in it comes from a student (the program and its arguments come from the TA's template).
//!
//! `referee __exec [+cpu N] [+data N] [+fsize N] [+nproc N] [+disk N] [+dir DIR] [+uid U +gid G] [+pin CPU] [+landlock] [+net] [+pid]
//! [+ipc] [+mount] [+seccomp] [+ro DIR].. [+cgroup DIR].. [+netns PATH INODE] [+procns PATH INODE]
//! [+report FD NONCE] [+inner +status PATH] [+probe] [+hold] [+portable] -- PROGRAM ARGS..`

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use super::layers::Layers;

/// The hidden subcommand that marks a launcher invocation.
pub const SUBCOMMAND: &str = "__exec";

/// What the namespace holder (`+hold`) prints when it has made both namespaces; `ready` alone means the network
/// namespace only.
pub const READY_WITH_PROC: &str = "ready proc";

/// A user to run submissions as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// User id.
    pub uid: u32,
    /// Group id.
    pub gid: u32,
}

/// A namespace the grader holds open: the path the launcher opens and the inode it must find there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldNamespace {
    /// `/proc/<grader>/fd/<n>`.
    pub path: PathBuf,
    /// The namespace's inode.
    pub inode: u64,
}

/// One launch, as the launcher receives it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// RLIMIT_CPU seconds (0: none).
    pub cpu: u64,
    /// RLIMIT_DATA bytes (0: none).
    pub data: u64,
    /// RLIMIT_FSIZE bytes (0: none).
    pub fsize: u64,
    /// RLIMIT_NPROC (0: none).
    pub nproc: u64,
    /// Size of the run's private temporary folders, bytes (with the mount layer; 0: the launcher's default).
    pub disk: u64,
    /// The run's own folder as the grader spells it (also the working folder): a program inside it is opened
    /// beneath it without following links.
    pub dir: Option<PathBuf>,
    /// Switch to this user (only as root); `None` keeps the grader's.
    pub identity: Option<Identity>,
    /// Pin to this CPU.
    pub pin: Option<usize>,
    /// The layers the launcher sets up itself (the cgroup is joined through `cgroups`; shared namespaces through
    /// `netns` and `procns`).
    pub layers: Layers,
    /// Folders the run may read and execute besides the system's and its own.
    pub readable: Vec<PathBuf>,
    /// cgroup folders to join.
    pub cgroups: Vec<PathBuf>,
    /// The grader's empty network namespace to join.
    pub netns: Option<HeldNamespace>,
    /// The grader's mount namespace with a `hidepid` `/proc` to join.
    pub procns: Option<HeldNamespace>,
    /// Where the launcher reports that it started and why it failed: the number of the report pipe's write end it
    /// inherited, and the nonce that proves a report is the launcher's (see [`super::report`]).
    pub report: Option<(i32, String)>,
    /// The first process of the run's PID namespace (started by the launcher itself).
    pub inner: bool,
    /// The pipe through which that first process tells the outer launcher how the program ended.
    pub status: Option<PathBuf>,
    /// Set up the layers, then start nothing: a trial of what this machine allows.
    pub probe: bool,
    /// Make the grader's shared namespaces and wait (see `shared_ns`).
    pub hold: bool,
    /// Launch as on macOS (limits, descriptors, the program by its checked path; no layer, no user switch): what
    /// every launch is off Linux, and on Linux only what tests ask for, to run that path here.
    pub portable: bool,
    /// The program.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

const FLAGS: [(&str, &str); 6] = [
    ("landlock", "+landlock"),
    ("network", "+net"),
    ("pid", "+pid"),
    ("ipc", "+ipc"),
    ("mount", "+mount"),
    ("seccomp", "+seccomp"),
];

impl Request {
    /// The launcher's arguments, [`SUBCOMMAND`] first.
    pub fn to_args(&self) -> Vec<OsString> {
        let mut out: Vec<OsString> = vec![SUBCOMMAND.into()];
        let mut put = |words: &[&OsStr]| out.extend(words.iter().map(|w| w.to_os_string()));
        for (name, value) in [
            ("+cpu", self.cpu),
            ("+data", self.data),
            ("+fsize", self.fsize),
            ("+nproc", self.nproc),
            ("+disk", self.disk),
        ] {
            if value > 0 {
                put(&[name.as_ref(), value.to_string().as_ref()]);
            }
        }
        if let Some(dir) = &self.dir {
            put(&["+dir".as_ref(), dir.as_os_str()]);
        }
        if let Some(id) = self.identity {
            put(&["+uid".as_ref(), id.uid.to_string().as_ref(), "+gid".as_ref(), id.gid.to_string().as_ref()]);
        }
        if let Some(cpu) = self.pin {
            put(&["+pin".as_ref(), cpu.to_string().as_ref()]);
        }
        for (name, flag) in FLAGS {
            if self.layers.get(name) {
                put(&[flag.as_ref()]);
            }
        }
        for dir in &self.readable {
            put(&["+ro".as_ref(), dir.as_os_str()]);
        }
        for dir in &self.cgroups {
            put(&["+cgroup".as_ref(), dir.as_os_str()]);
        }
        for (option, held) in [("+netns", &self.netns), ("+procns", &self.procns)] {
            if let Some(held) = held {
                put(&[option.as_ref(), held.path.as_os_str(), held.inode.to_string().as_ref()]);
            }
        }
        if let Some((fd, nonce)) = &self.report {
            put(&["+report".as_ref(), fd.to_string().as_ref(), nonce.as_ref()]);
        }
        if self.inner {
            put(&["+inner".as_ref()]);
        }
        if let Some(path) = &self.status {
            put(&["+status".as_ref(), path.as_os_str()]);
        }
        if self.probe {
            put(&["+probe".as_ref()]);
        }
        if self.hold {
            put(&["+hold".as_ref()]);
        }
        if self.portable {
            put(&["+portable".as_ref()]);
        }
        put(&["--".as_ref(), self.program.as_os_str()]);
        out.extend(self.args.iter().cloned());
        out
    }

    /// Reads the arguments after [`SUBCOMMAND`].
    ///
    /// # Errors
    /// An unknown option, a missing or malformed value, or no program after `--`.
    pub fn parse(args: &[OsString]) -> Result<Request, String> {
        let split = args.iter().position(|a| a == "--").ok_or("launcher: missing '--' before the program")?;
        let (program, rest) = args[split + 1..].split_first().ok_or("launcher: no program after '--'")?;
        let mut request = Request { program: program.clone(), args: rest.to_vec(), ..Request::default() };
        let mut options = args[..split].iter();
        while let Some(option) = options.next() {
            let name = option.to_string_lossy().into_owned();
            let mut value = || options.next().cloned().ok_or(format!("launcher: {name} needs a value"));
            let number = |text: OsString| {
                text.to_str().and_then(|t| t.parse::<u64>().ok()).ok_or(format!("launcher: {name} needs a number"))
            };
            match name.as_str() {
                "+cpu" => request.cpu = number(value()?)?,
                "+data" => request.data = number(value()?)?,
                "+fsize" => request.fsize = number(value()?)?,
                "+nproc" => request.nproc = number(value()?)?,
                "+disk" => request.disk = number(value()?)?,
                "+dir" => request.dir = Some(value()?.into()),
                "+uid" => {
                    let uid = u32::try_from(number(value()?)?).map_err(|_| "launcher: +uid out of range")?;
                    request.identity = Some(Identity { uid, gid: request.identity.map_or(0, |i| i.gid) });
                }
                "+gid" => {
                    let gid = u32::try_from(number(value()?)?).map_err(|_| "launcher: +gid out of range")?;
                    let uid = request.identity.ok_or("launcher: +gid before +uid")?.uid;
                    request.identity = Some(Identity { uid, gid });
                }
                "+pin" => request.pin = usize::try_from(number(value()?)?).ok(),
                "+ro" => request.readable.push(value()?.into()),
                "+cgroup" => request.cgroups.push(value()?.into()),
                "+netns" | "+procns" => {
                    let path = PathBuf::from(value()?);
                    let inode = number(value()?)?;
                    let held = Some(HeldNamespace { path, inode });
                    if name == "+netns" {
                        request.netns = held;
                    } else {
                        request.procns = held;
                    }
                }
                "+report" => {
                    let fd = i32::try_from(number(value()?)?).map_err(|_| "launcher: +report out of range")?;
                    let nonce = value()?.to_string_lossy().into_owned();
                    request.report = Some((fd, nonce));
                }
                "+inner" => request.inner = true,
                "+status" => request.status = Some(value()?.into()),
                "+probe" => request.probe = true,
                "+hold" => request.hold = true,
                "+portable" => request.portable = true,
                flag => match FLAGS.iter().find(|(_, f)| *f == flag) {
                    Some((layer, _)) => request.layers = request.layers.with(layer, true),
                    None => return Err(format!("launcher: unknown option '{flag}'")),
                },
            }
        }
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_survives_the_command_line() {
        let request = Request {
            cpu: 25,
            data: 1 << 30,
            fsize: 1 << 20,
            nproc: 512,
            disk: 1 << 28,
            dir: Some("/tmp/referee-x/s1/case-1".into()),
            identity: Some(Identity { uid: 600_001, gid: 65534 }),
            pin: Some(1),
            layers: Layers { landlock: true, ipc: true, mount: true, ..Layers::default() },
            readable: vec!["/opt/jdk".into(), "/home/ta/venv".into()],
            cgroups: vec!["/sys/fs/cgroup/x".into()],
            netns: Some(HeldNamespace { path: "/proc/1/fd/5".into(), inode: 42 }),
            procns: None,
            report: Some((7, "abc".into())),
            inner: false,
            status: None,
            probe: false,
            hold: false,
            portable: true,
            program: "python3".into(),
            args: vec!["--".into(), "x.py".into(), "+landlock".into()],
        };
        let args = request.to_args();
        assert_eq!(args[0], SUBCOMMAND);
        assert_eq!(Request::parse(&args[1..]).unwrap(), request);
        let bad = Request::parse(&["+chroot".into(), "--".into(), "true".into()]).unwrap_err();
        assert!(bad.contains("unknown option '+chroot'"), "{bad}");
    }
}
