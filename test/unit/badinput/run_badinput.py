#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Bad input, as data: run one binary on every case of a table.

Usage: run_badinput.py BINARY TABLE [--eal] [--record]

TABLE holds one folder per case:

  args      the command line after the binary, one argument a line
            ("@EAL@" alone on a line: this suite's EAL options)
  input     optional: a file copied to @TMP@/input before the run
  setup     optional: files to make first, one a line, paths under @TMP@:
              fifo NAME            a FIFO nobody writes
              dir NAME             an empty directory
              sparse NAME BYTES    a file of BYTES, all a hole
              write NAME MODE TEXT a file holding TEXT (Python escapes)
              py NAME EXPR         a file holding the Python string or
                                   bytes EXPR evaluates to (deep nesting,
                                   lists over a limit)
  expected  line 1: the exit status; line 2: the one line on stderr

@TMP@ (the case's private folder), @SRC@ (the source tree) and @CASE@
(the case's folder) are replaced in args, setup and expected; @TMP@ in
input too.

Every case must end within its time (no hang), by exit, not by a signal
(status < 128: no crash), with the expected status and, on stderr,
exactly the expected line. With --eal the EAL ran and may print its own
lines first ("EAL: ..."): then the binary's line must be the only one
starting with its name, and the last.

--record writes each case's expected from what the binary did (a new
case, or a message reworded on purpose): review the diff before
committing it.
"""

import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile

TIMEOUT_S = 30
# pvpkit and the apps before their EAL need little memory: a case that
# reads without bound (/dev/zero) fails here instead of taking the box.
MEMORY_LIMIT = 1 << 30


def subst(text, tmp, case):
    src = os.environ.get("PVP_SOURCE_DIR", "")
    return text.replace("@TMP@", tmp).replace("@SRC@", src).replace("@CASE@", case)


def setup(case, tmp):
    path = os.path.join(case, "setup")
    if os.path.exists(os.path.join(case, "input")):
        with open(os.path.join(case, "input"), "rb") as f:
            data = f.read()
        with open(os.path.join(tmp, "input"), "wb") as f:
            f.write(data.replace(b"@TMP@", tmp.encode()))
        os.chmod(os.path.join(tmp, "input"), 0o600)
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        lines = [subst(l.rstrip("\n"), tmp, case) for l in f if l.strip() and l[0] != "#"]
    for line in lines:
        verb, rest = line.split(" ", 1)
        if verb == "fifo":
            os.mkfifo(os.path.join(tmp, rest))
        elif verb == "dir":
            os.makedirs(os.path.join(tmp, rest))
        elif verb == "sparse":
            name, size = rest.split()
            with open(os.path.join(tmp, name), "wb") as f:
                f.truncate(int(size))
        elif verb == "write":
            name, mode, text = rest.split(" ", 2)
            p = os.path.join(tmp, name)
            with open(p, "wb") as f:
                f.write(text.encode("utf-8").decode("unicode_escape").encode("latin-1"))
            os.chmod(p, int(mode, 8))
        elif verb == "py":
            name, expr = rest.split(" ", 1)
            data = eval(expr, {})  # the table is ours, in the source tree
            if isinstance(data, str):
                data = data.encode("utf-8")
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        else:
            raise ValueError("setup: unknown verb %r" % verb)


def remove_eal_runtime(args):
    """The EAL keeps a runtime folder per file prefix, --in-memory too."""
    base = "/var/run/dpdk" if os.geteuid() == 0 else os.path.join(
        os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")
    for a in args:
        if a.startswith("--file-prefix="):
            shutil.rmtree(os.path.join(base, a.split("=", 1)[1]), ignore_errors=True)


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_case(binary, case, name, eal, sanitized, record=False):
    prog = os.path.basename(binary)
    tmp = tempfile.mkdtemp(prefix="pvp-bad-")
    try:
        setup(case, tmp)
        with open(os.path.join(case, "args"), encoding="utf-8") as f:
            raw = [subst(l.rstrip("\n"), tmp, case) for l in f]
        args = []
        for a in raw:
            if a == "@EAL@":
                prefix = "--file-prefix=pvpbad-%s-%d" % (name[:20], os.getpid())
                if eal:
                    args += ["--in-memory", "--no-pci", prefix, "--log-level=lib.eal:error",
                             "-m", "64", "-l", "0-1"]
                else:
                    # Options are parsed before the EAL: one that got
                    # through fails here, never starts (no hugepages).
                    args += ["--in-memory", "--no-pci", prefix, "-m", "1000000", "-l", "0"]
            else:
                args.append(a)
        if record:
            want_rc, want_line = 0, ""
        else:
            with open(os.path.join(case, "expected"), encoding="utf-8") as f:
                exp = [subst(l.rstrip("\n"), tmp, case) for l in f]
            want_rc, want_line = int(exp[0]), exp[1]
        try:
            p = subprocess.run([binary] + args, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=TIMEOUT_S, cwd=tmp,
                               preexec_fn=None if eal or sanitized else limit_memory)
        except subprocess.TimeoutExpired:
            return "hung (no exit within %d s)" % TIMEOUT_S
        finally:
            remove_eal_runtime(args)
        err = p.stderr.decode("utf-8", "replace").splitlines()
        if p.returncode < 0 or p.returncode >= 128:
            return "crashed: status %d, stderr %r" % (p.returncode, err[-3:])
        if eal:
            ours = [l for l in err if l.startswith(prog + ": ")]
            ok = len(ours) == 1 and err and err[-1] == ours[0]
            got = ours[0] if len(ours) == 1 else err
        else:
            ok = len(err) == 1
            got = err[0] if len(err) == 1 else err
        if record:
            line = got if isinstance(got, str) else "; ".join(got)
            line = line.replace(tmp, "@TMP@")
            src = os.environ.get("PVP_SOURCE_DIR")
            if src:
                line = line.replace(src, "@SRC@")
            with open(os.path.join(case, "expected"), "w", encoding="utf-8") as f:
                f.write("%d\n%s\n" % (p.returncode, line))
            return "" if isinstance(got, str) else "recorded %d lines" % len(got)
        problems = []
        if p.returncode != want_rc:
            problems.append("exit %d, expected %d" % (p.returncode, want_rc))
        if not ok or got != want_line:
            problems.append("stderr %r, expected %r" % (got, want_line))
        return "; ".join(problems)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def free_hugepages():
    try:
        with open("/proc/mounts", encoding="utf-8") as f:
            if "hugetlbfs" not in f.read():
                return 0
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("HugePages_Free:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: run_badinput.py BINARY TABLE [--eal]")
    binary, table = os.path.abspath(sys.argv[1]), sys.argv[2]
    eal = "--eal" in sys.argv[3:]
    record = "--record" in sys.argv[3:]
    if not os.access(binary, os.X_OK):
        print("SKIP: not built: %s" % binary)
        sys.exit(77)
    if eal and free_hugepages() < 128:
        print("SKIP: needs 128 free 2 MB hugepages and hugetlbfs (run tools/bootstrap.sh)")
        sys.exit(77)
    with open(binary, "rb") as f:
        sanitized = b"__asan_init" in f.read()
    cases = sorted(d for d in os.listdir(table) if os.path.isdir(os.path.join(table, d)))
    failed = 0
    for i, name in enumerate(cases, 1):
        why = run_case(binary, os.path.join(table, name), name, eal, sanitized, record)
        print("%s %d %s%s" % ("not ok" if why else "ok", i, name, " # " + why if why else ""))
        failed += bool(why)
    print("1..%d" % len(cases))
    if failed:
        print("FAIL: %d of %d cases" % (failed, len(cases)))
        sys.exit(1)
    print("PASS: %d bad inputs, each one line and its exit status" % len(cases))


if __name__ == "__main__":
    main()
