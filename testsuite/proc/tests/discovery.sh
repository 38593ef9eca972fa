# shellcheck shell=bash disable=SC1091
# Prototype discovery order (ltrace(1)): -F files, then per-library
# SONAME.conf in -F directories, $XDG_CONFIG_HOME/ltrace, $HOME/.ltrace,
# $XDG_CONFIG_DIRS, the shipped directory; import finds NAME.conf in the
# same directories.  Each source declares strlen with its own lens, so the
# trace shows which one won.
. "$PROC/lib.sh"

mkdir -p home/.ltrace xdg/ltrace sys/ltrace fdir ffile
export HOME=$PWD/home XDG_CONFIG_HOME=$PWD/xdg XDG_CONFIG_DIRS=$PWD/sys
printf 'ulong strlen(hex(ulong));\n' >sys/ltrace/libc.so.conf
strlen_line() {
	lt -o trace "$@" "$BIN/hello" abc >/dev/null
	[ $? = 5 ] || fail "tracer failed"
	grep '^strlen(' trace || fail "no strlen line:" "$(cat trace)"
}
expect() {
	local got
	got=$(strlen_line "${@:2}")
	[ "${got%% *}" = "$1" ] || fail "with ${*:2}: got '$got', want '$1'"
}

# $XDG_CONFIG_DIRS beats the shipped libc.so.conf: a pointer in hex.
got=$(strlen_line)
[[ $got == strlen\(0x* ]] || fail "XDG_CONFIG_DIRS not used: $got"
# $HOME/.ltrace beats $XDG_CONFIG_DIRS; libc.so.6 finds libc.so.6.conf.
printf 'ulong strlen(oct(ulong));\n' >home/.ltrace/libc.so.6.conf
got=$(strlen_line)
[[ $got == strlen\(0[0-7]* ]] || fail "HOME/.ltrace not used: $got"
# The full soname is looked for in every directory before the snipped
# one, and $XDG_CONFIG_HOME/ltrace beats $HOME/.ltrace; its import is
# found in the search directories.
printf 'ulong strlen(bool(ulong));\n' >xdg/ltrace/libc.so.conf
got=$(strlen_line)
[[ $got == strlen\(0[0-7]* ]] || fail "libc.so.conf beat libc.so.6.conf: $got"
printf 'typedef text = string;\n' >sys/ltrace/mytypes.conf
printf 'import "mytypes";\nulong strlen(text);\n' >xdg/ltrace/libc.so.6.conf
expect 'strlen("abc")'
# A -F directory beats them all (for per-library files).
printf 'ulong strlen(bool(ulong));\n' >fdir/libc.so.6.conf
expect 'strlen(true)' -F fdir
# A -F file beats every per-library file.
printf 'ulong strlen(hex(int));\n' >ffile/f.conf
got=$(strlen_line -F fdir -F ffile/f.conf)
[[ $got == strlen\(0x* ]] || fail "-F file not first: $got"
# A broken line reports file:line:col on stderr, the rest still loads.
printf 'int bogus(wat);\nulong strlen(bool(ulong));\n' >ffile/g.conf
lt -o trace -F ffile/g.conf "$BIN/hello" abc >/dev/null 2>err
[ $? = 5 ] || fail "tracer failed"
grep -q "g.conf:1:11: error: " err || fail "no error position:" "$(cat err)"
grep -q '^strlen(true)' trace || fail "rest of the file not loaded"
exit 0
