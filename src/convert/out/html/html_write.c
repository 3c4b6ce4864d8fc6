/* The HTML report's file: the template (embedded at build time, see
 * scripts/embed.sh) around the data (html.h).  In the template,
 * <!--RTG:CSS-->, <!--RTG:JS--> and <!--RTG:DATA--> mark where the style,
 * the script and the data go.  The data is three script elements the
 * browser does not run, in this order (the page finds them by id):
 *   #rtg-bin       base64 of the little-endian typed arrays: per event
 *                  start (float64 ns from base_ns), duration (uint32 ns;
 *                  0xffffffff: see "long"), name and args (uint32 string
 *                  indexes; args 0xffffffff: none); the devices'
 *                  utilisation (float32 ns per bin and series); the
 *                  tracks' coverage bins (uint8); the events' start and
 *                  duration come first, written while the analysis
 *                  finishes (ht_write_head);
 *   #rtg-analysis  the --analyze=FILE.json document, verbatim but for "</"
 *                  written "<\/" (the same JSON);
 *   #rtg-meta      JSON: strings, processes, tracks, devices (kernels,
 *                  gaps), which events are embedded, where each array is. */
#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the report's arrays are written in the host's byte order: little-endian only"
#endif

extern const unsigned char rtg_html_report_html_in[], rtg_html_report_css[], rtg_html_report_js[];
extern const unsigned long rtg_html_report_html_in_len, rtg_html_report_css_len,
    rtg_html_report_js_len;

/* A JSON string that may sit in a script element: < > & escaped (the
 * runs between escapes written whole: the arguments can be MBs). */
static void jstr(FILE *f, const char *s) {
  fputc('"', f);
  for (;;) {
    const char *run = s;
    while ((unsigned char)*s >= 0x20 && *s != '"' && *s != '\\' && *s != '<' && *s != '>' &&
           *s != '&')
      s++;
    if (s > run) fwrite(run, 1, (size_t)(s - run), f);
    unsigned char c = (unsigned char)*s;
    if (!c) break;
    if (c == '"' || c == '\\')
      fputc('\\', f), fputc(c, f);
    else if (c == '\n')
      fputs("\\n", f);
    else
      fprintf(f, "\\u%04x", c);
    s++;
  }
  fputc('"', f);
}

/* A JSON document (no raw "<" can be in it outside strings) with "</"
 * written "<\/", so that no "</script>" ends the element early. */
static void put_json_doc(FILE *f, const char *s, size_t n) {
  size_t from = 0;
  for (const char *p = s; (p = memchr(p, '<', n - (size_t)(p - s)));) {
    size_t i = (size_t)(p - s);
    p++;
    if (i + 1 >= n || s[i + 1] != '/') continue;
    fwrite(s + from, 1, i + 1 - from, f); /* up to the "<" */
    fputc('\\', f);
    from = i + 1;
  }
  fwrite(s + from, 1, n - from, f);
}

static const char *const kind_names[HT_NKINDS] = {"hip", "hsa",   "markers", "syscalls",
                                                  "mpi", "queue", "copy"};

static void track_label(const ht_state *h, const ht_track *t, char *buf, size_t cap) {
  char dev[32];
  uint32_t dn = (uint32_t)(t->key >> 32), q = (uint32_t)t->key;
  switch (t->kind) {
  case HT_HIP:
    snprintf(buf, cap, "tid %" PRIu64 " HIP", t->key);
    return;
  case HT_HSA:
    snprintf(buf, cap, "tid %" PRIu64 " HSA", t->key);
    return;
  case HT_MARK:
    snprintf(buf, cap, "tid %" PRIu64 " markers", t->key);
    return;
  case HT_SYS:
    snprintf(buf, cap, "tid %" PRIu64 " syscalls", t->key);
    return;
  case HT_MPI:
    snprintf(buf, cap, "tid %" PRIu64 " MPI", t->key);
    return;
  case HT_QUEUE:
    snprintf(buf, cap, "%s queue %u", rtg_device_name(dn, dev, sizeof dev), q);
    return;
  default:
    if (q == UINT32_MAX)
      snprintf(buf, cap, "%s copies", rtg_device_name(dn, dev, sizeof dev));
    else
      snprintf(buf, cap, "%s copy engine %u", rtg_device_name(dn, dev, sizeof dev), q);
  }
  (void)h;
}

