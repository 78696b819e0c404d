/* Astronode S framing, CRC, request builders and answer parsers; see include/astronode.h. */
#include "astronode.h"

#include <string.h>

static const char HEX_DIGITS[] = "0123456789ABCDEF";

uint16_t asn_crc16(const uint8_t *data, size_t len, uint16_t crc) {
  size_t i;
  int b;
  for (i = 0; i < len; i++) {
    crc ^= (uint16_t)((uint16_t)data[i] << 8);
    for (b = 0; b < 8; b++) crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
  }
  return crc;
}

static void put_hex(char *out, uint8_t v) {
  out[0] = HEX_DIGITS[v >> 4];
  out[1] = HEX_DIGITS[v & 0x0Fu];
}

int asn_encode_frame(uint8_t opcode, const uint8_t *payload, size_t len, char *out, size_t out_size) {
  size_t need = 8u + 2u * len;
  size_t i;
  uint16_t crc;
  if (out_size < need) return ASN_E_BUFFER;
  crc = asn_crc16(&opcode, 1, 0xFFFFu);
  crc = asn_crc16(payload, len, crc);
  out[0] = (char)ASN_STX;
  put_hex(out + 1, opcode);
  for (i = 0; i < len; i++) put_hex(out + 3 + 2 * i, payload[i]);
  /* CRC low byte first: what every implementation and capture agree on */
  put_hex(out + 3 + 2 * len, (uint8_t)(crc & 0xFFu));
  put_hex(out + 5 + 2 * len, (uint8_t)(crc >> 8));
  out[need - 1] = (char)ASN_ETX;
  return (int)need;
}

void asn_decoder_init(asn_decoder *d, size_t max_frame) {
  memset(d, 0, sizeof *d);
  d->max_bytes = (max_frame - 2u) / 2u;
  if (d->max_bytes > sizeof d->raw) d->max_bytes = sizeof d->raw;
}

static int hex_value(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

asn_dec_result asn_decoder_push(asn_decoder *d, uint8_t c) {
  int v;
  size_t bytes;
  if (c == ASN_STX) {
    /* every STX starts over: a frame cut short is dropped, the new one is read */
    d->in_frame = 1;
    d->nibbles = 0;
    d->bad_hex = 0;
    d->overflow = 0;
    return ASN_DEC_NONE;
  }
  if (!d->in_frame) {
    d->noise++;
    return ASN_DEC_NONE;
  }
  if (c == ASN_ETX) {
    d->in_frame = 0;
    if (d->overflow) return ASN_DEC_TOO_LONG;
    if (d->bad_hex) return ASN_DEC_BAD_HEX;
    if (d->nibbles < 6 || (d->nibbles & 1u)) return ASN_DEC_TOO_SHORT;
    bytes = d->nibbles / 2u;
    if (asn_crc16(d->raw, bytes - 2u, 0xFFFFu) != (uint16_t)(d->raw[bytes - 2u] | (d->raw[bytes - 1u] << 8))) return ASN_DEC_BAD_CRC;
    d->opcode = d->raw[0];
    d->payload = d->raw + 1;
    d->len = bytes - 3u;
    return ASN_DEC_FRAME;
  }
  if (d->overflow) return ASN_DEC_NONE;
  if (d->nibbles / 2u >= d->max_bytes) {
    d->overflow = 1;
    return ASN_DEC_NONE;
  }
  v = hex_value(c);
  if (v < 0) {
    d->bad_hex = 1;
    v = 0;
  }
  if (d->nibbles & 1u) d->raw[d->nibbles / 2u] = (uint8_t)(d->raw[d->nibbles / 2u] | (uint8_t)v);
  else d->raw[d->nibbles / 2u] = (uint8_t)(v << 4);
  d->nibbles++;
  return ASN_DEC_NONE;
}

/* ---- requests ---- */

int asn_req_empty(uint8_t opcode, char *out, size_t out_size) {
  return asn_encode_frame(opcode, NULL, 0, out, out_size);
}

int asn_req_cfg_wr(const asn_config *c, char *out, size_t out_size) {
  uint8_t p[3];
  p[0] = (uint8_t)((c->sat_ack ? 1u : 0u) | (c->geolocation ? 2u : 0u) | (c->ephemeris ? 4u : 0u) | (c->deep_sleep ? 8u : 0u));
  p[1] = 0;
  p[2] = (uint8_t)((c->evt_sat_ack ? 1u : 0u) | (c->evt_reset ? 2u : 0u) | (c->evt_command ? 4u : 0u) | (c->evt_msg_pending ? 8u : 0u));
  return asn_encode_frame(ASN_CFG_WR, p, sizeof p, out, out_size);
}

static int put_field(uint8_t *dst, size_t width, const char *s) {
  size_t n = strlen(s);
  if (n >= width) return ASN_E_ARG;
  memset(dst, 0, width);
  memcpy(dst, s, n);
  return ASN_OK;
}

int asn_req_wif_wr(const char *ssid, const char *password, const char *token, char *out, size_t out_size) {
  uint8_t p[194];
  if (put_field(p, 33, ssid) || put_field(p + 33, 64, password) || put_field(p + 97, 97, token)) return ASN_E_ARG;
  return asn_encode_frame(ASN_WIF_WR, p, sizeof p, out, out_size);
}

int asn_req_ssc_wr(uint8_t period, uint8_t force, char *out, size_t out_size) {
  uint8_t p[2];
  p[0] = period;
  p[1] = force ? 1u : 0u;
  return asn_encode_frame(ASN_SSC_WR, p, sizeof p, out, out_size);
}

int asn_req_pld_er(uint16_t id, const uint8_t *data, size_t len, char *out, size_t out_size) {
  uint8_t p[2u + ASN_MAX_USER_BYTES];
  if (len > ASN_MAX_USER_BYTES) return ASN_E_ARG;
  p[0] = (uint8_t)(id & 0xFFu);
  p[1] = (uint8_t)(id >> 8);
  if (len) memcpy(p + 2, data, len);
  return asn_encode_frame(ASN_PLD_ER, p, 2u + len, out, out_size);
}

static void put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v & 0xFFu);
  p[1] = (uint8_t)((v >> 8) & 0xFFu);
  p[2] = (uint8_t)((v >> 16) & 0xFFu);
  p[3] = (uint8_t)(v >> 24);
}

