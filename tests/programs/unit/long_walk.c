/* A walk as long as the list the test gives (up to 300 nodes). Cairn links at most 256 blocks
 * for one run: a longer walk is cut there, not left to follow a pointer's input bytes (a wild
 * pointer of Cairn's making, which a `free` or a dereference would report as the function's
 * fault). */
struct node {
  struct node *next;
  int v;
};

int walk300(struct node *l) {
  int i;
  for (i = 0; i < 300 && l; i++)
    l = l->next;
  return i;
}
