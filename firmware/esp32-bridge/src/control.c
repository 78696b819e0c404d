/* Control-line recognition and status formatting; see control.h. */
#include "control.h"

#include <stdio.h>
#include <string.h>

void bridge_ctl_init(bridge_ctl *c) {
  memset(c, 0, sizeof *c);
}

bridge_ctl_result bridge_ctl_feed(bridge_ctl *c, uint8_t b) {
  if (b == 0x02u) {
    /* a frame starts: whatever control line was open is abandoned, the frame goes through whole */
    c->in_ctl = 0;
    c->in_frame = 1;
    return BRIDGE_PASS;
  }
  if (c->in_frame) {
    if (b == 0x03u) c->in_frame = 0;
    return BRIDGE_PASS;
  }
  if (!c->in_ctl) {
    if (b != '~') return BRIDGE_PASS;
    c->in_ctl = 1;
    c->len = 0;
    return BRIDGE_HOLD;
  }
  if (b == '\n' || b == '\r') {
    c->in_ctl = 0;
    c->line[c->len] = 0;
    return c->len ? BRIDGE_LINE : BRIDGE_HOLD;
  }
  if (c->len >= BRIDGE_CTL_MAX) {
    c->in_ctl = 0;
    c->dropped++;
    return BRIDGE_HOLD;
  }
  c->line[c->len++] = (char)b;
  return BRIDGE_HOLD;
}

bridge_cmd bridge_ctl_parse(const char *line) {
  if (strcmp(line, "RESET") == 0) return BRIDGE_CMD_RESET;
  if (strcmp(line, "WAKE 1") == 0) return BRIDGE_CMD_WAKE_ON;
  if (strcmp(line, "WAKE 0") == 0) return BRIDGE_CMD_WAKE_OFF;
  if (strcmp(line, "STATUS") == 0) return BRIDGE_CMD_STATUS;
  if (strcmp(line, "EVT") == 0) return BRIDGE_CMD_EVT;
  if (strcmp(line, "HELP") == 0) return BRIDGE_CMD_HELP;
  return BRIDGE_CMD_UNKNOWN;
}

int bridge_status_line(char *out, size_t size, const bridge_status *s) {
  int n = snprintf(out, size, "~STATUS evt=%u wake=%u up=%lu tx=%lu rx=%lu ok=%lu bad=%lu resets=%lu\n", (unsigned)s->evt, (unsigned)s->wake, (unsigned long)s->uptime_ms,
                   (unsigned long)s->to_module, (unsigned long)s->to_host, (unsigned long)s->frames_ok, (unsigned long)s->frames_bad, (unsigned long)s->resets);
  return (n < 0 || (size_t)n >= size) ? -1 : n;
}
