# shellcheck shell=bash disable=SC1091
# Attach with -p to the loop program built with -fno-plt: with -f, the
# calls each thread makes through the GOT (atol, strlen: no stub) are
# traced from their call sites, whose instructions run displaced; after
# SIGINT, the program runs on untraced with its mappings and read-only
# bytes (the sites' text) as before, and every call it made gave the
# right result.
# variants: 1 4
. "$PROC/lib.sh"

${CC:-cc} -O0 -fno-builtin -fno-inline -D_FORTIFY_SOURCE=0 -U_FORTIFY_SOURCE \
	-fno-stack-protector -pthread -fno-plt -o loop "$PROC/progs/loop.c" ||
	fail "cannot build loop.c with -fno-plt"
[ -n "$BUILD_ONLY" ] && exit 0
# Where there are binutils (not in testsuite/aarch64's VM).
if command -v objdump >/dev/null; then
	. "$PROC/../e2e/tests/calls.sh"
	calls loop | grep -qxF 'call *atol' ||
		fail "atol is not called through its GOT slot"
fi
BIN=$PWD attach_loop "$1" -f -o trace
for ((i = 0; i < 3000; i++)); do
	n=$(grep -E '^[0-9]+ (atol|strlen)\("[0-9]+"\) += [0-9]+$' trace 2>/dev/null |
		cut -d' ' -f1 | sort -u | wc -l)
	[ "$n" -ge "$1" ] && break
	sleep 0.01
done
[ "$n" -ge "$1" ] || fail "calls of only $n threads traced: $(head trace)"
kill -INT "$tpid"
wait_tracer "$t"
echo "STAT $(grep -cE ' (atol|strlen)\(' trace) calls traced, tracer exited $tst after $tsecs"
check_released "$p" snap
stop_loop a "$p"
