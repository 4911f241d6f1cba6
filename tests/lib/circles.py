#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""circles.py - the circles of calls between the files of one folder.

    circles.py SRC ALLOW

SRC is a build tree (build/<target>/src, tests/build-module's); ALLOW is
tests/circles.allow. For each folder of FOLDERS, the object files' symbols
(nm) give the edges: A -> B when A.o references a symbol that B.o defines.
Every strongly connected set of two or more files is a circle: a file that
calls down into another which calls back up into it. Each circle must be
listed, with its reason, in ALLOW; a circle that is not (or is larger than
the one listed) fails, and so does a listed one that no longer exists, so
that the list stays as short as the code allows. One result line a folder,
"ok circles/FOLDER" or "not ok circles/FOLDER: why", then the edges of each
circle found, for the reader.

The link objects (irqcore*.o, *.mod.o) are left out: they define every
symbol of their module.
"""
import collections
import os
import subprocess
import sys

FOLDERS = ["module", "module/selftest", "devices", "drivers", "bench"]


def symbols(path):
    """(defined, undefined) global symbols of one object file."""
    out = subprocess.run(["nm", path], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
        elif len(f) == 3 and f[1] in "TDBRVWG":
            defined.add(f[2])
    return defined, undefined


def graph(folder):
    """Edges between the folder's files: {a: {b: [symbols a uses of b]}}."""
    objs = sorted(f for f in os.listdir(folder)
                  if f.endswith(".o") and not f.endswith(".mod.o")
                  and not f.startswith("irqcore"))
    defs, uses = {}, {}
    for o in objs:
        defs[o[:-2]], uses[o[:-2]] = symbols(os.path.join(folder, o))
    edges = collections.defaultdict(dict)
    for a in defs:
        for b in defs:
            common = uses[a] & defs[b] if a != b else set()
            if common:
                edges[a][b] = sorted(common)
    return list(defs), edges


def circles(nodes, edges):
    """The strongly connected sets of two or more nodes (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                found.append(tuple(sorted(scc)))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def allowed(path):
    """{(folder, files): reason} from ALLOW: "folder: a b c  # reason"."""
    out = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, _, reason = line.partition("#")
            folder, _, files = head.partition(":")
            if not files.split() or not reason.strip():
                sys.exit(f"{path}:{n}: want 'folder: file file ...  # reason'")
            out[(folder.strip(), tuple(sorted(files.split())))] = reason.strip()
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: circles.py SRC ALLOW")
    src, allow = sys.argv[1], allowed(sys.argv[2])
    failed = 0
    for folder in FOLDERS:
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            print(f"not ok circles/{folder}: no objects in {path} (build first)")
            failed += 1
            continue
        nodes, edges = graph(path)
        if len(nodes) < 2:
            print(f"not ok circles/{folder}: {len(nodes)} object files in {path}")
            failed += 1
            continue
        found = circles(nodes, edges)
        bad = [c for c in found if (folder, c) not in allow]
        stale = [c for (f, c) in allow if f == folder and c not in found]
        why = [f"circle {' '.join(c)} is not in the allow list" for c in bad]
        why += [f"listed circle {' '.join(c)} is gone: drop it" for c in stale]
        if why:
            print(f"not ok circles/{folder}: " + "; ".join(why))
            failed += 1
        else:
            print(f"ok circles/{folder}: {len(nodes)} files, "
                  f"{len(found)} circle(s), each listed")
        for c in found:
            for a in c:
                for b in c:
                    if b in edges.get(a, {}):
                        print(f"#   {folder}: {a} -> {b}: "
                              + " ".join(edges[a][b][:6]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