/* the used ids of a string table, renumbered densely */
typedef struct remap {
  uint32_t *to;
  uint32_t *from; /* new -> old */
  uint32_t n, cap;
} remap;

static uint32_t remap_id(remap *m, uint32_t id) {
  if (id == UINT32_MAX || id >= m->cap) return UINT32_MAX;
  if (m->to[id] == UINT32_MAX) {
    m->from[m->n] = id;
    m->to[id] = m->n++;
  }
  return m->to[id];
}

static void remap_init(remap *m, uint32_t cap) {
  m->cap = cap;
  m->n = 0;
  m->to = malloc((cap + 1) * sizeof *m->to);
  m->from = malloc((cap + 1) * sizeof *m->from);
  if (!m->to || !m->from) oom();
  memset(m->to, 0xff, (cap + 1) * sizeof *m->to);
}

static void put_template_part(FILE *f, const unsigned char *s, size_t n, size_t *pos, char *marker,
                              size_t cap) {
  const char *p = (const char *)s + *pos;
  const char *m = NULL;
  for (size_t i = *pos; i + 9 <= n; i++)
    if (!memcmp(s + i, "<!--RTG:", 8)) {
      m = (const char *)s + i;
      break;
    }
  if (!m) {
    fwrite(p, 1, n - *pos, f);
    *pos = n;
    marker[0] = 0;
    return;
  }
  fwrite(p, 1, (size_t)(m - p), f);
  const char *end = strstr(m, "-->");
  size_t k = end ? (size_t)(end - m - 8) : 0;
  if (k >= cap) k = cap - 1;
  memcpy(marker, m + 8, k);
  marker[k] = 0;
  *pos = (size_t)((end ? end + 3 : m + 8) - (const char *)s);
}

/* The template from *pos to its next marker or end; each marker's CSS or
 * JS written, DATA left to the caller (marker: the one stopped at, "" at
 * the end). */
static void put_template(FILE *f, size_t *pos, char *marker, size_t cap) {
  for (;;) {
    put_template_part(f, rtg_html_report_html_in, rtg_html_report_html_in_len, pos, marker, cap);
    if (!marker[0] || !strcmp(marker, "DATA")) return;
    if (!strcmp(marker, "CSS"))
      fwrite(rtg_html_report_css, 1, rtg_html_report_css_len, f);
    else if (!strcmp(marker, "JS"))
      fwrite(rtg_html_report_js, 1, rtg_html_report_js_len, f);
  }
}

static void write_bin(ht_state *h, FILE *f, size_t total, size_t o_util, size_t o_bins,
                      size_t o_pstart, size_t o_pdur, size_t o_pcause, size_t np);

/* The template up to its data, then the start of #rtg-bin: the events'
 * start and duration, where made (they wait for no analysis). */
void ht_write_head(ht_state *h) {
  FILE *f = h->out;
  char marker[32];
  put_template(f, &h->template_pos, marker, sizeof marker);
  h->head_written = true;
  h->has_data = marker[0];
  if (!h->has_data) return; /* (a template without data) */
  fputs("<script type=\"application/octet-stream\" id=\"rtg-bin\">", f);
  if (h->arr.made) {
    h->bin_written = 16 * h->arr.n; /* (12 n bytes: 4 n triples) */
    fwrite(h->arr.b64, 1, h->bin_written, f);
  }
}

/* The events' names numbered after the kernels' names kn[0..nk) in the
 * report's table (names, made empty before), and encoded where name. */
