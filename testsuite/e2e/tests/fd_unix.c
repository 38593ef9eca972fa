/* Unix sockets with -yy, as strace -yy spells them:
 * "UNIX-STREAM:[INODE,"PATH"]" listening, "UNIX-STREAM:[INODE->PEER]"
 * connected (the accepted end with the listener's path), and a
 * socketpair's ends each other's peers. */
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_un sun;
	char buf[8];
	int s, c, a, sv[2], i;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, "sock");
	for (i = 0; i < 2; i++) {
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		bind(s, (struct sockaddr *)&sun, sizeof(sun));
		listen(s, 1);
		c = socket(AF_UNIX, SOCK_STREAM, 0);
		connect(c, (struct sockaddr *)&sun, sizeof(sun));
		a = accept(s, NULL, NULL);
		send(c, "ping", 4, 0);
		recv(a, buf, sizeof(buf), 0);
		close(a);
		close(c);
		close(s);
		unlink("sock");
		socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
		send(sv[0], "x", 1, 0);
		close(sv[0]);
		close(sv[1]);
	}
	return 0;
}
