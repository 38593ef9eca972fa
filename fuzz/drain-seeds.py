#!/usr/bin/env python3
"""Write the drain target's seeds (fuzz/drain.c) into fuzz/corpus/drain/.

Each seed is a well-formed ring as an honest recorder leaves it: calls
and returns of the target's functions with the chunks their plans copy
(strings, arrays, structs, the stack, xmm registers), pads at the end of
a lap, a synchronous record on the stack, and a writer that appends and
commits records while the tracer drains.  The layouts are those of
sysdeps/linux-gnu/recorder/ring.h and plan.h, and of struct head and
struct op in fuzz/drain.c: change them together.

    fuzz/drain-seeds.py [DIR]      (default: fuzz/corpus/drain)
"""
import os
import struct
import sys

# fuzz/drain.c
RING_MIN = 512
DATA_AT = 512
HEAD_AT, TAIL_AT = 128, 256  # offsetof(struct rec_shared, head/tail)
OP_DRAIN, OP_SYNC, OP_WRITE, OP_HEAD = range(4)
(F_PUTS, F_MEMCPY, F_PIPE2, F_ATAN2, F_PRINTF, F_STRTOL, F_NANOSLEEP,
 F_EXECVE, F_WRITEV, F_SUM8, F_FMAXF, F_NOPROTO) = range(12)
TCB = [0x7f5510000700, 0x7f5511000700, 0x7f5512000700]

# ring.h, plan.h
REC_PAD, REC_CALL, REC_RETURN = 1, 2, 3
REC_CALL_HOOKED, REC_CALL_TAIL = 1, 2
REC_SYNC_BIT = 1 << 63
PLAN_FPR_ADDR = 0xfff0000000000000
CALL_SIZE, RETURN_SIZE = 112, 112
REC_RETURN_ERRNO, REC_RETURN_ERRNO_ENTRY = 16, 32


def align16(n):
    return (n + 15) & ~15


def chunk(addr, data, wanted=None):
    """A plan chunk: LEN bytes copied from ADDR, padded to 8."""
    wanted = len(data) if wanted is None else wanted
    pad = (-len(data)) % 8
    return struct.pack('<QII', addr, len(data), wanted) + data + bytes(pad)


def cstr(addr, s):
    return chunk(addr, s.encode() + b'\0')


def hdr(pos, size, typ, flags=0):
    return struct.pack('<QIHH', pos + 1, size, typ, flags)


def call(pos, func, regs, chunks=b'', thread=0, sp=0x7ffd1000,
         site=0x401200, flags=REC_CALL_HOOKED):
    """A call's record at position POS (its commit word POS + 1)."""
    size = align16(CALL_SIZE + len(chunks))
    regs = (list(regs) + [0] * 7)[:7]
    body = struct.pack('<QQIIQQ7Q', TCB[thread], 0, func, len(chunks),
                       site, sp, *regs)
    rec = hdr(pos, size, REC_CALL, flags) + body + chunks
    return rec + bytes(size - len(rec))


def ret(pos, func, call_pos, rax, chunks=b'', thread=0, sp=0x7ffd1000,
        site=0x401200, xmm0=bytes(16), rdx=0, err=None, err_entry=None):
    """The return of the call at CALL_POS (SP, SITE: the call's); ERR
    and ERR_ENTRY: the errno the recorder read at the return and at
    the entry, if it did."""
    size = align16(RETURN_SIZE + len(chunks))
    flags = ((REC_RETURN_ERRNO if err is not None else 0) |
             (REC_RETURN_ERRNO_ENTRY if err_entry is not None else 0))
    body = struct.pack('<QQIIQQQ16sQQiiQ', TCB[thread], 0, func,
                       len(chunks), call_pos, rax, rdx, xmm0, sp + 8, site,
                       err or 0, err_entry or 0, 0)
    rec = hdr(pos, size, REC_RETURN, flags) + body + chunks
    return rec + bytes(size - len(rec))


def pad(pos, size):
    return hdr(pos, size, REC_PAD) + bytes(size - 16)


