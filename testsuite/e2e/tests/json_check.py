#!/usr/bin/env python3
"""Check a --format trace with a real JSON parser:
json_check.py json|chrome TRACE [PYTHON_EXPR...]

Every object must have the fields of its kind with the right types, and
a thread's calls must nest in time (a call that ends inside another
started inside it).  Each PYTHON_EXPR must then be true, evaluated with
`ev` (the objects, in file order) and `calls` (the call objects) bound."""
import json
import sys

JSON_CALL = {'pid': int, 'tid': int, 'timestamp': int, 'duration': float,
             'caller': (str, type(None)), 'library': (str, type(None)),
             'function': str, 'args': list}


def load(kind, path):
    text = open(path).read()
    if kind == 'chrome':
        top = json.loads(text)
        assert set(top) >= {'traceEvents'}, 'no traceEvents'
        return top['traceEvents']
    assert text.endswith('\n'), 'last line not ended'
    return [json.loads(line) for line in text.splitlines()]


def check_json(e):
    kind = e['event']
    if kind in ('call', 'noreturn'):
        for k, t in JSON_CALL.items():
            assert isinstance(e[k], t), '%s: %r' % (k, e)
        assert all(isinstance(a, str) for a in e['args']), e
        assert ('return' in e) == (kind == 'call'), e
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
        assert e['args']['returned'] == ('return' in e['args']), e
        return (e['tid'], e['ts'], e['ts'] + e['dur'])
    assert e['ph'] == 'i' and e['s'] == 't', e
    return None


def check_nesting(spans):
    """Per thread, no two calls overlap without one containing the other."""
    by_tid = {}
    for tid, a, b in spans:
        by_tid.setdefault(tid, []).append((a, -b))
    for v in by_tid.values():
        stack = []
        for a, nb in sorted(v):
            b = -nb
            while stack and stack[-1] <= a:
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
        assert eval(expr, {'ev': ev, 'calls': calls}), expr


main()
