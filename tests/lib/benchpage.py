# SPDX-License-Identifier: GPL-2.0
"""benchpage.py - put a section into tests/bench's build/bench/index.html.

Each writer (bench-devices.py, cost-scaling.py) marks its section with
<!-- NAME --> ... <!-- /NAME -->, so that a later run replaces it instead of
adding a second one.
"""
import os
import re


def put_section(path, name, section):
    """Put SECTION (marked with NAME) before PATH's </body>, replacing an
    earlier one. False when there is no page or it has no </body>."""
    if not os.path.exists(path):
        return False
    with open(path) as f:
        page = f.read()
    page = re.sub(r"<!-- %s -->.*<!-- /%s -->\n" % (re.escape(name), re.escape(name)), "",
                  page, flags=re.S)
    if "</body>" not in page:
        return False
    with open(path, "w") as f:
        f.write(page.replace("</body>", section + "</body>"))
    return True
