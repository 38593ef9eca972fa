#!/usr/bin/env python3
"""Edit an ELF64 little-endian file's section headers, which the loader
ignores, for the hostile_elf_* tests:

  hostile_elf.py noshdr FILE          drop the section header table
                                      (e_shoff, e_shnum, e_shstrndx = 0)
  hostile_elf.py move FILE NAME DELTA add DELTA to section NAME's sh_addr
"""
import struct
import sys


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    strtab_off, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        at = shoff + i * shentsize
        name_off, = struct.unpack_from("<I", data, at)
        end = data.index(b"\0", strtab_off + name_off)
        yield data[strtab_off + name_off:end].decode(), at


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("not an ELF64 LSB file: " + path)
    if cmd == "noshdr":
        struct.pack_into("<Q", data, 0x28, 0)
        struct.pack_into("<HH", data, 0x3C, 0, 0)
    elif cmd == "move":
        name, delta = sys.argv[3], int(sys.argv[4], 0)
        hits = [at for n, at in sections(data) if n == name]
        if not hits:
            sys.exit("no section " + name + " in " + path)
        addr, = struct.unpack_from("<Q", data, hits[0] + 0x10)
        struct.pack_into("<Q", data, hits[0] + 0x10, addr + delta)
    else:
        sys.exit("unknown command " + cmd)
    open(path, "wb").write(data)


main()
