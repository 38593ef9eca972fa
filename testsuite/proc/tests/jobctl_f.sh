# shellcheck shell=bash disable=SC1091
# Job control with -f: the real parent sees its traced child stop
# (WUNTRACED), continue (WCONTINUED) and exit, exactly as untraced; the
# child's trace shows the stop and the continue.
. "$PROC/lib.sh"

"$BIN/jobctl" >out.plain 2>&1
st_plain=$?
lt -f -o trace "$BIN/jobctl" >out.traced 2>err.traced
st=$?
[ "$st" = "$st_plain" ] || fail "tracer exit $st, untraced $st_plain" "$(cat out.traced trace)"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)" "(trace: $(cat trace))"
canon trace >canon
grep -q '^P2 raise(SIGSTOP <unfinished \.\.\.>$' canon &&
grep -q '^P2 --- SIGSTOP (Stopped (signal)) ---$' canon &&
grep -q '^P2 --- SIGCONT (Continued) ---$' canon &&
grep -q '^P2 +++ exited (status 4) +++$' canon &&
grep -q '^P1 kill(P2, SIGCONT) = 0$' canon || fail "trace:" "$(cat canon)"
