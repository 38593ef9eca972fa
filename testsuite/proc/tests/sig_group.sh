# shellcheck shell=bash disable=SC1091
# A signal sent to a process group that holds both the tracer and the
# program (Ctrl-C, or kill -SIG -PGID): the program must get its own
# copy and act on it as it would untraced (run its handler once, or die
# of it), whatever the tracer does on its own copy (detach cleanly).
# Variant: SIGNAL, then h (the program has a handler) or d (default
# action), t (4 threads), f (-f), p (attached with -p instead of
# launched).  The program is bin/sigcatch.
# variants: INTh INTd TERMh TERMd HUPh HUPd QUITh QUITd TSTPh INTht INTdt INThf INThtf INThp INTdp TERMhp INThtp
. "$PROC/lib.sh"

v=$1
sig=${v%%[a-z]*}
flags=${v#"$sig"}
num=$(kill -l "$sig")
mode=h nt=1 opts=()
case $flags in *d*) mode=d ;; esac
case $flags in *t*) nt=4 ;; esac
case $flags in *f*) opts+=(-f) ;; esac
args=(r out "$num" "$mode" "$nt")

# Untraced: what the program does with the signal.
setsid "$BIN/sigcatch" "${args[@]}" &
g=$!
wait_file r || fail "untraced program never ready"
kill "-$sig" -- "-$g"
wait "$g"
want=$?
want_out=$(cat out 2>/dev/null)
rm -f r out
[ "$mode" = h ] && [ "$want_out" != "handled $num 1" ] &&
	fail "untraced: '$want_out' status $want"

# Traced, in one new process group with the tracer.
case $flags in
*p*)
	# bash runs the program in the background, then becomes the tracer
	# and attaches to it: its own child, in its own group.
	setsid bash -c '"$1" "${@:4}" & while [ ! -s r ]; do sleep 0.01; done
		exec "$2" $MODE $3 -o trace -p "$!"' x "$BIN/sigcatch" "$LTRACE" \
		"${opts[*]}" "${args[@]}" &
	g=$!
	wait_file r || fail "program never ready"
	wait_grep 'atol' trace || fail "tracer never attached: $(cat trace)"
	;;
*)
	setsid "$LTRACE" $MODE "${opts[@]}" -o trace "$BIN/sigcatch" "${args[@]}" &
	g=$!
	wait_file r || fail "program never ready"
	;;
esac
p=$(cat r)
cleanup() { kill -9 "$p" "$g" 2>/dev/null; }
trap cleanup EXIT
kill "-$sig" -- "-$g"
for ((i = 0; i < 1000; i++)); do
	[ -d "/proc/$g" ] && [ "$(pstate "$g")" != Z ] || break
	sleep 0.01
done
[ "$i" = 1000 ] && fail "the tracer did not end within 10 s: $(tail -3 trace)"
wait_gone "$p" 25 || fail "the program (pid $p) did not end: state $(pstate "$p")"
got_out=$(cat out 2>/dev/null)
[ "$got_out" = "$want_out" ] ||
	fail "traced: program wrote '$got_out', untraced '$want_out'" "$(tail -5 trace)" \
		"kernel log of pid $p: $(dmesg 2>/dev/null | grep "\[$p\]" | tail -n 2)"
exit 0
