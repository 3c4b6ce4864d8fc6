/* Reading the inputs.  Two kinds of file, told apart line by line:
 *   - legacy logs: "profile:" lines (HCC_PROFILE=2) among any application
 *     output; every other line is text, kept for -t and for ROI markers;
 *   - rtg traces: dispatch, barrier and copy records become kernel, barrier
 *     and copy commands (GPU<n> numbered by agent index, DATA for copies);
 *     every other line (API calls, ROCTx markers...) is text.
 * A file that has both takes the first kind it meets, so a trace written
 * with HCC_PROFILE=2 is not counted twice.  A bad line is warned about with
 * file:line, counted, and then treated as text, as the original did. */
#include "diag.h"
#include "hcc_profile.h"
#include "linereader.h"
#include "rpt.h"
#include "rtg/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const rpt_type_names[RPT_NTYPES] = {"kernel", "barrier", "copy", "copyslo"};

enum file_mode { MODE_UNKNOWN, MODE_PROFILE, MODE_TRACE };

typedef struct agent_info {
  uint64_t index, handle;
  bool has_handle, gpu;
} agent_info;

/* What one file's read needs besides rpt_data. */
typedef struct file_state {
  rtg_diag_file diag;
  uint16_t file;
  enum file_mode mode;
  bool mode_warned;
  uint32_t first, last; /* its records in rpt_data, UINT32_MAX when none */
  uint64_t skipped;
  /* traces: agent values of the records (handles or indexes) -> slots,
   * renumbered as GPU numbers at the end of the file */
  rtg_u64map slot_of;
  uint64_t *slot_val;
  bool *slot_gpu_cmd; /* used by a dispatch or barrier */
  size_t nslots;
  agent_info *agents;
  size_t nagents;
  char *scratch; /* a copy of the line for rtg_record_parse, which edits it */
  size_t scratch_cap;
  char name[512]; /* composed copy names */
} file_state;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    rtg_error("out of memory");
    exit(1);
  }
  return q;
}

static void skip(file_state *fs, uint64_t lineno, const char *why) {
  fs->skipped++;
  rtg_warn_line(&fs->diag, lineno, "%s (skipped)", why);
}

/* Mixed files: keep the first kind, ignore the other with one warning. */
static bool accept_mode(file_state *fs, enum file_mode m, uint64_t lineno) {
  if (fs->mode == MODE_UNKNOWN) fs->mode = m;
  if (fs->mode == m) return true;
  if (!fs->mode_warned)
    rtg_warn_line(&fs->diag, lineno, "%s in a file of %s: ignored (treated as text)",
                  m == MODE_PROFILE ? "profile: lines" : "rtg trace records",
                  fs->mode == MODE_PROFILE ? "profile: lines" : "rtg trace records");
  fs->mode_warned = true;
  return false;
}

/* Names repeat on almost every line, so a small direct-mapped cache of
 * recent ones (checked with memcmp) saves most hash-table lookups. */
#define NAME_CACHE 512
static struct name_cache {
  const char *s;
  uint32_t len, id;
} name_cache[NAME_CACHE];

static uint32_t intern(rpt_data *d, const char *s, size_t n) {
  size_t slot = n;
  if (n) slot = slot * 131 + (unsigned char)s[0] * 31 + (unsigned char)s[n - 1] * 7 + (unsigned char)s[n / 2];
  struct name_cache *c = &name_cache[slot % NAME_CACHE];
  if (c->s && c->len == n && memcmp(c->s, s, n) == 0) return c->id;
  uint32_t id = rtg_strtab_intern(d->names, s, n);
  if (id == UINT32_MAX) {
    rtg_error("out of memory");
    exit(1);
  }
  *c = (struct name_cache){rtg_strtab_get(d->names, id), (uint32_t)n, id};
  return id;
}

/* The command type of a profile line: kernel, barrier, copy, copyslo. */
static int profile_type(const rtg_hcc_profile *p) {
  for (int t = 0; t < RPT_NTYPES; t++) {
    size_t n = t == RPT_KERNEL ? 6 : t == RPT_BARRIER ? 7 : t == RPT_COPY ? 4 : 7;
    if (p->type_len == n && !memcmp(p->type, rpt_type_names[t], n)) return t;
  }
  return -1;
}

