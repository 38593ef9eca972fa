/* Unit test of -y's decoding: the NETLINK_SOCK_DIAG reply parsers
 * (sysdeps/linux-gnu/sockdiag.c) on messages built here, and the fd
 * lens (lenses/fd.c) on this process's own descriptors: a path with
 * characters strace escapes, an unlinked file, a closed descriptor,
 * AT_FDCWD, and the descriptor of a FILE *. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/unix_diag.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "callsite.h"
#include "check.h"
#include "fdpath.h"
#include "lens.h"
#include "memsrc.h"
#include "strbuf.h"
#include "type.h"

/* ---- sockdiag parsers ---- */

struct inet_reply {
	struct nlmsghdr h;
	struct inet_diag_msg m;
};

static struct inet_reply inet_msg(int family, const char *src, int sport,
				  const char *dst, int dport, unsigned ino)
{
	struct inet_reply r;

	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = sizeof(r);
	r.m.idiag_family = (unsigned char)family;
	inet_pton(family, src, r.m.id.idiag_src);
	if (dst)
		inet_pton(family, dst, r.m.id.idiag_dst);
	r.m.id.idiag_sport = htons((uint16_t)sport);
	r.m.id.idiag_dport = htons((uint16_t)dport);
	r.m.idiag_inode = ino;
	return r;
}

static void test_inet(void)
{
	struct fdinfo fi;

	memset(&fi, 0, sizeof(fi));
	struct inet_reply m =
		inet_msg(AF_INET, "127.0.0.1", 5432, "127.0.0.1", 41234, 7);
	CHECK(!sockdiag_parse_inet(&m, sizeof(m), 8, &fi), "another inode");
	CHECK(!sockdiag_parse_inet(&m, sizeof(m) - 1, 7, &fi), "cut short");
	CHECK(sockdiag_parse_inet(&m, sizeof(m), 7, &fi));
	CHECK(fi.kind == FDINFO_INET);
	CHECK_STR(fi.src, "127.0.0.1:5432");
	CHECK_STR(fi.dst, "127.0.0.1:41234");
	m = inet_msg(AF_INET, "0.0.0.0", 80, NULL, 0, 9);
	CHECK(sockdiag_parse_inet(&m, sizeof(m), 9, &fi));
	CHECK_STR(fi.src, "0.0.0.0:80");
	CHECK_STR(fi.dst, "");
	m = inet_msg(AF_INET6, "::1", 43491, "::1", 42300, 10);
	CHECK(sockdiag_parse_inet(&m, sizeof(m), 10, &fi));
	CHECK_STR(fi.src, "[::1]:43491");
	CHECK_STR(fi.dst, "[::1]:42300");
	m.h.nlmsg_len = sizeof(m) + 8;
	CHECK(!sockdiag_parse_inet(&m, sizeof(m), 10, &fi), "length lies");
}

/* A unix_diag_msg for INO with a name of N bytes (NULL: none) and a
 * peer (0: none), into BUF; its length. */
static size_t unix_msg(char *buf, unsigned ino, const char *name, size_t n,
		       unsigned peer)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct unix_diag_msg *m = NLMSG_DATA(h);
	size_t len = NLMSG_LENGTH(sizeof(*m));

	memset(buf, 0, 512);
	m->udiag_family = AF_UNIX;
	m->udiag_ino = ino;
	if (name) {
		struct rtattr *a = (struct rtattr *)(buf + NLMSG_ALIGN(len));
		a->rta_type = UNIX_DIAG_NAME;
		a->rta_len = (unsigned short)RTA_LENGTH(n);
		memcpy(RTA_DATA(a), name, n);
		len = NLMSG_ALIGN(len) + RTA_ALIGN(a->rta_len);
	}
	if (peer) {
		struct rtattr *a = (struct rtattr *)(buf + NLMSG_ALIGN(len));
		a->rta_type = UNIX_DIAG_PEER;
		a->rta_len = (unsigned short)RTA_LENGTH(4);
		memcpy(RTA_DATA(a), &peer, 4);
		len = NLMSG_ALIGN(len) + RTA_ALIGN(a->rta_len);
	}
	h->nlmsg_len = (unsigned)len;
	return len;
}

