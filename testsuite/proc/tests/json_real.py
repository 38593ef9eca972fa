#!/usr/bin/env python3
"""json_real.py JSONL TEXT1 TEXT2: the typed values of a --format=json
trace against the text trace of the same program on the same input.

Each call object is turned into tokens from its JSON values alone (a
number, a string's bytes, null, a symbol...) and each text line (its
"<unfinished ...>" and "<... resumed>" parts joined) into tokens parsed
from ltrace's text; the two multisets must be equal.  The runs are
distinct, so calls whose text differs between two text runs (TEXT1,
TEXT2: times, bytes that hold addresses) are left out, as are addresses
(0x... in the text against a pointer string in the JSON); a few other
values that change between runs may leave calls unmatched, one of the
same function on each side, 5% of the calls at most."""
import collections
import json
import re
import sys

TOKEN = re.compile(r'''
    (?P<bits>~?<[0-9,-]*>)
  | (?P<str>"(?:[^"\\]|\\.)*")(?P<more>\.\.\.)?
  | (?P<chr>'(?:[^'\\]|\\.)*')
  | (?P<float>-?\d+\.\d+)
  | (?P<hex>0x[0-9a-f]+)
  | (?P<oct>0[0-7]+)
  | (?P<dec>-?\d+)
  | (?P<cut>\.\.\.)
  | (?P<word><void>|[A-Za-z_][A-Za-z_0-9^]*)
  | (?P<punct>[\[\]{}<>=~])
  | [(),\s]+''', re.X)
ESC = {'0': 0, 'a': 7, 'b': 8, 't': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13}


def unescape(s):
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] != '\\':
            out += s[i].encode('latin-1')
            i += 1
        elif s[i + 1] in '01234567' and s[i + 1:i + 4].isdigit():
            out.append(int(s[i + 1:i + 4], 8))
            i += 4
        else:
            out.append(ESC.get(s[i + 1], ord(s[i + 1])))
            i += 2
    return bytes(out)


def text_tokens(s):
    """Tokens of ltrace's text S (latin-1: one char a byte)."""
    toks = []
    for m in TOKEN.finditer(s):
        k = m.lastgroup
        if m.group('str'):
            toks.append(('str', unescape(m.group('str')[1:-1])))
            if m.group('more'):
                toks.append(('more',))
        elif k == 'bits':
            b = m.group(k)
            nums = set()
            for r in filter(None, b.strip('~<>').split(',')):
                lo, _, hi = r.partition('-')
                nums |= set(range(int(lo), int(hi or lo) + 1))
            toks.append(('notbits' if b[0] == '~' else 'bits',
                         frozenset(nums)))
        elif k == 'chr':
            toks.append(('str', unescape(m.group('chr')[1:-1])))
        elif k == 'float':
            toks.append(('float', m.group(k)))
        elif k == 'hex':
            toks.append(('hex', int(m.group(k), 16)))
        elif k in ('oct', 'dec'):
            toks.append(('num', int(m.group(k), 8 if k == 'oct' else 10)))
        elif k == 'cut':
            toks.append(('more',) if s[m.end():].lstrip().startswith(']')
                        else ('cut',))
        elif k == 'word':
            w = m.group(k)
            toks.append(('nil',) if w in ('nil', '<void>') else ('word', w))
        elif k == 'punct':
            c = m.group(k)
            toks.append(('open',) if c in '[{' else ('close',)
                        if c in ']}' else ('punct', c))
    return toks


def json_tokens(v, toks):
    """Tokens of JSON value V, from its types alone."""
    if v is None:
        toks.append(('nil',))
    elif v is True or v is False:
        toks.append(('word', 'true' if v else 'false'))
    elif isinstance(v, int):
        toks.append(('num', v))
    elif isinstance(v, float):
        toks.append(('float', '%f' % v))
    elif isinstance(v, str):
        if re.fullmatch('0x[0-9a-f]+', v):
            toks.append(('addr',))
        else:
            toks.append(('str', v.encode('utf-8', 'surrogateescape')))
    elif isinstance(v, list):
        toks.append(('open',))
        for x in v:
            json_tokens(x, toks)
        toks.append(('close',))
    elif set(v) == {'string', 'truncated'}:
        json_tokens(v['string'], toks)
        toks.append(('more',))
    elif set(v) == {'array', 'truncated'}:
        json_tokens(v['array'], toks)
        toks.insert(len(toks) - 1, ('more',))
    elif set(v) == {'symbol', 'value'}:
        toks.append(('word', v['symbol']) if v['symbol'] is not None
                    else ('num', v['value']))
    elif set(v) == {'cut'}:
        toks.append(('cut',))
    elif set(v) == {'recurse'}:
        toks.append(('word', 'recurse' + '^' * v['recurse']))
    else:
        json_tokens(list(v.values()), toks)
    return toks


