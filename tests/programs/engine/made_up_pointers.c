/* Functions of another file of the project, declared but not given, that return pointers: a
 * string and a struct. Their results are made up (null, or a fresh block of input bytes), so
 * the code after the calls is tested; before, every run stopped at the first call. A pointer
 * in a made-up block (the user's group) is null or a fresh block in turn, linked when first
 * loaded; before, it was input bytes, a wild pointer. */
#include <string.h>

struct group {
  int gid;
};

struct user {
  int id;
  char name[12];
  struct group *group;
};

extern const char *config_value(const char *key);
extern struct user *find_user(int id);

int main(void) {
  int r = 0;
  const char *mode = config_value("mode");
  if (!mode)
    return 1;
  if (strcmp(mode, "fast") == 0)
    r += 2;
  struct user *u = find_user(7);
  if (u && u->id == 42 && u->name[0] == 'z')
    r += 4;
  if (u && u->group && u->group->gid == 100)
    r += 8;
  return r;
}
