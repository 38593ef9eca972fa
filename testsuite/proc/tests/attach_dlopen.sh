# shellcheck shell=bash disable=SC1091
# Attach with -p to a program that has already dlopen'd two libraries:
# -l on one traces the calls into it (from the other's PLT), -e on its
# own PLT traces those; after SIGINT the program is untraced and running,
# with its mappings and every read-only byte (the libraries' text
# included) as before, and it finishes with every result right.
. "$PROC/lib.sh"

e2e=$PROC/../e2e/tests
${CC:-cc} -O0 -g -fPIC -shared -Wl,-soname,libtwo.so -o libtwo.so \
	"$e2e/libs_two.c" || fail "cannot build libtwo.so"
${CC:-cc} -O0 -g -fPIC -shared -Wl,-soname,libone.so -o libone.so \
	"$e2e/libs_one.c" || fail "cannot build libone.so"
[ -n "$BUILD_ONLY" ] && exit 0
rm -f a.ready a.stop
"$BIN/dlloop" a.ready a.stop "$PWD" >a.out 2>&1 &
p=$!
cleanup_pids+=("$p")
wait_file a.ready || fail "the program never became ready: $(cat a.out)"
snapshot "$p" >snap
lt_bg -o trace -l libtwo.so -e 'atoi@libtwo.so' -p "$p"
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
# two_sum's line is cut by the atoi it calls:
# "libone.so->two_sum(7, 3 <unfinished ...>".
wait_grep '^libone\.so->two_sum\([0-9]+, 3 <unfinished \.\.\.>$' trace ||
	fail "no call into libtwo.so traced: $(head trace)"
wait_grep '^<\.\.\. two_sum resumed> \) += [0-9]+$' trace ||
	fail "no call into libtwo.so returned: $(head trace)"
wait_grep '^libtwo\.so->atoi\("[0-9]+"\) += [0-9]+$' trace ||
	fail "no call from libtwo.so traced: $(head trace)"
kill -INT "$tpid"
wait_tracer "$t"
echo "tracer exited $tst after $tsecs"
check_released "$p" snap
stop_loop a "$p"
