# shellcheck shell=bash disable=SC1091
# A SIGTRAP sent to the program by another process (kill -TRAP PID from
# outside) is the program's own: it runs its handler once, or dies of
# it, as untraced; the tracer's status is the program's.  Variant: h (a
# handler) or d (default action), t (4 threads, any of which may take
# the signal; with -f, so that its line shows whichever it is), p
# (attached with -p instead of launched).  The program is
# bin/sigcatch.
# variants: h d ht dt hp dp htp
. "$PROC/lib.sh"

v=$1
mode=h nt=1 opts=()
case $v in *d*) mode=d ;; esac
case $v in *t*) nt=4 opts+=(-f) ;; esac
args=(r out 5 "$mode" "$nt")

"$BIN/sigcatch" "${args[@]}" &
p=$!
cleanup() { kill -9 "$p" 2>/dev/null; }
trap cleanup EXIT
wait_file r || fail "untraced program never ready"
kill -TRAP "$p"
wait "$p"
want=$?
want_out=$(cat out 2>/dev/null)
rm -f r out
[ "$mode" = h ] && [ "$want_out" != "handled 5 1" ] &&
	fail "untraced: '$want_out' status $want"
[ "$mode" = d ] && [ "$want" != 133 ] && fail "untraced: status $want"

case $v in
*p*)
	"$BIN/sigcatch" "${args[@]}" &
	p=$!
	wait_file r || fail "program never ready"
	lt "${opts[@]}" -o trace -p "$p" &
	t=$!
	wait_grep 'atol' trace || fail "tracer never attached: $(cat trace)"
	kill -TRAP "$p"
	wait "$p"
	got=$?
	wait "$t" # the trace is complete once the tracer has ended
	;;
*)
	lt "${opts[@]}" -o trace "$BIN/sigcatch" "${args[@]}" &
	t=$!
	wait_file r || fail "program never ready"
	p=$(cat r)
	kill -TRAP "$p"
	wait "$t"
	got=$?
	;;
esac
got_out=$(cat out 2>/dev/null)
[ "$got_out" = "$want_out" ] ||
	fail "traced: program wrote '$got_out', untraced '$want_out'" "$(tail -5 trace)"
[ "$got" = "$want" ] || fail "traced: status $got, untraced $want" "$(tail -5 trace)"
grep -q -- '--- SIGTRAP (Trace/breakpoint trap) ---$' trace ||
	fail "no SIGTRAP line in the trace:" "$(tail -5 trace)"
exit 0
