#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/lib/doc-check.py - the docs say only what exists, in pages a reader can hold.

Checks, on README.md and every .md under docs/ (its folders too) of the
tree given (default: the tree this file is in):

  length   no page of docs/ over --page-limit lines (400), the README not
           over --readme-limit (160): a page is the current state of its
           subject, and history goes to docs/results.md. That one page is
           exempt (HISTORY_PAGE): it is the dated measurement history, one
           entry a run, and grows with every run by design; it is no
           subject page a reader must hold at once
  links    every relative link (inline, its text across lines or around an
           image; a reference definition; an HTML href or src) outside code
           names a file or folder of the tree that exists (not one above
           it, not build/), and a '#anchor' in it a heading of that page
           (GitHub's slugs)
  path     every page of docs/ is reached from the README by links: the
           reading path
  targets  every target of a `make ...` in code (a span, a fenced block, a
           fence indented in a list, an indented block), after options and
           VAR=value, names a rule of the top-level Makefile, or with -C DIR
           of DIR/Makefile (a -C out of the tree is not looked at); a
           target-specific variable is no rule; but for the kernel tree's
           own configuration targets (KERNEL_TARGETS)
  paths    every repository path in code (tests/X, ./tests/X, tools/X,
           bench/X, module/X, drivers/X, devices/X, docs/X, ...) exists, as
           named or with an extension (models/biglock is models/biglock.pml),
           and a glob (tests/loads-*) matches a file. Not looked for: a path
           in another tree's folder (FOREIGN: the kernel's drivers/misc/ or
           include/linux/, 2002's drivers/net/, QEMU's docs/specs/), a
           placeholder (a part in capitals, tests/loads-NAME, or ending in
           '-'), and a build product (.ko, .so, .o); build/ and the cache
           are outputs and are never looked for

A code span is CommonMark's: it may cross a line break, and a paragraph
is read whole, so a span broken over two lines neither hides itself nor
the spans after it.

