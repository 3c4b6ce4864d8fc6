/* Reading the inputs: the common trace reader (src/common/trace_reader.h)
 * hands over the lines in file order, classified and, for the records rpt
 * needs, parsed; here they become records with interned names, text for
 * the spool and the ROI watchers, and file:line warnings.  A bad line is
 * warned about, counted, and then treated as text, as the original did.
 * Trace records carry agent values until their file ends; then each is
 * named by the agents of its process, with the rule rtg-convert uses too
 * (src/common/agents.h): GPU0, GPU1... are the GPUs in agent index order.
 *
 * Duplicates, as rtg-convert finds them (src/common/dedup.c): a file given
 * twice is read once (its second time is warned about with the count of
 * its lines); in an rtg trace, a header record seen before (a trace
 * concatenated with itself, or a copy of a file) starts a run of
 * duplicates: every record of its pid up to its next, different header is
 * skipped, and counted (warned once per run).  profile: lines in such a
 * run (an HCC_PROFILE=2 trace) belong to the pid of the record before. */
#include "dedup.h"
#include "diag.h"
#include "rpt.h"
#include "trace_reader.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const rpt_type_names[RPT_NTYPES] = {"kernel", "barrier", "copy", "copyslo"};

/* What one file's read needs besides rpt_data. */
typedef struct file_state {
  rtg_diag_file diag;
  uint16_t file;
  uint32_t first, last; /* its records in rpt_data, UINT32_MAX when none */
  uint64_t skipped;
  uint64_t dups, cut; /* of the skipped lines: duplicates, a last line cut off */
  bool trace;         /* its records came from an rtg trace */
  int kind;           /* 0 not known yet, 1 profile: lines, 2 rtg trace */
  bool mixed_seen;    /* warned about the other kind */
  /* traces: the (pid, agent value) pairs of the records (the value a handle
   * or an index) -> slots, named as devices at the end of the file */
  rtg_u64map slot_of;
  uint64_t *slot_val;
  uint32_t *slot_pid;
  size_t nslots;
  uint16_t last_slot; /* of the record before */
  /* duplicates: pid -> 1 while its records repeat a trace read before */
  rtg_u64map dup_pids;
  bool any_dup;  /* some pid of dup_pids is 1 */
  bool have_pid; /* cur_pid: the pid of the last record line */
  uint32_t cur_pid;
} file_state;

static void skip(file_state *fs, uint64_t lineno, const char *why) {
  fs->skipped++;
  rtg_warn_line(&fs->diag, lineno, "%s (skipped)", why);
}

/* A line of an rtg record of pid, or (pid < 0) a profile: line, which
 * belongs to the pid of the record line before: true when it repeats a
 * trace read before (then it is counted, and to be left out). */
static bool duplicate(file_state *fs, int64_t pid, uint64_t lines) {
  if (pid >= 0) {
    fs->cur_pid = (uint32_t)pid;
    fs->have_pid = true;
  } else if (!fs->have_pid) {
    return false;
  }
  if (!fs->any_dup) return false;
  uint64_t *v = rtg_u64map_get(&fs->dup_pids, fs->cur_pid);
  if (!v || !*v) return false;
  fs->dups += lines;
  fs->skipped += lines;
  return true;
}

/* A header record: the start of a run of duplicates when seen before. */
static bool header(rpt_data *d, file_state *fs, const rtg_line *l) {
  bool dup = rtg_seen_header(&d->seen_headers, rtg_header_fingerprint(&l->u.rec));
  uint64_t *v = rtg_u64map_put(&fs->dup_pids, l->pid, 0, NULL);
  if (!v) rtg_out_of_memory("the pids of a file");
  if (dup && !*v)
    rtg_warn_line(&fs->diag, l->lineno,
                  "the trace of pid %u again (the same header as before: a file read twice or "
                  "concatenated?): its records are skipped up to its next header",
                  l->pid);
  *v = dup;
  fs->any_dup |= dup;
  return duplicate(fs, l->pid, 1);
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
  if (n)
    slot = slot * 131 + (unsigned char)s[0] * 31 + (unsigned char)s[n - 1] * 7 +
           (unsigned char)s[n / 2];
  struct name_cache *c = &name_cache[slot % NAME_CACHE];
  if (c->s && c->len == n && memcmp(c->s, s, n) == 0) return c->id;
  uint32_t id = rtg_strtab_intern(d->names, s, n);
  if (id == UINT32_MAX) rtg_out_of_memory("the table of names");
  *c = (struct name_cache){rtg_strtab_get(d->names, id), (uint32_t)n, id};
  return id;
}

