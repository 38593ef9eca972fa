# shellcheck shell=bash disable=SC1091
# Calls that never return (progs/pending_flood.c): bsearch left by a
# longjmp from its callback, all pending at once as tail calls of each
# other; under --fast also 8 million call records written into the
# recorder's ring by the program.  The tracer keeps CALLS_MAX_FRAMES
# (131072) pending calls a thread, drops the oldest past that and says
# so once; its peak RSS stays under 256 MiB (each frame kept took 64
# bytes: 8 million, 520 MiB), SIGTERM ends it within a second (1.5 s
# here, for the loaded machines the tests run on); and the program's
# output and status are as untraced.
# needs: recorder
. "$PROC/lib.sh"

prog=$BIN/pending_flood
# Past the cap with bsearch alone in ptrace mode (a stop each); under
# --fast the records do it, and fewer bsearch calls save time.
if [ "$MODE" = --fast ]; then n=20000 m=8000000; else n=140000 m=0; fi
touch never.stop
"$prog" $n $m x.ready never.stop >out.plain || fail "untraced run failed: $?"

TMO=150 lt_bg -o trace "$prog" $n $m a.ready a.stop >out.traced
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
wait_file a.ready 120 || fail "the program never made its calls"
hwm=$(peak_rss "$tpid")
touch a.stop
wait_tracer "$t" 60
echo "STAT tracer peak RSS ${hwm} KiB with $n + $m pending; exited after $tsecs"
case ${ASAN_OPTIONS:-} in
*exitcode=223*) ;; # ASan's quarantine and shadow have their own sizes
*) [ "$hwm" -lt $((256 * 1024)) ] || fail "tracer peak RSS ${hwm} KiB" ;;
esac
[ "$tst" = 0 ] || fail "tracer exit status $tst"
cmp -s out.plain out.traced || fail "output differs: $(cat out.traced)"
tail -n 1 trace | grep -q '^+++ exited (status 0) +++$' ||
	fail "no exit status 0: $(tail -n 3 trace)"
notes=$(grep -c '^--- over 131072 calls pending: the oldest dropped ---$' trace)
[ "$notes" = 1 ] || fail "$notes notes of dropped calls, want 1"
left=$(grep -c 'bsearch(.*<unfinished \.\.\.>$' trace)
[ "$left" = $n ] || fail "$left bsearch calls shown, want $n"

# SIGTERM with the frames pending: the tracer detaches, the program goes
# on untraced (fewer bsearch calls: their stops are not what is timed).
n=20000
"$prog" $n $m y.ready never.stop >out.plain2 || fail "untraced run failed: $?"
TMO=150 lt_bg -o trace2 "$prog" $n $m b.ready b.stop >out.traced2
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
wait_file b.ready 120 || fail "the program never made its calls (second run)"
p=$(cat b.ready)
cleanup_pids+=("$p")
kill -TERM "$tpid"
wait_tracer "$t" 30
echo "STAT SIGTERM ended the tracer after $tsecs"
[ "${tsecs%ms}" -lt 1500 ] || fail "SIGTERM took $tsecs"
touch b.stop
wait_gone "$p" 10 || fail "the program did not finish: $(pstate "$p")"
cmp -s out.plain2 out.traced2 || fail "output differs: $(cat out.traced2)"
exit 0
