# shellcheck shell=bash disable=SC1091
# A 1 MiB string with -s 9999999 is printed whole, read in bulk: no
# PTRACE_PEEKDATA while process_vm_readv works, and few reads.
. "$PROC/lib.sh"

command -v strace >/dev/null || skip "no strace"
# LeakSanitizer cannot run under strace.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
printf 'addr memchr(string, int, ulong);\n' >conf
timeout -k 5 60 strace -o st -e trace=ptrace,process_vm_readv,pread64 \
	"$LTRACE" $MODE -s 9999999 -F conf -o trace "$BIN/bigstr" ||
	fail "tracer failed"
awk 'BEGIN { printf "memchr(\""; for (i = 0; i < 1048576; i++)
	printf "%c", 97 + i % 23; print "\", 0, 0)" }' >want
grep '^memchr(' trace | sed 's/ *= nil$//' >got || fail "no memchr line"
cmp -s want got || fail "the string is not complete: $(wc -c <got) bytes"
peeks=$(grep -c PTRACE_PEEKDATA st)
reads=$(grep -c process_vm_readv st)
echo "STAT process_vm_readv $reads, PEEKDATA $peeks, whole run"
[ "$peeks" = 0 ] || fail "PTRACE_PEEKDATA used $peeks times"
[ "$reads" -lt 60 ] || fail "$reads process_vm_readv calls"
exit 0
