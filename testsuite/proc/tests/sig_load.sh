# shellcheck shell=bash disable=SC1091
# Signals on a loaded machine: a SIGALRM every 500 us whose handler
# makes one traced call, while the program makes calls in a loop, with a
# CPU hog on every CPU.  Each delivery must be exactly one signal line,
# and every call of the handler must be traced and finish: a signal that
# arrives while the tracer steps a thread (out of a displaced copy in
# scratch, say) is kept and delivered later, and must be shown once,
# when it is delivered.  Variant: plain; nodefer (SA_NODEFER, 4 threads,
# -f); sys (a system call per turn, -S); x (an entry breakpoint, -x leaf,
# 2 threads, -f).
# variants: plain nodefer sys x
. "$PROC/lib.sh"

threads=1 flags=- opts=()
case $1 in
nodefer) threads=4 flags=n opts=(-f) ;;
sys) flags=s opts=(-S) ;;
x) threads=2 opts=(-x leaf -f) ;;
esac
hogs_start
got=$(lt "${opts[@]}" -o trace "$BIN/sigload" 10000 "$threads" "$flags" 500)
st=$?
[ "$st" = 0 ] || fail "traced: status $st, output: $got" "$(tail -n 3 trace)"
n=${got#deliveries }
lines=$(grep -c -- '--- SIGALRM' trace)
calls=$(grep -c 'strlen("alarm-handler"' trace)
split=$(grep -c 'strlen("alarm-handler" <unfinished' trace)
resumed=$(grep -c '<\.\.\. strlen resumed>' trace)
echo "STAT $n deliveries, $lines signal lines, $calls handler calls"
[ "$n" -gt 0 ] || fail "no delivery: $got"
[ "$lines" = "$n" ] && [ "$calls" = "$n" ] && [ "$split" = "$resumed" ] ||
	fail "$n deliveries, but $lines signal lines and $calls handler calls" \
		"($split split, $resumed resumed)"
exit 0
