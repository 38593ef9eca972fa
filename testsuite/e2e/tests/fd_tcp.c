/* Sockets on loopback TCP: with -y "socket:[INODE]", with -yy (fd_tcp_yy)
 * the protocol and endpoints from NETLINK_SOCK_DIAG, as strace -yy:
 * "TCP:[127.0.0.1:PORT]" listening, "TCP:[SRC->DST]" connected. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	char buf[8];
	int s, c, a, i;

	for (i = 0; i < 2; i++) {
		s = socket(AF_INET, SOCK_STREAM, 0);
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		bind(s, (struct sockaddr *)&sin, sizeof(sin));
		listen(s, 1);
		getsockname(s, (struct sockaddr *)&sin, &len);
		c = socket(AF_INET, SOCK_STREAM, 0);
		connect(c, (struct sockaddr *)&sin, sizeof(sin));
		a = accept(s, NULL, NULL);
		send(c, "ping", 4, 0);
		recv(a, buf, sizeof(buf), 0);
		close(a);
		close(c);
		close(s);
	}
	return 0;
}
