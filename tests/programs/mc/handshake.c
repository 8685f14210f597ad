/* A server handshake in the shape of OpenSSL's state machines (sv-benchmarks ssh-simplified):
   one loop tests the state against many constants, two states share each step (the odd one is
   never set), a step may keep the next state aside for a flush step to take, options read once
   choose between paths, and a flag records the order of the steps. The odd states, the flag
   values the order rules out, and the error they guard are unreachable. */
/* infeasible: 16 */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);

int main(void) {
  int hit = __VERIFIER_nondet_int(), cert_request = __VERIFIER_nondet_int();
  int use_tmp_key = __VERIFIER_nondet_int(), verify = __VERIFIER_nondet_int();
  int state = 8464, next = 0, flag = 0, ret = 0, sessions = 0, renegotiate = 0;
  while (1) {
    ret = __VERIFIER_nondet_int();
    if (state == 8464 || state == 8465) {        /* 8465: infeasible (true) */
      if (flag == 0) flag = 1;                     /* (not on renegotiation) */
      if (ret <= 0) break;
      sessions++;
      state = 8496;
    } else if (state == 8496 || state == 8497) { /* 8497: infeasible (true) */
      if (flag == 1) flag = 2;
      if (ret <= 0) break;
      state = hit ? 8656 : 8512;
    } else if (state == 8512 || state == 8513) { /* 8513: infeasible (true) */
      if (use_tmp_key) {
        next = 8528;
        state = 8448;
      } else {
        state = 8528;
      }
    } else if (state == 8528 || state == 8529) { /* 8529: infeasible (true) */
      if (cert_request && verify) state = 8544;
      else {
        next = 8560;
        state = 8448;
      }
    } else if (state == 8544 || state == 8545) { /* 8545: infeasible (true) */
      if (ret == 17) {
        next = 8544;                             /* asks again after a flush */
        state = 8448;
      } else
        state = 8560;
    } else if (state == 8560 || state == 8561) { /* 8561: infeasible (true) */
      if (flag == 2) flag = 3;
      if (flag == 4) __VERIFIER_error();         /* infeasible (true, + its error goal) */
      if (ret <= 0) break;
      state = 8640;
    } else if (state == 8448) {                  /* flush: on to the kept state */
      if (next == 8464) __VERIFIER_error();      /* infeasible (true, + its error goal) */
      state = next;
    } else if (state == 8640 || state == 8641) { /* 8641: infeasible (true) */
      if (flag == 3) flag = 5;
      if (hit) state = 3;
      else state = 8656;
    } else if (state == 8656 || state == 8657) { /* 8657: infeasible (true) */
      if (flag == 2) flag = 6;
      if (flag == 5 && hit) __VERIFIER_error();  /* hit: infeasible (true, + its error goal) */
      if (ret == 5 && !renegotiate) {
        renegotiate = 1;
        state = 8464;                            /* once more, from the start */
      } else if (hit) state = 8640;
      else state = 3;
    } else if (state == 3) {
      break;
    } else {                                     /* infeasible: (state == 3) false */
      __VERIFIER_error();                        /* its error goal */
    }
  }
  return sessions;
}