/* "HostToDevice" + 16384 -> "HostToDevice_16384_bytes", as the original. */
static uint32_t copy_name(rpt_data *d, file_state *fs, const char *dir, size_t n, bool has_bytes,
                          uint64_t bytes) {
  if (!has_bytes) return intern(d, dir, n);
  int len = snprintf(fs->name, sizeof fs->name, "%.*s_%llu_bytes", (int)(n > 400 ? 400 : n), dir,
                     (unsigned long long)bytes);
  return intern(d, fs->name, (size_t)len);
}

/* Append a record; roi watchers and the text spool see it here. */
static void add_record(rpt_data *d, rpt_opts *o, file_state *fs, const rpt_rec *r, uint64_t lineno) {
  if (d->n == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 4096;
    d->recs = xrealloc(d->recs, d->cap * sizeof *d->recs);
    if (d->spool) d->text_end = xrealloc(d->text_end, d->cap * sizeof *d->text_end);
  }
  if (d->n >= UINT32_MAX - 1) {
    rtg_error("more than %u records: not supported", UINT32_MAX - 2);
    exit(1);
  }
  uint32_t idx = (uint32_t)d->n++;
  d->recs[idx] = *r;
  if (d->spool) d->text_end[idx] = d->spool_pos;
  if (o->roi_start.kind != ROI_DEFAULT) rpt_roi_record(&o->roi_start, lineno, r, idx);
  if (o->roi_stop.kind != ROI_DEFAULT) rpt_roi_record(&o->roi_stop, lineno, r, idx);
  if (fs->first == UINT32_MAX) fs->first = idx;
  fs->last = idx;
}

static void add_text(rpt_data *d, rpt_opts *o, const char *line, size_t len, uint64_t lineno) {
  if (d->spool) {
    if (fwrite(line, 1, len, d->spool) != len || putc('\n', d->spool) == EOF) {
      rtg_error("cannot write the text spool: %s", strerror(errno));
      exit(1);
    }
    d->spool_pos += len + 1;
  }
  if (o->roi_start.kind != ROI_DEFAULT) rpt_roi_text(&o->roi_start, lineno, line, len);
  if (o->roi_stop.kind != ROI_DEFAULT) rpt_roi_text(&o->roi_stop, lineno, line, len);
}

static void init_rec(rpt_rec *r, file_state *fs, uint64_t lineno) {
  memset(r, 0, sizeof *r);
  r->line = lineno > UINT32_MAX ? UINT32_MAX : (uint32_t)lineno;
  r->file = fs->file;
}

/* A profile: line: true when it became a record. */
static bool profile_line(rpt_data *d, rpt_opts *o, file_state *fs, const char *line, size_t len,
                         bool has_nul, uint64_t lineno) {
  if (o->db) printf("raw: %s\n", line);
  rtg_hcc_profile p;
  const char *why;
  if (has_nul) return skip(fs, lineno, "NUL bytes in a profile line"), false;
  if (rtg_hcc_profile_parse(line, len, &p, &why) < 0) return skip(fs, lineno, why), false;
  if (!(p.flags & RTG_HCC_HAS_TIMES))
    return skip(fs, lineno, "profile line without start and stop times"), false;
  if (p.stop < p.start) return skip(fs, lineno, "profile line whose stop is before its start"), false;
  int type = profile_type(&p);
  if (type < 0) return skip(fs, lineno, "profile line of an unknown command type"), false;
  if (o->ignore_barriers && type == RPT_BARRIER) return false;
  if (p.device > UINT16_MAX) return skip(fs, lineno, "device number out of range"), false;
  if (!accept_mode(fs, MODE_PROFILE, lineno)) return false;
  if (p.flags & RTG_HCC_BAD_OP)
    rtg_warn_line(&fs->diag, lineno, "unrecognized #device.queue.seq tag: using #0.0.0");

  rpt_rec r;
  init_rec(&r, fs, lineno);
  r.type = (uint8_t)type;
  r.start = p.start;
  r.stop = p.stop;
  r.device = (uint16_t)p.device;
  r.queue = p.queue;
  r.seq = (uint32_t)p.seq;
  if (rpt_is_copy((unsigned)type)) {
    if (!(p.flags & RTG_HCC_HAS_BYTES))
      rtg_warn_line(&fs->diag, lineno, "copy without a byte count: named by direction only");
    r.name = copy_name(d, fs, p.name, p.name_len, p.flags & RTG_HCC_HAS_BYTES, p.bytes);
  } else {
    r.name = intern(d, p.name, p.name_len);
  }
  /* The original's barrier rule: a name "depcnt,acquire,release" (three
   * parts) marks a barrier with dependencies, whose start is moved to its
   * stop so it does not hide the commands it waits for. */
  if (type == RPT_BARRIER) {
    const char *c1 = memchr(p.name, ',', p.name_len);
    const char *c2 = c1 ? memchr(c1 + 1, ',', p.name_len - (size_t)(c1 + 1 - p.name)) : NULL;
    if (c2 && !memchr(c2 + 1, ',', p.name_len - (size_t)(c2 + 1 - p.name))) r.start = r.stop;
  }
  add_record(d, o, fs, &r, lineno);
  return true;
}

