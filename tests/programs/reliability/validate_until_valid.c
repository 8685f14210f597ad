// Input validation loops that ask again until the input is valid: at the end of stdin each
// spins forever (fgets fails and the name keeps its old value; `getchar() != '\n'` never
// ends), natively too. The fork server's first run is such a run: it held the fuzzer's turn
// for 5 s.
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char name[16] = "?";
    int age, valid = 0;
    while (!valid) {
        printf("name: ");
        if (fgets(name, sizeof name, stdin))
            name[strcspn(name, "\n")] = 0;
        valid = name[0] != 0;
        for (int i = 0; name[i]; i++)
            if (!isalpha((unsigned char)name[i]))
                valid = 0;
    }
    valid = 0;
    while (!valid) {
        printf("age: ");
        if (scanf("%d", &age) == 1 && age >= 0 && age <= 120)
            valid = 1;
        else
            while (getchar() != '\n')
                ;
    }
    if (age >= 18 && name[0] == 'Z')
        printf("adult Z\n");
    return 0;
}