/* Append a record; roi watchers and the text spool see it here. */
static void add_record(rpt_data *d, rpt_opts *o, file_state *fs, const rpt_rec *r,
                       uint64_t lineno) {
  if (d->n == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 4096;
    d->recs = rtg_xrealloc(d->recs, d->cap * sizeof *d->recs, "the table of records");
    if (d->spool)
      d->text_end =
          rtg_xrealloc(d->text_end, d->cap * sizeof *d->text_end, "the text ends of the records");
  }
  if (d->n >= UINT32_MAX - 1) rtg_die(0, "more than %u records: not supported", UINT32_MAX - 2);
  uint32_t idx = (uint32_t)d->n++;
  d->recs[idx] = *r;
  if (d->spool) d->text_end[idx] = d->spool_pos;
  if (o->roi_start.kind != ROI_DEFAULT) rpt_roi_record(&o->roi_start, lineno, r, idx, fs->file);
  if (o->roi_stop.kind != ROI_DEFAULT) rpt_roi_record(&o->roi_stop, lineno, r, idx, fs->file);
  if (fs->first == UINT32_MAX) fs->first = idx;
  fs->last = idx;
}

/* A text line; line is NULL when only its number matters (@LINE). */
static void add_text(rpt_data *d, rpt_opts *o, const char *line, size_t len, uint64_t lineno) {
  if (d->spool && line) {
    if (fwrite(line, 1, len, d->spool) != len || putc('\n', d->spool) == EOF)
      rtg_die(errno, "cannot write the text spool (a temporary file)");
    d->spool_pos += len + 1;
  }
  if (o->roi_start.kind != ROI_DEFAULT) rpt_roi_text(&o->roi_start, lineno, line ? line : "", len);
  if (o->roi_stop.kind != ROI_DEFAULT) rpt_roi_text(&o->roi_stop, lineno, line ? line : "", len);
}

static uint64_t slot_key(uint32_t pid, uint64_t value) {
  return rtg_mix64(value ^ rtg_mix64(pid));
}

static uint16_t agent_slot(file_state *fs, uint32_t pid, uint64_t value) {
  uint16_t last = fs->last_slot; /* most often the one before */
  if (fs->nslots && fs->slot_val[last] == value && fs->slot_pid[last] == pid) return last;
  bool added;
  uint64_t *v = rtg_u64map_put(&fs->slot_of, slot_key(pid, value), fs->nslots, &added);
  if (!v) rtg_out_of_memory("the index of signal slots");
  size_t slot = *v;
  if (!added && (fs->slot_val[slot] != value || fs->slot_pid[slot] != pid)) { /* a collision */
    slot = 0;
    while (slot < fs->nslots && (fs->slot_val[slot] != value || fs->slot_pid[slot] != pid)) slot++;
    added = slot == fs->nslots;
  }
  if (added) {
    fs->slot_val =
        rtg_xrealloc(fs->slot_val, (fs->nslots + 1) * sizeof *fs->slot_val, "the signal slots");
    fs->slot_pid =
        rtg_xrealloc(fs->slot_pid, (fs->nslots + 1) * sizeof *fs->slot_pid, "the signal slots");
    fs->slot_val[fs->nslots] = value;
    fs->slot_pid[fs->nslots] = pid;
    fs->nslots++;
  }
  return fs->last_slot = (uint16_t)slot;
}

/* The agents of process pid. */
static rtg_agents *agents_of(rpt_data *d, uint32_t pid) {
  bool added;
  uint64_t *ix = rtg_u64map_put(&d->agents_of, pid, d->nagents, &added);
  if (!ix) rtg_out_of_memory("the index of agents");
  if (added) {
    d->agents = rtg_xrealloc(d->agents, (d->nagents + 1) * sizeof *d->agents, "the agents");
    d->agents[d->nagents++] = (rtg_agents){0};
  }
  return &d->agents[*ix];
}