def call_key(c):
    toks = []
    for a in c['args']:
        json_tokens(a, toks)
    toks.append(('punct', '='))
    json_tokens(c['return'], toks)
    return c['function'], tuple(toks)


def text_calls(path):
    """name -> text after "name(" of each call line, whole."""
    calls, open_ = [], {}
    for line in open(path, encoding='latin-1').read().split('\n'):
        m = re.match(r'<\.\.\. (\S+) resumed> (.*)$', line)
        if m and m.group(1) in open_:
            calls.append((m.group(1), open_.pop(m.group(1)) + m.group(2)))
            continue
        m = re.match(r'([^\s(<]+)\((.*)$', line)
        if not m:
            continue
        if m.group(2).endswith(' <unfinished ...>'):
            open_[m.group(1)] = m.group(2)[:-len(' <unfinished ...>')]
        else:
            calls.append((m.group(1), m.group(2)))
    return calls


def bits_of(jt, i):
    """The set bits of the JSON array at JT[I] ('open'), and past it."""
    nums, i = set(), i + 1
    while i < len(jt) and jt[i][0] == 'num':
        nums.add(jt[i][1])
        i += 1
    return nums, (i + 1 if i < len(jt) and jt[i] == ('close',) else -1)


def same(jt, tt):
    """JSON tokens JT show what text tokens TT show: a hex in the text is
    a pointer or a number (hex()) in the JSON, a bitvec the set bits
    (inverted in the text when most are set: whole bytes of them)."""
    i = 0
    for t in tt:
        if i >= len(jt):
            return False
        if t[0] in ('bits', 'notbits') and jt[i] == ('open',):
            nums, i = bits_of(jt, i)
            if i < 0:
                return False
            if t[0] == 'bits' and nums != t[1]:
                return False
            width = max(nums | t[1] | {0}) // 8 * 8 + 8
            if t[0] == 'notbits' and nums | t[1] != set(range(width)):
                return False
            continue
        if t[0] == 'hex' and jt[i] in (('addr',), ('num', t[1])):
            i += 1
            continue
        if jt[i] != t:
            return False
        i += 1
    return i == len(jt)


def split_stable(a, b):
    """The calls of A whose text, addresses masked, B has too (a
    multiset), and the names of the others (values that vary)."""
    mask = lambda r: re.sub('0x[0-9a-f]+', '0x', r)
    other = collections.Counter((n, mask(r)) for n, r in b)
    stable, vary = [], collections.Counter()
    for name, rest in a:
        if other[(name, mask(rest))]:
            other[(name, mask(rest))] -= 1
            stable.append((name, rest))
        else:
            vary[name] += 1
    return stable, vary


def main():
    jpath, t1, t2 = sys.argv[1:4]
    ev = [json.loads(l) for l in open(jpath, encoding='utf-8')]
    assert ev[0]['event'] == 'trace' and ev[0]['version'] == 2, ev[0]
    calls = [e for e in ev if e.get('event') == 'call']
    a, b = text_calls(t1), text_calls(t2)
    assert len(a) == len(b) == len(calls), (len(a), len(b), len(calls))
    stable, vary = split_stable(a, b)
    by_name = collections.defaultdict(list)
    for name, rest in stable:
        by_name[name].append(tuple(text_tokens(rest)))
    matched, unmatched = 0, collections.Counter()
    for c in calls:
        name, jt = call_key(c)
        cands = by_name[name]
        for i, tt in enumerate(cands):
            if same(jt, tt):
                del cands[i]
                matched += 1
                break
        else:
            unmatched[name] += 1
    # every JSON call not matched is one of a function whose text varies
    # between runs (the text run's call is not among the stable ones) or
    # whose value changed between the JSON run and the text runs (a
    # count of free pages: then a text call of it is left over too)
    left = collections.Counter({k: len(v) for k, v in by_name.items()})
    assert unmatched == +left + vary, (
        'calls that do not match: text %r, JSON %r' %
        ([(k, v[:1]) for k, v in by_name.items() if v][:3],
         unmatched - vary))
    assert sum(left.values()) <= 0.05 * len(calls), left
    assert matched >= 0.8 * len(calls), (matched, len(calls))
    print('STAT %d calls: %d equal, %d vary between text runs, %d not' %
          (len(calls), matched, sum(vary.values()), sum(left.values())))


main()
