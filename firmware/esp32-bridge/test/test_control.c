/* Host tests of the bridge's control protocol (gcc -std=c99, run from devkit-bridge/test/c-library.test.ts). */
#include <stdio.h>
#include <string.h>

#include "../src/control.h"

static int checks = 0, failures = 0;
#define CHECK(c)                                                        \
  do {                                                                  \
    checks++;                                                           \
    if (!(c)) {                                                         \
      failures++;                                                       \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
    }                                                                   \
  } while (0)

/* feeds a string; returns what passed through, and the last command line seen */
static const char *run(bridge_ctl *c, const char *in, size_t n, char *cmd) {
  static char passed[512];
  size_t i, p = 0;
  cmd[0] = 0;
  for (i = 0; i < n; i++) {
    bridge_ctl_result r = bridge_ctl_feed(c, (uint8_t)in[i]);
    if (r == BRIDGE_PASS) passed[p++] = in[i];
    if (r == BRIDGE_LINE) strcpy(cmd, c->line);
  }
  passed[p] = 0;
  return passed;
}

int main(void) {
  bridge_ctl c;
  char cmd[64], line[128];
  const char frame[] = "\x02" "25E90354657374DF67" "\x03";
  const char tilde_in_noise[] = "\x02" "1564A3" "\x03" "~STATUS\n" "\x02" "65F3DD" "\x03";
  bridge_status s;

  bridge_ctl_init(&c);
  /* frames pass through untouched */
  CHECK(strcmp(run(&c, frame, sizeof frame - 1, cmd), frame) == 0 && cmd[0] == 0);
  /* a control line between frames is taken out of the stream */
  CHECK(strcmp(run(&c, tilde_in_noise, sizeof tilde_in_noise - 1, cmd), "\x02" "1564A3" "\x03" "\x02" "65F3DD" "\x03") == 0);
  CHECK(strcmp(cmd, "STATUS") == 0);
  CHECK(bridge_ctl_parse("STATUS") == BRIDGE_CMD_STATUS);
  CHECK(bridge_ctl_parse("RESET") == BRIDGE_CMD_RESET);
  CHECK(bridge_ctl_parse("WAKE 1") == BRIDGE_CMD_WAKE_ON);
  CHECK(bridge_ctl_parse("WAKE 0") == BRIDGE_CMD_WAKE_OFF);
  CHECK(bridge_ctl_parse("EVT") == BRIDGE_CMD_EVT);
  CHECK(bridge_ctl_parse("reset") == BRIDGE_CMD_UNKNOWN);
  /* "~" inside a frame is frame content (the module will call it a bad frame), never a command */
  run(&c, "\x02" "~RESET\n" "\x03", 9, cmd);
  CHECK(cmd[0] == 0);
  /* STX abandons an unterminated control line; the frame is passed whole */
  CHECK(strcmp(run(&c, "~RES\x02" "00F0E1\x03", 12, cmd), "\x02" "00F0E1\x03") == 0 && cmd[0] == 0);
  /* an over-long line is dropped, counted, and does not swallow what follows */
  CHECK(strcmp(run(&c, "~AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nX", 35, cmd), "AAAAAAA\nX") == 0 && cmd[0] == 0);
  CHECK(c.dropped == 1);
  /* CR LF endings work, empty lines are ignored */
  run(&c, "~\r\n~EVT\r\n", 9, cmd);
  CHECK(strcmp(cmd, "EVT") == 0);

  memset(&s, 0, sizeof s);
  s.evt = 1;
  s.uptime_ms = 1234;
  s.to_module = 10;
  s.to_host = 12;
  s.frames_ok = 2;
  s.resets = 1;
  CHECK(bridge_status_line(line, sizeof line, &s) > 0);
  CHECK(strcmp(line, "~STATUS evt=1 wake=0 up=1234 tx=10 rx=12 ok=2 bad=0 resets=1\n") == 0);
  CHECK(bridge_status_line(line, 10, &s) == -1);

  printf("esp32-bridge control: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
