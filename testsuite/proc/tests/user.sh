# shellcheck shell=bash disable=SC1091
# -u USER runs the program with USER's uid and gid (root only).
. "$PROC/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root"
id nobody >/dev/null 2>&1 || skip "no user nobody"
uid=$(id -u nobody) gid=$(id -g nobody)
lt -o trace -u nobody "$BIN/uid" >out 2>err
st=$?
[ "$st" = 0 ] || fail "tracer exit $st: $(cat err)"
[ "$(cat out)" = "uid $uid euid $uid gid $gid egid $gid" ] || fail "output: $(cat out)"
grep -qE "^getuid\(\) += $uid\$" trace || fail "trace:" "$(cat trace)"