static void name_events(ht_state *h, remap *names, const uint32_t *kn, size_t nk, bool name) {
  const ht_arrays *arr = &h->arr;
  for (size_t k = 0; k < nk; k++) remap_id(names, kn[k]);
  uint32_t *renumber = malloc(((size_t)arr->nfirst + 1) * sizeof *renumber);
  if (!renumber) oom();
  for (uint32_t i = 0; i < arr->nfirst; i++) renumber[i] = remap_id(names, arr->first[i]);
  if (name) ht_arrays_name(h, renumber);
  free(renumber);
}

/* The report lists each device's kernels whose GPU the analysis finds
 * busy at all, in the devices' order, which it also sets: the guess is
 * every process's and GPU's kernels (ht_prepare's), in their order. */
void ht_names_guess(ht_state *h) {
  if (!h->arr.made || !h->has_data) return;
  size_t nk = 0;
  for (size_t i = 0; i < h->nkg; i++) nk += h->kg[i].nk;
  h->guess = malloc((nk + 1) * sizeof *h->guess);
  if (!h->guess) oom();
  for (size_t i = 0; i < h->nkg; i++)
    for (size_t k = 0; k < h->kg[i].nk; k++) h->guess[h->nguess++] = h->kg[i].k[k].name;
  remap names;
  remap_init(&names, rtg_strtab_count(h->names));
  name_events(h, &names, h->guess, h->nguess, true);
  free(names.to);
  free(names.from);
  /* the names' and the arguments' base64 (all of [0, a2) is made now):
   * written where the file can go back to the names should they change */
  struct stat sb;
  FILE *f = h->out;
  long long at;
  if (h->bin_written != 16 * h->arr.n || fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode) ||
      (at = ftello(f)) < 0)
    return;
  size_t end = 4 * (h->arr.a2 / 3);
  fwrite(h->arr.b64 + h->bin_written, 1, end - h->bin_written, f);
  h->names_at = at;
  h->bin_written = end;
}

/* The names' base64 (numbered again) over what ht_names_guess wrote;
 * false after saying why. */
static bool names_again(ht_state *h, FILE *f) {
  const ht_arrays *arr = &h->arr;
  long long back = ftello(f);
  if (back >= 0 && !fflush(f) && !fseeko(f, h->names_at, SEEK_SET)) {
    fwrite(arr->b64 + 16 * arr->n, 1, 4 * (arr->a1 / 3) - 16 * arr->n, f);
    if (!fflush(f) && !fseeko(f, back, SEEK_SET)) return true;
  }
  rtg_error("cannot write output: path=%s: %m", h->path);
  return false;
}

