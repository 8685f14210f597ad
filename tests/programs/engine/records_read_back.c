/* Keeps records in files of the current directory and reads them back: scores written with
 * fprintf and scanned again, a name written with fputs and compared after fgets, a log
 * appended to and read, binary records found again with fseek and fread, a file removed.
 * Reading back a file the run wrote once stopped every run there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { int id; char tag[4]; };

int main(void) {
  int n, score;
  char name[16] = "";
  if (scanf("%d", &n) != 1 || n < 1 || n > 3)
    return 1;
  FILE *f = fopen("scores.txt", "w");
  if (!f)
    return 2;
  for (int i = 0; i < n; i++) {
    if (scanf("%15s %d", name, &score) != 2)
      break;
    fprintf(f, "%s %d\n", name, score);
  }
  fclose(f);
  f = fopen("scores.txt", "r");
  int lines = 0, best = -1;
  while (fscanf(f, "%15s %d", name, &score) == 2) {
    lines++;
    if (score > best)
      best = score;
  }
  fclose(f);
  if (lines == 3)
    printf("three players\n");
  if (best > 100)
    printf("high score\n");

  /* The last name read, kept with fputs and compared after fgets: the bytes keep their
   * symbolic values through the file. */
  FILE *w = fopen("winner.txt", "w");
  fputs(name, w);
  fputc('\n', w);
  fclose(w);
  char back[20];
  w = fopen("winner.txt", "r");
  if (fgets(back, sizeof back, w) && strcmp(back, "ada\n") == 0)
    printf("ada again\n");
  fclose(w);

  /* Appended twice, read character by character. */
  for (int k = 0; k < 2; k++) {
    FILE *log = fopen("log.txt", "a");
    fputc(lines > k ? '+' : '-', log);
    fclose(log);
  }
  FILE *log = fopen("log.txt", "r");
  if (fgetc(log) == '+' && fgetc(log) == '+')
    printf("two lines logged\n");
  fclose(log);

  /* Binary records: the second one found again after a seek. */
  struct rec r[2] = {{lines, "one"}, {name[0], "two"}};
  FILE *b = fopen("recs.bin", "wb");
  fwrite(r, sizeof r[0], 2, b);
  long size = ftell(b);
  fclose(b);
  if (size != 2 * (long)sizeof r[0])
    abort(); /* cannot happen */
  b = fopen("recs.bin", "rb");
  fseek(b, sizeof r[0], SEEK_SET);
  struct rec got;
  if (fread(&got, sizeof got, 1, b) == 1 && got.id == 'z')
    printf("a name from z\n");
  fclose(b);
  if (remove("recs.bin") != 0)
    abort(); /* cannot happen */
  if (remove("recs.bin") == 0)
    abort(); /* cannot happen: it is gone */
  return 0;
}
