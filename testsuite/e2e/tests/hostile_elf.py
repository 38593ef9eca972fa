#!/usr/bin/env python3
"""Edit an ELF64 little-endian file's section headers, which the loader
ignores, for the hostile_elf_* tests:

  hostile_elf.py noshdr FILE          drop the section header table
                                      (e_shoff, e_shnum, e_shstrndx = 0)
  hostile_elf.py sstrip FILE          as sstrip: drop the table, and cut
                                      the file after the end of the last
                                      PT_LOAD segment's bytes (.symtab,
                                      .strtab, the table itself)
  hostile_elf.py garbage FILE         point the table (its entries and
                                      its count kept) at the first
                                      executable segment's code
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


def loads(data):
    """(p_flags, p_offset, p_filesz) of each PT_LOAD."""
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        at = phoff + i * phentsize
        ptype, flags, off = struct.unpack_from("<IIQ", data, at)
        filesz, = struct.unpack_from("<Q", data, at + 0x20)
        if ptype == 1:
            yield flags, off, filesz


def noshdr(data):
    struct.pack_into("<Q", data, 0x28, 0)
    struct.pack_into("<HH", data, 0x3C, 0, 0)


def sstrip(data):
    noshdr(data)
    end = max(off + filesz for _, off, filesz in loads(data))
    del data[end:]


def garbage(data):
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    code = min(off for flags, off, _ in loads(data) if flags & 1)
    at = min(code, len(data) - shnum * shentsize) & ~7
    struct.pack_into("<Q", data, 0x28, at)


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("not an ELF64 LSB file: " + path)
    if cmd == "noshdr":
        noshdr(data)
    elif cmd == "sstrip":
        sstrip(data)
    elif cmd == "garbage":
        garbage(data)
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
