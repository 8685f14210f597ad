/* A reactive loop that never ends (an event-condition-action system's shape): each event is
 * an input, and only one sequence reaches the alarm. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int state = 0;
    for (;;) {
        int event = __VERIFIER_nondet_int();
        if (state == 0 && event == 3) state = 1;
        else if (state == 1 && event == 5) state = 2;
        else if (state == 2 && event == 8) return 1;
    }
}
