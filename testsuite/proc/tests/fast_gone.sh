# shellcheck shell=bash disable=SC1091
# A program that destroys its --fast recorder (issue 25): its SIGSEGV
# handler siglongjmps, it makes every anonymous mapping new since its
# first calls read-only, or unmaps it, then calls labs.  The tracer
# resumed the faulting thread to run it out of the recorder, which
# faulted again, for ever: 50% CPU, a kept signal allocated per turn,
# SIGTERM ignored.  Now the recorder is given up (said on stderr) and
# the call goes on in ptrace mode: the program's output and status are
# ptrace mode's, and SIGTERM ends the tracer at once.
# needs: recorder
# variants: protect unmap
. "$PROC/lib.sh"

prog() { printf 'labs 5\ndone 12'; }
MODE='' lt -o a.txt "$BIN/fastgone" "$1" >a.out 2>a.err ||
	fail "ptrace mode: exit $?" "$(cat a.out a.err)"
[ "$(cat a.out)" = "$(prog)" ] || fail "ptrace mode, program output: $(cat a.out)"

# Held after its output: SIGTERM to the tracer, which must end at once.
term_held "$BIN/fastgone" "$1"

# To its end: as in ptrace mode, with one line on stderr.
TMO=20 lt --fast -o b.txt "$BIN/fastgone" "$1" >b.out 2>b.err ||
	fail "--fast: exit $?" "$(cat b.out b.err)"
[ "$(cat b.out)" = "$(prog)" ] || fail "--fast, program output: $(cat b.out)"
[ "$(grep -c 'recorder.s memory' b.err)" = 1 ] ||
	fail "--fast, stderr:" "$(cat b.err)"
grep -q '^labs(-5) *= 5$' b.txt || fail "--fast: no labs(-5) line:" "$(tail b.txt)"
exit 0
