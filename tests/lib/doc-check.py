#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/lib/doc-check.py - the docs say only what exists, in pages a reader can hold.

Checks, on README.md and every docs/*.md of the tree given (default: the
tree this file is in):

  length   no page of docs/ over --page-limit lines (400), the README not
           over --readme-limit (160): a page is the current state of its
           subject, and history goes to docs/results.md. That one page is
           exempt (HISTORY_PAGE): it is the dated measurement history, one
           entry a run, and grows with every run by design; it is no
           subject page a reader must hold at once
  links    every relative Markdown link names a file or folder that exists,
           and a '#anchor' in it a heading of that page (GitHub's slugs)
  targets  every `make TARGET` in a code span or block names a rule of the
           top-level Makefile, but for the kernel tree's own configuration
           targets (KERNEL_TARGETS), which the docs name for a kernel build
  paths    every repository path in a code span or block (tests/X, tools/X,
           bench/X, module/X, drivers/X, devices/X, docs/X, ...) exists, as
           named or with an extension (models/biglock is models/biglock.pml).
           Not looked for: a path whose folder this tree does not have
           (another tree's: the kernel's drivers/misc/irqcore or
           include/linux/, 2002's drivers/net/, QEMU's docs/specs/), a
           placeholder (a part in capitals, tests/loads-NAME, or ending in
           '-'), and a build product (.ko, .so, .o); build/ and the cache
           are outputs and are never looked for

One line per finding ("page:line: what"), then "doc-check: N pages,
F findings" and the verdict "ok doc_check" or "not ok doc_check: F
findings"; the exit status is 1 when F > 0. --self-test runs the
checker on small pages of its own, each of which must give its finding.
"""

import argparse
import glob
import os
import re
import sys
import tempfile

# The folders a path in the docs may begin with; a word such as
# "tests/run" is looked for, "build/cost/x.json" is an output.
TOP_DIRS = ('bench', 'debian', 'devices', 'docs', 'drivers', 'examples',
            'include', 'models', 'module', 'tests', 'tools', '.ci')

# The one page exempt from --page-limit: the dated measurement history, one
# entry a run, newest first. It grows with every run by design; every other
# page is the current state of its subject and must stay short. Exactly this
# path, relative to the tree's top: docs/results/ or another results.md is
# not exempt.
HISTORY_PAGE = os.path.join('docs', 'results.md')

# Targets of a kernel tree's Makefile that the docs name for kernel builds.
KERNEL_TARGETS = ('menuconfig', 'tinyconfig', 'olddefconfig', 'defconfig', 'bzImage')

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
SPAN = re.compile(r'`([^`\n]+)`')
MAKE = re.compile(r'(?:^|[\s;&|(])make\s+((?:[A-Z_]+=\S+\s+)*)([a-z][a-z0-9_-]*)')
PATH = re.compile(r'(?<![\w./-])((?:%s)/[\w./+-]*[\w+-])' %
                  '|'.join(re.escape(d) for d in TOP_DIRS))


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation but '-' and '_' dropped, spaces as '-'."""
    text = re.sub(r'[`*]', '', heading.strip().lower())
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(page):
    """Every heading's slug of a Markdown page (outside code blocks), with -1, -2 for repeats."""
    seen = {}
    out = set()
    fenced = False
    with open(page, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fenced = not fenced
                continue
            m = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
            if fenced or not m:
                continue
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else '%s-%d' % (s, n))
    return out


def make_targets(top):
    """The rules of the top-level Makefile (names before a ':' at the start of a line)."""
    targets = set()
    with open(os.path.join(top, 'Makefile'), encoding='utf-8') as f:
        for line in f:
            m = re.match(r'([a-z][\w .-]*?)\s*:(?!=)', line)
            if m:
                targets.update(m.group(1).split())
    return targets


def code_texts(lines):
    """(line number, text) of every code span and every line of a fenced block."""
    fenced = False
    for n, line in enumerate(lines, 1):
        if line.startswith('```'):
            fenced = not fenced
            continue
        if fenced:
            yield n, line
        else:
            for m in SPAN.finditer(line):
                yield n, m.group(1)


def check_page(top, page, limit, targets, findings):
    rel = os.path.relpath(page, top)
    with open(page, encoding='utf-8') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if len(lines) > limit and rel != HISTORY_PAGE:
        findings.append('%s:%d: %d lines, over the limit of %d' % (rel, len(lines), len(lines), limit))
    here = os.path.dirname(page)
    fenced = False
    for n, line in enumerate(lines, 1):
        if line.startswith('```'):
            fenced = not fenced
        if fenced:
            continue
        for m in LINK.finditer(line):
            dest = m.group(1)
            if re.match(r'[a-z]+:', dest):
                continue
            path, _, anchor = dest.partition('#')
            target = os.path.normpath(os.path.join(here, path)) if path else page
            if not os.path.exists(target):
                findings.append('%s:%d: link to %s: no such file' % (rel, n, path))
            elif anchor and target.endswith('.md') and anchor not in anchors(target):
                findings.append('%s:%d: link to %s#%s: no such heading' %
                                (rel, n, os.path.relpath(target, top), anchor))
    for n, text in code_texts(lines):
        for m in MAKE.finditer(text):
            if m.group(2) not in targets and m.group(2) not in KERNEL_TARGETS:
                findings.append('%s:%d: make %s: no such target in the Makefile' % (rel, n, m.group(2)))
        for m in PATH.finditer(text):
            path = m.group(1).rstrip('.')
            if not path_wanted(top, path):
                continue
            full = os.path.join(top, path)
            if not os.path.exists(full) and not glob.glob(glob.escape(full) + '.*'):
                findings.append('%s:%d: %s: no such file in the tree' % (rel, n, path))


def path_wanted(top, path):
    """Is this a path of this tree that must exist (not a placeholder, product or other tree's)?"""
    parts = path.split('/')
    if any(re.search(r'(^|[-_.])[A-Z]+([-_.]|$)', p) for p in parts):
        return False
    if path.endswith('-') or re.search(r'\.(ko|so|o)$', path):
        return False
    return os.path.isdir(os.path.join(top, os.path.dirname(path)))


def run(top, page_limit, readme_limit):
    findings = []
    targets = make_targets(top)
    pages = [os.path.join(top, 'README.md')]
    docs = os.path.join(top, 'docs')
    pages += sorted(os.path.join(docs, p) for p in os.listdir(docs) if p.endswith('.md'))
    for page in pages:
        limit = readme_limit if page.endswith('README.md') else page_limit
        check_page(top, page, limit, targets, findings)
    for f in findings:
        print(f)
    print('doc-check: %d pages, %d findings' % (len(pages), len(findings)))
    print('not ok doc_check: %d findings' % len(findings) if findings else 'ok doc_check')
    return 1 if findings else 0


def self_test():
    """Each bad page must give its finding, and the good page none.

    A case is (name, docs/a.md's text, the finding wanted or None, other
    pages {path: text}). The history cases: docs/results.md over the limit
    is no finding, but its links are still checked, and a page of any other
    name over the limit (docs/results-2026.md) is one: the exemption is
    that one path.
    """
    history = '# R\n' + 'x\n' * 5
    cases = [
        ('good', '# A\n\nSee [b](b.md#b-c_d) and `make check`, `tests/run`, `tests/loads-NAME`,\n'
                 '`include/linux/preempt.h`, `tests/x.ko`, `make menuconfig`.\n', None),
        ('long', '# A\n' + 'x\n' * 5, 'over the limit'),
        ('link', '[x](nothere.md)\n', 'no such file'),
        ('anchor', '[x](b.md#nothere)\n', 'no such heading'),
        ('target', '```\nmake nosuchtarget\n```\n', 'make nosuchtarget: no such target'),
        ('path', 'Run `tests/nosuchscript`.\n', 'tests/nosuchscript: no such file'),
        ('history_exempt', '# A\n', None, {'docs/results.md': history}),
        ('history_links', '# A\n', 'docs/results.md:7: link to nothere.md: no such file',
         {'docs/results.md': history + '[x](nothere.md)\n'}),
        ('history_exact_path', '# A\n', 'docs/results-2026.md:6: 6 lines, over the limit',
         {'docs/results-2026.md': history}),
    ]
    bad = 0
    for name, text, want, *more in cases:
        with tempfile.TemporaryDirectory() as top:
            os.makedirs(os.path.join(top, 'docs'))
            os.makedirs(os.path.join(top, 'tests'))
            open(os.path.join(top, 'tests', 'run'), 'w').close()
            with open(os.path.join(top, 'Makefile'), 'w') as f:
                f.write('check:\n\ttests/check\n')
            with open(os.path.join(top, 'README.md'), 'w') as f:
                f.write('# irqcore\n')
            with open(os.path.join(top, 'docs', 'b.md'), 'w') as f:
                f.write('# B `c_d`\n')
            with open(os.path.join(top, 'docs', 'a.md'), 'w') as f:
                f.write(text)
            for path, page in (more[0] if more else {}).items():
                with open(os.path.join(top, path), 'w') as f:
                    f.write(page)
            import io
            import contextlib
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = run(top, 4, 160)
            got = out.getvalue()
            ok = (rc == 0) if want is None else (rc == 1 and want in got)
            print('%s doc_check_%s' % ('ok' if ok else 'not ok', name))
            if not ok:
                bad = 1
                sys.stdout.write(''.join('  | ' + l + '\n' for l in got.splitlines()))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--top', default=os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..')))
    ap.add_argument('--page-limit', type=int, default=400)
    ap.add_argument('--readme-limit', type=int, default=160)
    ap.add_argument('--self-test', action='store_true')
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    return run(args.top, args.page_limit, args.readme_limit)


if __name__ == '__main__':
    sys.exit(main())
