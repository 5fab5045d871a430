#!/usr/bin/env python3
"""Compile cost of dlperf's umbrella headers against the Boost.Units floor.

The floor is a translation unit of the Boost.Units headers that dlperf/core/units.hpp includes:
what any user of a Boost.Units-based library pays before dlperf adds anything. Each header is
compiled alone with -fsyntax-only, several times; the figure is the least CPU time (user + sys)
of the compiler process over the runs, which is steadier than wall time on a busy machine.

    python3 tests/benchmarks/compile_cost.py [--runs 5] [--compiler g++ --compiler clang++]
    python3 tests/benchmarks/compile_cost.py --instructions   # needs valgrind; one run each

--instructions counts the instructions the compiler executes instead (valgrind's cachegrind
without its cache simulation, 20-30x slower than a compile): the count does not change with the
machine's load the way seconds do, so a change's cost shows on a busy machine too.

A benchmark, not a test: docs/layers.md records its figures; nothing fails on them.
"""
import glob
import shutil
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = os.path.join(ROOT, "include")
HEADERS = [
    "dlperf/core/units.hpp",
    "dlperf/kernel.hpp",
    "dlperf/model.hpp",
    "dlperf/buying.hpp",
    "dlperf/dlperf.hpp",
]


def floor_source():
    """The Boost.Units includes of core/units.hpp, as one translation unit."""
    with open(os.path.join(INCLUDE, "dlperf/core/units.hpp"), encoding="utf-8") as f:
        lines = [l for l in f if re.match(r"#include <boost/", l)]
    if not lines:
        sys.exit("compile_cost: core/units.hpp includes no Boost header")
    return "".join(lines)


def cpu_seconds(compiler, source, flags):
    """CPU time (user + sys) of one -fsyntax-only compile of @p source."""
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write(source)
        path = f.name
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = subprocess.run([compiler, "-std=c++20", "-fsyntax-only", "-I", INCLUDE, *flags, path],
                                capture_output=True, text=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(path)
    if result.returncode != 0:
        sys.exit(f"compile_cost: {compiler} failed on\n{source}\n{result.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(compiler, source, flags):
    """Instructions (millions) the compiler's processes execute for one -fsyntax-only compile."""
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "header.cpp")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        out = os.path.join(scratch, "cg.%p")
        result = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                                 "--trace-children=yes", f"--cachegrind-out-file={out}", compiler,
                                 "-std=c++20", "-fsyntax-only", "-I", INCLUDE, *flags, path],
                                capture_output=True, text=True, check=False)
        if result.returncode != 0:
            sys.exit(f"compile_cost: valgrind {compiler} failed on\n{source}\n{result.stderr}")
        total = 0
        for name in glob.glob(os.path.join(scratch, "cg.*")):
            with open(name, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("summary:"):
                        total += int(line.split()[1])
        return total / 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="compiles per header (least is kept)")
    parser.add_argument("--compiler", action="append", help="compilers (default g++ and clang++)")
    parser.add_argument("--instructions", action="store_true",
                        help="count the compiler's instructions (valgrind) instead of CPU seconds")
    args = parser.parse_args()
    if args.instructions and not shutil.which("valgrind"):
        sys.exit("compile_cost: --instructions needs valgrind (apt-get install valgrind)")
    measure = instructions if args.instructions else cpu_seconds
    runs = 1 if args.instructions else args.runs
    unit = "M instr." if args.instructions else "s"
    if args.runs < 1:
        sys.exit("compile_cost: --runs must be at least 1")
    compilers = args.compiler or ["g++", "clang++"]
    cases = [("Boost.Units floor", floor_source())] + [(h, f"#include <{h}>\n") for h in HEADERS]
    # Rounds interleave the cases, so that a slow spell of a shared machine falls on all of them
    # alike rather than on whichever header happened to be compiling; the least of the rounds is kept.
    table = {}
    for _ in range(runs):
        for compiler in compilers:
            for name, source in cases:
                cost = measure(compiler, source, [])
                table[(compiler, name)] = min(table.get((compiler, name), cost), cost)
    print("| header | " + " | ".join(f"{c} ({unit}) | {c} / floor" for c in compilers) + " |")
    print("|---|" + "---|---|" * len(compilers))
    for name, _ in cases:
        cells = []
        for c in compilers:
            t = table[(c, name)]
            cells += [f"{t:.0f}" if args.instructions else f"{t:.2f}",
                      f"{t / table[(c, 'Boost.Units floor')]:.2f}x"]
        print(f"| `{name}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
