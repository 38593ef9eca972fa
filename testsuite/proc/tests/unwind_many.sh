# shellcheck shell=bash disable=SC1091
# Calls that never return, many times over: longjmp out of a qsort
# comparator, or a C++ exception thrown through qsort.  Every iteration
# shows the same lines, later calls still pair correctly, and the tracer's
# memory does not grow with the number of abandoned frames (no stale
# state piles up): its peak RSS for many iterations stays within 4 MB of
# that for few.
# variants: longjmp throw
. "$PROC/lib.sh"

# Under AddressSanitizer freed memory sits in a quarantine: measure the
# tracer's own use, not ASan's.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"

if [ "$1" = longjmp ]; then prog=$BIN/jmploop; else prog=$BIN/throwloop; fi
if [ "$STRESS" = 1 ]; then n=200000 TMO=1800; else n=20000; fi
"$prog" $n >out.plain 2>&1
st_plain=$?
[ "$st_plain" = 0 ] || fail "untraced run failed: $(cat out.plain)"
/usr/bin/time -f %M -o rss.small "$LTRACE" $MODE -o trace.small "$prog" 100 >/dev/null 2>&1 ||
	fail "traced run of 100 failed"
/usr/bin/time -f %M -o rss.big timeout -k 5 "${TMO:-60}" "$LTRACE" $MODE -o trace "$prog" $n \
	>out.traced 2>err.traced
st=$?
[ "$st" = "$st_plain" ] || fail "tracer exit $st, untraced $st_plain"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)"
if [ "$1" = longjmp ]; then
	per='_setjmp({addr}) = 0
qsort({addr}, 3, 8, {addr} <unfinished ...>
strcmp("apple", "fig") = -5
longjmp({addr}, 1 <unfinished ...>'
	last="printf(\"jumps %ld len %zu\\n\", $n, 4) = {int}"
else
	per='qsort({addr}, 3, 8, {addr} <unfinished ...>
strcmp("apple", "fig") = -5
__cxa_allocate_exception(4) = {addr}
__cxa_throw({addr}, {addr}, nil <unfinished ...>
__cxa_begin_catch({addr}) = {addr}
__cxa_end_catch({any}) = {any}'
	last="printf(\"caught %ld len %zu\\n\", $n, 4) = {int}"
fi
{
	printf 'atol("%s") = %s\n' $n $n
	for ((i = 0; i < n; i++)); do echo "$per"; done
	echo 'strlen("done") = 4'
	echo "$last"
	echo '__cxa_finalize({addr}) = <void>'
	echo '+++ exited (status 0) +++'
} >exp
sed 's/ \{2,\}= / = /' trace >trace.1
match exp trace.1 || fail "trace differs"
small=$(tail -n 1 rss.small) big=$(tail -n 1 rss.big)
echo "STAT tracer peak RSS: 100 iterations ${small} kB, $n iterations ${big} kB"
# With --fast the tracer's copy of the 4 MiB ring is touched page by page
# as the ring's laps go round: a long run has all of it resident, a run
# of 100 iterations a few pages.  That much more is allowed; it does not
# grow with the iterations.
room=4096
[ "$MODE" = --fast ] && room=$((room + 4096))
[ "$big" -le $((small + room)) ] || fail "the tracer's memory grows with abandoned frames"