static void command(rpt_data *d, rpt_opts *o, file_state *fs, const rtg_line *l, const rpt_cmd *c,
                    const char *raw) {
  uint64_t lineno = l->lineno;
  if ((fs->any_dup || l->has_pid) && duplicate(fs, l->has_pid ? (int64_t)l->pid : -1, 1)) return;
  /* A file is of the first kind it shows; the other kind is text there,
   * so a trace written with HCC_PROFILE=2 does not count twice. */
  int kind = c->trace ? 2 : 1;
  if (!fs->kind) fs->kind = kind;
  if (fs->kind != kind) {
    if (!fs->mixed_seen)
      rtg_warn_line(&fs->diag, lineno, "%s in a file of %s: ignored (treated as text)",
                    kind == 1 ? "profile: lines" : "rtg trace records",
                    kind == 1 ? "rtg trace records" : "profile: lines");
    fs->mixed_seen = true;
    add_text(d, o, raw, l->len, lineno);
    return;
  }
  if (c->bad_op)
    rtg_warn_line(&fs->diag, lineno, "unrecognized #device.queue.seq tag: using #0.0.0");
  if (rpt_is_copy(c->type) && !c->trace && !c->sized)
    rtg_warn_line(&fs->diag, lineno, "copy without a byte count: named by direction only");
  rpt_rec r = {
      .start = c->start,
      .stop = c->stop,
      .line = lineno > UINT32_MAX ? UINT32_MAX : (uint32_t)lineno,
      .seq = c->seq & 0xfffffffu,
      .queue = (uint16_t)c->queue,
      .type = c->type,
  };
  if (c->trace) {
    if (fs->nslots > UINT16_MAX && !rtg_u64map_get(&fs->slot_of, slot_key(l->pid, c->agent))) {
      skip(fs, lineno, "too many agents");
      add_text(d, o, raw, l->len, lineno);
      return;
    }
    fs->trace = true;
    d->rtg_records = true;
    r.device = agent_slot(fs, l->pid, c->agent);
  } else {
    r.device = (uint16_t)c->agent;
  }
  size_t len;
  const char *name = rpt_cmd_name(c, &len);
  r.name = intern(d, name, len);
  add_record(d, o, fs, &r, lineno);
}

/* Trace records carry agent slots until the file is read: then each slot
 * is named as a device by the agents of its process (agents.h). */
static void name_devices(rpt_data *d, file_state *fs) {
  if (!fs->trace || fs->first == UINT32_MAX) return;
  rtg_device *dev = rtg_xmalloc((fs->nslots + 1) * sizeof *dev, "the devices of the signal slots");
  for (size_t s = 0; s < fs->nslots; s++)
    dev[s] = rtg_agents_device(agents_of(d, fs->slot_pid[s]), fs->slot_val[s]);
  for (size_t i = fs->first; i <= fs->last; i++) {
    rtg_device v = dev[d->recs[i].device];
    d->recs[i].devclass = rtg_device_class_of(v) & 3;
    d->recs[i].device = (uint16_t)rtg_device_number(v);
  }
  free(dev);
}

static void file_end(rpt_data *d, rpt_opts *o, file_state *fs, const rtg_line *end) {
  const char *path = fs->diag.path;
  uint64_t lines = end->u.end.lines;
  if (end->u.end.err) {
    int err = end->u.end.err;
    rtg_error("cannot read file: path=%s, line=%llu: %s", path,
              (unsigned long long)end->u.end.err_line,
              err == RTG_READ_SHRANK ? "the file shrank while it was read (the rest is missing)"
                                     : strerror(err));
    d->read_error = true;
  }
  if (end->u.end.too_long) {
    fs->skipped += end->u.end.too_long;
    rtg_warning("%s: %llu lines longer than %u bytes skipped", path,
                (unsigned long long)end->u.end.too_long, RTG_LINE_MAX);
  }
  name_devices(d, fs);
  if (d->spool) {
    if (fs->last != UINT32_MAX) {
      d->text_end[fs->last] = d->spool_pos; /* trailing text goes with the last record */
    } else {                                /* no record to show this file's text with: drop it */
      d->spool_pos = d->n ? d->text_end[d->n - 1] : 0;
      fseeko(d->spool, (off_t)d->spool_pos, SEEK_SET);
    }
  }
  rpt_roi_file_end(&o->roi_start, d, fs->last, fs->file);
  rpt_roi_file_end(&o->roi_stop, d, fs->last, fs->file);
  if (fs->skipped) {
    char why[96] = "";
    if (fs->dups && fs->cut)
      snprintf(why, sizeof why, " (%llu duplicates, 1 cut off)", (unsigned long long)fs->dups);
    else if (fs->dups)
      snprintf(why, sizeof why, " (%llu duplicates)", (unsigned long long)fs->dups);
    else if (fs->cut)
      snprintf(why, sizeof why, " (1 cut off)");
    rtg_warning("%s: %llu of %llu lines skipped%s", path, (unsigned long long)fs->skipped,
                (unsigned long long)lines, why);
  }
  d->lines += lines;
  d->skipped += fs->skipped;
  d->file_lines[fs->file] = lines;
  /* the inputs given again after this one, now that its lines are known */
  while (d->next_again < d->nagain && d->again[d->next_again].after == fs->file) {
    const rpt_again *a = &d->again[d->next_again++];
    uint64_t n = d->file_lines[a->first];
    rtg_warning("%s: the same file as an earlier input: %llu of %llu lines skipped", a->path,
                (unsigned long long)n, (unsigned long long)n);
    d->skipped += n;
  }
  rtg_u64map_free(&fs->dup_pids);
  rtg_u64map_free(&fs->slot_of);
  free(fs->slot_val);
  free(fs->slot_pid);
}

