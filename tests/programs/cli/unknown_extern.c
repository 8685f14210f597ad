/* An external function without body or model: its result becomes an input. */
extern int sensor_read(int channel);
int main(void) {
  int v = sensor_read(3);
  if (v == 12345) return 1;
  if (v < 0) return 2;
  return 0;
}
