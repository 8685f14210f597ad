/* In the style of a device driver: a request dispatcher over global flags and status codes.
   The error is reachable only if a completed request is completed again, which the status
   protocol prevents. */
/* infeasible: 5 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int pending, completed, status, lower_called;

int complete_request(int s) {
  if (completed) reach_error();               /* infeasible: completion is guarded (+ error goal) */
  completed = 1;
  pending = 0;
  return s;
}

int call_lower(int major) {
  lower_called = 1;
  int r = __VERIFIER_nondet_int();
  if (r < 0) return -1;
  if (major == 3) return 259; /* STATUS_PENDING */
  return 0;
}

int dispatch(int major) {
  pending = 1;
  switch (major) {
  case 0: /* create */
    return complete_request(0);
  case 1: /* close */
    if (lower_called) return -2;              /* infeasible: nothing called the lower driver yet */
    return complete_request(0);
  case 2: /* read */
  case 3: /* ioctl */
    status = call_lower(major);
    if (status == 259) { pending = 1; return status; }
    return complete_request(status);
  default:
    return complete_request(-3);
  }
}

int main(void) {
  int major = __VERIFIER_nondet_int();
  if (major < 0 || major > 5) return 0;
  int r = dispatch(major);
  if (r == 259 && !pending) return 5;   /* infeasible: a pending request stays pending */
  if (completed && pending) return 6;   /* infeasible: completion clears pending */
  return r < 0;
}
