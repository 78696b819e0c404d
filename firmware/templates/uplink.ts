// uplink.{h,c}: hands payloads to an Astronode S and keeps up with its events, over the shared C
// framing of firmware/astronode-c (request builders, frame decoder, answer parsers). Portable C99:
// the board supplies five callbacks (write, read a byte with a timeout, clock, sleep, log), so the
// same file runs on the ESP32 and in the host test against the studio's module simulator.

export const UPLINK_H = String.raw`/* uplink.h - payloads to an Astronode S, events back (BUFFER_FULL, acknowledgements, resets).
 * Generated file: regenerate it from SatPayload Studio instead of editing it. */
#ifndef UPLINK_H
#define UPLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "astronode.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  void *ctx;
  void (*write)(void *ctx, const uint8_t *data, size_t len);
  /* the next byte from the module, or -1 when none arrives within timeout_ms */
  int (*read_byte)(void *ctx, uint32_t timeout_ms);
  uint32_t (*now_ms)(void *ctx);
  void (*sleep_ms)(void *ctx, uint32_t ms);
  void (*log)(void *ctx, const char *line);
} uplink_io;

typedef enum {
  UPLINK_QUEUED = 0,       /* the module holds the payload */
  UPLINK_HELD = 1,         /* BUFFER_FULL: kept here and offered again once a slot frees */
  UPLINK_ERR_TIMEOUT = -1, /* no answer, also after one repetition */
  UPLINK_ERR_MODULE = -2,  /* the module refused with another error (last_error) */
  UPLINK_ERR_ARG = -3,     /* more than 160 bytes */
  UPLINK_ERR_ANSWER = -4   /* an answer that does not fit the request */
} uplink_result;

typedef struct {
  const uplink_io *io;
  asn_decoder dec;
  asn_config config;
  uint16_t next_id;
  /* one payload refused with BUFFER_FULL; a newer one replaces it (fresh telemetry wins) */
  uint8_t held[ASN_MAX_USER_BYTES];
  size_t held_len;
  bool has_held;
  uint16_t last_error;
  uint32_t queued, acked, full, dropped, resets, commands, timeouts;
} uplink;

/* Waits for the module to boot, sends the dummy request the first-request quirk needs, writes the
 * configuration (satellite acknowledgements on, EVT pin for acks, resets and commands) and clears
 * the power-on reset flag. */
int uplink_begin(uplink *u, const uplink_io *io);

/* PLD_ER with the next payload id; returns an uplink_result. */
int uplink_send(uplink *u, const uint8_t *data, size_t len);

/* EVT_RR and whatever it reports: acknowledgements (SAK_RR, SAK_CR), a module reset (RES_CR, then the
 * configuration again: the module forgets what was not saved), a downlink command (CMD_RR, CMD_CR);
 * after an acknowledgement or a reset it offers a held payload again. Returns the number of events handled or a negative uplink_result. */
int uplink_poll(uplink *u);

#ifdef __cplusplus
}
#endif

#endif /* UPLINK_H */
`;