/* The word after "PREFIX: pid:P tid:T ", without parsing the whole line:
 * most trace lines are API calls that rpt only keeps as text. */
static bool trace_keyword(const char *line, size_t len, const char **kw, size_t *kwlen) {
  const char *e = line + len, *s = memchr(line, ':', len < 8 ? len : 8);
  if (!s) return false;
  s++;
  for (int f = 0; f < 3; f++) {
    while (s < e && *s == ' ') s++;
    const char *w = s;
    while (s < e && *s != ' ') s++;
    if (f == 2) {
      *kw = w;
      *kwlen = (size_t)(s - w);
      return s > w;
    }
  }
  return false;
}

static uint16_t agent_slot(file_state *fs, uint64_t value, bool gpu_cmd) {
  bool added;
  uint64_t *v = rtg_u64map_put(&fs->slot_of, value, fs->nslots, &added);
  if (!v) {
    rtg_error("out of memory");
    exit(1);
  }
  if (added) {
    fs->slot_val = xrealloc(fs->slot_val, (fs->nslots + 1) * sizeof *fs->slot_val);
    fs->slot_gpu_cmd = xrealloc(fs->slot_gpu_cmd, (fs->nslots + 1) * sizeof *fs->slot_gpu_cmd);
    fs->slot_val[fs->nslots] = value;
    fs->slot_gpu_cmd[fs->nslots] = false;
    fs->nslots++;
  }
  if (gpu_cmd) fs->slot_gpu_cmd[*v] = true;
  return (uint16_t)*v;
}

