#!/usr/bin/env python3
"""Make a struct member's type another struct in an object's .debug_info,
for the hostile_dwarf_* tests, with binutils' readelf only:

  hostile_dwarf.py FILE STRUCT MEMBER TARGET

points DW_AT_type of member MEMBER of struct STRUCT at struct TARGET
(STRUCT itself makes a struct that contains itself by value).  The
attribute must be a 4-byte CU-relative reference (DW_FORM_ref4, GCC's
form) in an uncompressed .debug_info; the old value is checked first.
"""
import re
import struct
import subprocess
import sys

DIE = re.compile(r"^\s*<(\d+)><([0-9a-f]+)>: Abbrev Number: \d+ \((\w+)\)")
ATTR = re.compile(r"^\s*<([0-9a-f]+)>\s+(DW_AT_\w+)\s*:\s*(.*)$")


def dies(path):
    """Yield [depth, offset, tag, cu, {attr: (offset, value)}] per DIE."""
    out = subprocess.run(["readelf", "--debug-dump=info", path], check=True,
                         capture_output=True, text=True).stdout
    cu, die = 0, None
    for line in out.splitlines():
        m = re.match(r"^\s*Compilation Unit @ offset (0x[0-9a-f]+|0):", line)
        if m:
            cu = int(m.group(1), 16)
            continue
        m = DIE.match(line)
        if m:
            if die:
                yield die
            die = [int(m.group(1)), int(m.group(2), 16), m.group(3), cu, {}]
            continue
        m = ATTR.match(line)
        if m and die:
            die[4][m.group(2)] = (int(m.group(1), 16), m.group(3))
    if die:
        yield die


def name(die):
    v = die[4].get("DW_AT_name", (0, ""))[1]
    return v.rsplit(": ", 1)[-1].strip()


def section_offset(path, sec):
    out = subprocess.run(["readelf", "-SW", path], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == sec:
            return int(f[4], 16)
    sys.exit("no " + sec + " in " + path)


def main():
    path, sname, mname, tname = sys.argv[1:5]
    all_dies = list(dies(path))
    structs = {name(d): d for d in all_dies if d[2] == "DW_TAG_structure_type"}
    target, owner = structs[tname], structs[sname]
    i = all_dies.index(owner) + 1
    while i < len(all_dies) and all_dies[i][0] > owner[0]:
        d = all_dies[i]
        if d[0] == owner[0] + 1 and d[2] == "DW_TAG_member" and name(d) == mname:
            break
        i += 1
    else:
        sys.exit("no member " + mname + " in struct " + sname)
    off, val = d[4]["DW_AT_type"]
    old = int(val.strip("<>"), 16) - d[3]
    at = section_offset(path, ".debug_info") + off
    data = bytearray(open(path, "rb").read())
    if struct.unpack_from("<I", data, at)[0] != old:
        sys.exit("DW_AT_type of %s.%s is not a ref4" % (sname, mname))
    struct.pack_into("<I", data, at, target[1] - target[3])
    open(path, "wb").write(data)


main()
