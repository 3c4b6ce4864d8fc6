/* libFuzzer target: the trace record parser.  Every line of the input is
 * parsed; a line that parses is written back with rtg_record_format and
 * must parse again to the same kind and fields (the writer and parser are
 * one definition, so they must agree on anything the parser accepts). */
#include "rtg/record.h"

#include <stdlib.h>
#include <string.h>

static char line[1 << 16], again[1 << 16], copy[1 << 16], third[1 << 16];

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  size_t pos = 0;
  while (pos < size) {
    const unsigned char *nl = memchr(data + pos, '\n', size - pos);
    size_t n = nl ? (size_t)(nl - (data + pos)) : size - pos;
    if (n < sizeof line) {
      memcpy(line, data + pos, n);
      line[n] = 0;
      rtg_record r, p;
      const char *why;
      if (rtg_record_parse(line, n, &r, &why) != RTG_KIND_NONE) {
        size_t m = rtg_record_format(again, sizeof again, &r);
        if (m) {
          memcpy(copy, again, m + 1);
          enum rtg_kind k = rtg_record_parse(again, m, &p, &why);
          /* words are normalised on the first write, so compare the
           * second formatting with the first */
          if (k != r.kind || p.present != r.present) abort();
          /* p's strings point into `again`: format into a third buffer */
          size_t m2 = rtg_record_format(third, sizeof third, &p);
          if (m2 != m || memcmp(third, copy, m)) abort();
        }
      }
    }
    pos += n + 1;
  }
  return 0;
}