/* An rtg trace line: true when it became a record. */
static bool trace_line(rpt_data *d, rpt_opts *o, file_state *fs, const char *line, size_t len,
                       bool has_nul, uint64_t lineno) {
  const char *kw;
  size_t kwlen;
  if (!trace_keyword(line, len, &kw, &kwlen)) return false;
  bool is_agent = kwlen == 5 && !memcmp(kw, "agent", 5) && !memcmp(line, "RTG:", 4);
  bool is_hsa = !memcmp(line, "HSA:", 4);
  bool is_cmd = is_hsa && ((kwlen == 8 && !memcmp(kw, "dispatch", 8)) ||
                           (kwlen == 7 && !memcmp(kw, "barrier", 7)) ||
                           (kwlen == 4 && !memcmp(kw, "copy", 4)));
  if (!is_agent && !is_cmd) return false;
  if (has_nul) return skip(fs, lineno, "NUL bytes in a trace record"), false;
  if (o->db && is_cmd) printf("raw: %s\n", line);

  if (len + 1 > fs->scratch_cap) {
    fs->scratch_cap = len + 1 + 256;
    fs->scratch = xrealloc(fs->scratch, fs->scratch_cap);
  }
  memcpy(fs->scratch, line, len + 1);
  rtg_record rec;
  const char *why = NULL;
  enum rtg_kind k = rtg_record_parse(fs->scratch, len, &rec, &why);
  if (k == RTG_KIND_NONE) return why ? skip(fs, lineno, why), false : false;

  rpt_rec r;
  init_rec(&r, fs, lineno);
  switch (k) {
  case RTG_KIND_AGENT:
    fs->agents = xrealloc(fs->agents, (fs->nagents + 1) * sizeof *fs->agents);
    fs->agents[fs->nagents++] = (agent_info){
        .index = rec.u.AGENT.index,
        .handle = rec.u.AGENT.handle,
        .has_handle = RTG_HAS(&rec, RTG_FIELD(AGENT, handle)),
        .gpu = !strcasecmp(rec.u.AGENT.type, "gpu"),
    };
    return false; /* agent lines stay text */
  case RTG_KIND_DISPATCH:
    r.type = RPT_KERNEL;
    r.start = rec.u.DISPATCH.start;
    r.stop = rec.u.DISPATCH.stop;
    r.queue = (uint32_t)rec.u.DISPATCH.queue;
    r.seq = (uint32_t)rec.u.DISPATCH.id;
    r.device = agent_slot(fs, rec.u.DISPATCH.agent, true);
    r.name = intern(d, rec.u.DISPATCH.name, strlen(rec.u.DISPATCH.name));
    break;
  case RTG_KIND_BARRIER:
    if (o->ignore_barriers) return false;
    r.type = RPT_BARRIER;
    r.start = rec.u.BARRIER.start;
    r.stop = rec.u.BARRIER.stop;
    r.queue = (uint32_t)rec.u.BARRIER.queue;
    r.seq = (uint32_t)rec.u.BARRIER.id;
    r.device = agent_slot(fs, rec.u.BARRIER.agent, true);
    r.name = intern(d, "", 0); /* the original tracer's HCC_PROFILE barriers had no name */
    break;
  case RTG_KIND_COPY: {
    r.type = RPT_COPY;
    r.start = rec.u.COPY.start;
    r.stop = rec.u.COPY.stop;
    r.seq = RTG_HAS(&rec, RTG_FIELD(COPY, id)) ? (uint32_t)rec.u.COPY.id : 0;
    r.queue = RTG_HAS(&rec, RTG_FIELD(COPY, engine)) ? (uint32_t)rec.u.COPY.engine : 0;
    r.device = agent_slot(fs, rec.u.COPY.agent, false);
    const char *kind = RTG_HAS(&rec, RTG_FIELD(COPY, kind)) ? rec.u.COPY.kind : "copy";
    r.name = copy_name(d, fs, kind, strlen(kind), RTG_HAS(&rec, RTG_FIELD(COPY, bytes)),
                       rec.u.COPY.bytes);
    break;
  }
  default: return false; /* host-side dispatch/barrier records: text */
  }
  if (r.stop < r.start) return skip(fs, lineno, "record whose stop is before its start"), false;
  if (fs->nslots > UINT16_MAX) return skip(fs, lineno, "too many agents"), false;
  if (!accept_mode(fs, MODE_TRACE, lineno)) return false;
  add_record(d, o, fs, &r, lineno);
  return true;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Trace records carry agent slots until the file is read: then they get GPU
 * numbers.  GPU agents (from the agent records) are numbered by agent index
 * (GPU0, GPU1...); values no agent record explains come after them, in
 * ascending order.  A record's agent value is matched against the agents'
 * handles first, then their indexes, so both tracer styles work. */
static void number_gpus(rpt_data *d, file_state *fs) {
  if (fs->mode != MODE_TRACE || fs->first == UINT32_MAX) return;
  uint64_t *gpu_idx = xrealloc(NULL, (fs->nagents + 1) * sizeof *gpu_idx);
  size_t ngpu = 0;
  for (size_t a = 0; a < fs->nagents; a++)
    if (fs->agents[a].gpu) gpu_idx[ngpu++] = fs->agents[a].index;
  qsort(gpu_idx, ngpu, sizeof *gpu_idx, cmp_u64);

  uint16_t *num = xrealloc(NULL, (fs->nslots + 1) * sizeof *num);
  uint64_t *unknown = xrealloc(NULL, (fs->nslots + 1) * sizeof *unknown);
  size_t nunknown = 0;
  for (size_t s = 0; s < fs->nslots; s++) {
    const agent_info *hit = NULL;
    for (size_t a = 0; a < fs->nagents && !hit; a++)
      if (fs->agents[a].has_handle && fs->agents[a].handle == fs->slot_val[s]) hit = &fs->agents[a];
    for (size_t a = 0; a < fs->nagents && !hit; a++)
      if (fs->agents[a].index == fs->slot_val[s]) hit = &fs->agents[a];
    num[s] = UINT16_MAX;
    if (hit && hit->gpu) {
      for (size_t g = 0; g < ngpu; g++)
        if (gpu_idx[g] == hit->index) num[s] = (uint16_t)g;
    } else if (fs->slot_gpu_cmd[s]) {
      unknown[nunknown++] = fs->slot_val[s];
    } else {
      num[s] = 0; /* a copy issued by a host agent: the number is only shown */
    }
  }
  qsort(unknown, nunknown, sizeof *unknown, cmp_u64);
  for (size_t s = 0; s < fs->nslots; s++) {
    if (num[s] != UINT16_MAX) continue;
    for (size_t u = 0; u < nunknown; u++)
      if (unknown[u] == fs->slot_val[s]) num[s] = (uint16_t)(ngpu + u);
  }
  for (size_t i = fs->first; i <= fs->last; i++) d->recs[i].device = num[d->recs[i].device];
  free(gpu_idx);
  free(num);
  free(unknown);
}

static void read_file(rpt_data *d, rpt_opts *o, const char *path, uint16_t file) {
  rtg_linereader lr;
  if (!rtg_linereader_open(&lr, path)) {
    rtg_error("cannot open file: path=%s: %s", path, strerror(errno));
    d->read_error = true;
    return;
  }
  file_state fs = {.diag = {.path = path}, .file = file, .first = UINT32_MAX, .last = UINT32_MAX};
  size_t len;
  bool has_nul;
  char *line;
  while ((line = rtg_linereader_next(&lr, &len, &has_nul))) {
    uint64_t lineno = lr.lineno;
    bool rec = false;
    if (line[0] == 'p' && len >= 8 && !memcmp(line, "profile:", 8))
      rec = profile_line(d, o, &fs, line, len, has_nul, lineno);
    else if ((line[0] == 'H' || line[0] == 'R') && len > 4 && line[3] == ':')
      rec = trace_line(d, o, &fs, line, len, has_nul, lineno);
    if (!rec) add_text(d, o, line, len, lineno);
  }
  if (lr.error) {
    rtg_error("cannot read file: path=%s, line=%llu: %s", path, (unsigned long long)lr.lineno,
              strerror(errno));
    d->read_error = true;
  }
  if (lr.too_long) {
    fs.skipped += lr.too_long;
    rtg_warning("%s: %llu lines longer than %u bytes skipped", path,
                (unsigned long long)lr.too_long, RTG_LINE_MAX);
  }
  number_gpus(d, &fs);
  if (d->spool) {
    if (fs.last != UINT32_MAX) {
      d->text_end[fs.last] = d->spool_pos; /* trailing text goes with the last record */
    } else { /* no record to show this file's text with: drop it */
      d->spool_pos = d->n ? d->text_end[d->n - 1] : 0;
      fseeko(d->spool, (off_t)d->spool_pos, SEEK_SET);
    }
  }
  rpt_roi_file_end(&o->roi_start, d, fs.last, file);
  rpt_roi_file_end(&o->roi_stop, d, fs.last, file);
  if (fs.skipped)
    rtg_warning("%s: %llu of %llu lines skipped", path, (unsigned long long)fs.skipped,
                (unsigned long long)lr.lineno);
  d->lines += lr.lineno;
  d->skipped += fs.skipped;
  rtg_linereader_close(&lr);
  rtg_u64map_free(&fs.slot_of);
  free(fs.slot_val);
  free(fs.slot_gpu_cmd);
  free(fs.agents);
  free(fs.scratch);
}

bool rpt_read_inputs(rpt_data *d, rpt_opts *o) {
  /* Every input must open before any is read: no half report. */
  for (int i = 0; i < o->ninputs; i++) {
    if (!strcmp(o->inputs[i], "-")) continue;
    int fd = open(o->inputs[i], O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      close(fd);
      fd = -1;
      errno = EISDIR;
    }
    if (fd < 0) {
      rtg_error("cannot open file: path=%s: %s", o->inputs[i], strerror(errno));
      return false;
    }
    close(fd);
  }
  if (o->ninputs > UINT16_MAX) {
    rtg_error("too many input files (at most %u)", UINT16_MAX);
    return false;
  }
  d->names = rtg_strtab_new();
  if (!d->names) {
    rtg_error("out of memory");
    return false;
  }
  d->paths = (const char **)o->inputs;
  d->npaths = (size_t)o->ninputs;
  if (o->text_trace && !o->hide_app_text) {
    d->spool = tmpfile();
    if (!d->spool) {
      rtg_error("cannot create a temporary file for -t: %s", strerror(errno));
      return false;
    }
  }
  for (int i = 0; i < o->ninputs; i++) read_file(d, o, o->inputs[i], (uint16_t)i);
  if (d->spool && fflush(d->spool) != 0) {
    rtg_error("cannot write the text spool: %s", strerror(errno));
    return false;
  }
  return true;
}

void rpt_data_free(rpt_data *d) {
  free(d->recs);
  free(d->text_end);
  if (d->spool) fclose(d->spool);
  rtg_strtab_free(d->names);
  memset(d, 0, sizeof *d);
  memset(name_cache, 0, sizeof name_cache); /* it points into the names */
}
