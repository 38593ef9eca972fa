# shellcheck shell=bash disable=SC1091
# The e2e program hostile_tracee_creds (it renames itself, makes itself
# non-dumpable, dlopens a library) under a tracer that is not root (run
# as nobody): the kernel then refuses the tracer's process_vm_readv, and
# the tracer must go on reading through /proc/PID/mem, which it opened
# before, silently: no "ltrace:" message, every call traced to the end,
# the program's output and status as untraced.
. "$PROC/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root (needs to run the tracer as nobody)"
command -v setpriv >/dev/null || skip "no setpriv"
id nobody >/dev/null 2>&1 || skip "no user nobody"
src=$PROC/../e2e/tests/hostile_tracee_creds.c
${CC:-cc} -O0 -g -fno-builtin -fno-inline -w -o prog "$src" ||
	fail "cannot build $src"
[ -n "$BUILD_ONLY" ] && exit 0
chmod 777 .
as_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
# The sanitizer pass builds in a private directory (mode 700) that
# nobody cannot enter: run a copy, laid out as a build tree (ltrace/ltrace
# beside etc/) so that it finds the shipped prototypes.
if ! as_nobody test -x "$LTRACE"; then
	mkdir -p tree/ltrace && cp "$LTRACE" tree/ltrace/ltrace &&
		cp -r "$(dirname "$LTRACE")/../etc" tree/etc ||
		fail "cannot copy $LTRACE"
	chmod -R a+rX tree
	LTRACE=$PWD/tree/ltrace/ltrace
	as_nobody test -x "$LTRACE" || skip "nobody cannot run $LTRACE"
fi
as_nobody ./prog >out.plain 2>err.plain || fail "untraced run failed: $?"
as_nobody timeout -k 5 60 "$LTRACE" $MODE -o trace ./prog >out.traced 2>err.traced
st=$?
[ "$st" = 0 ] || fail "tracer exit status $st" "$(cat err.traced)"
cmp -s err.plain err.traced || fail "stderr differs:" "$(cat err.traced)"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)"
grep -q '^strlen("after the drop") *= 14$' trace || fail "trace:" "$(cat trace)"
tail -1 trace | grep -qx '+++ exited (status 0) +++' ||
	fail "trace ends with: $(tail -1 trace)"
exit 0
