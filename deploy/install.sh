#!/bin/sh
# Installs referee and takestones on a grading machine where the programs they grade can neither run nor read
# them: a folder only its owner may enter and files only their owner may run (mode 0700). Students' programs run
# as uids of their own when the grader is root, so the modes keep them out; and the folder is outside the system
# folders a run's Landlock view holds (/usr, /bin, /sbin, /lib*, /etc), which keeps out a run under the TA's own
# uid too. A system folder such as /usr/local/bin would hand every hand-in the reference solver and the built-in
# suites' expected outputs.
#
#   deploy/install.sh [PREFIX] [FROM]     PREFIX default /opt/referee, FROM default target/release
#
# Then run PREFIX/referee (put PREFIX on the grader's own PATH, e.g. root's, never in a system folder).
set -eu
prefix="${1:-/opt/referee}"
from="${2:-target/release}"
case "$prefix" in
  /usr | /usr/* | /bin | /bin/* | /sbin | /sbin/* | /lib | /lib/* | /lib32/* | /lib64/* | /libx32/* | /etc | /etc/*)
    echo "$0: $prefix is inside a folder every run may read and execute; choose another (default /opt/referee)" >&2
    exit 2 ;;
  /*) ;;
  *) echo "$0: PREFIX must be an absolute path, not '$prefix'" >&2; exit 2 ;;
esac
for binary in referee takestones; do
  [ -f "$from/$binary" ] || { echo "$0: $from/$binary not found (cargo build --release first)" >&2; exit 2; }
done
install -d -m 0700 "$prefix"
chmod 0700 "$prefix"
for binary in referee takestones; do
  install -m 0700 "$from/$binary" "$prefix/$binary"
done
echo "installed referee and takestones in $prefix (mode 0700: only $(id -un) may run them)"
