/*
 * The bridge's control protocol, kept apart from the Arduino glue so it is tested on the host.
 *
 * Host → bridge: a line "~COMMAND\n" sent between Astronode frames (never inside STX…ETX). Everything
 * else passes through to the module unchanged, so a client that knows nothing of the bridge works as
 * with a DevKit.
 * Bridge → host: lines starting with "~" between the module's answers; an Astronode client ignores them
 * as bytes outside frames.
 */
#ifndef BRIDGE_CONTROL_H
#define BRIDGE_CONTROL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BRIDGE_CTL_MAX 24

typedef enum { BRIDGE_PASS = 0, BRIDGE_HOLD = 1, BRIDGE_LINE = 2 } bridge_ctl_result;

typedef struct {
  uint8_t in_frame; /* between STX and ETX of a host request */
  uint8_t in_ctl;   /* reading a "~" control line */
  char line[BRIDGE_CTL_MAX + 1];
  uint8_t len;
  uint32_t dropped; /* control lines too long to be commands */
} bridge_ctl;

typedef enum {
  BRIDGE_CMD_UNKNOWN = 0,
  BRIDGE_CMD_RESET,    /* pulse the module's RESET pin */
  BRIDGE_CMD_WAKE_ON,  /* drive WAKE-UP active */
  BRIDGE_CMD_WAKE_OFF,
  BRIDGE_CMD_STATUS,   /* answer one status line */
  BRIDGE_CMD_EVT,      /* answer the EVT pin level */
  BRIDGE_CMD_HELP
} bridge_cmd;

typedef struct {
  uint8_t evt;            /* EVT pin level */
  uint8_t wake;           /* WAKE-UP pin driven active */
  uint32_t uptime_ms;
  uint32_t to_module;     /* bytes passed host → module */
  uint32_t to_host;       /* bytes passed module → host */
  uint32_t frames_ok;     /* well-formed answers seen from the module */
  uint32_t frames_bad;    /* answers with a bad CRC, bad hex or wrong length */
  uint32_t resets;        /* RESET pulses since boot */
} bridge_status;

void bridge_ctl_init(bridge_ctl *c);
/* BRIDGE_PASS: forward the byte to the module; HOLD: it belongs to a control line; LINE: c->line holds a whole command */
bridge_ctl_result bridge_ctl_feed(bridge_ctl *c, uint8_t byte);
bridge_cmd bridge_ctl_parse(const char *line);
/* "~STATUS evt=0 wake=0 up=123 tx=10 rx=12 ok=1 bad=0 resets=0\n"; returns its length, or -1 if it does not fit */
int bridge_status_line(char *out, size_t size, const bridge_status *s);

#ifdef __cplusplus
}
#endif

#endif