class Ring:
    """Records appended from position TAIL, as writers reserve them."""

    def __init__(self, shift, tail=0):
        self.size = RING_MIN << shift
        self.shift = shift
        self.tail = self.pos = tail
        self.data = bytearray(self.size)

    def put(self, make, *args, **kw):
        rec = make(self.pos, *args, **kw)
        off = self.pos % self.size
        if off + len(rec) > self.size:  # a pad to the lap's end
            self.put_raw(pad(self.pos, self.size - off))
            rec = make(self.pos, *args, **kw)
        self.put_raw(rec)
        return self.pos - len(rec)

    def put_raw(self, rec):
        off = self.pos % self.size
        self.data[off:off + len(rec)] = rec
        self.pos += len(rec)


def seed(ring, ops, stack=b'', filled=None):
    filled = ring.pos - ring.tail if filled is None else filled
    head = struct.pack('<BBHIQ', ring.shift, len(ops), 0, filled, ring.tail)
    body = b''.join(struct.pack('<BBHIQ', k, when, where, 0, value)
                    for k, when, where, value in ops)
    image = bytes(ring.data)
    return head + body + (image + stack if stack else image.rstrip(b'\0'))


S = 0x7ffd2000  # where the strings the chunks copied were


def calls_returns():
    r = Ring(2)
    c = r.put(call, F_PUTS, [S], cstr(S, 'hello, world'))
    r.put(ret, F_PUTS, c, 13)
    c = r.put(call, F_MEMCPY, [0x601000, S, 6], chunk(S, b'abcdef'))
    r.put(ret, F_MEMCPY, c, 0x601000)
    c = r.put(call, F_PIPE2, [S, 0x80000])
    r.put(ret, F_PIPE2, c, 0, chunk(S, struct.pack('<ii', 3, 4)))
    c = r.put(call, F_STRTOL, [S, S + 64, 10], cstr(S, '1234xyz'))
    r.put(ret, F_STRTOL, c, 1234,
          chunk(S + 64, struct.pack('<Q', S + 4)) + cstr(S + 4, 'xyz'))
    c = r.put(call, F_NOPROTO, [1, 2, 3])
    r.put(ret, F_NOPROTO, c, 7)
    return seed(r, [(OP_DRAIN, 0, 0, 0)])


def errnos():
    """Failures with errno(...) clauses: pipe2's -1 with EMFILE (24),
    strtol's ERANGE (34) where errno changed (0 at the entry) and where
    it did not; a pipe2 that succeeds with errno still set."""
    r = Ring(2)
    c = r.put(call, F_PIPE2, [S, 0])
    r.put(ret, F_PIPE2, c, (1 << 32) - 1, err=24)
    c = r.put(call, F_STRTOL, [S, 0, 10], cstr(S, '99999999999999999999'))
    r.put(ret, F_STRTOL, c, (1 << 63) - 1, err=34, err_entry=0)
    c = r.put(call, F_STRTOL, [S, 0, 10], cstr(S, '12'))
    r.put(ret, F_STRTOL, c, 12, err=34, err_entry=34)
    c = r.put(call, F_PIPE2, [S, 0])
    r.put(ret, F_PIPE2, c, 0, chunk(S, struct.pack('<ii', 3, 4)), err=24)
    return seed(r, [(OP_DRAIN, 0, 0, 0)])


def structs_arrays():
    r = Ring(3)
    c = r.put(call, F_NANOSLEEP, [S, S + 16],
              chunk(S, struct.pack('<qq', 1, 500)))
    r.put(ret, F_NANOSLEEP, c, 0, chunk(S + 16, struct.pack('<qq', 0, 7)))
    argv = struct.pack('<QQQ', S + 0x100, S + 0x110, 0)
    envp = struct.pack('<QQQ', S + 0x120, 0, 0)
    c = r.put(call, F_EXECVE, [S + 0x100, S + 0x80, S + 0xa0],
              chunk(S + 0x80, argv) + chunk(S + 0xa0, envp) +
              cstr(S + 0x100, '/bin/true') + cstr(S + 0x110, '-x') +
              cstr(S + 0x120, 'HOME=/'))
    r.put(ret, F_EXECVE, c, (1 << 64) - 2)
    iov = struct.pack('<QQQQ', S + 0x40, 3, S + 0x50, 2)
    c = r.put(call, F_WRITEV, [1, S, 2],
              chunk(S, iov) + chunk(S + 0x40, b'abc') +
              chunk(S + 0x50, b'de'))
    r.put(ret, F_WRITEV, c, 5)
    return seed(r, [(OP_DRAIN, 0, 0, 0), (OP_DRAIN, 0, 0, 0)])