static void file_begin(file_state *fs, const char *path, uint16_t file) {
  *fs = (file_state){.diag = {.path = path}, .file = file, .first = UINT32_MAX, .last = UINT32_MAX};
}

/* A line that stays text; pid: the process of a record line, or -1. */
static void text_line(rpt_data *d, rpt_opts *o, file_state *fs, const rtg_line *l, const char *raw,
                      int64_t pid) {
  if (pid >= 0 && duplicate(fs, pid, l->count)) return;
  add_text(d, o, raw, l->len, l->lineno);
}

/* A bad line: warned about, counted, then it is text. */
static void bad_line(rpt_data *d, rpt_opts *o, file_state *fs, const rtg_line *l, const char *raw,
                     const char *why) {
  skip(fs, l->lineno, why);
  add_text(d, o, raw, l->len, l->lineno);
}

/* One line (or the END of a file), in file order. */
static void take(rpt_data *d, rpt_opts *o, file_state *fs, const rtg_line *l, bool keep) {
  const char *raw = keep ? l->text : NULL;
  int64_t pid = l->has_pid ? (int64_t)l->pid : -1;
  if (o->db && rpt_db_line(l)) printf("raw: %s\n", l->text);
  switch (l->cls) {
  case RTG_LINE_TEXT:
  case RTG_LINE_SEEN:
    text_line(d, o, fs, l, raw, pid);
    break;
  case RTG_LINE_CUT: /* a partial record, not the application's text (-t) */
    fs->cut++;
    skip(fs, l->lineno, l->why);
    break;
  case RTG_LINE_BAD:
    if (l->kind == RTG_KIND_HEADER) /* a header line that does not parse stays text, as before */
      text_line(d, o, fs, l, raw, pid);
    else
      bad_line(d, o, fs, l, raw, l->why);
    break;
  case RTG_LINE_PROFILE:
  case RTG_LINE_RECORD:
    if (l->cls == RTG_LINE_RECORD && l->kind == RTG_KIND_HEADER) {
      if (!header(d, fs, l)) add_text(d, o, raw, l->len, l->lineno);
      break;
    }
    if (l->cls == RTG_LINE_RECORD && l->kind == RTG_KIND_AGENT) {
      if (duplicate(fs, pid, 1)) break;
      if (!rtg_agents_add(agents_of(d, l->pid), &l->u.rec))
        rtg_out_of_memory("the agents of a process");
      add_text(d, o, raw, l->len, l->lineno); /* agent lines stay text */
      break;
    }
    const rpt_cmd *c = (const rpt_cmd *)l->u.user; /* (rpt_prepare_line) */
    if (c->what > 0)
      command(d, o, fs, l, c, raw);
    else if (c->what == 0)
      text_line(d, o, fs, l, raw, l->cls == RTG_LINE_RECORD ? pid : -1);
    else
      bad_line(d, o, fs, l, raw, c->why);
    break;
  case RTG_LINE_END:
    file_end(d, o, fs, l);
    if (l->file + 1 < d->npaths) file_begin(fs, d->paths[l->file + 1], (uint16_t)(l->file + 1));
    break;
  }
}