static void test_unix(void)
{
	char buf[512] __attribute__((aligned(8)));
	struct fdinfo fi;

	memset(&fi, 0, sizeof(fi));
	size_t n = unix_msg(buf, 5, "/run/x.sock", 12, 6);
	CHECK(!sockdiag_parse_unix(buf, n, 4, &fi), "another inode");
	CHECK(sockdiag_parse_unix(buf, n, 5, &fi));
	CHECK(fi.kind == FDINFO_UNIX && fi.ino == 5 && fi.peer == 6);
	CHECK(fi.pathlen == 12 && !memcmp(fi.path, "/run/x.sock", 12));
	n = unix_msg(buf, 5, "\0abs", 4, 0);
	CHECK(sockdiag_parse_unix(buf, n, 5, &fi));
	CHECK(fi.peer == 0 && fi.pathlen == 4 && !memcmp(fi.path, "\0abs", 4));
	n = unix_msg(buf, 5, NULL, 0, 0);
	CHECK(sockdiag_parse_unix(buf, n, 5, &fi));
	CHECK(fi.pathlen == 0 && fi.peer == 0);
	CHECK(!sockdiag_parse_unix(buf, n - 1, 5, &fi), "cut short");
}

/* ---- the lens, on this process's descriptors ---- */

static size_t self_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	(void)m;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return len;
}

static struct memsrc self = { .read = self_read };

/* X shown through T's lens under the FDPATH_* bits FDS. */
static const char *show(const struct type *t, uint64_t x, unsigned fds)
{
	static struct strbuf sb;
	struct lens_limits lim = { .strlen = 32, .arraylen = 4, .fds = fds };
	struct callsite cs = { .mem = &self, .tid = getpid() };
	struct fmt_ctx c = {
		.limits = &lim, .mem = &self, .cs = &cs, .sb = &sb
	};
	struct value v = { .type = t, .buf = (const unsigned char *)&x };

	strbuf_reset(&sb);
	lens_render(&c, &v);
	return sb.s;
}

static void test_lens(void)
{
	struct type *fd = type_builtin(TYPE_INT, LENS_FD);
	struct type *file = type_builtin(TYPE_POINTER, LENS_FD);
	char dir[] = "/tmp/ltrace-test-fd.XXXXXX", path[128], want[4200];

	if (!mkdtemp(dir)) {
		FAIL("mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/a<b>\n\"\\\0017", dir);
	int f = open(path, O_RDWR | O_CREAT, 0600);
	CHECK(f >= 0);
	char num[16];
	snprintf(num, sizeof(num), "%d", f);
	CHECK_STR(show(fd, (uint64_t)f, 0), num);
	snprintf(want, sizeof(want), "%d<%s/a\\74b\\76\\n\\\"\\\\\\0017>", f,
		 dir);
	CHECK_STR(show(fd, (uint64_t)f, FDPATH_PATH), want);
	CHECK_STR(show(fd, (uint64_t)f, FDPATH_SOCKET), num);
	unlink(path);
	strcat(want, "(deleted)");
	CHECK_STR(show(fd, (uint64_t)f, FDPATH_ALL), want);
	FILE *fp = fdopen(f, "r");
	snprintf(want, sizeof(want), "%p<%s>", (void *)fp,
		 show(fd, (uint64_t)fileno(fp), FDPATH_PATH));
	CHECK_STR(show(file, (uint64_t)(uintptr_t)fp, FDPATH_PATH), want);
	fclose(fp);
	CHECK_STR(show(fd, (uint64_t)f, FDPATH_ALL), num);
	CHECK_STR(show(fd, (uint64_t)-1, FDPATH_ALL), "-1");
	CHECK_STR(show(fd, (uint64_t)-100, 0), "AT_FDCWD");
	char cwd[4096];
	CHECK(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "AT_FDCWD<%s>", cwd);
	CHECK_STR(show(fd, (uint64_t)-100, FDPATH_PATH), want);
	rmdir(dir);
}

int main(void)
{
	test_inet();
	test_unix();
	test_lens();
	return check_exit();
}
