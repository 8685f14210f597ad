#define LIMIT 40
