// A menu read with scanf until the user quits. When stdin ends, scanf fails and the choice
// keeps its value, so the loop never ends: natively the program hangs. Each such interpreted
// run once went on for tens of millions of steps (seconds), so a 30 s budget made a dozen
// runs; now a run that reads stdin at its end 10,000 times stops as at the step limit.
#include <stdio.h>

static int balance;

static void deposit(void) {
    int amount;
    if (scanf("%d", &amount) != 1)
        return;
    if (amount <= 0) {
        printf("invalid amount\n");
        return;
    }
    if (amount > 10000) {
        printf("needs approval\n");
        return;
    }
    balance += amount;
}

static void withdraw(void) {
    int amount;
    if (scanf("%d", &amount) != 1)
        return;
    if (amount > balance)
        printf("insufficient funds\n");
    else if (amount == balance)
        printf("account emptied\n");
    else
        balance -= amount;
}

int main(void) {
    int choice = 0;
    do {
        printf("1. deposit 2. withdraw 3. balance 4. quit\n");
        scanf("%d", &choice);
        switch (choice) {
        case 1:
            deposit();
            break;
        case 2:
            withdraw();
            break;
        case 3:
            printf("%d\n", balance);
            break;
        case 4:
            break;
        default:
            printf("unknown choice\n");
        }
    } while (choice != 4);
    return balance > 500;
}
