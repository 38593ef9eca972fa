# Helpers sourced by the tests of testsuite/proc (see run).
# shellcheck shell=bash
set -u

# fail MSG...: report and end the test.
fail() { printf '%s\n' "$@"; exit 1; }
skip() { echo "$*"; exit 77; }

# MODE: the tracer's mode option (run -f: --fast), or empty.
MODE=${MODE:-}
export MODE

# lt ARGS...: the tracer under a timeout (TMO seconds, default 60), in
# MODE.
lt() { timeout -k 5 "${TMO:-60}" "$LTRACE" $MODE "$@"; }

# lt_bg ARGS...: the same in the background: $! is timeout's pid, $tpid
# (after tracer_pid) the tracer's.
lt_bg() { timeout -k 5 "${TMO:-60}" "$LTRACE" $MODE "$@" & }

# tracer_pid TIMEOUT_PID: sets $tpid to the tracer run by lt_bg.
tracer_pid() {
	local i
	for ((i = 0; i < 3000; i++)); do
		tpid=$(cat "/proc/$1/task/$1/children" 2>/dev/null)
		tpid=${tpid%% *}
		[ -n "$tpid" ] && [ "$(readlink "/proc/$tpid/exe")" = "$(readlink -f "$LTRACE")" ] && return 0
		sleep 0.01
	done
	fail "cannot find the tracer started by timeout (pid $1)"
}

# wait_file FILE [SECS]: bounded poll until FILE is non-empty.
wait_file() {
	local i n=$(( ${2:-30} * 100 ))
	for ((i = 0; i < n; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.01
	done
	return 1
}

# wait_grep PATTERN FILE [SECS]: bounded poll until FILE has a matching line.
wait_grep() {
	local i n=$(( ${3:-30} * 100 ))
	for ((i = 0; i < n; i++)); do
		grep -qE -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.01
	done
	return 1
}

# wait_exit PID [SECS]: bounded poll until PID (not our child) is gone.
wait_gone() {
	local i n=$(( ${2:-30} * 100 ))
	for ((i = 0; i < n; i++)); do
		[ -d "/proc/$1" ] || return 0
		[ "$(pstate "$1")" = Z ] && return 0
		sleep 0.01
	done
	return 1
}

# pstate PID: the one-letter state of /proc/PID/stat.
# peak_rss PID: the process's peak resident set (VmHWM), in KiB; empty
# once it is gone.
peak_rss() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# term_held PROG ARG...: run PROG under --fast (trace c.txt, output
# c.out) until it prints "done" and waits for the file hold, then
# SIGTERM the tracer: it must exit with 143 within 2 s, its peak RSS
# under 256 MiB, and the program's output be prog's (the caller's).
term_held() {
	local t end hwm
	rm -f hold
	TMO=60 lt_bg --fast -o c.txt "$@" hold >c.out 2>c.err
	t=$!
	cleanup_pids+=("$t")
	tracer_pid "$t"
	end=$((SECONDS + 10))
	while ! grep -q '^done' c.out && [ "$SECONDS" -lt "$end" ]; do sleep 0.1; done
	hwm=$(peak_rss "$tpid")
	kill -TERM "$tpid"
	wait_tracer "$t" 2
	touch hold
	echo "STAT tracer exited $tst ${tsecs} after SIGTERM, VmHWM ${hwm} kB"
	[ "$tst" = 143 ] || fail "the tracer exited $tst after SIGTERM, not 143"
	[ "${hwm:-0}" -lt 262144 ] || fail "the tracer's peak RSS: $hwm kB"
	[ "$(cat c.out)" = "$(prog)" ] || fail "--fast (held), program output: $(cat c.out)"
}

pstate() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }

# tracer_of PID: TracerPid of PID.
tracer_of() { awk '/^TracerPid:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# snapshot PID: the maps of PID and a checksum of every readable mapping
# that is not writable (text, read-only data): what a clean detach must
# leave exactly as it was.  With SNAP_GOT=1, the program's own GOT too
# (.got and .got.plt, writable: only for a program whose slots are all
# bound before the first snapshot, as --fast hooks and puts them back).
snapshot() {
	perl -MDigest::MD5 -e '
		my $pid = shift;
		my $exe = readlink("/proc/$pid/exe");
		my $base;
		open(my $m, "<", "/proc/$pid/maps") or die "maps: $!\n";
		open(my $mem, "<:raw", "/proc/$pid/mem") or die "mem: $!\n";
		while (my $l = <$m>) {
			print $l;
			my ($a, $b, $perm, $off, $path) = $l =~
			    /^([0-9a-f]+)-([0-9a-f]+) (\S+) ([0-9a-f]+) \S+ \S+\s+(.*)$/;
			$base = hex $a if !defined $base && defined $path &&
			    $path eq $exe && hex($off) == 0;
			next unless $perm =~ /^r-/;
			next if $l =~ /\[(vvar|vsyscall|vvar_vclock)\]/;
			my ($lo, $hi) = (hex $a, hex $b);
			my $buf;
			sysseek($mem, $lo, 0) or next;
			my $n = sysread($mem, $buf, $hi - $lo);
			next unless defined $n;
			my $sum = Digest::MD5::md5_hex($buf);
			printf "  %d bytes, md5 %s\n", $n, $sum;
		}
		exit 0 unless $ENV{SNAP_GOT};
		defined $base or die "no mapping of $exe\n";
		$base = 0 unless `readelf -hW "$exe"` =~ /Type:\s+DYN/;
		my $got = 0;
		for (split /\n/, `readelf -SW "$exe"`) {
			my ($name, $addr, $size) = /\]\s+(\.got(?:\.plt)?)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)/
			    or next;
			my $buf;
			sysseek($mem, $base + hex $addr, 0) or die "$name: $!\n";
			my $n = sysread($mem, $buf, hex $size);
			$n == hex $size or die "$name: short read\n";
			printf "%s: %d bytes, md5 %s\n", $name, $n,
			    Digest::MD5::md5_hex($buf);
			$got++;
		}
		$got or die "no GOT in $exe\n";' "$1"
}

