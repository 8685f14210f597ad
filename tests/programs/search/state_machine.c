/* A connection protocol as a state machine driven by 12 input events; per-state handlers,
   a shared validation helper called from several states, deep states behind event sequences. */
/* infeasible: 1 (step is never called in TIME_WAIT or ERROR: its default) */
extern int __VERIFIER_nondet_int(void);

enum { CLOSED, LISTEN, SYN_RCVD, ESTABLISHED, FIN_WAIT, CLOSE_WAIT, TIME_WAIT, ERROR };

static int errors, data_bytes, retries;

static int valid_seq(int seq, int expect) {
  if (seq < 0) return 0;
  if (seq == expect) return 1;
  if (seq == expect + 1) return 2; /* duplicate tolerated */
  return 0;
}

static int on_closed(int ev) {
  if (ev == 1) return LISTEN;
  if (ev == 9) { errors++; return ERROR; }
  return CLOSED;
}

static int on_listen(int ev, int arg) {
  if (ev == 2) {
    if (valid_seq(arg, 100)) return SYN_RCVD;
    errors++;
    return LISTEN;
  }
  if (ev == 0) return CLOSED;
  return LISTEN;
}

static int on_syn_rcvd(int ev, int arg) {
  switch (ev) {
  case 3:
    if (valid_seq(arg, 101) == 1) return ESTABLISHED;
    retries++;
    if (retries > 2) return CLOSED;
    return SYN_RCVD;
  case 0:
    return CLOSED;
  default:
    return SYN_RCVD;
  }
}

static int on_established(int ev, int arg) {
  if (ev == 4) {
    if (arg > 0 && arg <= 1500) {
      data_bytes += arg;
      if (data_bytes > 3000) return CLOSE_WAIT; /* peer is done after a large transfer */
    } else if (arg > 1500) {
      errors++;
    }
    return ESTABLISHED;
  }
  if (ev == 5) return FIN_WAIT;
  if (ev == 6) return CLOSE_WAIT;
  return ESTABLISHED;
}

static int on_fin_wait(int ev, int arg) {
  if (ev == 7) {
    if (valid_seq(arg, 200)) return TIME_WAIT;
    return FIN_WAIT;
  }
  if (ev == 4) { errors++; return ERROR; }
  return FIN_WAIT;
}

static int on_close_wait(int ev) {
  if (ev == 5) return TIME_WAIT;
  return CLOSE_WAIT;
}

static int step(int state, int ev, int arg) {
  switch (state) {
  case CLOSED: return on_closed(ev);
  case LISTEN: return on_listen(ev, arg);
  case SYN_RCVD: return on_syn_rcvd(ev, arg);
  case ESTABLISHED: return on_established(ev, arg);
  case FIN_WAIT: return on_fin_wait(ev, arg);
  case CLOSE_WAIT: return on_close_wait(ev);
  default: return state;
  }
}

int main(void) {
  int state = CLOSED;
  for (int i = 0; i < 12; i++) {
    int ev = __VERIFIER_nondet_int();
    int arg = __VERIFIER_nondet_int();
    if (ev < 0 || ev > 9) continue;
    state = step(state, ev, arg);
    if (state == TIME_WAIT || state == ERROR) break;
  }
  if (state == TIME_WAIT) {
    if (data_bytes > 3000) return 3;
    if (data_bytes > 0) return 2;
    return 1;
  }
  if (errors > 1) return 4;
  return 0;
}
