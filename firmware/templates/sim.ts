// sim_rt.{h,c}: the small random generators the firmware's simulated sensors use (the layout's sample
// models in C). Deterministic for a seed, no allocation; not the studio's generator, which the
// firmware has no need to reproduce sample for sample.

export const SIM_H = String.raw`/* sim_rt.h - random generators behind the simulated sensors of the firmware.
 * Generated file: regenerate it from SatPayload Studio instead of editing it. */
#ifndef SIM_RT_H
#define SIM_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t s;
} sim_rng;

void sim_seed(sim_rng *r, uint32_t seed);
uint32_t sim_u32(sim_rng *r);
/* uniform in [0, 1) */
double sim_u01(sim_rng *r);
double sim_uniform(sim_rng *r, double lo, double hi);
double sim_normal(sim_rng *r, double mean, double sd);
/* integer in [lo, hi] */
int64_t sim_int(sim_rng *r, int64_t lo, int64_t hi);
/* x rounded to 'decimals' places (halves away from zero) */
double sim_decimals(double x, int decimals);
double sim_clamp(double x, double lo, double hi);
/* index drawn with the given weights (all equal when weights is NULL) */
size_t sim_pick(sim_rng *r, const double *weights, size_t n);
/* expands {int:A:B[:pad]} {digits:N} {hex:N} {alpha:N} into out (NUL-terminated, at most cap - 1 bytes) */
size_t sim_template(sim_rng *r, const char *tpl, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SIM_RT_H */
`;

export const SIM_C = String.raw`/* sim_rt.c - random generators behind the simulated sensors of the firmware.
 * Generated file: regenerate it from SatPayload Studio instead of editing it. */
#include "sim_rt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_seed(sim_rng *r, uint32_t seed) { r->s = seed ? seed : 0x9E3779B9u; }

uint32_t sim_u32(sim_rng *r) {
  /* xorshift32: tiny, and plenty for simulated sensors */
  uint32_t x = r->s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  r->s = x;
  return x;
}

double sim_u01(sim_rng *r) { return (double)sim_u32(r) / 4294967296.0; }

double sim_uniform(sim_rng *r, double lo, double hi) { return lo + (hi - lo) * sim_u01(r); }

double sim_normal(sim_rng *r, double mean, double sd) {
  double u = 1.0 - sim_u01(r);
  double v = sim_u01(r);
  return mean + sd * sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

int64_t sim_int(sim_rng *r, int64_t lo, int64_t hi) {
  double span = (double)hi - (double)lo + 1.0;
  int64_t v = lo + (int64_t)floor(sim_u01(r) * span);
  return v > hi ? hi : v;
}

double sim_decimals(double x, int decimals) {
  double p = pow(10.0, decimals);
  return (x < 0 ? -floor(-x * p + 0.5) : floor(x * p + 0.5)) / p;
}

double sim_clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

size_t sim_pick(sim_rng *r, const double *weights, size_t n) {
  double total = 0.0, x;
  size_t i;
  if (n == 0) return 0;
  if (weights == NULL) return (size_t)sim_int(r, 0, (int64_t)n - 1);
  for (i = 0; i < n; i++) total += weights[i];
  x = sim_u01(r) * total;
  for (i = 0; i < n; i++) {
    x -= weights[i];
    if (x < 0) return i;
  }
  return n - 1;
}

static void put(char *out, size_t cap, size_t *n, char c) {
  if (*n + 1 < cap) out[(*n)++] = c;
}

size_t sim_template(sim_rng *r, const char *tpl, char *out, size_t cap) {
  static const char ALPHA[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  static const char HEX[] = "0123456789ABCDEF";
  size_t n = 0;
  while (*tpl) {
    const char *close = *tpl == '{' ? strchr(tpl, '}') : NULL;
    if (close != NULL) {
      char spec[48];
      char *arg;
      long a = 0, b = 9, pad = 0, k, count;
      size_t len = (size_t)(close - tpl - 1);
      if (len >= sizeof spec) len = sizeof spec - 1;
      memcpy(spec, tpl + 1, len);
      spec[len] = '\0';
      arg = strchr(spec, ':');
      if (arg != NULL) *arg++ = '\0';
      count = arg != NULL ? strtol(arg, NULL, 10) : 1;
      if (count < 1) count = 1;
      if (strcmp(spec, "int") == 0) {
        char digits[24];
        int64_t v;
        int w;
        if (arg != NULL) {
          char *next;
          a = strtol(arg, &next, 10);
          if (*next == ':') b = strtol(next + 1, &next, 10);
          if (*next == ':') pad = strtol(next + 1, NULL, 10);
        }
        v = sim_int(r, a, b);
        w = 0;
        if (v < 0) {
          put(out, cap, &n, '-');
          v = -v;
        }
        do {
          digits[w++] = (char)('0' + (int)(v % 10));
          v /= 10;
        } while (v > 0 && w < (int)sizeof digits);
        for (k = w; k < pad; k++) put(out, cap, &n, '0');
        while (w > 0) put(out, cap, &n, digits[--w]);
      } else if (strcmp(spec, "digits") == 0) {
        for (k = 0; k < count; k++) put(out, cap, &n, (char)('0' + sim_int(r, 0, 9)));
      } else if (strcmp(spec, "hex") == 0) {
        for (k = 0; k < count; k++) put(out, cap, &n, HEX[sim_int(r, 0, 15)]);
      } else {
        for (k = 0; k < count; k++) put(out, cap, &n, ALPHA[sim_int(r, 0, 25)]);
      }
      tpl = close + 1;
      continue;
    }
    put(out, cap, &n, *tpl++);
  }
  if (cap > 0) out[n] = '\0';
  return n;
}
`;
