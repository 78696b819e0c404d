/*
 * Astronode S serial protocol in plain C99: framing (STX, hex ASCII, CRC-16/CCITT-FALSE low byte first,
 * ETX), a byte-at-a-time frame decoder that resynchronises on STX, request builders and answer parsers.
 * No heap, no globals: every buffer belongs to the caller, so it fits an ESP32 sketch and the firmware the
 * exporters generate alike. Byte layouts follow Astrocast's Astronode S command reference (the same tables the TypeScript client uses).
 */
#ifndef ASTRONODE_H
#define ASTRONODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ASN_STX 0x02u
#define ASN_ETX 0x03u
#define ASN_ANSWER_BIT 0x80u
#define ASN_ERROR_OPCODE 0xFFu
#define ASN_DUMMY_OPCODE 0x00u
#define ASN_MAX_USER_BYTES 160u
#define ASN_QUEUE_SLOTS 8u
/* largest request (WIF_WR) and largest accepted answer, whole frames with STX and ETX */
#define ASN_MAX_REQUEST_FRAME 396u
#define ASN_MAX_ANSWER_FRAME 178u
/* binary bytes a decoded answer can hold: (178 - 2) / 2 - opcode - CRC */
#define ASN_MAX_ANSWER_PAYLOAD 85u
#define ASN_EPOCH_2018_UNIX 1514764800ul

/* request opcodes; answers are opcode | 0x80 */
enum asn_opcode {
  ASN_CFG_WR = 0x05, ASN_WIF_WR = 0x06, ASN_SSC_WR = 0x07, ASN_CFG_SR = 0x10, ASN_CFG_FR = 0x11,
  ASN_CFG_RR = 0x15, ASN_RTC_RR = 0x17, ASN_NCO_RR = 0x18, ASN_MGI_RR = 0x19, ASN_MSN_RR = 0x1A,
  ASN_MPN_RR = 0x1B, ASN_PLD_ER = 0x25, ASN_PLD_DR = 0x26, ASN_PLD_FR = 0x27, ASN_GEO_WR = 0x35,
  ASN_SAK_RR = 0x45, ASN_SAK_CR = 0x46, ASN_CMD_RR = 0x47, ASN_CMD_CR = 0x48, ASN_RES_CR = 0x55,
  ASN_EVT_RR = 0x65, ASN_CTX_SR = 0x66, ASN_PER_RR = 0x67, ASN_PER_CR = 0x68, ASN_MST_RR = 0x69,
  ASN_LCD_RR = 0x6A, ASN_END_RR = 0x6B
};

/* error codes of 0xFF answers */
enum asn_error {
  ASN_ERR_CRC_NOT_VALID = 0x0001, ASN_ERR_LENGTH_NOT_VALID = 0x0011, ASN_ERR_OPCODE_NOT_VALID = 0x0121,
  ASN_ERR_ARG_NOT_VALID = 0x0122, ASN_ERR_FLASH_WRITING_FAILED = 0x0123, ASN_ERR_DEVICE_BUSY = 0x0124,
  ASN_ERR_FORMAT_NOT_VALID = 0x0601, ASN_ERR_PERIOD_INVALID = 0x0701, ASN_ERR_BUFFER_FULL = 0x2501,
  ASN_ERR_DUPLICATE_ID = 0x2511, ASN_ERR_BUFFER_EMPTY = 0x2601, ASN_ERR_INVALID_POS = 0x3501,
  ASN_ERR_NO_ACK = 0x4501, ASN_ERR_NO_ACK_CLEAR = 0x4601, ASN_ERR_NO_COMMAND = 0x4701,
  ASN_ERR_NO_COMMAND_CLEAR = 0x4801, ASN_ERR_MAX_TX_REACHED = 0x6101
};

/* results of builders and parsers */
typedef enum {
  ASN_OK = 0,
  ASN_E_BUFFER = -1,   /* output buffer too small */
  ASN_E_ARG = -2,      /* argument cannot be encoded (payload > 160 bytes, string too long) */
  ASN_E_LENGTH = -3,   /* answer payload has the wrong length for its command */
  ASN_E_OPCODE = -4,   /* answer is for another command */
  ASN_E_MODULE = -5,   /* the module answered 0xFF; see asn_error_code */
  ASN_E_TLV = -6       /* malformed TLV list */
} asn_status;

