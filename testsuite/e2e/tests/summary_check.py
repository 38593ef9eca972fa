#!/usr/bin/env python3
"""Check a -c table: ltrace's layout, each row's figures consistent
(usecs/call, the percentages, the total), and the minimum seconds a
function must show: summary_check.py TABLE NAME=SECONDS..."""
import re
import sys

ROW = re.compile(r'^([ \d]{3}\.\d\d) ([ \d]{4}\.\d{6}) ([ \d]{11}) ([ \d]{9}) (\S+)$')
TOTAL = re.compile(r'^100\.00 ([ \d]{4}\.\d{6}) {13}([ \d]{9}) total$')
DASHES = '------ ----------- ----------- --------- --------------------'


def main():
    lines = open(sys.argv[1]).read().splitlines()
    want = dict(a.split('=') for a in sys.argv[2:])
    assert lines[0] == '% time     seconds  usecs/call     calls      function', lines[0]
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
    pct = sum(float(r.group(1)) for r in rows)
    assert abs(pct - 100) < 0.01 * len(rows) + 0.01, 'percentages %f' % pct
    for r in rows:
        us = round(float(r.group(2)) * 1e6)
        assert int(r.group(3)) == us // int(r.group(4)), 'usecs/call ' + r.group(5)
        if r.group(5) in want:
            assert float(r.group(2)) >= float(want[r.group(5)]), r.group(0)


main()