static bool write_data(ht_state *h, FILE *f) {
  cv_ctx *ctx = h->ctx;
  /* the analysis, as --analyze=FILE.json writes it, and its text */
  char *aj = NULL, *at = NULL;
  size_t ajn = 0, atn = 0;
  FILE *m = open_memstream(&aj, &ajn);
  if (!m) oom();
  an_write_json(h->an, m);
  fclose(m);
  m = open_memstream(&at, &atn);
  if (!m) oom();
  an_write_text(h->an, m);
  fclose(m);

  /* the tracks' bins, then only the embedded events kept (made before) */
  size_t nb = h->nbins;
  const ht_arrays *arr = &h->arr;
  size_t n = arr->n;
  remap names;
  remap_init(&names, rtg_strtab_count(h->names));
  size_t nutil = 0;
  for (uint32_t i = 0; i < h->nd; i++) nutil += h->d[i].util ? h->d[i].nbins * HT_NSERIES : 0;
  size_t o_start = 0, o_dur = 8 * n, o_name = 12 * n, o_args = 16 * n, o_util = 20 * n,
         o_bins = o_util + 4 * nutil;
  /* the GPUs' idle pieces (start, duration, cause), when they are not too
   * many: the utilisation chart zooms below its bins with them */
  size_t np = 0;
  for (uint32_t i = 0; i < h->nd; i++) np += h->d[i].util ? h->d[i].np : 0;
  if (np > HT_MAX_PIECES) np = 0;
  size_t o_pstart = (o_bins + nb + 7) & ~(size_t)7, o_pdur = o_pstart + 8 * np,
         o_pcause = o_pdur + 4 * np, total = o_pcause + np;
  /* the events' names after the devices' kernels' (as #rtg-meta lists
   * them), in the order of their first use: named already where the
   * guess made while the analysis ran listed the same kernels */
  size_t nk = 0;
  for (uint32_t i = 0; i < h->nd; i++) nk += h->d[i].util ? h->d[i].nk : 0;
  uint32_t *kn = malloc((nk + 1) * sizeof *kn);
  if (!kn) oom();
  nk = 0;
  for (uint32_t i = 0; i < h->nd; i++)
    for (size_t k = 0; h->d[i].util && k < h->d[i].nk; k++) kn[nk++] = h->d[i].k[k].name;
  bool named = h->guess && h->nguess == nk && !memcmp(h->guess, kn, nk * sizeof *kn);
  name_events(h, &names, kn, nk, !named);
  free(kn);
  if (!named && h->names_at >= 0 && !names_again(h, f)) {
    free(names.to), free(names.from), free(aj), free(at);
    return false;
  }
  write_bin(h, f, total, o_util, o_bins, o_pstart, o_pdur, o_pcause, np);
  fputs("<script type=\"application/json\" id=\"rtg-analysis\">", f);
  put_json_doc(f, aj, ajn);
  fputs("</script>\n", f);

  fputs("<script type=\"application/json\" id=\"rtg-meta\">", f);
  fprintf(f,
          "{\"format\":1,\"tool\":\"rtg-convert " RTG_VERSION "\",\"base_ns\":\"%" PRIu64
          "\",\"span_ns\":%" PRIu64 ",",
          h->first, h->last - h->first);
  fprintf(f,
          "\"all_embedded\":%s,\"events\":%zu,\"events_total\":%" PRIu64
          ",\"max_events\":%zu,\"args_dropped\":%" PRIu64 ",\"windows\":[",
          h->all_embedded ? "true" : "false", n, h->nev, h->max_events, h->args_dropped);
  for (size_t i = 0; i < h->nwin; i++)
    fprintf(f, "%s[%" PRIu64 ",%" PRIu64 "]", i ? "," : "", h->win[2 * i] - h->first,
            h->win[2 * i + 1] - h->first);
  fputs("],\"procs\":[", f);
  for (uint32_t i = 0; i < ctx->nprocs; i++) {
    const cv_proc *p = &ctx->procs[i];
    fprintf(f, "%s{\"pid\":%u,\"host\":", i ? "," : "", p->pid);
    jstr(f, cv_str(ctx, ctx->hosts[p->host]));
    if (p->exe != UINT32_MAX) fputs(",\"exe\":", f), jstr(f, cv_str(ctx, p->exe));
    if (p->rank != UINT32_MAX) fputs(",\"rank\":", f), jstr(f, cv_str(ctx, p->rank));
    if (p->boot_ns >= h->first && p->boot_ns)
      fprintf(f, ",\"start_ns\":%" PRIu64, p->boot_ns - h->first);
    fputc('}', f);
  }
  fputs("],\"tracks\":[", f);
  for (uint32_t i = 0; i < h->nt; i++) {
    const ht_track *t = &h->t[i];
    char lb[128];
    track_label(h, t, lb, sizeof lb);
    fprintf(f, "%s{\"proc\":%u,\"kind\":\"%s\",\"label\":", i ? "," : "", t->proc,
            kind_names[t->kind]);
    jstr(f, lb);
    if (t->kind == HT_QUEUE || t->kind == HT_COPY) {
      char dev[32];
      fputs(",\"gpu\":", f);
      jstr(f, rtg_device_name((rtg_device)(t->key >> 32), dev, sizeof dev));
    }
    fprintf(f, ",\"off\":%zu,\"n\":%zu,\"maxdur\":%" PRIu64 ",\"bins_off\":%zu,\"nbins\":%zu}",
            t->off, t->nemb, t->maxdur, o_bins + t->bins_off, t->nbins);
  }
  fputs("],\"devs\":[", f);
  rtg_gap_buckets gb = cv_gap_buckets(ctx);
  size_t u = 0, pieces = 0;
  bool first = true;
  for (uint32_t i = 0; i < h->nd; i++) {
    const ht_dev *d = &h->d[i];
    if (!d->util) continue;
    const cv_proc *p = &ctx->procs[d->proc];
    char dev[32], lb[160];
    fprintf(f, "%s{\"proc\":%u,\"pid\":%u,\"host\":", first ? "" : ",", d->proc, p->pid);
    first = false;
    jstr(f, cv_str(ctx, ctx->hosts[p->host]));
    fputs(",\"gpu\":", f);
    jstr(f, rtg_device_name(d->device, dev, sizeof dev));
    cv_device_label(ctx, d->proc, d->device, lb, sizeof lb);
    fputs(",\"label\":", f);
    jstr(f, lb);
    fprintf(f, ",\"span\":[%" PRIu64 ",%" PRIu64 "],\"util_off\":%zu,\"nbins\":%zu,",
            d->span_start - h->first, d->span_end - h->first, o_util + 4 * u, d->nbins);
    if (np) fprintf(f, "\"pieces\":[%zu,%zu],", pieces, d->np);
    fputs("\"series\":[", f);
    u += d->nbins * HT_NSERIES;
    pieces += d->np;
    fputs("\"busy\",\"copy_busy\"", f);
    for (int c = 0; c < AN_NCAUSES; c++) fprintf(f, ",\"%s\"", an_cause_names[c]);
    fputs("],\"kernels\":[", f);
    for (size_t k = 0; k < d->nk; k++) {
      const ht_kstat *s = &d->k[k];
      fprintf(f, "%s[%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", k ? "," : "",
              remap_id(&names, s->name), s->count, s->total, s->median, s->p95, s->max);
    }
    fputs("],\"gap_buckets\":[", f);
    for (size_t k = 0; k <= gb.n; k++) {
      char name[64];
      fprintf(f, "%s", k ? "," : "");
      jstr(f, rtg_gap_bucket_name(&gb, k, name, sizeof name));
    }
    fputs("],\"gap_count\":[", f);
    for (size_t k = 0; k <= gb.n; k++) fprintf(f, "%s%" PRIu64, k ? "," : "", d->hist_count[k]);
    fputs("],\"gap_ns\":[", f);
    for (size_t k = 0; k <= gb.n; k++) fprintf(f, "%s%" PRIu64, k ? "," : "", d->hist_ns[k]);
    fprintf(f, "],\"gaps\":%" PRIu64 ",\"worst\":[", d->ngaps);
    for (size_t k = 0; k < d->nworst; k++)
      fprintf(f, "%s[%" PRIu64 ",%" PRIu64 "]", k ? "," : "", d->worst[k].s - h->first,
              d->worst[k].e - h->first);
    fputs("]}", f);
  }
  fputs("],\"long\":[", f);
  for (size_t i = 0; i < arr->nlong; i++)
    fprintf(f, "%s[%" PRIu64 ",%" PRIu64 "]", i ? "," : "", arr->longs[2 * i],
            arr->longs[2 * i + 1]);
  fputs("],\"strings\":[", f);
  for (uint32_t i = 0; i < names.n; i++) {
    if (i) fputc(',', f);
    jstr(f, rtg_strtab_get(h->names, names.from[i]));
  }
  fputs("],\"args\":[", f);
  for (uint32_t i = 0; i < arr->nargs; i++) {
    if (i) fputc(',', f);
    jstr(f, rtg_strtab_get(h->args, arr->args_from[i]));
  }
  fprintf(f,
          "],\"arrays\":{\"start\":[\"f64\",%zu,%zu],\"dur\":[\"u32\",%zu,%zu],\"name\":[\"u32\","
          "%zu,%zu],\"args\":[\"u32\",%zu,%zu],\"util\":[\"f32\",%zu,%zu],\"bins\":[\"u8\",%zu,"
          "%zu],\"pstart\":[\"f64\",%zu,%zu],\"pdur\":[\"f32\",%zu,%zu],\"pcause\":[\"u8\",%zu,"
          "%zu]},\"bytes\":%zu,\"text\":",
          o_start, n, o_dur, n, o_name, n, o_args, n, o_util, nutil, o_bins, nb, o_pstart, np,
          o_pdur, np, o_pcause, np, total);
  at = realloc(at, atn + 1);
  if (!at) oom();
  at[atn] = 0;
  jstr(f, at);
  fputs("}</script>\n", f);
  free(names.to);
  free(names.from);
  free(aj);
  free(at);
  return true;
}