One line per finding ("page:line: what"), then "doc-check: N pages,
F findings" and the verdict "ok doc_check" or "not ok doc_check: F
findings"; the exit status is 1 when F > 0. --self-test runs the
checker on small pages of its own, each of which must give its finding.
"""

import argparse
import glob
import os
import re
import shlex
import sys
import tempfile

# The folders a path in the docs may begin with; a word such as
# "tests/run" is looked for, "build/cost/x.json" is an output.
TOP_DIRS = ('bench', 'debian', 'devices', 'docs', 'drivers', 'examples',
            'include', 'models', 'module', 'tests', 'tools', '.ci')

# Other trees' folders that begin like ours: the kernel's (2002's and
# today's), QEMU's docs/specs. A path under one of these is not looked for;
# every other path under TOP_DIRS is, a folder missing from it included (a
# renamed tests/irqctl/ must turn tests/irqctl/session.sh red). A new page
# naming another tree's file adds its folder here.
FOREIGN = ('docs/specs/', 'drivers/char/', 'drivers/misc/', 'drivers/net/',
           'drivers/scsi/', 'drivers/sound/', 'include/asm-', 'include/linux/',
           'tools/testing/')

# The one page exempt from --page-limit: the dated measurement history, one
# entry a run, newest first. It grows with every run by design; every other
# page is the current state of its subject and must stay short. Exactly this
# path, relative to the tree's top: docs/results/ or another results.md is
# not exempt.
HISTORY_PAGE = os.path.join('docs', 'results.md')

# Targets of a kernel tree's Makefile that the docs name for kernel builds.
KERNEL_TARGETS = ('menuconfig', 'tinyconfig', 'olddefconfig', 'defconfig', 'bzImage')

# A link's destination: after "](" (inline links and images, whatever the
# text before: it may span lines, hold brackets or an image), a reference
# definition "[label]: dest", or an HTML href/src.
LINK = re.compile(r'\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+(?:"[^"]*"|\'[^\']*\'))?\s*\)')
REFDEF = re.compile(r'^ {0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)(?:[ \t]+(?:"[^"]*"|\'[^\']*\'))?[ \t]*$', re.M)
HTML = re.compile(r'<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*"([^"]*)"', re.I)
FENCE = re.compile(r'^\s*(`{3,}|~{3,})')
LISTITEM = re.compile(r'^ {0,3}(?:[-*+]|\d+[.)])(?:\s|$)')
MAKE = re.compile(r'(?:^|[\s;&|(])make(?=\s)([^;&|)#\n`]*)')
PATH = re.compile(r'(?<![\w./-])(?:\./)?((?:%s)/[\w./+-]*[\w+-])([*?\[][^\s`\'",;)]*)?' %
                  '|'.join(re.escape(d) for d in TOP_DIRS))


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation but '-' and '_' dropped, spaces as '-'."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading.strip())
    text = re.sub(r'<[^>]+>', '', text)
    text = re.sub(r'[`*]', '', text.lower())
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def blocks(lines):
    """Split a page into ('code', [(n, line)]) and ('text', [(n, line)]) blocks.

    Code: a fenced block (``` or ~~~, indented or not, closed by a fence of
    the same character at least as long) and an indented block (four
    spaces, after a blank line, outside a list). Text: a paragraph, the
    lines between blank lines and fences, a table whole.
    """
    out = []
    cur = None
    fence = None
    in_list = False
    prev_blank = True
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip().strip(fence[0]):
                fence = None
                cur = None
            else:
                cur[1].append((n, line))
            continue
        if m:
            fence = m.group(1)
            cur = ('code', [])
            out.append(cur)
            prev_blank = False
            continue
        if not line.strip():
            cur = None
            prev_blank = True
            continue
        if LISTITEM.match(line):
            in_list = True
        elif not line.startswith(' ') and prev_blank:
            in_list = False
        indented = line.startswith('    ') or line.startswith('\t')
        if indented and not in_list and (prev_blank or (cur and cur[0] == 'code')):
            if not cur or cur[0] != 'code':
                cur = ('code', [])
                out.append(cur)
        elif not cur or cur[0] != 'text':
            cur = ('text', [])
            out.append(cur)
        cur[1].append((n, line))
        prev_blank = False
    return out


def spans(text):
    """(start, end, content) of every code span of a paragraph (CommonMark:
    a run of N backticks up to the next run of exactly N; a line break in
    it a space)."""
    runs = [m for m in re.finditer(r'`+', text)
            if not (m.start() > 0 and text[m.start() - 1] == '\\')]
    out = []
    i = 0
    while i < len(runs):
        for j in range(i + 1, len(runs)):
            if len(runs[j].group()) == len(runs[i].group()):
                body = text[runs[i].end():runs[j].start()].replace('\n', ' ')
                if body.startswith(' ') and body.endswith(' ') and body.strip():
                    body = body[1:-1]
                out.append((runs[i].start(), runs[j].end(), body))
                i = j + 1
                break
        else:
            i += 1
    return out


ANCHORS = {}
MAKEFILES = {}


def anchors(page, cache=ANCHORS):
    """Every heading's slug of a Markdown page (outside code blocks), with -1, -2 for repeats."""
    if page in cache:
        return cache[page]
    seen = {}
    out = set()
    with open(page, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for kind, blk in blocks(lines):
        if kind != 'text':
            continue
        for _, line in blk:
            m = re.match(r' {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$', line)
            if not m:
                continue
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else '%s-%d' % (s, n))
    cache[page] = out
    return out


def make_targets(path, cache=MAKEFILES):
    """The rules of a Makefile (names before a ':' at the start of a line;
    not a target-specific variable, "name: VAR = value")."""
    if path in cache:
        return cache[path]
    targets = set()
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'([a-z][\w .-]*?)\s*:(?![:=])(.*)', line)
            if m and '=' not in m.group(2).split(';')[0]:
                targets.update(m.group(1).split())
    cache[path] = targets
    return targets