export const UPLINK_C = String.raw`/* uplink.c - payloads to an Astronode S, events back. See uplink.h.
 * Generated file: regenerate it from SatPayload Studio instead of editing it. */
#include "uplink.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ANSWER_TIMEOUT_MS 1500u
#define BOOT_MS 400u

static void say(uplink *u, const char *fmt, ...) {
  char line[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  u->io->log(u->io->ctx, line);
}

static void hex(char *out, const uint8_t *p, size_t n) {
  static const char D[] = "0123456789ABCDEF";
  size_t i;
  for (i = 0; i < n; i++) {
    out[2 * i] = D[p[i] >> 4];
    out[2 * i + 1] = D[p[i] & 15u];
  }
  out[2 * n] = '\0';
}

/* Sends a request and waits for its answer (or an error answer); one repetition after a timeout. */
static int exchange(uplink *u, const char *frame, int n, uint8_t request, int tries) {
  int attempt;
  for (attempt = 0; attempt < tries; attempt++) {
    uint32_t start = u->io->now_ms(u->io->ctx);
    asn_decoder_init(&u->dec, ASN_MAX_ANSWER_FRAME);
    u->io->write(u->io->ctx, (const uint8_t *)frame, (size_t)n);
    for (;;) {
      uint32_t elapsed = u->io->now_ms(u->io->ctx) - start;
      int c;
      if (elapsed >= ANSWER_TIMEOUT_MS) break;
      c = u->io->read_byte(u->io->ctx, ANSWER_TIMEOUT_MS - elapsed);
      if (c < 0) break;
      /* a late answer to an earlier request is skipped: only ours or an error ends the wait */
      if (asn_decoder_push(&u->dec, (uint8_t)c) == ASN_DEC_FRAME && (u->dec.opcode == (uint8_t)(request | ASN_ANSWER_BIT) || u->dec.opcode == ASN_ERROR_OPCODE)) return ASN_OK;
    }
    u->timeouts++;
  }
  return UPLINK_ERR_TIMEOUT;
}

/* A request without payload whose answer is a plain acknowledgement (or an expected error). */
static int simple(uplink *u, uint8_t request, uint16_t *error) {
  char frame[16];
  int n = asn_req_empty(request, frame, sizeof frame);
  int rc;
  *error = 0;
  if (n < 0) return UPLINK_ERR_ARG;
  rc = exchange(u, frame, n, request, 2);
  if (rc < 0) return rc;
  rc = asn_check_answer(request, u->dec.opcode, u->dec.payload, u->dec.len, error);
  return rc == ASN_OK ? ASN_OK : rc == ASN_E_MODULE ? UPLINK_ERR_MODULE : UPLINK_ERR_ANSWER;
}

static int configure(uplink *u) {
  char frame[32];
  uint16_t error = 0;
  int n = asn_req_cfg_wr(&u->config, frame, sizeof frame);
  int rc;
  if (n < 0) return UPLINK_ERR_ARG;
  rc = exchange(u, frame, n, ASN_CFG_WR, 2);
  if (rc < 0) return rc;
  rc = asn_check_answer(ASN_CFG_WR, u->dec.opcode, u->dec.payload, u->dec.len, &error);
  if (rc != ASN_OK) {
    u->last_error = error;
    say(u, "configuration refused (error 0x%04X)", (unsigned)error);
    return UPLINK_ERR_MODULE;
  }
  say(u, "configured: satellite acknowledgements on, EVT on ack/reset/command");
  return ASN_OK;
}

int uplink_begin(uplink *u, const uplink_io *io) {
  char frame[16];
  uint16_t error;
  int n, rc;
  memset(u, 0, sizeof *u);
  u->io = io;
  u->next_id = 1;
  u->config.sat_ack = 1;
  u->config.ephemeris = 1;
  u->config.evt_sat_ack = 1;
  u->config.evt_reset = 1;
  u->config.evt_command = 1;
  io->sleep_ms(io->ctx, BOOT_MS);
  /* the first request after a module restart may go unanswered: spend it on the dummy opcode */
  n = asn_req_empty(ASN_DUMMY_OPCODE, frame, sizeof frame);
  if (n > 0) (void)exchange(u, frame, n, ASN_DUMMY_OPCODE, 1);
  u->timeouts = 0;
  rc = configure(u);
  if (rc < 0) return rc;
  rc = simple(u, ASN_RES_CR, &error);
  if (rc < 0 && error != 0) say(u, "reset flag not cleared (error 0x%04X)", (unsigned)error);
  return ASN_OK;
}

static int enqueue(uplink *u, const uint8_t *data, size_t len) {
  char frame[ASN_MAX_REQUEST_FRAME];
  char text[2 * ASN_MAX_USER_BYTES + 1];
  uint16_t id = u->next_id, echoed = 0, error = 0;
  int n, rc;
  n = asn_req_pld_er(id, data, len, frame, sizeof frame);
  if (n < 0) return UPLINK_ERR_ARG;
  /* ids stay unique among the 8 queued payloads; 0 is left out */
  u->next_id = (uint16_t)(id == 65535u ? 1u : id + 1u);
  rc = exchange(u, frame, n, ASN_PLD_ER, 2);
  if (rc < 0) {
    say(u, "no answer to PLD_ER id=%u", (unsigned)id);
    return rc;
  }
  rc = asn_parse_id(ASN_PLD_ER, u->dec.opcode, u->dec.payload, u->dec.len, &echoed, &error);
  hex(text, data, len);
  if (rc == ASN_OK || (rc == ASN_E_MODULE && error == ASN_ERR_DUPLICATE_ID)) {
    /* DUPLICATE_ID after a repetition: the first PLD_ER arrived, only its answer was lost */
    u->queued++;
    say(u, "queued id=%u %u bytes: %s", (unsigned)id, (unsigned)len, text);
    return UPLINK_QUEUED;
  }
  if (rc == ASN_E_MODULE && error == ASN_ERR_BUFFER_FULL) {
    u->full++;
    if (u->has_held && (u->held_len != len || memcmp(u->held, data, len) != 0)) {
      u->dropped++;
      say(u, "dropped the held payload for a newer one");
    }
    memcpy(u->held, data, len);
    u->held_len = len;
    u->has_held = true;
    say(u, "BUFFER_FULL: holding %u bytes until a slot frees", (unsigned)len);
    return UPLINK_HELD;
  }
  u->last_error = error;
  say(u, "PLD_ER id=%u refused (error 0x%04X)", (unsigned)id, (unsigned)error);
  return rc == ASN_E_MODULE ? UPLINK_ERR_MODULE : UPLINK_ERR_ANSWER;
}

static int offer_held(uplink *u) {
  uint8_t data[ASN_MAX_USER_BYTES];
  size_t len = u->held_len;
  int rc;
  if (!u->has_held) return UPLINK_QUEUED;
  memcpy(data, u->held, len);
  rc = enqueue(u, data, len);
  if (rc == UPLINK_QUEUED) u->has_held = false;
  return rc;
}

int uplink_send(uplink *u, const uint8_t *data, size_t len) {
  if (len > ASN_MAX_USER_BYTES) return UPLINK_ERR_ARG;
  /* the held payload goes first; if the queue is still full, the newer one takes its place */
  if (u->has_held) (void)offer_held(u);
  return enqueue(u, data, len);
}

int uplink_poll(uplink *u) {
  char frame[16];
  asn_events ev;
  uint16_t error = 0, id = 0;
  int n, rc, handled = 0;
  n = asn_req_empty(ASN_EVT_RR, frame, sizeof frame);
  if (n < 0) return UPLINK_ERR_ARG;
  rc = exchange(u, frame, n, ASN_EVT_RR, 2);
  if (rc < 0) return rc;
  if (asn_parse_evt_ra(u->dec.opcode, u->dec.payload, u->dec.len, &ev, &error) != ASN_OK) return UPLINK_ERR_ANSWER;
  if (ev.sat_ack) {
    n = asn_req_empty(ASN_SAK_RR, frame, sizeof frame);
    if (exchange(u, frame, n, ASN_SAK_RR, 2) == ASN_OK && asn_parse_id(ASN_SAK_RR, u->dec.opcode, u->dec.payload, u->dec.len, &id, &error) == ASN_OK) {
      u->acked++;
      say(u, "acknowledged by satellite: id=%u", (unsigned)id);
      if (simple(u, ASN_SAK_CR, &error) < 0) say(u, "SAK_CR failed (error 0x%04X)", (unsigned)error);
      handled++;
    }
  }
  if (ev.reset) {
    u->resets++;
    say(u, "module reset: clearing the flag and configuring again");
    if (simple(u, ASN_RES_CR, &error) < 0) say(u, "RES_CR failed (error 0x%04X)", (unsigned)error);
    (void)configure(u);
    handled++;
  }
  if (ev.command) {
    asn_command cmd;
    char text[2 * sizeof cmd.data + 1];
    n = asn_req_empty(ASN_CMD_RR, frame, sizeof frame);
    if (exchange(u, frame, n, ASN_CMD_RR, 2) == ASN_OK && asn_parse_cmd_ra(u->dec.opcode, u->dec.payload, u->dec.len, &cmd, &error) == ASN_OK) {
      u->commands++;
      hex(text, cmd.data, cmd.len);
      say(u, "downlink command (%u bytes): %s", (unsigned)cmd.len, text);
      if (simple(u, ASN_CMD_CR, &error) < 0) say(u, "CMD_CR failed (error 0x%04X)", (unsigned)error);
      handled++;
    }
  }
  /* a cleared acknowledgement or a restarted module has room again */
  if (u->has_held && (ev.sat_ack || ev.reset)) (void)offer_held(u);
  return handled;
}
`;
