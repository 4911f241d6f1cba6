#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The patch series of `make patches`, generated from the repository's files.

Called by tests/make-patches (which finds the linux-source-6.12 tree):

    patches.py --top REPO --src KERNEL-SOURCE --out FOLDER

The series puts irqcore under drivers/misc/irqcore/ with the repository's
layout kept (module/, include/, drivers/, bench/, devices/ and the root
Kbuild), so that every Kbuild and every #include is the same file in both
forms. A scratch git repository under FOLDER/git holds, as its base commit,
the kernel files the series changes (drivers/misc/Kconfig and Makefile,
MAINTAINERS, Documentation/misc-devices/index.rst) exactly as the source
tree has them; each patch is one commit on top, and `git format-patch`
writes the series with its cover letter to FOLDER/series/. Paths are the
kernel's, so the series applies to the whole tree.

What goes where is decided here, by rule, never by copying:
  - a file goes to the patch of its folder (PARTS below); a new folder or
    a new Kconfig entry that no rule names stops the script by name;
  - the root Kconfig is cut into its entries, and each patch carries the
    entries of the patches up to it (a help line pointing into
    Documentation/ comes with the docs patch); the root Kbuild's obj-y
    line names the folders present so far;
  - docs/*.md pages become reStructuredText under
    Documentation/misc-devices/irqcore/ (md_to_rst below);
  - each patch that adds files adds their F: lines to irqcore's
    MAINTAINERS entry (checkpatch asks for it, and it says who answers for
    what); the entry's M: is debian/control's Maintainer.
"""

import argparse
import os
import re
import subprocess
import sys

DEST = 'drivers/misc/irqcore'
DOCDEST = 'Documentation/misc-devices/irqcore'
KCONFIG_HOOK = 'drivers/misc/Kconfig'
MAKEFILE_HOOK = 'drivers/misc/Makefile'
DOCINDEX_HOOK = 'Documentation/misc-devices/index.rst'
MAINT_TITLE = 'IRQCORE (LINUX 2.5.27 AND 2.5.28 SMP INTERRUPT CORES)'
# The docs/ pages that describe irqcore itself, in reading order; the
# others (testing, benchmarks, counting, ...) describe the repository's
# test tools, which the series does not carry.
DOC_PAGES = ['design', 'regimes', 'drivers', 'devices', 'deviations', 'tracing', 'intree']

# The patches, in order: name, the repository paths they add (a folder
# ends in /), the Kconfig entries they add, the root Kbuild folders.
PARTS = [
    {'name': 'core', 'paths': ['module/', 'include/irqcore.h', 'include/irqcore_ktap.h',
                               'include/irqcore_param.h', 'include/uapi/'],
     'kconfig': ['IRQCORE', 'IRQCORE_SELFTEST_ALL'], 'kbuild': ['module/'], 'subject':
     'misc: irqcore: add the Linux 2.5.27 and 2.5.28 SMP interrupt cores', 'body': '''\
Linux 2.5.28 removed the SMP "big IRQ lock": until then cli() on an SMP
machine took global_irq_lock and stopped interrupt handling on every CPU,
and much driver code relied on it for mutual exclusion. irqcore rebuilds
both interrupt cores, 2.5.27's (regime=biglock) and 2.5.28's
(regime=nolock), side by side in one module that runs on genuine hardware
interrupts of today's kernel: IPIs, hard irq_work and hard hrtimers drive
a virtual interrupt controller whose lines enter irqcore's do_IRQ in
hardirq context. It replaces nothing of the kernel's own interrupt
handling; it exists so that the change can be run, tested and measured.

The self-tests (module/selftest/) run when irqcore starts: at every load,
or from its device initcall when built in, and print a KTAP document.
Built in, they keep the CPUs busy for a few seconds at boot, so a Kconfig
choice sets the default of irqcore.selftest=: run them (the default, and
what the module always does out of tree) or skip them unless the command
line asks. The regime, the counter layout and the rest are parameters
(irqcore.regime= on the command line when built in).

The files keep the layout of the out-of-tree repository they come from:
one Kbuild per folder builds them in both forms (WireGuard's compat
form: a module out of tree, as Kconfig says in tree).'''},
    {'name': 'torture', 'paths': ['drivers/'], 'kconfig': ['IRQCORE_TORTURE'],
     'kbuild': ['drivers/'],
     'subject': 'misc: irqcore: add the converted drivers and their torture test', 'body': '''\
The four drivers 2.5.28 converted from cli()/sti() (vm86 irqbits, mca POS
registers, the apm clock and the tty flip buffer) as small virtual
devices, each in four locking styles (global cli(), local only, a
spinlock of its own, none), run under stress with their invariants
checked, in the manner of locktorture. It uses irqcore's exported API
only. The expected outcome of each case is part of its KTAP result: on
two CPUs the local and none styles must be caught.'''},
    {'name': 'bench', 'paths': ['bench/', 'include/irqcore_count.h', 'include/irqcore_holdshare.h'], 'kconfig': ['IRQCORE_BENCH'],
     'kbuild': ['bench/'],
     'subject': 'misc: irqcore: add the benchmarks of both regimes', 'body': '''\
What one interrupt costs in each regime next to the kernel's own genirq
handling the same interrupt and the bare IPI; latency while another CPU
holds a critical section; synchronize_irq(); throughput as CPUs are
added. Ratios from one run are the figures: under an emulator absolute
times mean little.'''},
    {'name': 'devices', 'paths': ['devices/'],
     'kconfig': ['IRQCORE_EDU', 'IRQCORE_EEPRO100', 'IRQCORE_INTEL8X0'], 'kbuild': ['devices/'],
     'subject': "misc: irqcore: add PCI drivers on irqcore's device lines",
     'body': '''\
PCI drivers in 2002's shape on irqcore's API, for devices QEMU emulates:
a driver for its teaching device "edu" (1234:11e8), and the seed's
eepro100 (two i82557b chips on one hub) and intel8x0 (AC97). Each
device's interrupt (MSI or INTx) enters irqcore's do_IRQ through a device
line, and their cases check 2.5's level and edge semantics, and the
drivers' own synchronize_irq() and handler locking, on real devices.'''},
    {'name': 'docs', 'paths': [], 'kconfig': [], 'kbuild': [],
     'subject': 'Documentation: misc-devices: add irqcore', 'body': '''\
The design of the core, the two regimes side by side, the converted
drivers and the torture test, device lines and the edu driver, where
irqcore departs from 2.5.28, its trace events, and how to configure,
build and boot it in a kernel tree. Made from the repository's docs/.
IRQCORE's help now points at them.'''},
]


def die(msg):
    sys.stderr.write('irqcore: error: %s\n' % msg)
    sys.exit(1)


def run(cmd, cwd=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        die('%s failed: %s' % (' '.join(cmd), p.stderr.strip()[:500]))
    return p.stdout


def repo_files(top):
    """The work tree's files (tracked, or new and not ignored) the series may carry.

    Outside a git work tree (a copy, as tests/mutants makes), every file of
    those folders but build products and hidden files.
    """
    dirs = ['module', 'drivers', 'bench', 'devices', 'include']
    p = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard', '--'] + dirs, cwd=top,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode == 0:
        files = p.stdout.split('\n')
    else:
        files = []
        for d in dirs:
            for root, _, names in os.walk(os.path.join(top, d)):
                files += [os.path.relpath(os.path.join(root, n), top) for n in names
                          if not n.startswith('.') and not re.search(r'\.(o|ko|mod|mod\.c|cmd)$', n)]
    return sorted(f for f in files if f and os.path.isfile(os.path.join(top, f)))


def part_of(path):
    """The index in PARTS of the patch that carries repository file PATH."""
    for i, part in enumerate(PARTS):
        for p in part['paths']:
            if path == p or (p.endswith('/') and path.startswith(p)):
                return i
    die('no patch of the series carries %s: name it in PARTS (tests/lib/patches.py)' % path)


def kconfig_entries(text):
    """Cut the root Kconfig into (symbol or None, text) pieces.

    The header (comments) is the piece of None; "if"/"endif" are pieces of
    their own ('if', 'endif'); a choice is one piece, named by its first
    config. Each piece keeps the blank lines after it.
    """
    pieces, cur, name, in_choice = [], [], None, False

    def flush():
        if cur:
            pieces.append((name, ''.join(cur)))
    for line in text.splitlines(True):
        m = re.match(r'(menuconfig|config|choice|endchoice|if|endif)\b\s*(\S*)', line)
        if m and not in_choice and m.group(1) != 'endchoice':
            flush()
            cur = []
            kw = m.group(1)
            name = m.group(2) if kw in ('menuconfig', 'config') else kw
            in_choice = kw == 'choice'
        elif m and in_choice:
            if m.group(1) == 'config' and name == 'choice':
                name = m.group(2)
            if m.group(1) == 'endchoice':
                in_choice = False
        cur.append(line)
    flush()
    return pieces


def kconfig_for(pieces, upto):
    """The Kconfig with the entries of patches 0..UPTO.

    A help line that points into Documentation/ appears with the patch
    that adds the pages (the docs part), not before: no patch names a file
    that a later one adds.
    """
    docs_in = any(part['name'] == 'docs' for part in PARTS[:upto + 1])
    if not docs_in:
        pieces = [(name, re.sub(r'(?m)^\s*See Documentation/\S*\n', '', text))
                  for name, text in pieces]
    want = set()
    for part in PARTS[:upto + 1]:
        want.update(part['kconfig'])
    known = set()
    for part in PARTS:
        known.update(part['kconfig'])
    inner = False
    for name, _ in pieces:
        if name not in (None, 'if', 'endif') and name not in known:
            die('Kconfig entry %s is in no patch: name it in PARTS (tests/lib/patches.py)' % name)
    out = []
    depth_has = []
    for name, text in pieces:
        if name is None:
            out.append(text)
        elif name == 'if':
            depth_has.append(len(out))
            out.append(text)
        elif name == 'endif':
            start = depth_has.pop()
            if inner:
                out.append(text)
            else:
                del out[start:]
            inner = False
        elif name in want:
            out.append(text)
            inner = inner or bool(depth_has)
    s = ''.join(out)
    return s.rstrip('\n') + '\n'


def kbuild_for(text, upto):
    """The root Kbuild with only the folders of patches 0..UPTO on its obj-y line."""
    have = []
    for part in PARTS[:upto + 1]:
        have += part['kbuild']

    def keep(m):
        dirs = [d for d in m.group(1).split() if d in have]
        return 'obj-y += ' + ' '.join(dirs)
    new, n = re.subn(r'obj-y \+= ([^\n]*)', keep, text)
    if n != 1:
        die('the root Kbuild has no single "obj-y += ..." line')
    return new


# --- Markdown (the subset docs/ uses) to reStructuredText ---------------------

def rst_inline(s, pages):
    """Inline markup: links and code. Emphasis and bold read the same in both."""
    links = []

    def stash(m):
        # rst nests no markup in a link's text: its code spans become text.
        links.append(rst_link(m.group(1).replace('`', ''), m.group(2), pages))
        return '\0%d\0' % (len(links) - 1)
    s = re.sub(r'\[([^\]]+)\]\(([^)]+)\)', stash, s)
    out, pos = [], 0
    # Nothing inside a code span is markup. An rst literal must not touch a
    # letter or digit on either side: an escaped space joins them.
    for m in re.finditer(r'`([^`]+)`', s):
        out.append(s[pos:m.start()])
        if m.start() > 0 and s[m.start() - 1].isalnum():
            out.append('\\ ')
        out.append('``%s``' % m.group(1))
        if m.end() < len(s) and s[m.end()].isalnum():
            out.append('\\ ')
        pos = m.end()
    out.append(s[pos:])
    return re.sub(r'\0(\d+)\0', lambda m: links[int(m.group(1))], ''.join(out))


def rst_link(text, target, pages):
    if re.match(r'https?://', target):
        return '`%s <%s>`_' % (text, target)
    page = re.match(r'([a-z0-9-]+)\.md(#.*)?$', target)
    if page and page.group(1) in pages:
        return ':doc:`%s <%s>`' % (text, page.group(1))
    return '%s (%s in the irqcore repository)' % (text, target)


def md_to_rst(md, pages):
    lines = md.split('\n')
    out = ['.. SPDX-License-Identifier: GPL-2.0', '']
    i = 0
    heads = {1: '=', 2: '-', 3: '~', 4: '^'}
    while i < len(lines):
        line = lines[i]
        m = re.match(r'(#+) (.*)', line)
        if m:
            level = len(m.group(1))
            title = rst_inline(m.group(2), pages)
            if level == 1:
                out += ['=' * len(title), title, '=' * len(title), '']
            else:
                out += [title, heads[level] * len(title), '']
            i += 1
            continue
        fence = re.match(r'( *)```', line)
        if fence:
            # A literal block, indented as the fence is (inside a list item).
            ind = fence.group(1)
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith(ind + '```'):
                body.append(lines[i][len(ind):] if lines[i].startswith(ind) else lines[i])
                i += 1
            i += 1
            out += [ind + '::', '']
            out += [(ind + '    ' + b).rstrip() for b in body]
            out.append('')
            continue
        if line.startswith('|'):
            rows = []
            while i < len(lines) and lines[i].startswith('|'):
                cells = [c.strip() for c in re.split(r'(?<!\\)\|', lines[i].strip())[1:-1]]
                if not all(re.match(r'^:?-+:?$', c) for c in cells):
                    rows.append([c.replace('\\|', '|') for c in cells])
                i += 1
            out += ['.. list-table::', '   :header-rows: 1', '']
            for row in rows:
                for j, c in enumerate(row):
                    out.append(('   %s %s' % ('* -' if j == 0 else '  -', rst_inline(c, pages))).rstrip())
            out.append('')
            continue
        img = re.match(r'!\[([^\]]*)\]\(([^)]+)\)', line)
        if img:
            out += ['(Figure: %s; the picture is %s in the irqcore repository.)'
                    % (img.group(1), 'docs/' + img.group(2)), '']
            i += 1
            continue
        # A paragraph or list at once: a code span may cross a line break.
        block = []
        while i < len(lines) and lines[i].strip() and not re.match(r'#+ | *```|\||!\[', lines[i]):
            block.append(lines[i])
            i += 1
        if not block:
            block.append(lines[i])
            i += 1
        out += [b.rstrip() for b in rst_inline('\n'.join(block), pages).split('\n')]
    text = '\n'.join(out)
    text = re.sub(r'\n{3,}', '\n\n', text).rstrip('\n') + '\n'
    return text


def doc_index(pages):
    title = 'irqcore: the Linux 2.5.27 and 2.5.28 SMP interrupt cores'
    s = ['.. SPDX-License-Identifier: GPL-2.0', '', '=' * len(title), title, '=' * len(title), '',
         'irqcore rebuilds the interrupt core before and after Linux 2.5.28 removed',
         'the SMP "big IRQ lock", as a module running on genuine hardware interrupts',
         'of today\'s kernel (CONFIG_IRQCORE, drivers/misc/irqcore/).', '',
         '.. toctree::', '   :maxdepth: 1', '']
    s += ['   ' + p for p in pages]
    return '\n'.join(s) + '\n'


# --- The scratch repository ------------------------------------------------------

def maintainer(top):
    ctl = open(os.path.join(top, 'debian/control')).read()
    m = re.search(r'^Maintainer: (.*)$', ctl, re.M)
    if not m:
        die('debian/control has no Maintainer')
    return m.group(1).strip()


def maintainers_with(text, who, flines):
    """MAINTAINERS with irqcore's entry (F: lines FLINES), in its sorted place."""
    entry = '%s\nM:\t%s\nS:\tMaintained\n%s\n' % (
        MAINT_TITLE, who, ''.join('F:\t%s\n' % f for f in sorted(flines)))
    # Drop an entry of ours from an earlier patch, then insert before the
    # first section whose title sorts after ours.
    text = re.sub(r'^' + re.escape(MAINT_TITLE) + r'\n(?:[A-Z]:\t.*\n)+\n', '', text, flags=re.M)
    for m in re.finditer(r'\n\n([A-Z0-9][^\n]*)\n[A-Z]:\t', text):
        if m.group(1) > MAINT_TITLE and m.start() > text.find('\nMaintainers List'):
            at = m.start() + 2
            return text[:at] + entry + text[at:]
    die('no place for the MAINTAINERS entry')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--top', required=True)
    ap.add_argument('--src', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--srcver', required=True)
    a = ap.parse_args()
    top, src, out = a.top, a.src, a.out
    who = maintainer(top)
    name, email = re.match(r'(.*) <(.*)>', who).groups()
    # The date of debian/changelog's entry: the series changes only with the files.
    date = run(['dpkg-parsechangelog', '-l', os.path.join(top, 'debian/changelog'),
                '-S', 'Date']).strip()
    env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
               GIT_CONFIG_GLOBAL='/dev/null', GIT_CONFIG_NOSYSTEM='1')
    gitdir = os.path.join(out, 'git')
    run(['rm', '-rf', gitdir, os.path.join(out, 'series')])
    os.makedirs(gitdir)

    def git(*args):
        return run(['git'] + list(args), cwd=gitdir, env=env)

    def put(path, text):
        p = os.path.join(gitdir, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w') as f:
            f.write(text)

    def get(path):
        with open(os.path.join(gitdir, path)) as f:
            return f.read()

    git('init', '-q', '-b', 'base')
    for h in (KCONFIG_HOOK, MAKEFILE_HOOK, 'MAINTAINERS', DOCINDEX_HOOK):
        with open(os.path.join(src, h)) as f:
            put(h, f.read())
    git('add', '-A')
    git('commit', '-q', '-m', 'linux-source-6.12 %s: the files the series changes' % a.srcver)
    base = git('rev-parse', 'HEAD').strip()

    files = repo_files(top)
    pieces = kconfig_entries(open(os.path.join(top, 'Kconfig')).read())
    kbuild = open(os.path.join(top, 'Kbuild')).read()
    pages = [p for p in DOC_PAGES if os.path.isfile(os.path.join(top, 'docs', p + '.md'))]
    flines = set()
    signoff = 'Signed-off-by: %s' % who
    for k, part in enumerate(PARTS):
        mine = [f for f in files if part_of(f) == k]
        for f in mine:
            with open(os.path.join(top, f)) as fh:
                put('%s/%s' % (DEST, f), fh.read())
            if os.access(os.path.join(top, f), os.X_OK):
                os.chmod(os.path.join(gitdir, DEST, f), 0o755)
        new_f = set()
        if k == 0:
            put('%s/Kbuild' % DEST, kbuild_for(kbuild, k))
            put('%s/Kconfig' % DEST, kconfig_for(pieces, k))
            put(KCONFIG_HOOK, re.sub(r'\nendmenu\n*$', '\nsource "%s/Kconfig"\nendmenu\n' % DEST,
                                     get(KCONFIG_HOOK)))
            put(MAKEFILE_HOOK, get(MAKEFILE_HOOK) + 'obj-$(CONFIG_IRQCORE)\t\t+= irqcore/\n')
            new_f |= {'%s/Kbuild' % DEST, '%s/Kconfig' % DEST}
        else:
            put('%s/Kbuild' % DEST, kbuild_for(kbuild, k))
            put('%s/Kconfig' % DEST, kconfig_for(pieces, k))
        for p in part['paths']:
            if any(f == p or (p.endswith('/') and f.startswith(p)) for f in mine):
                new_f.add('%s/%s' % (DEST, p))
        if part['name'] == 'docs':
            for p in pages:
                with open(os.path.join(top, 'docs', p + '.md')) as fh:
                    put('%s/%s.rst' % (DOCDEST, p), md_to_rst(fh.read(), pages))
            put('%s/index.rst' % DOCDEST, doc_index(pages))
            idx = get(DOCINDEX_HOOK)
            entries = re.findall(r'^   (\S+)$', idx, re.M)
            after = max([e for e in entries if e < 'irqcore/index'] or [entries[0]])
            idx = idx.replace('\n   %s\n' % after, '\n   %s\n   irqcore/index\n' % after, 1)
            put(DOCINDEX_HOOK, idx)
            new_f.add(DOCDEST + '/')
        if new_f:
            flines |= new_f
            put('MAINTAINERS', maintainers_with(get('MAINTAINERS'), who, flines))
        git('add', '-A')
        git('commit', '-q', '-m', '%s\n\n%s\n\n%s' % (part['subject'], part['body'], signoff))

    series = os.path.join(out, 'series')
    run(['git', 'format-patch', '-q', '--cover-letter', '-o', series, base + '..HEAD'],
        cwd=gitdir, env=env)
    cover = [f for f in sorted(os.listdir(series)) if f.startswith('0000-')][0]
    with open(os.path.join(series, cover)) as f:
        c = f.read()
    with open(os.path.join(top, 'tests/lib/patches-cover.txt')) as f:
        blurb = f.read()
    subject, _, blurb = blurb.partition('\n\n')
    blurb = blurb.replace('@SRCVER@', a.srcver)
    c = c.replace('*** SUBJECT HERE ***', subject.strip()).replace('*** BLURB HERE ***',
                                                                  blurb.rstrip('\n'))
    with open(os.path.join(series, cover), 'w') as f:
        f.write(c)
    for f in sorted(os.listdir(series)):
        print(os.path.join(series, f))


if __name__ == '__main__':
    main()
