/* The Perfetto output's pieces: the protobuf writer (src/common/pbw.h)
 * against hand-encoded bytes, minimal lengths for nested messages of every
 * size; the sink (src/convert/out/perfetto/perfetto.c) on a real recording, checked by
 * the C checker the fuzz target uses (tests/perfetto/pf_wire.h); and that
 * checker refusing broken traces (truncated, an iid used before its
 * definition, an end without a begin, a time on a sequence's incremental
 * clock before its snapshot, a name defined on another sequence only). */
#include <stdlib.h>
#include <unistd.h>

#include "../../src/convert/convert.h"
#include "../perfetto/pf_wire.h"
#include "check.h"
#include "outfile.h"
#include "pbw.h"

static bool bytes_are(const pbw *w, const char *hex) {
  char got[512] = "";
  for (size_t i = 0; i < w->n && i * 2 + 2 < sizeof got; i++)
    snprintf(got + 2 * i, 3, "%02x", w->buf[i]);
  if (strcmp(got, hex)) fprintf(stderr, "  got %s, want %s\n", got, hex);
  return !strcmp(got, hex);
}

static void test_encoding(void) {
  pbw w;
  CHECK(pbw_init(&w, 16));
  pbw_uint(&w, 1, 0);
  CHECK(bytes_are(&w, "0800"));
  w.n = 0;
  pbw_uint(&w, 1, 300);
  CHECK(bytes_are(&w, "08ac02"));
  w.n = 0;
  pbw_uint(&w, 16, 1); /* field 16: a two-byte tag */
  CHECK(bytes_are(&w, "800101"));
  w.n = 0;
  pbw_uint(&w, 2, UINT64_MAX);
  CHECK(bytes_are(&w, "10ffffffffffffffffff01"));
  w.n = 0;
  pbw_int(&w, 3, -1); /* int64 -1: ten bytes */
  CHECK(bytes_are(&w, "18ffffffffffffffffff01"));
  w.n = 0;
  pbw_fixed64(&w, 47, 0x0102030405060708ull);
  CHECK(bytes_are(&w, "f9020807060504030201"));
  w.n = 0;
  pbw_str(&w, 2, "hip");
  CHECK(bytes_are(&w, "1203686970"));
  w.n = 0;
  pbw_double(&w, 5, 1.5);
  CHECK(bytes_are(&w, "29000000000000f83f"));
  w.n = 0;
  size_t m = pbw_open(&w, 11);
  pbw_uint(&w, 9, 1);
  pbw_close(&w, m);
  CHECK(bytes_are(&w, "5a024801"));

  /* nested messages of 0..20000 bytes: minimal length, content intact */
  static const size_t sizes[] = {0, 1, 126, 127, 128, 129, 16383, 16384, 20000};
  char *text = malloc(20000);
  for (size_t i = 0; i < 20000; i++) text[i] = (char)('a' + i % 26);
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    w.n = 0;
    size_t n = sizes[k], outer = pbw_open(&w, 1);
    size_t inner = pbw_open(&w, 2);
    if (n >= 3) pbw_bytes(&w, 3, text, n - 3 - (n > 130) - (n > 16386));
    pbw_close(&w, inner);
    pbw_close(&w, outer);
    pfw_cur c = {w.buf, w.buf + w.n};
    pfw_field f, g, h;
    CHECK(pfw_next(&c, &f) == 1 && f.num == 1 && c.p == c.end);
    pfw_cur ci = {f.p, f.p + f.len};
    CHECK(pfw_next(&ci, &g) == 1 && g.num == 2 && ci.p == ci.end);
    /* the length is the minimal varint */
    CHECK(f.len + pbw_varint_len(f.len) + 1 == w.n);
    if (n >= 3) {
      pfw_cur cc = {g.p, g.p + g.len};
      CHECK(pfw_next(&cc, &h) == 1 && h.num == 3 && !memcmp(h.p, text, h.len));
    }
  }
  free(text);
  pbw_free(&w);
}

/* One conversion, as main.c does it, into path. */
static bool convert(const char *input, const char *path, bool flows) {
  static cv_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.window_end = UINT64_MAX;
  ctx.opt.perfetto_out = path;
  ctx.opt.flows = flows;
  ctx.opt.quiet = true;
  ctx.opt.progress_set = 1;
  ctx.strs = rtg_strtab_new();
  ctx.report = stderr;
  const char *inputs[1] = {input};
  ctx.inputs = inputs;
  ctx.ninputs = 1;
  bool ok = cv_add_sink(&ctx, &cv_perfetto_sink) && cv_read_input(&ctx, input);
  ok &= cv_close_sinks(&ctx);
  if (ok) /* the output takes its name, as main.c has it (outfile.h) */
    ok = rtg_out_commit();
  else
    rtg_out_discard();
  cv_ctx_free(&ctx);
  return ok;
}

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)len + 1);
  *n = fread(b, 1, (size_t)len, f);
  fclose(f);
  return b;
}

