# shellcheck shell=bash disable=SC1091
# A truncated program: its execve fails past the point of no return and
# the kernel raises SIGSEGV before the exec is reported.  Untraced it dies
# of that SIGSEGV; traced it must die the same way (the signal delivered,
# not swallowed and faulted again forever) and the tracer must say so and
# exit promptly with 128+11.
. "$PROC/lib.sh"

head -c 8000 "$BIN/hello" > t
chmod +x t
sh -c ./t > /dev/null 2>&1
want=$?
[ "$want" = 139 ] || skip "the truncated program did not die of SIGSEGV ($want)"
TMO=10 lt -o trace ./t > out 2> err
got=$?
[ "$got" = 124 ] && fail "the tracer hung on the truncated program"
[ "$got" = 139 ] || fail "tracer exit status $got, want 139" "$(cat err)"
grep -qx -- '--- SIGSEGV (Segmentation fault) ---' trace ||
	fail "no SIGSEGV line: $(cat trace)"
grep -qx -- '+++ killed by SIGSEGV +++' trace ||
	fail "no killed line: $(cat trace)"
grep -q SIGCONT trace && fail "the tracer's own SIGCONT shown: $(cat trace)"
exit 0
