/* Bytes received from a socket are inputs, within recv's contract: at most the length asked
 * for. Cairn once took recv's result as any number, wrote nothing into the buffer, and
 * reported the terminator's store past the buffer as an out-of-bounds write. */
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s == -1)
        return 1;
    char buf[14];
    long r = recv(s, buf, 13, 0);
    if (r == -1 || r == 0) {
        close(s);
        return 2;
    }
    buf[r] = 0;
    int data = atoi(buf);
    close(s);
    if (data == 4242)
        return 3;
    return 0;
}