static void test_sink(void) {
  const char *top = getenv("TOP");
  char input[1024];
  snprintf(input, sizeof input, "%s/tests/data/convert/real/sg_hip.txt", top ? top : ".");
  CHECK(convert(input, "t.pftrace", true));
  size_t n = 0;
  uint8_t *b = slurp("t.pftrace", &n);
  CHECK(b && n > 1000);
  if (!b) return;
  pf_wire_stats st;
  bool ok = pf_wire_check(b, n, &st);
  if (!ok) fprintf(stderr, "  %s\n", st.why);
  CHECK(ok);
  /* sg_hip.txt: 87 slices (the JSON's), 34 arrows, names interned once */
  CHECK(st.begins == 87 && st.ends == 87);
  CHECK(st.descriptors == 10); /* root, 2 processes, 5 lanes, 2 counters */
  CHECK(st.flow_events + st.flow_ids >= 2 * 34);
  CHECK(st.names == 27); /* 26 functions and kernels, and "launch" of the flows */
  CHECK(st.counters > 0 && st.instants == 0);
  /* the ops-in-flight counters' values ride on the ops' begins and ends,
   * one a change (53 changes less the bytes copied counter's 9) */
  CHECK(st.extra_counters == 44);
  /* the header's, one per lane, and the bytes copied counter's */
  CHECK(st.sequences == 1 + 6);

  /* the checker refuses: a trace cut short */
  CHECK(!pf_wire_check(b, n - 3, &st));
  /* the events without their header (no descriptors, no cleared state) */
  pfw_cur c = {b, b + n};
  pfw_field f;
  size_t body = 0;
  for (int i = 0; i < 11 && pfw_next(&c, &f) == 1; i++) body = (size_t)(c.p - b);
  CHECK(!pf_wire_check(b + body, n - body, &st));
  /* the room left before the events in a file: one padding packet */
  c = (pfw_cur){b, b + n};
  int pads = 0;
  while (pfw_next(&c, &f) == 1) {
    pfw_cur in = {f.p, f.p + f.len};
    pfw_field g;
    if (pfw_next(&in, &g) == 1 && g.num == PF_PKT_RTG_PADDING) pads++;
  }
  CHECK(pads == 1);
  /* another padding packet passes; one with another field (a sequence
   * id) is refused */
  uint8_t *more = malloc(n + 7);
  memcpy(more, b, n);
  memcpy(more + n, (const uint8_t[]){0x0a, 0x03, 0xfa, 0x7f, 0x00}, 5);
  CHECK(pf_wire_check(more, n + 5, &st));
  memcpy(more + n, (const uint8_t[]){0x0a, 0x05, 0xfa, 0x7f, 0x00, 0x50, 0x01}, 7);
  CHECK(!pf_wire_check(more, n + 7, &st) && strstr(st.why, "padding packet with other fields"));
  free(more);
  free(b);

  /* an iid used before its definition; an end without a begin */
  pbw w;
  pbw_init(&w, 256);
  size_t pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 1);
  pbw_uint(&w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
  pbw_close(&w, pk);
  pk = pbw_open(&w, PF_TRACE_PACKET);
  size_t td = pbw_open(&w, PF_PKT_TRACK_DESCRIPTOR);
  pbw_uint(&w, PF_TD_UUID, 1);
  pbw_close(&w, td);
  pbw_close(&w, pk);
  size_t good = w.n;
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_TIMESTAMP, 5);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 1);
  pbw_uint(&w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
  size_t te = pbw_open(&w, PF_PKT_TRACK_EVENT);
  pbw_uint(&w, PF_TE_TYPE, PF_TYPE_SLICE_BEGIN);
  pbw_uint(&w, PF_TE_TRACK_UUID, 1);
  pbw_uint(&w, PF_TE_NAME_IID, 7);
  pbw_close(&w, te);
  pbw_close(&w, pk);
  CHECK(!pf_wire_check(w.buf, w.n, &st) && strstr(st.why, "before its definition"));
  w.n = good;
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_TIMESTAMP, 5);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 1);
  te = pbw_open(&w, PF_PKT_TRACK_EVENT);
  pbw_uint(&w, PF_TE_TYPE, PF_TYPE_SLICE_END);
  pbw_uint(&w, PF_TE_TRACK_UUID, 1);
  pbw_close(&w, te);
  pbw_close(&w, pk);
  CHECK(!pf_wire_check(w.buf, w.n, &st) && strstr(st.why, "more begins"));
  w.n = good;
  CHECK(pf_wire_check(w.buf, w.n, &st));

  /* a track's sequence: a time on its incremental clock before the clock's
   * snapshot; a name defined on one sequence and used on another */
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 2);
  pbw_uint(&w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
  size_t d = pbw_open(&w, PF_PKT_DEFAULTS);
  pbw_uint(&w, PF_DEF_TIMESTAMP_CLOCK_ID, PF_CLOCK_SEQ_INCREMENTAL);
  size_t ted = pbw_open(&w, PF_DEF_TRACK_EVENT_DEFAULTS);
  pbw_uint(&w, PF_TED_TRACK_UUID, 1);
  pbw_close(&w, ted);
  pbw_close(&w, d);
  pbw_close(&w, pk);
  size_t seq2 = w.n;
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_TIMESTAMP, 0);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 2);
  te = pbw_open(&w, PF_PKT_TRACK_EVENT);
  pbw_uint(&w, PF_TE_TYPE, PF_TYPE_INSTANT);
  pbw_close(&w, te);
  pbw_close(&w, pk);
  CHECK(!pf_wire_check(w.buf, w.n, &st) && strstr(st.why, "before its snapshot"));
  w.n = seq2;
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 2);
  size_t cs = pbw_open(&w, PF_PKT_CLOCK_SNAPSHOT);
  size_t ck = pbw_open(&w, PF_CS_CLOCKS);
  pbw_uint(&w, PF_CLK_ID, PF_CLOCK_SEQ_INCREMENTAL);
  pbw_uint(&w, PF_CLK_TIMESTAMP, 5);
  pbw_uint(&w, PF_CLK_IS_INCREMENTAL, 1);
  pbw_close(&w, ck);
  ck = pbw_open(&w, PF_CS_CLOCKS);
  pbw_uint(&w, PF_CLK_ID, PF_CLOCK_BOOTTIME);
  pbw_uint(&w, PF_CLK_TIMESTAMP, 5);
  pbw_close(&w, ck);
  pbw_close(&w, cs);
  pbw_close(&w, pk);
  /* a name defined on sequence 2, used there by a begin, ended there */
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_TIMESTAMP, 0);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 2);
  pbw_uint(&w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
  te = pbw_open(&w, PF_PKT_TRACK_EVENT);
  pbw_uint(&w, PF_TE_TYPE, PF_TYPE_SLICE_BEGIN);
  pbw_uint(&w, PF_TE_NAME_IID, 7);
  pbw_close(&w, te);
  size_t id = pbw_open(&w, PF_PKT_INTERNED_DATA);
  size_t en = pbw_open(&w, PF_ID_EVENT_NAMES);
  pbw_uint(&w, PF_IID, 7);
  pbw_str(&w, PF_IID_NAME, "k");
  pbw_close(&w, en);
  pbw_close(&w, id);
  pbw_close(&w, pk);
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_TIMESTAMP, 3);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 2);
  te = pbw_open(&w, PF_PKT_TRACK_EVENT);
  pbw_uint(&w, PF_TE_TYPE, PF_TYPE_SLICE_END);
  pbw_close(&w, te);
  pbw_close(&w, pk);
  CHECK(pf_wire_check(w.buf, w.n, &st) && st.sequences == 2 && st.names == 1);
  if (st.why[0]) fprintf(stderr, "  %s\n", st.why);
  /* the same name used on sequence 3, where it is not defined */
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 3);
  pbw_uint(&w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
  pbw_close(&w, pk);
  pk = pbw_open(&w, PF_TRACE_PACKET);
  pbw_uint(&w, PF_PKT_TIMESTAMP, 9);
  pbw_uint(&w, PF_PKT_SEQUENCE_ID, 3);
  pbw_uint(&w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
  te = pbw_open(&w, PF_PKT_TRACK_EVENT);
  pbw_uint(&w, PF_TE_TYPE, PF_TYPE_INSTANT);
  pbw_uint(&w, PF_TE_TRACK_UUID, 1);
  pbw_uint(&w, PF_TE_NAME_IID, 7);
  pbw_close(&w, te);
  pbw_close(&w, pk);
  CHECK(!pf_wire_check(w.buf, w.n, &st) && strstr(st.why, "before its definition"));
  pbw_free(&w);
  unlink("t.pftrace");
}

int main(void) {
  rtg_diag_set_program("test_perfetto");
  test_encoding();
  test_sink();
  return check_done("test_perfetto");
}