int asn_req_geo_wr(int32_t lat_e7, int32_t lon_e7, char *out, size_t out_size) {
  uint8_t p[8];
  put_u32(p, (uint32_t)lat_e7);
  put_u32(p + 4, (uint32_t)lon_e7);
  return asn_encode_frame(ASN_GEO_WR, p, sizeof p, out, out_size);
}

/* ---- answers ---- */

static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Common head of every parser: an error answer, or the answer to `request` with exactly `want` bytes (or any if want < 0). */
static int expect_answer(uint8_t request, uint8_t opcode, size_t len, const uint8_t *p, long want, uint16_t *error) {
  if (opcode == ASN_ERROR_OPCODE) {
    if (len != 2) return ASN_E_LENGTH;
    if (error) *error = (uint16_t)(p[0] | (p[1] << 8));
    return ASN_E_MODULE;
  }
  if (opcode != (uint8_t)(request | ASN_ANSWER_BIT)) return ASN_E_OPCODE;
  if (want >= 0 && len != (size_t)want) return ASN_E_LENGTH;
  return ASN_OK;
}

int asn_check_answer(uint8_t request, uint8_t opcode, const uint8_t *payload, size_t len, uint16_t *error) {
  return expect_answer(request, opcode, len, payload, 0, error);
}

int asn_parse_id(uint8_t request, uint8_t opcode, const uint8_t *p, size_t len, uint16_t *id, uint16_t *error) {
  int r = expect_answer(request, opcode, len, p, 2, error);
  if (r == ASN_OK) *id = (uint16_t)(p[0] | (p[1] << 8));
  return r;
}

int asn_parse_u32(uint8_t request, uint8_t opcode, const uint8_t *p, size_t len, uint32_t *value, uint16_t *error) {
  int r = expect_answer(request, opcode, len, p, 4, error);
  if (r == ASN_OK) *value = get_u32(p);
  return r;
}

int asn_parse_cfg_ra(uint8_t opcode, const uint8_t *p, size_t len, asn_config_answer *out, uint16_t *error) {
  int r = expect_answer(ASN_CFG_RR, opcode, len, p, 8, error);
  if (r != ASN_OK) return r;
  out->product_id = p[0];
  out->hw_rev = p[1];
  out->fw_major = p[2];
  out->fw_minor = p[3];
  out->fw_rev = p[4];
  out->config.sat_ack = p[5] & 1u;
  out->config.geolocation = (p[5] >> 1) & 1u;
  out->config.ephemeris = (p[5] >> 2) & 1u;
  out->config.deep_sleep = (p[5] >> 3) & 1u;
  out->config.evt_sat_ack = p[7] & 1u;
  out->config.evt_reset = (p[7] >> 1) & 1u;
  out->config.evt_command = (p[7] >> 2) & 1u;
  out->config.evt_msg_pending = (p[7] >> 3) & 1u;
  return ASN_OK;
}

int asn_parse_evt_ra(uint8_t opcode, const uint8_t *p, size_t len, asn_events *out, uint16_t *error) {
  int r = expect_answer(ASN_EVT_RR, opcode, len, p, 1, error);
  if (r != ASN_OK) return r;
  out->sat_ack = p[0] & 1u;
  out->reset = (p[0] >> 1) & 1u;
  out->command = (p[0] >> 2) & 1u;
  out->msg_pending = (p[0] >> 3) & 1u;
  return ASN_OK;
}

int asn_parse_cmd_ra(uint8_t opcode, const uint8_t *p, size_t len, asn_command *out, uint16_t *error) {
  int r = expect_answer(ASN_CMD_RR, opcode, len, p, -1, error);
  if (r != ASN_OK) return r;
  if (len != 12 && len != 44) return ASN_E_LENGTH;
  out->created_at = get_u32(p);
  out->len = len - 4u;
  memcpy(out->data, p + 4, out->len);
  return ASN_OK;
}

int asn_tlv_find(const uint8_t *p, size_t len, uint8_t type, uint32_t *value) {
  size_t o = 0;
  while (o < len) {
    uint8_t t, n;
    if (o + 2u > len) return ASN_E_TLV;
    t = p[o];
    n = p[o + 1u];
    if (o + 2u + n > len) return ASN_E_TLV;
    if (t == type) {
      uint32_t v = 0;
      int i;
      if (n != 1 && n != 2 && n != 4) return ASN_E_TLV;
      for (i = n - 1; i >= 0; i--) v = (v << 8) | p[o + 2u + (size_t)i];
      *value = v;
      return ASN_OK;
    }
    o += 2u + n;
  }
  return ASN_E_ARG;
}
