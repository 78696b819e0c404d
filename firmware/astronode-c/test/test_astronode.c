/*
 * Host-side tests of the C protocol code. Without arguments: the worked frames of the protocol facts and
 * the parsers. With --encode / --decode it becomes a filter the TypeScript test drives with random input,
 * so both implementations are compared byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astronode.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      failures++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

/* the characters between STX and ETX of a built frame, NUL-terminated */
static const char *inner(const char *frame, int n) {
  static char buf[400];
  if (n < 2) return "";
  memcpy(buf, frame + 1, (size_t)n - 2);
  buf[n - 2] = 0;
  return buf;
}

static void expect_frame(int n, const char *frame, const char *text) {
  CHECK(n == (int)strlen(text) + 2);
  CHECK(frame[0] == ASN_STX && frame[n - 1] == ASN_ETX);
  CHECK(strcmp(inner(frame, n), text) == 0);
  if (strcmp(inner(frame, n), text) != 0) fprintf(stderr, "  got %s, want %s\n", inner(frame, n), text);
}

/* feeds STX text ETX to a decoder and returns the result at ETX */
static asn_dec_result feed(asn_decoder *d, const char *text) {
  asn_dec_result r = ASN_DEC_NONE;
  size_t i;
  asn_decoder_push(d, ASN_STX);
  for (i = 0; text[i]; i++) asn_decoder_push(d, (uint8_t)text[i]);
  r = asn_decoder_push(d, ASN_ETX);
  return r;
}

static void worked_frames(void) {
  char f[400];
  int n;
  asn_config c;
  uint8_t hello[] = {'H', 'e', 'l', 'l', 'o'};
  uint8_t test[] = {'T', 'e', 's', 't'};
  struct { uint8_t op; const char *text; } empties[] = {
    {ASN_CFG_RR, "1564A3"}, {ASN_CFG_SR, "10C1F3"}, {ASN_CFG_FR, "11E0E3"}, {ASN_RTC_RR, "172683"},
    {ASN_NCO_RR, "18C972"}, {ASN_MGI_RR, "19E862"}, {ASN_MSN_RR, "1A8B52"}, {ASN_MPN_RR, "1BAA42"},
    {ASN_PLD_FR, "2775B5"}, {ASN_SAK_CR, "46F2C9"}, {ASN_CMD_RR, "47D3D9"}, {ASN_CMD_CR, "483C28"},
    {ASN_RES_CR, "55A0EB"}, {ASN_CTX_SR, "6690ED"}, {ASN_PER_RR, "67B1FD"}, {ASN_PER_CR, "685E0C"},
    {ASN_MST_RR, "697F1C"}, {ASN_LCD_RR, "6A1C2C"}, {ASN_END_RR, "6B3D3C"}, {ASN_PLD_DR, "2654A5"},
    {ASN_EVT_RR, "65F3DD"}, {ASN_SAK_RR, "4591F9"}, {ASN_DUMMY_OPCODE, "00F0E1"}};
  size_t i;

  CHECK(asn_crc16((const uint8_t *)"123456789", 9, 0xFFFFu) == 0x29B1u);

  memset(&c, 0, sizeof c);
  c.sat_ack = 1; c.ephemeris = 1; c.evt_sat_ack = 1;
  n = asn_req_cfg_wr(&c, f, sizeof f);
  expect_frame(n, f, "0505000154C3");
  memset(&c, 0, sizeof c);
  c.sat_ack = 1; c.geolocation = 1; c.evt_sat_ack = 1; c.evt_reset = 1; c.evt_msg_pending = 1;
  n = asn_req_cfg_wr(&c, f, sizeof f);
  expect_frame(n, f, "0503000BBED0");

  expect_frame(asn_req_pld_er(0x03E9, test, sizeof test, f, sizeof f), f, "25E90354657374DF67");
  expect_frame(asn_req_pld_er(1, hello, sizeof hello, f, sizeof f), f, "25010048656C6C6F5F71");
  expect_frame(asn_req_geo_wr(465343400, 65787470, f, sizeof f), f, "35A893BC1B4ED6EB03BCB8");
  for (i = 0; i < sizeof empties / sizeof empties[0]; i++) expect_frame(asn_req_empty(empties[i].op, f, sizeof f), f, empties[i].text);

  /* sizes and refusals */
  {
    uint8_t big[161];
    char token[97];
    memset(big, 0x41, sizeof big);
    CHECK(asn_req_pld_er(7, big, 160, f, sizeof f) == 332);
    CHECK(asn_req_pld_er(7, big, 161, f, sizeof f) == ASN_E_ARG);
    CHECK(asn_req_pld_er(7, big, 160, f, 331) == ASN_E_BUFFER);
    memset(token, 'T', 96);
    token[96] = 0;
    CHECK(asn_req_wif_wr("lab", "pw", token, f, sizeof f) == 396);
    CHECK(f[1 + 2 * (1 + 33)] == '7' && f[2 + 2 * (1 + 33)] == '0'); /* 'p' at byte 33 of the payload */
    CHECK(asn_req_wif_wr("a-network-name-of-thirty-three-ch", "pw", token, f, sizeof f) == ASN_E_ARG);
  }
}