def floats_stack_format():
    r = Ring(3)
    xmm = struct.pack('<dd', 1.5, 0) + struct.pack('<dd', -2.25, 0)
    xmm += bytes(128 - len(xmm))
    c = r.put(call, F_ATAN2, [], chunk(PLAN_FPR_ADDR, xmm))
    r.put(ret, F_ATAN2, c, 0, xmm0=struct.pack('<dd', 2.55, 0))
    fx = struct.pack('<f12xf', 0.5, 3.0) + bytes(108)
    c = r.put(call, F_FMAXF, [], chunk(PLAN_FPR_ADDR, fx))
    r.put(ret, F_FMAXF, c, 0, xmm0=struct.pack('<f', 3.0) + bytes(12))
    sp = 0x7ffd1000
    stack = struct.pack('<QqQ', 0x401200, -9, S)
    c = r.put(call, F_SUM8, [1, 65, 3, 4, 5, 6],
              chunk(sp, stack) + cstr(S, 'on the stack'), sp=sp)
    r.put(ret, F_SUM8, c, 42)
    c = r.put(call, F_PRINTF, [S, S + 32, 7, S + 48],
              cstr(S, '%s %d %.3s %f\n') + cstr(S + 32, 'word') +
              cstr(S + 48, 'abcdef') + chunk(PLAN_FPR_ADDR, xmm))
    r.put(ret, F_PRINTF, c, 20)
    return seed(r, [(OP_DRAIN, 0, 0, 0)])


def threads_nested():
    """Two threads, one unknown TLS, a nested call, a tail call, a
    return with no call, and a call whose return is never seen."""
    r = Ring(2)
    outer = r.put(call, F_PUTS, [S], cstr(S, 'outer'), sp=0x7ffd1000)
    other = r.put(call, F_PUTS, [S], cstr(S, 'thread 2'), thread=1)
    inner = r.put(call, F_MEMCPY, [0x601000, S, 2], chunk(S, b'in'),
                  sp=0x7ffd0e00, site=0x401300)
    r.put(call, F_PIPE2, [S, 0], sp=0x7ffd0e00, site=0x401300,
          flags=REC_CALL_HOOKED | REC_CALL_TAIL)
    r.put(ret, F_MEMCPY, inner, 0x601000, sp=0x7ffd0e00, site=0x401300)
    r.put(ret, F_PUTS, other, 9, thread=1)
    r.put(ret, F_PUTS, outer, 6)
    r.put(ret, F_PUTS, 0, 1, site=0x999999)
    r.put(call, F_PUTS, [S], cstr(S, 'unknown thread'), thread=2)
    r.put(call, 500, [0])
    return seed(r, [(OP_DRAIN, 0, 0, 0)])


def wrap():
    """A ring drained across the end of its lap: a pad, then records
    at its start, copied in two spans."""
    r = Ring(0, tail=3 * RING_MIN + 288)
    c = r.put(call, F_PUTS, [S], cstr(S, 'lap 3'))
    r.put(ret, F_PUTS, c, 6)
    r.put(call, F_PUTS, [S], cstr(S, 'lap 4'))
    return seed(r, [(OP_DRAIN, 0, 0, 0)])


