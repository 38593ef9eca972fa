# shellcheck shell=bash disable=SC1091
# -S with --fast: the recorder copies strlen's string with
# process_vm_readv, a system call of the recorder's, not of the program:
# -S shows the program's system calls only, the same ones in both modes
# (it showed a process_vm_readv@SYS line before each recorded strlen).
. "$PROC/lib.sh"

lt -S -o a.txt "$BIN/sysfast" >a.out || fail "ptrace mode failed"
lt --fast -S -o b.txt "$BIN/sysfast" >b.out || fail "--fast failed"
[ "$(cat b.out)" = done ] || fail "program output: $(cat b.out)"
grep -q 'process_vm_readv@SYS' b.txt &&
	fail "the recorder's copies shown:" "$(grep -m 3 process_vm_readv b.txt)"
[ "$(grep -c '^strlen("fast") *= 4$' b.txt)" = 4 ] ||
	fail "strlen lines:" "$(grep strlen b.txt)"
grep -q '^write@SYS(1, "done\\n", 5) *= 5$' b.txt ||
	fail "no write@SYS line:" "$(tail -5 b.txt)"
sysnames() { sed -n 's/^\([a-z0-9_]*@SYS\)(.*/\1/p' "$1"; }
[ "$(sysnames a.txt)" = "$(sysnames b.txt)" ] ||
	fail "system calls differ:" "$(diff <(sysnames a.txt) <(sysnames b.txt) | head)"
exit 0
