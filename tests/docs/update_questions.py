#!/usr/bin/env python3
"""Rewrites the output of every ```console block of docs/questions.md from the built tool.

    python3 tests/docs/update_questions.py build/bin/dlperf

Each block opens with "$ dlperf ARGS"; its output lines are replaced by what the tool prints now.
A block whose output holds "..." lines keeps the lines it shows around the elisions: each shown
line is matched to the first later line of the real output of the same shape (the same text once
each figure and its unit are set aside), and the output is written with "..." where lines are left out
(new lines the tool prints between two shown ones among them). When a
shown line has no such match, the block keeps the head and tail of the real output with one
"..." between, as many lines of each as it had. The test cli_questions_test.cpp checks the page
against the tool.
"""
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(tool, args):
    result = subprocess.run([tool, *shlex.split(args)], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"update_questions: dlperf {args} exited {result.returncode}: {result.stderr}")
    return result.stdout.splitlines()


def shape(line):
    """@p line with each figure and the unit after it as "#": what stays when figures change."""
    return re.sub(r"[0-9][0-9.,]*(\s*[^\s,()]+)?", "#", line)


def elide(old, new):
    """@p new written as @p old shows it: its shown lines matched in order, "..." between."""
    out, at = [], 0
    for line in old:
        if line == "...":
            out.append(line)
            continue
        match = next((k for k in range(at, len(new)) if shape(new[k]) == shape(line)), None)
        if match is None:
            return None
        if match > at and (not out or out[-1] != "..."):
            out.append("...")  # lines the tool prints now between two shown ones
        out.append(new[match])
        at = match + 1
    if at < len(new) and out and out[-1] != "...":
        out.append("...")
    return out


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
        if "..." in old and (kept := elide(old, new)) is not None:
            new = kept
        elif "..." in old:
            head = old.index("...")
            tail = len(old) - head - 1
            if head + tail < len(new):
                new = new[:head] + ["..."] + (new[len(new) - tail:] if tail else [])
        out.extend(new)
        i = j
    page.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