def writer():
    """The head read empty, then a writer that commits two records and
    moves the head between drains, and one left uncommitted."""
    r = Ring(1)
    c = r.put(call, F_PUTS, [S], cstr(S, 'late'))
    second = r.pos
    r.put(ret, F_PUTS, c, 5)
    third = r.pos
    r.put(call, F_PUTS, [S], cstr(S, 'never committed'))
    committed = bytes(r.data[second:second + 8])
    r.data[second:second + 8] = bytes(8)
    r.data[third:third + 8] = bytes(8)
    value = struct.unpack('<Q', committed)[0]
    ops = [(OP_DRAIN, 0, 0, 0),
           (OP_HEAD, 0, r.pos // 16, 0),
           (OP_DRAIN, 0, 0, 0),
           (OP_WRITE, 0, (DATA_AT + second) // 4, value),
           (OP_DRAIN, 0, 0, 0),
           (OP_DRAIN, 0, 0, 0)]
    return seed(r, ops, filled=0)


def sync():
    """A signal handler's record on the stack (after records in the
    ring), and its return later in the ring; the writer changes the
    record's time stamp between the tracer's two reads of it."""
    r = Ring(1)
    c = r.put(call, F_MEMCPY, [0x601000, S, 3], chunk(S, b'xyz'))
    r.put(ret, F_MEMCPY, c, 0x601000)
    rec = call(REC_SYNC_BIT | 1, F_EXECVE, [S + 0x100, S + 0x80, 0],
               chunk(S + 0x80, struct.pack('<QQ', S + 0x100, 0)) +
               cstr(S + 0x100, '/bin/sh'), sp=0x7ffd0800, site=0x401400)
    rec = struct.pack('<Q', 0) + rec[8:]
    filled = r.pos - r.tail
    r.put(ret, F_EXECVE, REC_SYNC_BIT | 1, 0, sp=0x7ffd0800,
          site=0x401400)
    tsc_at = DATA_AT + r.size + 24
    # The sync reads the head, the ring (one span), the record's
    # header, then the record: the write lands between the last two.
    ops = [(OP_WRITE, 3, tsc_at // 4, 12345),
           (OP_SYNC, 0, r.size // 16, 0),
           (OP_HEAD, 0, (r.pos - r.tail - filled) // 16, 0),
           (OP_DRAIN, 0, 0, 0)]
    return seed(r, ops, stack=rec, filled=filled)


def sync_rewrite():
    """A synchronous record whose header and counts the writer stores
    again, unchanged, between the tracer's two reads of it (a thread of
    the program writing its own stack, as the double fetch of issue 25
    needs: with other values the second read disagrees with the
    first)."""
    r = Ring(0)
    rec = call(REC_SYNC_BIT | 2, F_PUTS, [S], cstr(S, 'from a handler'),
               sp=0x7ffd0800, site=0x401400)
    at = DATA_AT + r.size
    words = [struct.unpack('<Q', rec[o:o + 8])[0] for o in (8, 32)]
    # The sync reads the head (an empty ring), the record's header, then
    # the record: both writes land before the last.
    ops = [(OP_WRITE, 2, (at + 8) // 4, words[0]),
           (OP_WRITE, 2, (at + 32) // 4, words[1]),
           (OP_SYNC, 0, r.size // 16, 0)]
    return seed(r, ops, stack=rec, filled=0)


def sync_overlong():
    """A hostile synchronous record of the largest size the tracer
    takes (its chunks fill it): its count of chunk bytes runs past that
    size (the tracer must refuse it), and a thread stores its header
    again between the tracer's two reads, for now unchanged."""
    r = Ring(0)
    rec = bytearray(call(REC_SYNC_BIT | 3, F_PUTS, [S],
                         cstr(S, 'x' * (880 - CALL_SIZE - 16 - 1)),
                         sp=0x7ffd0800, site=0x401400))
    assert len(rec) == 880  # fastdrain_sync's buffer
    struct.pack_into('<I', rec, 36, 0x800)  # used
    at = DATA_AT + r.size
    word = struct.unpack('<Q', bytes(rec[8:16]))[0]
    ops = [(OP_WRITE, 2, (at + 8) // 4, word),
           (OP_SYNC, 0, r.size // 16, 0)]
    return seed(r, ops, stack=bytes(rec), filled=0)


SEEDS = [calls_returns, errnos, structs_arrays, floats_stack_format,
         threads_nested, wrap, writer, sync, sync_rewrite, sync_overlong]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'corpus', 'drain')
    os.makedirs(out, exist_ok=True)
    for make in SEEDS:
        with open(os.path.join(out, make.__name__), 'wb') as f:
            f.write(make())


if __name__ == '__main__':
    main()
