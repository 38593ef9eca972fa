# shellcheck shell=bash disable=SC1091
# --fast copies the program's memory directly where /proc/PID/maps said
# it could be read; memory gone since (unmapped, protected, a file's page
# past its end) faults in the recorder's copy, and the tracer resumes the
# thread past it with a short copy: the program never sees that SIGSEGV
# or SIGBUS, and its handler stays.  The prototype says labs takes a
# string; labs itself never reads it.
# variants: unmap protect bus
. "$PROC/lib.sh"

echo 'long labs(string);' >stale.conf
lt -F stale.conf -e labs -o a.txt "$BIN/stale" "$1" >a.out 2>a.err ||
	fail "ptrace mode: exit $?" "$(cat a.out a.err)"
lt --fast -D 1 -F stale.conf -e labs -o b.txt "$BIN/stale" "$1" >b.out \
	2>b.err || fail "--fast: exit $?" "$(cat b.out b.err)"
[ "$(cat a.out)" = done ] || fail "ptrace mode, program output: $(cat a.out)"
[ "$(cat b.out)" = done ] || fail "--fast, program output: $(cat b.out)"
# The unmapped and protected pages were in the table: the copy faulted.
# The file's page joins it only once a drain has read the mapping in,
# which the program waits for but cannot know.
if [ "$1" != bus ]; then
	grep -q 'a direct copy faulted at .* (SIGSEGV)' b.err ||
		fail "no fault of a direct copy:" "$(grep -e --fast b.err)"
fi
# The lines after the fault: the pointer, not a string (ptrace mode
# reads a PROT_NONE page with PEEKDATA: only --fast is checked there).
labs() { grep -v '"in the file"' "$1" | sed -n 's/^.*labs(\(.*\)) *= .*/\1/p' |
	sed 's/^0x[0-9a-f]*$/ADDR/'; }
exp=$(printf '"mapped"\n"mapped"\n"mapped"\nADDR\nADDR')
[ "$1" = bus ] && exp=$(printf '"mapped"\n"mapped"\n"mapped"\nADDR')
[ "$(labs b.txt)" = "$exp" ] || fail "--fast lines:" "$(labs b.txt)"
[ "$1" = protect ] || [ "$(labs a.txt)" = "$exp" ] ||
	fail "ptrace mode lines:" "$(labs a.txt)"
exit 0