def code_texts(lines):
    """(line number, text) of every line of a code block and every code span."""
    for kind, blk in blocks(lines):
        if kind == 'code':
            yield from blk
            continue
        text = '\n'.join(l for _, l in blk)
        for start, _, body in spans(text):
            yield blk[0][0] + text.count('\n', 0, start), body


def link_texts(lines):
    """(line number, destination) of every link outside code."""
    for kind, blk in blocks(lines):
        if kind != 'text':
            continue
        text = '\n'.join(l for _, l in blk)
        masked = list(text)
        for start, end, _ in spans(text):
            for i in range(start, end):
                if masked[i] != '\n':
                    masked[i] = ' '
        masked = ''.join(masked)
        for rx in (LINK, REFDEF, HTML):
            for m in rx.finditer(masked):
                dest = m.group(1)
                if dest.startswith('<') and dest.endswith('>'):
                    dest = dest[1:-1]
                yield blk[0][0] + masked.count('\n', 0, m.start(1)), dest


def make_findings(top, text):
    """The targets a "make ..." command line names that its Makefile lacks."""
    for m in MAKE.finditer(text):
        try:
            words = shlex.split(m.group(1))
        except ValueError:
            words = m.group(1).split()
        makefile = os.path.join(top, 'Makefile')
        targets = []
        i = 0
        while i < len(words):
            w = words[i]
            if w in ('-C', '--directory', '-f', '--file'):
                if i + 1 >= len(words):
                    break
                arg = words[i + 1]
                if w in ('-C', '--directory'):
                    makefile = os.path.join(top, arg, 'Makefile')
                else:
                    makefile = os.path.join(top, arg)
                i += 2
                continue
            if w.startswith('-') or re.match(r'[A-Za-z_][A-Za-z0-9_]*=', w):
                i += 1
                continue
            if not re.fullmatch(r'[a-z][a-z0-9_.-]*', w):
                break
            targets.append(w)
            i += 1
        if not os.path.isfile(makefile):
            # make -C <kernel>, another tree's: not looked for
            continue
        have = make_targets(makefile)
        rel = os.path.relpath(makefile, top)
        for t in targets:
            if t not in have and t not in KERNEL_TARGETS:
                yield 'make %s: no such target in %s' % (t, 'the Makefile' if rel == 'Makefile' else rel)


def check_page(top, page, limit, findings, links):
    rel = os.path.relpath(page, top)
    with open(page, encoding='utf-8') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if len(lines) > limit and rel != HISTORY_PAGE:
        findings.append('%s:%d: %d lines, over the limit of %d' % (rel, len(lines), len(lines), limit))
    here = os.path.dirname(page)
    for n, dest in link_texts(lines):
        if re.match(r'[a-zA-Z][a-zA-Z0-9+.-]*:', dest) or dest.startswith('//'):
            continue
        path, _, anchor = dest.partition('#')
        path = path.split('?')[0]
        target = os.path.normpath(os.path.join(here, path)) if path else page
        inside = os.path.relpath(target, top)
        if inside.startswith('..') or inside.split(os.sep)[0] in ('build', '.git'):
            findings.append('%s:%d: link to %s: outside the tree\'s files' % (rel, n, path))
        elif not os.path.exists(target):
            findings.append('%s:%d: link to %s: no such file' % (rel, n, path))
        elif anchor and target.endswith('.md') and anchor not in anchors(target):
            findings.append('%s:%d: link to %s#%s: no such heading' % (rel, n, inside, anchor))
        elif target.endswith('.md'):
            links.setdefault(page, set()).add(target)
    for n, text in code_texts(lines):
        for f in make_findings(top, text):
            findings.append('%s:%d: %s' % (rel, n, f))
        for m in PATH.finditer(text):
            path = m.group(1).rstrip('.')
            if not path_wanted(path):
                continue
            full = os.path.join(top, path)
            if m.group(2):
                if not glob.glob(full + m.group(2)):
                    findings.append('%s:%d: %s%s: matches no file in the tree' % (rel, n, path, m.group(2)))
            elif not os.path.exists(full) and not glob.glob(glob.escape(full) + '.*'):
                findings.append('%s:%d: %s: no such file in the tree' % (rel, n, path))


