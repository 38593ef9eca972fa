# shellcheck shell=bash disable=SC1091
# errno after an attach (-p), one thread or four: the attach target's
# access of its stop file fails with ENOENT until the file exists.  libc
# was relocated long before the attach; its TLS offset of errno is read
# from its GOT all the same (--fast: written into the recorder's
# configuration at its setup).  Each thread's own errno: each line says
# ENOENT, and the calls that succeed (atol) say nothing.
# variants: 1 4
. "$PROC/lib.sh"

start_loop a "$1"
p=$lpid
snapshot "$p" >snap
lt_bg -o trace -e access+atol -p "$p"
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
want='^(\[pid [0-9]+\] )?loop->access\("a\.stop", 0\) += -1 ENOENT \(No such file or directory\)$'
wait_grep "$want" trace || fail "no access failing with ENOENT: $(head trace)"
wait_grep '^(\[pid [0-9]+\] )?loop->atol\("[0-9]+"\) += [0-9]+$' trace ||
	fail "no atol calls traced: $(head trace)"
kill -INT "$tpid"
wait_tracer "$t"
bad=$(grep 'access.* = ' trace |
	grep -v ' = -1 ENOENT (No such file or directory)$' | head -3)
[ -z "$bad" ] || fail "access lines without ENOENT: $bad"
echo "STAT $(grep -c 'ENOENT' trace) access lines with ENOENT, tracer exited $tst after $tsecs"
check_released "$p" snap
stop_loop a "$p"
