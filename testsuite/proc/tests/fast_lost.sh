# shellcheck shell=bash disable=SC1091
# A program that jumps into the --fast recorder's trap for a lost
# return (issue 25), with a SIGTRAP handler that siglongjmps: no call of
# its has that stack pointer, so the trap is the program's, and the
# instruction after it a ud2.  The tracer ran the thread on to leave the
# recorder before the handler; it faulted on the ud2 at each resume, for
# ever: 50% CPU, a kept signal allocated per turn, SIGTERM ignored.  Now
# the handler runs where the thread is, as it does on the program's own
# int3 in ptrace mode, and SIGTERM ends the tracer at once.
# needs: recorder
. "$PROC/lib.sh"

prog() { printf 'SIGTRAP\nlabs 7\ndone 12'; }
MODE='' lt -o a.txt "$BIN/fastlost" >a.out 2>a.err ||
	fail "ptrace mode: exit $?" "$(cat a.out a.err)"
[ "$(cat a.out)" = "$(prog)" ] || fail "ptrace mode, program output: $(cat a.out)"

# Held after its output: SIGTERM to the tracer, which must end at once.
term_held "$BIN/fastlost"

# To its end: as in ptrace mode; the signal shown, the calls after it.
TMO=20 lt --fast -o b.txt "$BIN/fastlost" >b.out 2>b.err ||
	fail "--fast: exit $?" "$(cat b.out b.err)"
[ "$(cat b.out)" = "$(prog)" ] || fail "--fast, program output: $(cat b.out)"
grep -q '^--- SIGTRAP ' b.txt || fail "--fast: no SIGTRAP line:" "$(tail b.txt)"
grep -q '^labs(-7) *= 7$' b.txt || fail "--fast: no labs(-7) line:" "$(tail b.txt)"
exit 0
