# shellcheck shell=bash disable=SC1091
# A traced program rewrites its own text (the e2e test
# hostile_tracee_text: a patched function body, a PLT stub hooked over
# our int3 or next to it, a text page mapped anew), then the tracer is
# told to stop (SIGTERM) and detaches: it must put back only the bytes
# where its int3s still are, never a stale original over what the
# program wrote.  The program then runs on and must print what it prints
# untraced and exit 0.  IBT: stubs with an endbr64 before the jump.
# variants: PLAIN IBT
. "$PROC/lib.sh"

src=$PROC/../e2e/tests/hostile_tracee_text.c
flags=(-O0 -g -fno-builtin -fno-inline -D_FORTIFY_SOURCE=0 -U_FORTIFY_SOURCE
       -fno-stack-protector -w)
if [ "$1" = IBT ]; then
	[ "$ARCH" = x86_64 ] || skip "IBT stubs are x86_64's"
	flags+=(-fcf-protection=full -Wl,-z,ibtplt)
fi
${CC:-cc} "${flags[@]}" -o prog "$src" || fail "cannot build $src"
[ -n "$BUILD_ONLY" ] && exit 0

./prog >out.plain || fail "untraced run failed: $?"

lt_bg -o trace ./prog a.ready a.stop >out.traced
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
wait_file a.ready || fail "program never ready: $(cat trace)"
p=$(cat a.ready)
cleanup_pids+=("$p")
kill -TERM "$tpid"
wait_tracer "$t"
echo "tracer exited $tst after $tsecs"
grep -q '^abs(-3) ' trace || fail "abs not traced: $(cat trace)"
[ "$(tracer_of "$p")" = 0 ] || fail "still traced after the detach"
touch a.stop
wait_gone "$p" 10 || fail "the program did not finish: $(pstate "$p")"
wait_file out.traced 5
cmp -s out.plain out.traced ||
	fail "output differs from the untraced run:" "$(diff out.plain out.traced)"
