// ESP32 bridge between a computer's USB port and an Astronode S on UART2: transparent by default, plus the
// "~" control lines of control.h for the RESET, EVT and WAKE-UP pins and a status line.
#include <Arduino.h>

extern "C" {
#include "astronode.h"
#include "control.h"
}

// Wiring (change to match the board): UART2 to the module's RX/TX, three GPIOs to its control pins.
static const int PIN_ASN_RX = 16;   // ESP32 RX  <- module TX
static const int PIN_ASN_TX = 17;   // ESP32 TX  -> module RX
static const int PIN_RESET = 25;    // -> module RESET
static const int PIN_WAKE = 26;     // -> module WAKE-UP (semantics undocumented: driven, never interpreted)
static const int PIN_EVT = 27;      // <- module EVT (high = event pending)
static const int RESET_ACTIVE = HIGH;  // INFERENCE: check the module datasheet of your revision
static const uint32_t RESET_PULSE_MS = 10;
static const uint32_t USB_BAUD = 115200;  // the USB side; the module side is fixed at 9600 8N1

static bridge_ctl ctl;
static asn_decoder answers;
static bridge_status status;
static int last_evt = -1;
static bool module_mid_frame = false;

static void send_line(const char *s) {
  // never inside one of the module's answer frames: the client's decoder would lose that answer
  if (!module_mid_frame) Serial.print(s);
}

static void run_command(bridge_cmd cmd) {
  char line[96];
  switch (cmd) {
    case BRIDGE_CMD_RESET:
      digitalWrite(PIN_RESET, RESET_ACTIVE);
      delay(RESET_PULSE_MS);
      digitalWrite(PIN_RESET, RESET_ACTIVE == HIGH ? LOW : HIGH);
      status.resets++;
      asn_decoder_init(&answers, ASN_MAX_ANSWER_FRAME);
      send_line("~OK RESET\n");
      break;
    case BRIDGE_CMD_WAKE_ON:
    case BRIDGE_CMD_WAKE_OFF:
      status.wake = cmd == BRIDGE_CMD_WAKE_ON;
      digitalWrite(PIN_WAKE, status.wake ? HIGH : LOW);
      send_line(status.wake ? "~OK WAKE 1\n" : "~OK WAKE 0\n");
      break;
    case BRIDGE_CMD_EVT:
      send_line(digitalRead(PIN_EVT) ? "~EVT 1\n" : "~EVT 0\n");
      break;
    case BRIDGE_CMD_STATUS:
      status.evt = digitalRead(PIN_EVT) ? 1 : 0;
      status.uptime_ms = millis();
      if (bridge_status_line(line, sizeof line, &status) > 0) send_line(line);
      break;
    case BRIDGE_CMD_HELP:
      send_line("~HELP RESET | WAKE 0 | WAKE 1 | EVT | STATUS\n");
      break;
    default:
      send_line("~ERR unknown command\n");
  }
}

void setup() {
  Serial.begin(USB_BAUD);
  Serial2.begin(9600, SERIAL_8N1, PIN_ASN_RX, PIN_ASN_TX);
  pinMode(PIN_RESET, OUTPUT);
  digitalWrite(PIN_RESET, RESET_ACTIVE == HIGH ? LOW : HIGH);
  pinMode(PIN_WAKE, OUTPUT);
  digitalWrite(PIN_WAKE, LOW);
  pinMode(PIN_EVT, INPUT);
  bridge_ctl_init(&ctl);
  asn_decoder_init(&answers, ASN_MAX_ANSWER_FRAME);
}

void loop() {
  while (Serial.available()) {
    uint8_t b = (uint8_t)Serial.read();
    bridge_ctl_result r = bridge_ctl_feed(&ctl, b);
    if (r == BRIDGE_PASS) {
      Serial2.write(b);
      status.to_module++;
    } else if (r == BRIDGE_LINE) {
      run_command(bridge_ctl_parse(ctl.line));
    }
  }
  while (Serial2.available()) {
    uint8_t b = (uint8_t)Serial2.read();
    Serial.write(b);
    status.to_host++;
    if (b == ASN_STX) module_mid_frame = true;
    asn_dec_result r = asn_decoder_push(&answers, b);
    if (b == ASN_ETX) module_mid_frame = false;
    if (r == ASN_DEC_FRAME) status.frames_ok++;
    else if (r != ASN_DEC_NONE) status.frames_bad++;
  }
  // the EVT pin is the module's only way to say something unasked: report its edges as a line
  int evt = digitalRead(PIN_EVT);
  if (evt != last_evt && !module_mid_frame) {
    last_evt = evt;
    send_line(evt ? "~EVT 1\n" : "~EVT 0\n");
  }
}
