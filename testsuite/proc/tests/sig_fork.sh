# shellcheck shell=bash disable=SC1091
# Signals with a handler fall often on a thread that makes traced calls,
# while another thread forks children that make traced calls too.  With
# --fast the tracer runs a signalled thread out of the recorder first,
# with an int3 on the recorder's ways out for that time: a fork then
# copies those int3s into the child, where no tracer would catch them
# (without -f) or where they must be undone (with -f).  Every child must
# exit 0, as untraced, with a CPU hog on every CPU (hogs_start), as on
# a loaded machine.  Variant: nof (children let go), f (-f).
# variants: nof f
. "$PROC/lib.sh"

opts=()
hogs_start
[ "$1" = f ] && opts+=(-f)
want=$("$BIN/sigfork" 20)
[ "$want" = ok ] || fail "untraced: $want"
got=$(lt "${opts[@]}" -o trace "$BIN/sigfork" 200)
st=$?
[ "$st" = 0 ] && [ "$got" = ok ] ||
	fail "traced: status $st, output: $got" "$(tail -n 3 trace | cut -c1-200)"
n=$(grep -c SIGALRM trace)
echo "STAT $n SIGALRM lines"
[ "$n" -gt 0 ] || fail "no SIGALRM in the trace"
exit 0