/* The rest of #rtg-bin (after what ht_write_head wrote): the arrays, back
 * to back at their offsets (write_data's), as base64: the events' encoded
 * before up to a2, the rest from there. */
static void write_bin(ht_state *h, FILE *f, size_t total, size_t o_util, size_t o_bins,
                      size_t o_pstart, size_t o_pdur, size_t o_pcause, size_t np) {
  const ht_arrays *arr = &h->arr;
  size_t n = arr->n, nb = h->nbins;
  const uint8_t *bins = h->bins;
  size_t a2 = arr->a2;
  unsigned char *mem = calloc(total - a2 + 9, 1); /* each array at its alignment */
  if (!mem) oom();
  unsigned char *blob = mem + a2 % 8;
  memcpy(blob, arr->blob + (a2 - 12 * n), o_util - a2);
  size_t uoff = o_util - a2;
  for (uint32_t i = 0; i < h->nd; i++)
    if (h->d[i].util) {
      size_t bytes = h->d[i].nbins * HT_NSERIES * sizeof(float);
      memcpy(blob + uoff, h->d[i].util, bytes);
      uoff += bytes;
    }
  memcpy(blob + o_bins - a2, bins, nb);
  double *ps = (double *)(blob + o_pstart - a2);
  float *pd = (float *)(blob + o_pdur - a2);
  size_t k = 0;
  for (uint32_t i = 0; i < h->nd && np; i++)
    for (size_t j = 0; h->d[i].util && j < h->d[i].np; j++, k++) {
      const ht_piece *p = &h->d[i].p[j];
      ps[k] = (double)(p->s - h->first);
      pd[k] = (float)(p->e - p->s);
      blob[o_pcause - a2 + k] = (unsigned char)p->cause;
    }
  char *tail = malloc(4 * ((total - a2) / 3 + 1) + 1);
  if (!tail) oom();
  size_t ntail = ht_b64(blob, total - a2, tail);
  if (h->bin_written < 4 * (a2 / 3))
    fwrite(arr->b64 + h->bin_written, 1, 4 * (a2 / 3) - h->bin_written, f);
  fwrite(tail, 1, ntail, f);
  free(mem);
  free(tail);
  fputs("</script>\n", f);
}

bool ht_write(ht_state *h) {
  FILE *f = h->out;
  if (!h->arr.made) ht_arrays_make(h);
  if (!h->head_written) ht_write_head(h);
  if (h->has_data && !write_data(h, f)) return false;
  char marker[32];
  do /* (the template's end; a second DATA marker is dropped) */
    put_template(f, &h->template_pos, marker, sizeof marker);
  while (marker[0]);
  return !ferror(f);
}
