#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (Ubuntu 22.04 or 24.04).
# Written by `referee gradescope bundle`: it installs what the assignment's commands need and checks that the
# referee binary shipped in this zip runs here (it needs glibc 2.34 at most; 22.04 has 2.35, 24.04 has 2.39).
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PACKAGES="@PACKAGES@"
if [ -n "$PACKAGES" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086 # a list of package names
  apt-get install -y -qq --no-install-recommends $PACKAGES
fi
chmod 0755 "$ROOT/source/referee" "$ROOT/source/run_autograder"
"$ROOT/source/referee" --version
@CHECKS@