uint16_t asn_crc16(const uint8_t *data, size_t len, uint16_t crc);

/*
 * Writes STX, hex(opcode payload crc_lo crc_hi), ETX into out; returns the frame length (8 + 2 * len) or a
 * negative asn_status. The module sends upper case; so does this.
 */
int asn_encode_frame(uint8_t opcode, const uint8_t *payload, size_t len, char *out, size_t out_size);

/* ---- decoder: feed bytes one at a time ---- */
typedef enum {
  ASN_DEC_NONE = 0,     /* nothing complete yet */
  ASN_DEC_FRAME = 1,    /* a valid frame: opcode/payload/len are set */
  ASN_DEC_BAD_CRC = 2,
  ASN_DEC_BAD_HEX = 3,
  ASN_DEC_TOO_LONG = 4,
  ASN_DEC_TOO_SHORT = 5
} asn_dec_result;

typedef struct {
  uint8_t raw[(ASN_MAX_REQUEST_FRAME - 2u) / 2u]; /* opcode + payload + CRC as bytes */
  size_t nibbles;      /* hex digits received in the current frame */
  size_t max_bytes;    /* raw bytes accepted before the frame counts as too long */
  uint8_t in_frame;
  uint8_t bad_hex;
  uint8_t overflow;
  /* the last complete frame */
  uint8_t opcode;
  const uint8_t *payload;
  size_t len;
  uint32_t noise;      /* bytes outside frames */
} asn_decoder;

/* max_frame: whole-frame limit in characters (ASN_MAX_ANSWER_FRAME on a host, ASN_MAX_REQUEST_FRAME on a module) */
void asn_decoder_init(asn_decoder *d, size_t max_frame);
asn_dec_result asn_decoder_push(asn_decoder *d, uint8_t byte);

/* ---- request builders: write a whole frame into out, return its length or a negative asn_status ---- */
typedef struct {
  uint8_t sat_ack, geolocation, ephemeris, deep_sleep; /* config byte bits 0..3 */
  uint8_t evt_sat_ack, evt_reset, evt_command, evt_msg_pending; /* EVT pin masks */
} asn_config;

int asn_req_empty(uint8_t opcode, char *out, size_t out_size);
int asn_req_cfg_wr(const asn_config *c, char *out, size_t out_size);
int asn_req_wif_wr(const char *ssid, const char *password, const char *token, char *out, size_t out_size);
int asn_req_ssc_wr(uint8_t period, uint8_t force, char *out, size_t out_size);
int asn_req_pld_er(uint16_t id, const uint8_t *data, size_t len, char *out, size_t out_size);
int asn_req_geo_wr(int32_t lat_e7, int32_t lon_e7, char *out, size_t out_size);

/* ---- answer parsers: take the decoder's opcode/payload/len for the request that was sent ---- */
/* ASN_OK when the answer is the plain acknowledgement of `request`; ASN_E_MODULE with *error set for 0xFF */
int asn_check_answer(uint8_t request, uint8_t opcode, const uint8_t *payload, size_t len, uint16_t *error);
int asn_parse_id(uint8_t request, uint8_t opcode, const uint8_t *p, size_t len, uint16_t *id, uint16_t *error);
int asn_parse_u32(uint8_t request, uint8_t opcode, const uint8_t *p, size_t len, uint32_t *value, uint16_t *error);

typedef struct {
  uint8_t product_id, hw_rev, fw_major, fw_minor, fw_rev;
  asn_config config;
} asn_config_answer;
int asn_parse_cfg_ra(uint8_t opcode, const uint8_t *p, size_t len, asn_config_answer *out, uint16_t *error);

typedef struct {
  uint8_t sat_ack, reset, command, msg_pending;
} asn_events;
int asn_parse_evt_ra(uint8_t opcode, const uint8_t *p, size_t len, asn_events *out, uint16_t *error);

typedef struct {
  uint32_t created_at;
  uint8_t data[40];
  size_t len; /* 8 or 40 */
} asn_command;
int asn_parse_cmd_ra(uint8_t opcode, const uint8_t *p, size_t len, asn_command *out, uint16_t *error);

/* the value of TLV `type` (1, 2 or 4 bytes, little-endian); unknown types are skipped by their length */
int asn_tlv_find(const uint8_t *p, size_t len, uint8_t type, uint32_t *value);

#ifdef __cplusplus
}
#endif

#endif
