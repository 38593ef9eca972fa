#!/usr/bin/env python3
"""Check a -c table: ltrace's layout with strace's errors column (blank
for none), each row's figures consistent (usecs/call, the percentages,
the totals), the minimum seconds a function must show, and the errors
it must count: summary_check.py TABLE NAME=SECONDS... errors:NAME=N..."""
import re
import sys

ROW = re.compile(r'^([ \d]{3}\.\d\d) ([ \d]{4}\.\d{6}) ([ \d]{11}) ([ \d]{9}) '
                 r'([ \d]{9}) (\S+)$')
TOTAL = re.compile(r'^100\.00 ([ \d]{4}\.\d{6}) {13}([ \d]{9}) '
                   r'([ \d]{9}) total$')
DASHES = '------ ----------- ----------- --------- --------- --------------------'


def main():
    lines = open(sys.argv[1]).read().splitlines()
    want = dict(a.split('=') for a in sys.argv[2:])
    assert lines[0] == '% time     seconds  usecs/call     calls    errors function', lines[0]
    assert lines[1] == DASHES and lines[-2] == DASHES, 'dashes'
    rows = [ROW.match(l) for l in lines[2:-2]]
    assert all(rows), 'row layout: %r' % lines[2:-2]
    total = TOTAL.match(lines[-1])
    assert total, 'total layout: %r' % lines[-1]
    secs = [float(r.group(2)) for r in rows]
    assert secs == sorted(secs, reverse=True), 'not sorted by time'
    assert abs(sum(secs) - float(total.group(1))) < 1e-5, 'total seconds'
    calls = sum(int(r.group(4)) for r in rows)
    assert calls == int(total.group(2)), 'total calls'
    assert all(r.group(5).strip() != '0' for r in rows), 'errors 0 not blank'
    assert total.group(3).strip() != '0', 'total errors 0 not blank'
    errors = {r.group(6): int(r.group(5).strip() or 0) for r in rows}
    assert sum(errors.values()) == int(total.group(3).strip() or 0), 'total errors'
    for a, n in want.items():
        if a.startswith('errors:'):
            assert errors.get(a[7:], 0) == int(n), 'errors of %s: %r' % (a[7:], errors)
    pct = sum(float(r.group(1)) for r in rows)
    assert abs(pct - 100) < 0.01 * len(rows) + 0.01, 'percentages %f' % pct
    for r in rows:
        us = round(float(r.group(2)) * 1e6)
        assert int(r.group(3)) == us // int(r.group(4)), 'usecs/call ' + r.group(6)
        if r.group(6) in want:
            assert float(r.group(2)) >= float(want[r.group(6)]), r.group(0)


main()