# canon TRACE: the trace split by process (see bypid).
canon() { "$PROC/bypid" "$1"; }

# match EXPECTED ACTUAL: placeholders as in testsuite/match, no column check.
match() { "$PROC/../match" "$1" "$2" 0; }

# hogs_start: a CPU-bound process per CPU, for as long as the test runs
# (ended by on_exit): the tracer and the program then wait for a CPU at
# every stop, as on a loaded machine, which widens the windows between
# a signal's generation and its delivery.
hogs_start() {
	local i n
	n=$(nproc 2>/dev/null || echo 2)
	for ((i = 0; i < n; i++)); do
		bash -c 'while :; do :; done' &
		cleanup_pids+=("$!")
	done
}

# killtree PID...: end processes this test started (by pid).
cleanup_pids=()
on_exit() {
	local p
	for p in "${cleanup_pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
}
trap on_exit EXIT

# start_loop NAME [NTHREADS]: start the attach target as NAME, wait until
# it runs; sets $lpid.  It stops when NAME.stop exists (stop_loop).
start_loop() {
	rm -f "$1.ready" "$1.stop"
	"$BIN/loop" "$1.ready" "$1.stop" "${2:-1}" >"$1.out" 2>&1 &
	lpid=$!
	cleanup_pids+=("$lpid")
	wait_file "$1.ready" || fail "$1 never became ready"
}

# stop_loop NAME PID: tell it to stop, wait for it; it must print "ok" and
# exit 0, i.e. every call it made gave the right result.
stop_loop() {
	local st
	touch "$1.stop"
	wait "$2"
	st=$?
	[ "$st" = 0 ] && [ "$(cat "$1.out")" = ok ] ||
		fail "$1 (pid $2) ended badly: status $st, output: $(cat "$1.out")"
}

