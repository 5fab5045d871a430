#!/usr/bin/env python3
"""Rewrites the output of every ```console block of docs/questions.md from the built tool.

    python3 tests/docs/update_questions.py build/bin/dlperf

Each block opens with "$ dlperf ARGS"; its output lines are replaced by what the tool prints now.
A block whose output holds a "..." line keeps its first and last lines around the elision: the
script writes the head and tail of the real output with "..." between, as many lines of each as
the block had. The test cli_questions_test.cpp checks the page against the tool.
"""
import pathlib
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(tool, args):
    result = subprocess.run([tool, *shlex.split(args)], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"update_questions: dlperf {args} exited {result.returncode}: {result.stderr}")
    return result.stdout.splitlines()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tool = sys.argv[1]
    page = ROOT / "docs" / "questions.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        if lines[i] != "```console":
            i += 1
            continue
        command = lines[i + 1]
        out.append(command)
        j = i + 2
        while lines[j] != "```":
            j += 1
        old = lines[i + 2:j]
        new = run(tool, command.removeprefix("$ dlperf "))
        if "..." in old:
            head = old.index("...")
            tail = len(old) - head - 1
            if head + tail < len(new):
                new = new[:head] + ["..."] + (new[len(new) - tail:] if tail else [])
        out.extend(new)
        i = j
    page.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
