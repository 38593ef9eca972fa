# shellcheck shell=bash disable=SC1091
# SIGTSTP at its default action, sent to a process group that holds the
# tracer and the program (Ctrl-Z): both stop, the program as it does
# untraced; a SIGCONT to the group continues both, the program runs its
# SIGCONT handler and ends, and the trace is complete.  (Before the fix
# the program, stepped out of a displaced copy after the SIGCONT, stayed
# stopped for good: see default_stop in loop.c.)  The group must
# not be orphaned (the kernel ignores SIGTSTP in an orphaned group): it
# is a group of its own, in a new session whose leader is its parent (a
# shell with job control would not do: bash sends SIGCONT to a job that
# stops).
# Variant: 1 (one thread), t (4 threads, -f), p (attached with -p).
# The program is bin/sigcatch, its handler on SIGCONT.
# variants: 1 t p
. "$PROC/lib.sh"

v=$1
nt=1 opts=()
[ "$v" = t ] && nt=4 opts+=(-f)
args=(r out 18 h "$nt")

# run_job CMD...: CMD as a job of a new session; its pgid into file pg.
run_job() {
	setsid perl -e 'my $pp = getppid(); my $c = fork() // die "fork: $!\n";
		if (!$c) { setpgrp(0, 0); exec(@ARGV) or die "exec: $!\n"; }
		open(my $f, ">", "pg.tmp") or die; print $f "$c\n"; close($f);
		rename("pg.tmp", "pg"); select(undef, undef, undef, 0.05)
		until -e "done" || getppid() != $pp; kill("KILL", $c)' -- "$@" &
	wait_file pg || fail "the job never started"
	g=$(cat pg)
	wait_file r || fail "program never ready"
	p=$(cat r)
}

# stop_cont: Ctrl-Z, check that P stays stopped, then continue the group.
stop_cont() {
	kill -TSTP -- "-$g"
	local i s
	for ((i = 0; i < 500; i++)); do
		s=$(pstate "$p")
		case $s in t | T) break ;; esac
		sleep 0.01
	done
	case $s in t | T) ;; *) fail "program did not stop: state $s" ;; esac
	for ((i = 0; i < 30; i++)); do
		s=$(pstate "$p")
		case $s in t | T) ;; *) fail "program ran while stopped: state $s" ;; esac
		[ -e out ] && fail "program ran while stopped: $(cat out)"
		sleep 0.01
	done
	kill -CONT -- "-$g"
	wait_gone "$p" 25 || fail "program did not end: state $(pstate "$p")"
}

cleanup() {
	touch done
	kill -9 "$p" "$g" 2>/dev/null
	wait
}
trap cleanup EXIT

p=
run_job "$BIN/sigcatch" "${args[@]}"
stop_cont
want_out=$(cat out 2>/dev/null)
[ "$want_out" = "handled 18 1" ] || fail "untraced: '$want_out'"
rm -f r out pg

case $v in
p)
	run_job bash -c '"$1" "${@:3}" & while [ ! -s r ]; do sleep 0.01; done
		exec "$2" $MODE -o trace -p "$!"' x "$BIN/sigcatch" "$LTRACE" "${args[@]}"
	wait_grep 'atol' trace || fail "tracer never attached: $(cat trace)"
	;;
*) run_job "$LTRACE" $MODE "${opts[@]}" -o trace "$BIN/sigcatch" "${args[@]}" ;;
esac
stop_cont
for ((i = 0; i < 1000; i++)); do
	[ -d "/proc/$g" ] && [ "$(pstate "$g")" != Z ] || break
	sleep 0.01
done
[ "$i" = 1000 ] && fail "the tracer did not end within 10 s: $(tail -3 trace)"
got_out=$(cat out 2>/dev/null)
[ "$got_out" = "$want_out" ] ||
	fail "traced: program wrote '$got_out', untraced '$want_out'" "$(tail -5 trace)"
# No SIGTSTP line when the SIGCONT flushed it, still pending, from a
# program that waited at a breakpoint for the stopped tracer: stopped
# all the same.
grep -q -- '--- SIGCONT (Continued) ---$' trace &&
	grep -q '+++ exited (status 3) +++$' trace ||
	fail "trace:" "$(grep -v -e atol -e snprintf -e time trace | tail -8)"
exit 0