bool rpt_read_inputs(rpt_data *d, rpt_opts *o) {
  /* An input that cannot be opened is reported and left out; the others
   * are read (as rtg-convert does), and the exit status is 1. */
  int kept = 0;
  rtg_u64map seen_files = {0};
  d->again = rtg_xmalloc((size_t)o->ninputs * sizeof *d->again, "the list of inputs");
  for (int i = 0; i < o->ninputs; i++) {
    if (!strcmp(o->inputs[i], "-")) {
      o->inputs[kept++] = o->inputs[i];
      continue;
    }
    int fd = open(o->inputs[i], O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      close(fd);
      fd = -1;
      errno = EISDIR;
    }
    if (fd < 0) {
      rtg_error("cannot open file: path=%s: %s", o->inputs[i], strerror(errno));
      d->read_error = true;
      continue;
    }
    close(fd);
    uint64_t first = 0;
    if (rtg_seen_file(&seen_files, o->inputs[i], (uint64_t)kept, &first)) {
      /* read once: the warning comes once the first one is read */
      d->again[d->nagain++] = (rpt_again){o->inputs[i], (uint32_t)first, (uint32_t)kept - 1};
      continue;
    }
    o->inputs[kept++] = o->inputs[i];
  }
  rtg_u64map_free(&seen_files);
  if (!kept) return false;
  o->ninputs = kept;
  if (o->ninputs > UINT16_MAX) {
    rtg_error("too many input files (at most %u)", UINT16_MAX);
    return false;
  }
  d->names = rtg_strtab_new();
  if (!d->names) rtg_out_of_memory("the table of names");
  d->paths = (const char **)o->inputs;
  d->npaths = (size_t)o->ninputs;
  d->file_lines = rtg_xmalloc(d->npaths * sizeof *d->file_lines, "the line counts of the inputs");
  if (o->text_trace && !o->hide_app_text) {
    d->spool = tmpfile();
    if (!d->spool) {
      rtg_error("cannot create a temporary file for -t: %s", strerror(errno));
      return false;
    }
  }
  bool regex = o->roi_start.kind == ROI_REGEX || o->roi_stop.kind == ROI_REGEX;
  bool keep = d->spool || regex || o->db; /* the text of records too, as read */
  rtg_reader_opts ro = {
      .paths = (const char *const *)o->inputs,
      .npaths = (size_t)o->ninputs,
      .parse = RTG_PARSE(RTG_KIND_HEADER) | RTG_PARSE(RTG_KIND_AGENT) |
               RTG_PARSE(RTG_KIND_DISPATCH) | RTG_PARSE(RTG_KIND_DISPATCH_HOST) |
               RTG_PARSE(RTG_KIND_BARRIER) | RTG_PARSE(RTG_KIND_BARRIER_HOST) |
               RTG_PARSE(RTG_KIND_COPY),
      .keep_text = keep,
      .text_lines =
          d->spool || regex || o->roi_start.kind == ROI_LINE || o->roi_stop.kind == ROI_LINE,
      .prepare = rpt_prepare_line,
      .prepare_arg = o,
      /* without -t, %REGEX and --db no text is shown: what the producers
       * make of a line is all it takes (headers and agents are records) */
      .transient_text = !keep,
      .text_kinds = RTG_PARSE(RTG_KIND_HEADER) | RTG_PARSE(RTG_KIND_AGENT),
  };
  rtg_reader *r = rtg_reader_open(&ro);
  if (!r) rtg_out_of_memory("the trace reader");
  file_state fs;
  file_begin(&fs, d->paths[0], 0);
  rtg_line *l;
  while ((l = rtg_reader_next(r))) take(d, o, &fs, l, keep);
  rtg_reader_close(r);
  if (d->spool && fflush(d->spool) != 0) {
    rtg_error("cannot write the text spool: %s", strerror(errno));
    return false;
  }
  return true;
}

void rpt_data_free(rpt_data *d) {
  free(d->recs);
  free(d->again);
  free(d->file_lines);
  rtg_u64map_free(&d->seen_headers);
  for (size_t i = 0; i < d->nagents; i++) rtg_agents_free(&d->agents[i]);
  free(d->agents);
  rtg_u64map_free(&d->agents_of);
  free(d->text_end);
  if (d->spool) fclose(d->spool);
  rtg_strtab_free(d->names);
  memset(d, 0, sizeof *d);
  memset(name_cache, 0, sizeof name_cache); /* it points into the names */
}
