#!/usr/bin/env python3
"""Classroom 50 autograder for one assignment, graded by referee.

Put this file, the referee binary and the suite folder in CLASSROOM/autograders/ASSIGNMENT/ of the course's
classroom50 repository (the bundle Classroom 50 publishes and unpacks on every submission). The runner starts it
with the student's checkout as the current folder and the submission's identity in its environment; referee reads
that identity, grades the checkout in its sandbox and writes result.json (and the student's feedback as
release-body.md). It exits nonzero only when grading itself failed, which the runner records as an error rather
than a score.
"""
import os
import pathlib
import shutil
import subprocess
import sys

# The `referee grade` arguments of the assignment (as in your own grade command, without --dir and --format).
GRADE_ARGS = [
    "--shell",
    "--build", "javac -d {dir} {dir}/*.java",
    "--cmd", "java -cp {dir} TakeStones {args}",
    "--show", "actual-only",
]

bundle = pathlib.Path(os.environ.get("CLASSROOM50_BUNDLE_DIR") or pathlib.Path(__file__).resolve().parent)
referee = bundle / "referee"
if not referee.is_file():
    found = shutil.which("referee")
    if found is None:
        sys.exit("autograder.py: no referee binary in the bundle or on PATH")
    referee = pathlib.Path(found)
# Runnable by its owner only, in a folder only its owner may enter: the student's program, run as a user of its own
# (when the runner grades as root) may neither run the reference nor read the suite.
if referee.parent == bundle:
    referee.chmod(0o700)
    bundle.chmod(0o700)
suite = bundle / "suite"

command = [str(referee), "grade", "--suite", str(suite), "--dir", ".", "--format", "classroom50",
           "--release-body", "release-body.md", *GRADE_ARGS]
with open("result.json.part", "wb") as out:
    code = subprocess.run(command, stdout=out, check=False).returncode
if code == 0:
    os.replace("result.json.part", "result.json")
else:
    os.remove("result.json.part")
sys.exit(code)
