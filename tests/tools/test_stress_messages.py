#!/usr/bin/python3
"""Tests of tools/stress.py's failure messages (ctest `tools: stress.py names ...`, label unit).

A case whose run fails is reported with the last line its run wrote on stderr; a run killed by a signal (out of
memory, or stopped by hand because it had slowed to minutes per frame) writes none. stress.py used to stop there
with an IndexError and report no case after it; it now names the signal and goes on.
"""
import importlib.util
import os
import subprocess
import sys

STRESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "stress.py")
spec = importlib.util.spec_from_file_location("stress", STRESS)
stress = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stress)


def run(script):
    return subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True)


def check(got, expected):
    if got != expected:
        print("expected %r, got %r" % (expected, got))
        sys.exit(1)


check(stress.failure_message(run("true")), "")
check(stress.failure_message(run("echo 'warning: x' >&2; echo 'error: the run blew up' >&2; exit 3")),
      "error: the run blew up")
check(stress.failure_message(run("kill -9 $$")), "killed by signal 9")
check(stress.failure_message(run("exit 4")), "exit code 4 without a message")
print("ok")
