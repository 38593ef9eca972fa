/* A socket's endpoints through NETLINK_SOCK_DIAG (sock_diag(7)), for
 * -yy: the inet sockets of a protocol are dumped and the one with the
 * inode is kept (an exact request would need its addresses); a unix
 * socket is asked for by inode.  One netlink socket per question,
 * close-on-exec, so nothing is left open in the tracer between calls. */
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fdpath.h"

/* Replies are read into this; the kernel's dump messages are smaller
 * than a page each. */
#define REPLY_SIZE 16384

/* ADDR (4 or 16 bytes of FAMILY) and PORT (network order) as strace
 * shows an endpoint: "127.0.0.1:80", "[::1]:80". */
static void endpoint(char *buf, size_t len, int family, const void *addr,
		     uint16_t port)
{
	char a[INET6_ADDRSTRLEN];

	if (!inet_ntop(family, addr, a, sizeof(a)))
		snprintf(a, sizeof(a), "?");
	snprintf(buf, len, family == AF_INET6 ? "[%s]:%u" : "%s:%u", a,
		 ntohs(port));
}

bool sockdiag_parse_inet(const void *msg, size_t len, unsigned long ino,
			 struct fdinfo *out)
{
	const struct nlmsghdr *h = msg;
	static const uint32_t zero[4];

	if (len < NLMSG_LENGTH(sizeof(struct inet_diag_msg)) ||
	    h->nlmsg_len > len ||
	    h->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg)))
		return false;
	const struct inet_diag_msg *m = NLMSG_DATA(h);
	int fam = m->idiag_family;
	if (m->idiag_inode != ino || (fam != AF_INET && fam != AF_INET6))
		return false;
	size_t alen = fam == AF_INET ? 4 : 16;
	endpoint(out->src, sizeof(out->src), fam, m->id.idiag_src,
		 m->id.idiag_sport);
	out->dst[0] = '\0';
	/* strace shows the peer when it has an address or a port */
	if (m->id.idiag_dport || memcmp(m->id.idiag_dst, zero, alen))
		endpoint(out->dst, sizeof(out->dst), fam, m->id.idiag_dst,
			 m->id.idiag_dport);
	out->kind = FDINFO_INET;
	return true;
}

/* The attributes of a unix_diag_msg: the bound name, the peer's inode. */
static void unix_attrs(const struct rtattr *a, size_t left, struct fdinfo *out)
{
	for (; RTA_OK(a, left); a = RTA_NEXT(a, left)) {
		size_t n = RTA_PAYLOAD(a);
		if (a->rta_type == UNIX_DIAG_NAME) {
			if (n > sizeof(out->path) - 1)
				n = sizeof(out->path) - 1;
			memcpy(out->path, RTA_DATA(a), n);
			out->path[n] = '\0';
			out->pathlen = n;
		} else if (a->rta_type == UNIX_DIAG_PEER && n >= 4) {
			uint32_t peer;
			memcpy(&peer, RTA_DATA(a), 4);
			out->peer = peer;
		}
	}
}

bool sockdiag_parse_unix(const void *msg, size_t len, unsigned long ino,
			 struct fdinfo *out)
{
	const struct nlmsghdr *h = msg;
	size_t head = NLMSG_LENGTH(sizeof(struct unix_diag_msg));

	if (len < head || h->nlmsg_len > len || h->nlmsg_len < head)
		return false;
	const struct unix_diag_msg *m = NLMSG_DATA(h);
	if (m->udiag_family != AF_UNIX || m->udiag_ino != ino)
		return false;
	out->pathlen = 0;
	out->path[0] = '\0';
	out->peer = 0;
	unix_attrs((const struct rtattr *)(m + 1),
		   h->nlmsg_len - NLMSG_ALIGN(head), out);
	out->ino = ino;
	out->kind = FDINFO_UNIX;
	return true;
}

/* Send REQ (LEN bytes, a nlmsghdr and its request) on a new netlink
 * socket; the socket, or -1. */
static int ask(void *req, size_t len)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);

	if (s < 0)
		return -1;
	if (sendto(s, req, len, 0, (struct sockaddr *)&nl, sizeof(nl)) !=
	    (ssize_t)len) {
		close(s);
		return -1;
	}
	return s;
}

typedef bool parse_fn(const void *msg, size_t len, unsigned long ino,
		      struct fdinfo *out);

/* Read S's replies to the end (NLMSG_DONE, an error, or the answer to a
 * request that was not a dump), PARSE each; true if one was INO. */
static bool replies(int s, parse_fn *parse, unsigned long ino,
		    struct fdinfo *out)
{
	static char buf[REPLY_SIZE] __attribute__((aligned(8)));
	bool found = false;

	for (;;) {
		ssize_t n = recv(s, buf, sizeof(buf), 0);
		if (n <= 0)
			return found;
		size_t left = (size_t)n;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf;
		     NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR)
				return found;
			if (!found && parse(h, left, ino, out))
				found = true;
			if (!(h->nlmsg_flags & NLM_F_MULTI))
				return found;
		}
	}
}

/* The inet sockets of FAMILY and PROTOCOL, every state: the one of INO. */
static bool inet_get(int family, int protocol, unsigned long ino,
		     struct fdinfo *out)
{
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} req = {
		.h = { .nlmsg_len = sizeof(req),
		       .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = (uint8_t)family,
		       .sdiag_protocol = (uint8_t)protocol,
		       .idiag_states = ~0u },
	};
	req.r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	req.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	int s = ask(&req, sizeof(req));
	if (s < 0)
		return false;
	bool found = replies(s, sockdiag_parse_inet, ino, out);
	close(s);
	return found;
}

static bool unix_get(unsigned long ino, struct fdinfo *out)
{
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} req = {
		.h = { .nlmsg_len = sizeof(req),
		       .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		       .nlmsg_flags = NLM_F_REQUEST },
		.r = { .sdiag_family = AF_UNIX,
		       .udiag_states = ~0u,
		       .udiag_ino = (uint32_t)ino,
		       .udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER,
		       .udiag_cookie = { INET_DIAG_NOCOOKIE,
					 INET_DIAG_NOCOOKIE } },
	};
	int s = ask(&req, sizeof(req));
	if (s < 0)
		return false;
	bool found = replies(s, sockdiag_parse_unix, ino, out);
	close(s);
	return found;
}

/* The protocols with a diag: the names sk_prot->name gives them. */
static const struct {
	const char *name;
	int family, protocol;
} inet_protos[] = {
	{ "TCP", AF_INET, IPPROTO_TCP },
	{ "UDP", AF_INET, IPPROTO_UDP },
	{ "UDP-Lite", AF_INET, IPPROTO_UDPLITE },
	{ "TCPv6", AF_INET6, IPPROTO_TCP },
	{ "UDPv6", AF_INET6, IPPROTO_UDP },
	{ "UDPLITEv6", AF_INET6, IPPROTO_UDPLITE },
};

bool sockdiag_get(const char *proto, unsigned long ino, struct fdinfo *out)
{
	for (size_t i = 0; i < sizeof(inet_protos) / sizeof(inet_protos[0]);
	     i++)
		if (!strcmp(proto, inet_protos[i].name))
			return inet_get(inet_protos[i].family,
					inet_protos[i].protocol, ino, out);
	if (!strncmp(proto, "UNIX", 4))
		return unix_get(ino, out);
	return false;
}
