#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/lib/json-check.py --min N CONSOLE - irqctl's --json output, parsed.

tests/run calls this after a boot that ran tests/irqctl/session.sh: every
console line that opens an irqctl JSON object ('{"cmd":') must be one
whole JSON object with a string "cmd", and there must be at least N of
them (the session prints its --json reads in each regime), so that a run
with nothing to read fails as surely as one with a broken object. A line
cut by a kernel message printed into it (a timestamp inside) is skipped
and counted, not failed: the console interleaves, irqctl did not err. A
cut line still was one of the objects, so it counts towards N (tests/run's
N is the exact number the sessions print: not counting it failed every
run with a cut line); more than --max-cut of them (default 2) fail, as a
console too garbled to judge.

Prints one line: "N objects, each valid" or the first fault; exits 0 or 1.
"""
import argparse
import json
import re
import sys

# A kernel message's timestamp, as the guest's console prints it.
KMSG = re.compile(r"\[ *[0-9]+\.[0-9]{6}\] ")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min", type=int, required=True,
                    help="the fewest objects that may pass")
    ap.add_argument("--max-cut", type=int, default=2,
                    help="the most lines a kernel message may cut (default 2)")
    ap.add_argument("console", help="the guest's console log")
    args = ap.parse_args()

    n = cut = 0
    with open(args.console, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if not line.startswith('{"cmd":'):
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                # The kernel's console output can land inside a line the
                # guest was writing: such a line is not irqctl's to judge.
                if KMSG.search(line):
                    cut += 1
                    continue
                print(f"line {no}: not JSON ({e.msg} at column {e.colno}): {line[:200]}")
                return 1
            if not isinstance(obj, dict) or not isinstance(obj.get("cmd"), str):
                print(f"line {no}: not an object with a string \"cmd\": {line[:200]}")
                return 1
            n += 1
    if n + cut < args.min:
        print(f"{n} JSON objects of irqctl on the console ({cut} more cut), want at least {args.min}")
        return 1
    if cut > args.max_cut:
        print(f"{cut} lines of irqctl cut by kernel messages, at most {args.max_cut} may be")
        return 1
    print(f"{n} objects, each valid" + (f" ({cut} cut by kernel messages, skipped)" if cut else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