# attach_loop NTHREADS ARGS...: start the attach target as "a" with
# NTHREADS threads, wait until all of them exist, snapshot it into snap,
# then attach the tracer with ARGS -p in the background.  Sets $p (the
# program), $t (timeout's pid) and $tpid (the tracer's).
attach_loop() {
	local n=$1 i
	shift
	start_loop a "$n"
	p=$lpid
	for ((i = 0; i < 3000; i++)); do
		[ "$(ls /proc/"$p"/task | wc -l)" = "$n" ] && break
		sleep 0.01
	done
	snapshot "$p" >snap
	lt_bg "$@" -p "$p"
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
}

# detach_loop: SIGINT to the tracer of attach_loop, which must exit and
# leave the program as snap has it; the program must then end correctly.
detach_loop() {
	kill -INT "$tpid"
	wait_tracer "$t"
	echo "tracer exited $tst after $tsecs"
	check_released "$p" snap
	stop_loop a "$p"
}

# check_released PID SNAPSHOT: PID and all its threads are no longer traced,
# not stopped, and its mappings and read-only bytes are as in SNAPSHOT.
check_released() {
	local task s tp
	[ -d "/proc/$1" ] && [ "$(pstate "$1")" != Z ] ||
		fail "the program (pid $1) died"
	for task in /proc/"$1"/task/*; do
		tp=$(awk '/^TracerPid:/ { print $2 }' "$task/status")
		[ "$tp" = 0 ] || fail "thread ${task##*/} still traced by $tp"
		s=$(sed 's/.*) //' "$task/stat" | cut -d' ' -f1)
		case $s in
		R|S|D) ;;
		*) fail "thread ${task##*/} left in state $s" ;;
		esac
	done
	snapshot "$1" >"$2.after"
	cmp -s "$2" "$2.after" ||
		fail "maps or read-only bytes changed by the attach:" "$(diff "$2" "$2.after")"
}

# shellcheck disable=SC2034
# wait_tracer PID [SECS]: wait for the tracer (our child) to exit, at most
# SECS (default 10); sets $tst to its status and $tsecs to the time taken.
wait_tracer() {
	local i n=$(( ${2:-10} * 100 )) t0 t1
	t0=$(date +%s%N)
	for ((i = 0; i < n; i++)); do
		kill -0 "$1" 2>/dev/null || break
		[ "$(pstate "$1")" = Z ] && break
		sleep 0.01
	done
	if [ "$i" -ge "$n" ]; then
		fail "the tracer (pid $1) did not exit within ${2:-10}s"
	fi
	wait "$1"
	tst=$?
	t1=$(date +%s%N)
	tsecs=$(( (t1 - t0) / 1000000 ))ms
}

# act_untraced PROG FUNC: the attach case of addr_kept and plt_hook.
# PROG (a program of progs/ that takes "attach NAME", stepping through
# stepfile.h's files) runs, traced with -p until 3 calls of FUNC show
# (--fast has handed FUNC over by then); at k.act it does what the test
# is about and writes k.acted; the tracer gets SIGINT; at k.call the
# program goes on untraced, and must print "ok" and exit 0.
act_untraced() {
	local i st
	"$1" attach k >out 2>&1 &
	p=$!
	cleanup_pids+=("$p")
	wait_file k.ready || fail "the program never became ready:" "$(cat out)"
	lt_bg -o trace -p "$p"
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
	for ((i = 0; i < 3000; i++)); do
		[ "$(grep -c "^$2(" trace 2>/dev/null)" -ge 3 ] && break
		sleep 0.01
	done
	[ "$i" -lt 3000 ] || fail "no calls of $2 traced:" "$(head -5 trace)"
	touch k.act
	wait_file k.acted || fail "the program never took its step"
	kill -INT "$tpid"
	wait_tracer "$t"
	touch k.call
	wait "$p"
	st=$?
	[ "$st" = 0 ] && [ "$(cat out)" = ok ] ||
		fail "the program ended with status $st:" "$(cat out)"
}
