/* Sockets through the shipped prototypes: AF_ and SOCK_ names, a
 * sockaddr_in, socket options, and send/recv buffers of exactly the bytes
 * moved. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int one = 1, sv[2], s;
	char buf[32];

	s = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(0);
	inet_aton("127.0.0.1", &sin.sin_addr);
	bind(s, (struct sockaddr *)&sin, sizeof(sin));
	listen(s, 1);
	close(s);
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	send(sv[0], "ping", 4, 0);
	recv(sv[1], buf, sizeof(buf), 0);
	shutdown(sv[0], SHUT_RDWR);
	close(sv[0]);
	close(sv[1]);
	return 0;
}
