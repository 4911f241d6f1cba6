# SPDX-License-Identifier: GPL-2.0
#
# tools/convert/perdev.py - per-device locks for the converter
# (docs/convert.md, "Per-device data"): where a struct is defined and set
# up in a driver's text, and the edits that give it a lock of its own.
#
# Used by cli-to-spinlock.cocci (to decide: is the struct defined here, is
# its set-up found, what type has a pointer) and by tools/convert/convert
# (to edit: the field added to the definition, spin_lock_init() after each
# set-up), so that both read the text the same way:
#
#   python3 perdev.py apply OUT.c STRUCT FIELD
#
# Text is a list of lines (no newlines), read as Latin-1. Everything here
# is by the text: a shape it does not recognise is "not found", and the
# converter then keeps to the file's lock and says which was missing.
import re
import sys


def code_lines(lines):
    """lines with comments and strings blanked (same lines, same columns)."""
    src = "\n".join(lines)
    src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)
    src = re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), src)
    src = re.sub(r"\"(?:\\.|[^\"\\\n])*\"", lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', src)
    return src.split("\n")


def fn_header(code, fn, line):
    """The 0-based index of FN's header line at or before LINE (1-based):
    a line at column 0 naming FN before a parenthesis."""
    pat = re.compile(r"(?=[A-Za-z_])(?:.*\W)?%s\s*\(" % re.escape(fn))
    for i in range(min(line, len(code)) - 1, -1, -1):
        if pat.match(code[i]) and not code[i].rstrip().endswith(";"):
            return i
    return None


def enclosing_fn(code, idx):
    """(name, header index) of the function whose body holds line idx."""
    for i in range(idx, -1, -1):
        m = re.match(r"(?=[A-Za-z_])(?:[\w\s\*]*\W)?(\w+)\s*\(", code[i])
        if m and not code[i].rstrip().endswith(";") and m.group(1) not in ("if", "while", "for", "switch"):
            return m.group(1), i
    return None, None


def decl_re(var):
    # struct T *a, *var  /  struct T *var = ...  /  (struct T *var, ...)
    return re.compile(r"\bstruct\s+(\w+)\s*\*\s*(?:\w+\s*(?:=[^,;(){}]*)?,\s*\*?\s*)*%s\s*([,;=)\[])"
                      % re.escape(var))


def ptr_type(code, hdr, line, var):
    """The struct that VAR points to, declared in its function (between
    the header at index hdr and line, 1-based, included) or at file scope:
    (T, set), set when VAR is a parameter, declared with an initialiser or
    of file scope; or None."""
    if not re.fullmatch(r"[A-Za-z_]\w*", var):
        return None
    region = "\n".join(code[hdr:line])
    brace = region.find("{")
    last = None
    for m in decl_re(var).finditer(region):
        last = m
    if last is not None:
        return (last.group(1), brace < 0 or last.start() < brace or last.group(2) == "=")
    for l in code[:hdr]:
        m = re.match(r"(?:static\s+)?struct\s+(\w+)\s*\*\s*%s\s*[;=]" % re.escape(var), l)
        if m:
            return (m.group(1), True)
    return None


def struct_def(code, t):
    """(index of 'struct T {', index of its closing '}' line) at file scope,
    the closing brace first on its line, or None."""
    pat = re.compile(r"^(?:typedef\s+)?struct\s+%s\s*\{" % re.escape(t))
    for i, l in enumerate(code):
        if pat.match(l):
            depth = 0
            for j in range(i, len(code)):
                for c in code[j]:
                    depth += (c == "{") - (c == "}")
                if depth <= 0 and "}" in code[j]:
                    if code[j].lstrip().startswith("}") and j > i:
                        return (i, j)
                    return None
            return None
    return None


def lock_field(code, t):
    """The name of the lock field to add to T: lock, unless T has a field
    of that name (then cli_lock, cli2_lock, ...)."""
    d = struct_def(code, t)
    body = "\n".join(code[d[0] + 1:d[1] + 1]) if d else ""
    name, n = "lock", 1
    while re.search(r"\b%s\b" % name, body):
        name = "cli%s_lock" % ("" if n == 1 else n)
        n += 1
    return name


def stmt_end(code, i):
    """The index of the last line of the statement that starts on line i:
    an if (with its body, braced or not, and an else) or a simple
    statement up to its ';'."""
    s = code[i].lstrip()
    if re.match(r"if\b", s):
        # The condition: balanced parentheses.
        depth, j, seen = 0, i, False
        col = code[i].index("if") + 2
        while j < len(code):
            for k, c in enumerate(code[j][col:], col):
                if c == "(":
                    depth += 1
                    seen = True
                elif c == ")":
                    depth -= 1
                    if seen and depth == 0:
                        return body_end(code, j, k + 1)
            j, col = j + 1, 0
        return None
    depth, j = 0, i
    while j < len(code):
        for c in code[j]:
            depth += (c in "({") - (c in ")}")
            if c == ";" and depth == 0:
                return j
        j += 1
    return None


def body_end(code, j, col):
    """The last line of the statement that follows (j, col)."""
    rest = code[j][col:]
    while not rest.strip():
        j, col = j + 1, 0
        if j >= len(code):
            return None
        rest = code[j]
    if rest.strip().startswith("{"):
        depth = 0
        k = j
        start = col + rest.index("{")
        while k < len(code):
            for c in code[k][start:]:
                depth += (c == "{") - (c == "}")
                if depth == 0:
                    return k
            k, start = k + 1, 0
        return None
    depth = 0
    k = j
    while k < len(code):
        for c in code[k][col:]:
            depth += (c in "({") - (c in ")}")
            if c == ";" and depth == 0:
                return k
        k, col = k + 1, 0
    return None


def setups(code, t):
    """Where T is set up: [(index to insert after, indent, lock object)]:
    a kmalloc()/kzalloc() of sizeof(struct T) or sizeof(*p) assigned to a
    pointer p of type struct T * (the init goes after the assignment, its
    NULL check and a memset() of it), and a static definition with no
    initialiser ("static", the lock initialised in the definition: the
    index is the definition's own)."""
    out = []
    alloc = re.compile(r"\b(\w+)\s*=\s*(?:\(\s*struct\s+\w+\s*\*\s*\)\s*)?k[mz]alloc\s*\(\s*sizeof\s*"
                       r"\(?\s*(struct\s+(\w+)|\*\s*(\w+))\s*\)?\s*[,)]")
    for i, l in enumerate(code):
        m = alloc.search(l)
        if m:
            var = m.group(1)
            if m.group(3) is not None and m.group(3) != t:
                continue
            if m.group(4) is not None and m.group(4) != var:
                continue
            fn, hdr = enclosing_fn(code, i)
            if fn is None:
                continue
            ty = ptr_type(code, hdr, i + 1, var)
            if not ty or ty[0] != t:
                continue
            # The statement before must end: an unbraced "if (x) p = ...;"
            # would leave the init outside it.
            prev = next((code[k].strip() for k in range(i - 1, hdr - 1, -1) if code[k].strip()), "")
            first = l.lstrip()
            if not (prev.endswith((";", "{", "}")) or first.startswith("if")):
                continue
            end = stmt_end(code, i)
            if end is None:
                continue
            # Its NULL check and a memset() of it, which would clear the lock.
            k = end + 1
            while k < len(code):
                s = code[k].strip()
                if not s:
                    k += 1
                    continue
                if re.match(r"if\s*\(\s*(!\s*%s|%s\s*==\s*NULL|NULL\s*==\s*%s)\s*\)" % ((re.escape(var),) * 3), s) or \
                        re.match(r"memset\s*\(\s*%s\s*," % re.escape(var), s):
                    e = stmt_end(code, k)
                    if e is None:
                        break
                    end, k = e, e + 1
                    continue
                break
            indent = re.match(r"\s*", l).group(0)
            # A memset() of it later in the same block (qpmouse.c clears
            # its queue after two other statements): the init after it.
            k = end + 1
            while k < len(code) and (not code[k].strip() or
                                     len(re.match(r"\s*", code[k]).group(0)) >= len(indent)):
                if re.match(r"%smemset\s*\(\s*%s\s*," % (indent, re.escape(var)), code[k]):
                    e = stmt_end(code, k)
                    if e is not None:
                        end = e
                k += 1
            out.append((end, indent, "%s->" % var))
    stat = re.compile(r"^(static\s+)?struct\s+%s\s+(\w+)\s*;" % re.escape(t))
    for i, l in enumerate(code):
        m = stat.match(l)
        if m:
            out.append((i, "", "static " + m.group(2)))
    return out


def apply(path, t, field):
    with open(path, encoding="latin-1") as f:
        lines = f.read().split("\n")
    code = code_lines(lines)
    d = struct_def(code, t)
    ups = setups(code, t)
    if d is None or not ups:
        sys.stderr.write("perdev: %s: struct %s: %s not found\n"
                         % (path, t, "definition" if d is None else "set-up"))
        return 1
    edits = {}
    for idx, indent, obj in ups:
        if obj.startswith("static "):
            name = obj.split()[1]
            lines[idx] = re.sub(r"\s*;", " = { .%s = __SPIN_LOCK_UNLOCKED(%s.%s) };" % (field, name, field),
                                lines[idx], count=1)
        else:
            edits.setdefault(idx, []).append("%sspin_lock_init(&%s%s);" % (indent, obj, field))
    # The field, last in the struct, with the indent of the field before it.
    prev = next((lines[k] for k in range(d[1] - 1, d[0], -1) if lines[k].strip()), "\t")
    fi = re.match(r"\s*", prev).group(0) or "\t"
    out = []
    for i, l in enumerate(lines):
        if i == d[1]:
            out.append("%sspinlock_t %s;\t/* what cli() used to exclude (tools/convert) */" % (fi, field))
        out.append(l)
        out.extend(edits.get(i, []))
    with open(path, "w", encoding="latin-1") as f:
        f.write("\n".join(out))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "apply":
        sys.exit(apply(*sys.argv[2:]))
    sys.stderr.write("usage: perdev.py apply OUT.c STRUCT FIELD\n")
    sys.exit(2)
