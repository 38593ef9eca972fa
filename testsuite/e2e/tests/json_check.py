#!/usr/bin/env python3
"""Check a --format trace with a real JSON parser:
json_check.py json|chrome TRACE [PYTHON_EXPR...]

The first line (JSON Lines) or "otherData" (chrome) must carry the
schema's version, 2; every object must have the fields of its kind with
the right types, every value (argument, return value) one of the forms
ltrace(1) documents, and a thread's calls must nest in time (a call
that ends inside another started inside it).  Each PYTHON_EXPR must
then be true, evaluated with `ev` (the objects after the "trace" line,
in file order), `calls` (the call objects) and `raw` (bytes of a string
value: raw(calls[0]['args'][0])) bound."""
import json
import re
import sys

VERSION = 2


def raw(s):
    """The bytes a string value stands for (\\udcXX is byte XX)."""
    if isinstance(s, dict):
        s = s['string']
    return s.encode('utf-8', 'surrogateescape')


def check_value(v):
    """V is a value of the schema: a number, a string (pointers
    "0x..."), null, a bool, an array of values, or one of the objects."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return
    if isinstance(v, list):
        for x in v:
            check_value(x)
        return
    assert isinstance(v, dict), v
    keys = set(v)
    if keys == {'string', 'truncated'}:
        assert isinstance(v['string'], str) and v['truncated'] is True, v
    elif keys == {'array', 'truncated'}:
        assert isinstance(v['array'], list) and v['truncated'] is True, v
        check_value(v['array'])
    elif keys == {'symbol', 'value'}:
        assert isinstance(v['symbol'], (str, type(None))), v
        assert isinstance(v['value'], int), v
    elif keys == {'cut'}:
        assert v['cut'] is True, v
    elif keys == {'recurse'}:
        assert isinstance(v['recurse'], int) and v['recurse'] >= 0, v
    else:  # a struct with named members
        for x in v.values():
            check_value(x)


def check_frame(f):
    assert re.fullmatch('0x[0-9a-f]+', f['address']), f
    assert isinstance(f['object'], str), f
    assert isinstance(f['function'], (str, type(None))), f
    assert isinstance(f['offset'], (int, type(None))), f

JSON_CALL = {'pid': int, 'tid': int, 'timestamp': int, 'duration': float,
             'caller': (str, type(None)), 'library': (str, type(None)),
             'function': str, 'args': list}


def load(kind, path):
    text = open(path).read()
    if kind == 'chrome':
        top = json.loads(text)
        assert set(top) >= {'traceEvents'}, 'no traceEvents'
        assert top['otherData'] == {'version': VERSION}, top['otherData']
        return top['traceEvents']
    assert text.endswith('\n'), 'last line not ended'
    ev = [json.loads(line) for line in text.splitlines()]
    assert ev[0]['event'] == 'trace' and ev[0]['version'] == VERSION, ev[0]
    assert isinstance(ev[0]['timestamp'], int), ev[0]
    return ev[1:]


def check_json(e):
    kind = e['event']
    if kind in ('call', 'noreturn'):
        for k, t in JSON_CALL.items():
            assert isinstance(e[k], t), '%s: %r' % (k, e)
        check_value(e['args'])
        assert ('return' in e) == (kind == 'call'), e
        check_value(e.get('return'))
        for f in e.get('backtrace', []):
            check_frame(f)
        return (e['tid'], e['timestamp'], e['timestamp'] + e['duration'])
    assert kind in ('signal', 'exit', 'killed', 'exec', 'line'), e
    assert isinstance(e['timestamp'], int) and isinstance(e['pid'], int), e
    if kind == 'exit':
        assert isinstance(e['status'], int), e
    return None


def check_chrome(e):
    assert isinstance(e['pid'], int) and isinstance(e['tid'], int), e
    assert isinstance(e['ts'], (int, float)) and isinstance(e['name'], str), e
    if e['ph'] == 'X':
        assert e['dur'] >= 0 and isinstance(e['args']['args'], list), e
        check_value(e['args']['args'])
        check_value(e['args'].get('return'))
        assert e['args']['returned'] == ('return' in e['args']), e
        return (e['tid'], e['ts'], e['ts'] + e['dur'])
    assert e['ph'] == 'i' and e['s'] == 't', e
    return None


def check_nesting(spans):
    """Per thread, no two calls overlap without one containing the other.

    A JSON timestamp is whole microseconds (truncated) and a duration is
    exact, so a span may end up to 1 us after the true end: a call that
    starts within 1 us of the end of the one before follows it (--fast
    makes calls well under a microsecond apart)."""
    by_tid = {}
    for tid, a, b in spans:
        by_tid.setdefault(tid, []).append((a, -b))
    for v in by_tid.values():
        stack = []
        for a, nb in sorted(v):
            b = -nb
            while stack and stack[-1] <= a + 1:
                stack.pop()
            assert not stack or b <= stack[-1] + 1, 'calls overlap'
            stack.append(b)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    ev = load(kind, path)
    check = check_chrome if kind == 'chrome' else check_json
    spans = [s for s in map(check, ev) if s]
    check_nesting(spans)
    calls = [e for e in ev if e.get('event', e.get('cat')) == 'call']
    for expr in sys.argv[3:]:
        assert eval(expr, {'ev': ev, 'calls': calls, 'raw': raw}), expr


main()