static void answers(void) {
  asn_decoder d;
  uint16_t id = 0, err = 0;
  uint32_t v = 0;
  asn_config_answer cfg;
  asn_events ev;
  asn_command cmd;
  uint8_t tlv[] = {0x41, 1, 3, 0x99, 3, 0xAA, 0xBB, 0xCC, 0x44, 4, 0x10, 0, 0, 0};

  asn_decoder_init(&d, ASN_MAX_ANSWER_FRAME);
  CHECK(feed(&d, "A50100C1A9") == ASN_DEC_FRAME);
  CHECK(asn_parse_id(ASN_PLD_ER, d.opcode, d.payload, d.len, &id, &err) == ASN_OK && id == 1);
  CHECK(feed(&d, "A659008777") == ASN_DEC_FRAME);
  CHECK(asn_parse_id(ASN_PLD_DR, d.opcode, d.payload, d.len, &id, &err) == ASN_OK && id == 0x59);
  CHECK(asn_parse_id(ASN_PLD_ER, d.opcode, d.payload, d.len, &id, &err) == ASN_E_OPCODE);
  CHECK(feed(&d, "85DD20") == ASN_DEC_FRAME);
  CHECK(asn_check_answer(ASN_CFG_WR, d.opcode, d.payload, d.len, &err) == ASN_OK);
  CHECK(feed(&d, "9503010201000500012629") == ASN_DEC_FRAME);
  CHECK(asn_parse_cfg_ra(d.opcode, d.payload, d.len, &cfg, &err) == ASN_OK);
  CHECK(cfg.product_id == 3 && cfg.hw_rev == 1 && cfg.fw_major == 2 && cfg.fw_minor == 1 && cfg.fw_rev == 0);
  CHECK(cfg.config.sat_ack && !cfg.config.geolocation && cfg.config.ephemeris && cfg.config.evt_sat_ack && !cfg.config.evt_reset);
  CHECK(feed(&d, "C7785634120A0B0C0D0E0FAAABD26F") == ASN_DEC_FRAME);
  CHECK(asn_parse_cmd_ra(d.opcode, d.payload, d.len, &cmd, &err) == ASN_OK);
  CHECK(cmd.created_at == 0x12345678u && cmd.len == 8 && cmd.data[0] == 0x0A && cmd.data[7] == 0xAB);
  CHECK(feed(&d, "E505EDA2") == ASN_DEC_FRAME);
  CHECK(asn_parse_evt_ra(d.opcode, d.payload, d.len, &ev, &err) == ASN_OK && ev.sat_ack && !ev.reset && ev.command && !ev.msg_pending);
  CHECK(feed(&d, "C50100AA32") == ASN_DEC_FRAME);
  CHECK(asn_parse_id(ASN_SAK_RR, d.opcode, d.payload, d.len, &id, &err) == ASN_OK && id == 1);

  CHECK(feed(&d, "FF01250944") == ASN_DEC_FRAME);
  CHECK(asn_parse_id(ASN_PLD_ER, d.opcode, d.payload, d.len, &id, &err) == ASN_E_MODULE && err == ASN_ERR_BUFFER_FULL);
  CHECK(feed(&d, "FF11257A47") == ASN_DEC_FRAME);
  CHECK(asn_check_answer(ASN_PLD_ER, d.opcode, d.payload, d.len, &err) == ASN_E_MODULE && err == ASN_ERR_DUPLICATE_ID);
  CHECK(feed(&d, "FF0100CE30") == ASN_DEC_FRAME);
  CHECK(asn_check_answer(ASN_RTC_RR, d.opcode, d.payload, d.len, &err) == ASN_E_MODULE && err == ASN_ERR_CRC_NOT_VALID);
  CHECK(feed(&d, "ff21010926") == ASN_DEC_FRAME); /* lower case accepted */
  CHECK(asn_check_answer(ASN_DUMMY_OPCODE, d.opcode, d.payload, d.len, &err) == ASN_E_MODULE && err == ASN_ERR_OPCODE_NOT_VALID);

  /* damaged frames and resynchronisation */
  CHECK(feed(&d, "A50100C1AA") == ASN_DEC_BAD_CRC);
  CHECK(feed(&d, "A5G100C1A9") == ASN_DEC_BAD_HEX);
  CHECK(feed(&d, "A501") == ASN_DEC_TOO_SHORT);
  {
    int i;
    asn_decoder_push(&d, ASN_STX);
    for (i = 0; i < 300; i++) asn_decoder_push(&d, '0');
    CHECK(asn_decoder_push(&d, ASN_ETX) == ASN_DEC_TOO_LONG);
    /* a frame cut off by a new STX is dropped and the new one read */
    asn_decoder_push(&d, ASN_STX);
    asn_decoder_push(&d, 'A');
    asn_decoder_push(&d, '5');
    CHECK(feed(&d, "9778563412A880") == ASN_DEC_FRAME);
    CHECK(asn_parse_u32(ASN_RTC_RR, d.opcode, d.payload, d.len, &v, &err) == ASN_OK && v == 0x12345678u);
  }
  CHECK(asn_parse_u32(ASN_RTC_RR, 0x97, (const uint8_t *)"\x78\x56\x34", 3, &v, &err) == ASN_E_LENGTH);

  CHECK(asn_tlv_find(tlv, sizeof tlv, 0x44, &v) == ASN_OK && v == 16);
  CHECK(asn_tlv_find(tlv, sizeof tlv, 0x41, &v) == ASN_OK && v == 3);
  CHECK(asn_tlv_find(tlv, sizeof tlv, 0x42, &v) == ASN_E_ARG);
  CHECK(asn_tlv_find(tlv, 4, 0x44, &v) == ASN_E_TLV);
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* stdin lines "OP PAYLOADHEX" (hex, payload may be "-" for none) -> the frame text per line */
static int encode_filter(void) {
  char line[1024];
  while (fgets(line, sizeof line, stdin)) {
    char op_hex[8], hex[900];
    uint8_t payload[400];
    size_t n = 0, i;
    char out[900];
    int len;
    if (sscanf(line, "%7s %899s", op_hex, hex) != 2) continue;
    if (strcmp(hex, "-") != 0)
      for (i = 0; hex[2 * i] && hex[2 * i + 1]; i++) payload[n++] = (uint8_t)(hexval(hex[2 * i]) * 16 + hexval(hex[2 * i + 1]));
    len = asn_encode_frame((uint8_t)strtoul(op_hex, NULL, 16), payload, n, out, sizeof out);
    if (len < 0) {
      printf("ERR %d\n", len);
      continue;
    }
    printf("%s\n", inner(out, len));
  }
  return 0;
}

/* raw stdin bytes through a host-side decoder -> one line per result at each ETX */
static int decode_filter(void) {
  asn_decoder d;
  int c;
  static const char *names[] = {"NONE", "FRAME", "BAD_CRC", "BAD_HEX", "TOO_LONG", "TOO_SHORT"};
  asn_decoder_init(&d, ASN_MAX_ANSWER_FRAME);
  while ((c = getchar()) != EOF) {
    asn_dec_result r = asn_decoder_push(&d, (uint8_t)c);
    size_t i;
    if (r == ASN_DEC_NONE) continue;
    if (r != ASN_DEC_FRAME) {
      printf("%s\n", names[r]);
      continue;
    }
    printf("FRAME %02X ", d.opcode);
    for (i = 0; i < d.len; i++) printf("%02X", d.payload[i]);
    printf("\n");
  }
  printf("NOISE %lu\n", (unsigned long)d.noise);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--encode") == 0) return encode_filter();
  if (argc > 1 && strcmp(argv[1], "--decode") == 0) return decode_filter();
  worked_frames();
  answers();
  printf("astronode-c: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
