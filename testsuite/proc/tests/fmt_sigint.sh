# shellcheck shell=bash disable=SC1091
# --format=chrome and -c when the tracer is stopped by SIGINT in the
# middle of a busy trace: the chrome file is still valid JSON (its array
# closed on the termination path) with the calls so far, the -c table is
# written; the program runs on, detached, and ends normally.
# variants: chrome json count
. "$PROC/lib.sh"

case $1 in
chrome) opts=(--format=chrome) ;;
json) opts=(--format=json) ;;
count) opts=(-c) ;;
esac
lt_bg "${opts[@]}" -o trace "$BIN/loop" a.ready a.stop
t=$!
tracer_pid "$t"
wait_file a.ready || fail "program never ready"
p=$(cat a.ready)
cleanup_pids+=("$p")
sleep 0.3
kill -INT "$tpid"
wait "$t" 2>/dev/null
touch a.stop
wait_gone "$p" 10 || fail "the program (pid $p) did not end after a.stop"
python3 - "$1" trace <<'PY' || fail "bad trace: $(head -c 300 trace)"
import json, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path).read()
if kind == 'chrome':
    ev = json.loads(text)['traceEvents']
    calls = [e for e in ev if e['ph'] == 'X' and e['name'] == 'atol']
    assert calls and all(e['dur'] >= 0 for e in calls), 'no atol events'
    print('STAT %d events, %d bytes' % (len(ev), len(text)))
elif kind == 'json':
    ev = [json.loads(l) for l in text.splitlines()]
    assert any(e.get('function') == 'atol' for e in ev), 'no atol objects'
    print('STAT %d objects' % len(ev))
else:
    assert text.startswith('% time     seconds'), 'no table'
    assert text.splitlines()[-1].endswith(' total'), 'no total row'
    assert ' atol\n' in text, 'no atol row'
PY
exit 0