def path_wanted(path):
    """Is this a path of this tree that must exist (not a placeholder, product or other tree's)?"""
    parts = path.split('/')
    if any(re.search(r'(^|[-_.])[A-Z]+([-_.]|$)', p) for p in parts):
        return False
    if path.endswith('-') or re.search(r'\.(ko|so|o)$', path):
        return False
    return not (path + '/').startswith(FOREIGN)


def doc_pages(top):
    """README.md and every .md under docs/, subfolders included."""
    pages = [os.path.join(top, 'README.md')]
    for d, subs, files in os.walk(os.path.join(top, 'docs')):
        subs.sort()
        pages += sorted(os.path.join(d, p) for p in files if p.endswith('.md'))
    return pages


def run(top, page_limit, readme_limit):
    findings = []
    links = {}
    ANCHORS.clear()
    MAKEFILES.clear()
    pages = doc_pages(top)
    for page in pages:
        limit = readme_limit if page == pages[0] else page_limit
        check_page(top, page, limit, findings, links)
    # The reading path: every page of docs/ is reached from the README by links.
    reached = {pages[0]}
    todo = [pages[0]]
    while todo:
        for t in links.get(todo.pop(), ()):
            if t not in reached:
                reached.add(t)
                todo.append(t)
    for page in pages[1:]:
        if page not in reached:
            findings.append('%s:1: not reached from README.md by links' % os.path.relpath(page, top))
    for f in findings:
        print(f)
    print('doc-check: %d pages, %d findings' % (len(pages), len(findings)))
    print('not ok doc_check: %d findings' % len(findings) if findings else 'ok doc_check')
    return 1 if findings else 0


