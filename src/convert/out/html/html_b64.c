/* The base64 of the report's binary part, in parts encoded side by side
 * (html.h). */
#include <pthread.h>
#include <string.h>

#include "html.h"
#include "parts.h"

static const char b64c[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static char b64pair[4096][2]; /* 12 bits -> their two characters */
static pthread_once_t b64once = PTHREAD_ONCE_INIT;

static void b64_init(void) {
  for (int v = 0; v < 4096; v++) b64pair[v][0] = b64c[v >> 6], b64pair[v][1] = b64c[v & 63];
}

typedef struct b64_job {
  const unsigned char *in;
  char *out;
} b64_job;

static void b64_part(void *arg, size_t lo, size_t hi) { /* triples [lo, hi) */
  const b64_job *j = arg;
  const unsigned char *s = j->in + 3 * lo;
  char *o = j->out + 4 * lo;
  for (size_t i = lo; i < hi; i++, s += 3, o += 4) {
    uint32_t w = (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
    memcpy(o, b64pair[w >> 12], 2);
    memcpy(o + 2, b64pair[w & 4095], 2);
  }
}

void ht_b64_triples(const unsigned char *in, size_t triples, char *out) {
  pthread_once(&b64once, b64_init);
  b64_job j = {in, out};
  rtg_parts_run(triples, (size_t)1 << 17, 8, b64_part, &j);
}

size_t ht_b64(const unsigned char *in, size_t n, char *out) {
  size_t triples = n / 3, m = 4 * triples;
  ht_b64_triples(in, triples, out);
  if (n % 3) { /* the last one or two bytes */
    const unsigned char *q = in + 3 * triples;
    unsigned char b1 = n % 3 == 2 ? q[1] : 0;
    out[m++] = b64c[q[0] >> 2];
    out[m++] = b64c[(q[0] & 3) << 4 | b1 >> 4];
    out[m++] = n % 3 == 2 ? b64c[(b1 & 15) << 2] : '=';
    out[m++] = '=';
  }
  return m;
}
