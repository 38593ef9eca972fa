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
# PROC_SMALL (testsuite/aarch64, under emulation): 10 children and a
# SIGALRM every 10 ms.  There a ptrace stop for a signal takes 1-3 ms
# (measured in the VM), longer than the 2 kHz period: the thread that
# takes SIGALRM returns from its handler into the next one without
# running an instruction of its own, and the run crawls (in the VM,
# strace -f saw 22 of 200 children exit in 30 s); and with -f each
# child's 100 traced calls take about 2 s there.
. "$PROC/lib.sh"

n=200 usec=500
[ -n "${PROC_SMALL:-}" ] && n=10 usec=10000
opts=()
hogs_start
[ "$1" = f ] && opts+=(-f)
want=$("$BIN/sigfork" 20 "$usec")
[ "$want" = ok ] || fail "untraced: $want"
got=$(lt "${opts[@]}" -o trace "$BIN/sigfork" "$n" "$usec")
st=$?
[ "$st" = 0 ] && [ "$got" = ok ] ||
	fail "traced: status $st, output: $got" "$(tail -n 3 trace | cut -c1-200)"
n=$(grep -c SIGALRM trace)
echo "STAT $n SIGALRM lines"
[ "$n" -gt 0 ] || fail "no SIGALRM in the trace"
exit 0