def self_test():
    """Each bad page must give its finding, and the good page none.

    A case is (name, docs/a.md's text, the finding wanted or None, other
    pages {path: text}). The README links docs/a.md, docs/b.md and every
    other page but docs/orphan.md. The history cases: docs/results.md over
    the limit is no finding, but its links are still checked, and a page of
    any other name over the limit (docs/results-2026.md) is one: the
    exemption is that one path. The cases after them are what an earlier
    checker let through: a code span or a link's text across a line break
    (a span so broken also hid the next span of the line), a fence indented
    in a list or of tildes, an indented code block, make with options, more
    targets, -C or a target-specific variable, a path in a folder the tree
    lacks, a glob or "./", a reference or HTML link, a link whose text is an
    image, a link out of the tree, a page in a folder of docs/, and a page
    no link reaches.
    """
    history = '# R\n' + 'x\n' * 25
    cases = [
        ('good', '# A\n\nSee [b](b.md#b-c_d) and `make check`, `tests/run`, `tests/loads-NAME`,\n'
                 '`include/linux/preempt.h`, `tests/x.ko`, `make menuconfig`, `make -j2 check`,\n'
                 '`make -C tools/t all`, `make -C <kernel> M=x modules`, `./tests/run`, `tests/ru*`,\n'
                 '`drivers/net/eepro100.c`, [a\nwrapped](b.md) link, [![i](b.md)](#see-x-y).\n\n'
                 '## See [x](b.md) `y`\n\n- item:\n\n  ```\n  output, not a [link](nothere.md)\n  ```\n', None),
        ('long', '# A\n' + 'x\n' * 25, 'over the limit'),
        ('link', '[x](nothere.md)\n', 'no such file'),
        ('anchor', '[x](b.md#nothere)\n', 'no such heading'),
        ('target', '```\nmake nosuchtarget\n```\n', 'make nosuchtarget: no such target'),
        ('path', 'Run `tests/nosuchscript`.\n', 'tests/nosuchscript: no such file'),
        ('history_exempt', '# A\n', None, {'docs/results.md': history}),
        ('history_links', '# A\n', 'docs/results.md:27: link to nothere.md: no such file',
         {'docs/results.md': history + '[x](nothere.md)\n'}),
        ('history_exact_path', '# A\n', 'docs/results-2026.md:26: 26 lines, over the limit',
         {'docs/results-2026.md': history}),
        ('span_wrapped', 'A `span\nwrapped` then `tests/nosuchscript` here.\n',
         'docs/a.md:2: tests/nosuchscript: no such file'),
        ('span_wrapped_path', 'Run `tests/nosuchscript\n--flag`.\n', 'docs/a.md:1: tests/nosuchscript: no such file'),
        ('link_wrapped', 'See [the\npage](nothere.md).\n', 'docs/a.md:2: link to nothere.md: no such file'),
        ('fence_in_list', '- Run:\n\n  ```sh\n  make nosuchtarget\n  ```\n', 'make nosuchtarget: no such target'),
        ('fence_tilde', '~~~\nmake nosuchtarget\n~~~\n', 'make nosuchtarget: no such target'),
        ('code_indented', 'Run:\n\n    make nosuchtarget\n', 'make nosuchtarget: no such target'),
        ('make_option', '`make -j4 nosuchtarget`\n', 'make nosuchtarget: no such target'),
        ('make_second', '`make check nosuchtarget`\n', 'make nosuchtarget: no such target'),
        ('make_subdir', '`make -C tools/t nosuchtarget`\n', 'make nosuchtarget: no such target in tools/t/Makefile'),
        ('make_variable_only', '`make cost`\n', 'make cost: no such target'),
        ('path_folder', '`tests/nosuchdir/x.sh`\n', 'tests/nosuchdir/x.sh: no such file'),
        ('path_glob', '`tests/nosuch*`\n', 'tests/nosuch*: matches no file'),
        ('path_dot', '`./tests/nosuchscript`\n', 'tests/nosuchscript: no such file'),
        ('link_reference', '[x][r]\n\n[r]: nothere.md\n', 'link to nothere.md: no such file'),
        ('link_html', '<img src="img/nothere.svg" alt="x">\n', 'link to img/nothere.svg: no such file'),
        ('link_around_image', '[![i](b.md)](nothere.md)\n', 'link to nothere.md: no such file'),
        ('link_outside', '[x](../..)\n', "link to ../..: outside the tree's files"),
        ('link_build', '[x](../build)\n', "link to ../build: outside the tree's files"),
        ('page_in_folder', '# A\n', 'docs/sub/c.md:26: 26 lines, over the limit', {'docs/sub/c.md': history}),
        ('page_unreached', '# A\n', 'docs/orphan.md:1: not reached from README.md',
         {'docs/orphan.md': '# O\n[a](a.md)\n'}),
    ]
    bad = 0
    for name, text, want, *more in cases:
        more = more[0] if more else {}
        with tempfile.TemporaryDirectory() as top:
            for d in ('docs', 'tests', 'build', os.path.join('tools', 't')):
                os.makedirs(os.path.join(top, d))
            open(os.path.join(top, 'tests', 'run'), 'w').close()
            with open(os.path.join(top, 'Makefile'), 'w') as f:
                f.write('check:\n\ttests/check\ncost: V = 1\n')
            with open(os.path.join(top, 'tools', 't', 'Makefile'), 'w') as f:
                f.write('all:\n')
            with open(os.path.join(top, 'README.md'), 'w') as f:
                f.write('# irqcore\n\n[a](docs/a.md) [b](docs/b.md)\n' +
                        ''.join('[p](%s)\n' % p for p in more if p != 'docs/orphan.md'))
            with open(os.path.join(top, 'docs', 'b.md'), 'w') as f:
                f.write('# B `c_d`\n')
            with open(os.path.join(top, 'docs', 'a.md'), 'w') as f:
                f.write(text)
            for path, page in more.items():
                os.makedirs(os.path.dirname(os.path.join(top, path)), exist_ok=True)
                with open(os.path.join(top, path), 'w') as f:
                    f.write(page)
            import io
            import contextlib
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = run(top, 20, 160)
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
