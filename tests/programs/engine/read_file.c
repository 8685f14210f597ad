/* The file named by argv[1] read with open/read/close: a short header decides the outcome. */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2)
        return 1;
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0)
        return 2;
    char buf[8];
    long n = read(fd, buf, sizeof buf);
    close(fd);
    if (n == 0)
        return 3; /* empty */
    if (n >= 4 && buf[0] == 'P' && buf[1] == 'K')
        return 4; /* a zip header */
    if (n < 4)
        return 5;
    if (buf[3] == '\n')
        return 6;
    return 0;
}
