# shellcheck shell=bash disable=SC1091
# 100000 nested traced calls (bsearch whose callback calls bsearch): every
# call is traced and returns with its value, the program's output and
# status are as untraced, and the tracer's memory stays bounded: pending
# calls deeper than CALLS_MAX_TEXTS (4096) keep no argument state, so
# its peak RSS (VmHWM, read once every call has returned) stays under
# 48 MiB, where keeping every call's state took about 1.1 KiB per level
# (over 110 MiB).  The bound is not checked under ASan, whose quarantine
# and shadow memory have their own sizes.
. "$PROC/lib.sh"

n=100000
prog=$BIN/hostile_tracee_deep
touch never.stop
"$prog" $n x.ready never.stop >out.plain || fail "untraced run failed: $?"

TMO=120 lt_bg -f -o trace "$prog" $n a.ready a.stop >out.traced
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
wait_file a.ready 100 || fail "the program never finished its calls"
hwm=$(peak_rss "$tpid")
touch a.stop
wait_tracer "$t" 100
echo "STAT tracer peak RSS ${hwm} KiB at depth $n; tracer exited $tst after $tsecs"
[ "$tst" = 0 ] || fail "tracer exit status $tst"
cmp -s out.plain out.traced || fail "output differs: $(cat out.traced)"

unf=$(grep -c 'bsearch(.*<unfinished \.\.\.>$' trace)
res=$(grep -c '<\.\.\. bsearch resumed> ) *= 0x[0-9a-f]*$' trace)
whole=$(grep -c 'bsearch(.*) *= 0x[0-9a-f]*$' trace)
[ "$unf" = $((n - 1)) ] && [ "$res" = $((n - 1)) ] && [ "$whole" = 1 ] ||
	fail "calls: $unf unfinished, $res resumed, $whole whole (want $((n - 1)), $((n - 1)), 1)"
case ${ASAN_OPTIONS:-} in
*exitcode=223*) exit 0 ;;
esac
[ "$hwm" -lt $((48 * 1024)) ] || fail "tracer peak RSS ${hwm} KiB"
exit 0
