// Writes a report of its inputs to files in the current directory, then goes on deciding on
// the inputs. Every fopen for writing once stopped the interpreted run, so nothing after the
// first report was tested. A file a run created exists for the rest of that run only: the
// exclusive create of the same name fails, and replay runs each test in a fresh directory.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
    int level = __VERIFIER_nondet_int();
    char tag[4];
    for (int i = 0; i < 3; i++)
        tag[i] = __VERIFIER_nondet_char();
    tag[3] = 0;
    FILE *report = fopen("report.txt", "w");
    if (!report)
        return 10;
    fprintf(report, "level %d\n", level);
    fputs(tag, report);
    fputc('\n', report);
    fwrite(tag, 1, 3, report);
    if (fgetc(report) != EOF) // opened to write only
        return 11;
    fclose(report);
    FILE *again = fopen("report.txt", "wx");
    if (again || errno != EEXIST)
        return 12;
    FILE *absent = fopen("never-written.txt", "r");
    if (absent)
        return 13;
    int fd = open("raw.log", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return 14;
    close(fd);
    FILE *log = fopen("events.log", "a");
    if (!log)
        return 15;
    if (level > 1000) {
        fprintf(log, "high\n");
        if (strcmp(tag, "ERR") == 0) {
            fclose(log);
            return 3;
        }
    } else if (level < -5) {
        fprintf(log, "low\n");
        if (tag[0] == 'W')
            return 2;
    }
    fclose(log);
    return 0;
}
