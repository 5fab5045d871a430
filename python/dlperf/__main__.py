"""``python -m dlperf ...``: the dlperf tool, from the installed package (the same commands,
flags, text, JSON and exit codes as the ``dlperf`` executable; see the README)."""

import sys

from ._dlperf import main

if __name__ == "__main__":
    sys.stdout.flush()
    sys.exit(main(sys.argv[1:]))
