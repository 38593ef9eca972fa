/* connect(2) through libc fails with ECONNREFUSED: the loopback port is
 * bound (so no one else takes it) but nobody listens on it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int b = socket(AF_INET, SOCK_STREAM, 0);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(b, (struct sockaddr *)&sin, sizeof(sin));
	getsockname(b, (struct sockaddr *)&sin, &len);
	int c = socket(AF_INET, SOCK_STREAM, 0);
	int r = connect(c, (struct sockaddr *)&sin, sizeof(sin));
	close(c);
	close(b);
	return r == 0;
}
