/* Parts: the traces of one node packed into one file (--part), so that a
 * job's nodes each write one file where the conversion runs, and the
 * conversion (--merge) reads the packed files as the traces themselves.
 *
 * A part is the text
 *   RTG-PART 1 ...                                   (a line: what it is)
 *   the bytes of each trace file, as they were, one after the other
 *   RTG-PART-FILE offset:O size:S path:P             (one line per file)
 *   RTG-PART-INDEX offset:O files:N                  (the last line)
 * O: where the file's bytes (or the index's first line) start; S: how
 * many; P: the file's path where it was packed.  Between the files and the
 * index, the state of --summary and --stats (in/partstate.c), named by a
 * line "RTG-PART-STATE ..." after the files' lines.  Each file of a part is
 * read through src/common/inrange.h under the name "PART:P", so every
 * reader sees its bytes exactly as they were, and every output is what
 * the files themselves give: the same outputs as converting the files at
 * once, given in the same order. */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "dedup.h"
#include "inrange.h"
#include "outfile.h"
#include "xalloc.h"

#define MAGIC "RTG-PART 1"
#define MAGIC_LINE                                                                                 \
  MAGIC " (rtg-convert --part: trace files packed; rtg-convert --merge reads them)\n"
#define COPY_BUF (1u << 20)
#define INDEX_TAIL 256 /* the last line is far shorter */

/* The line after a part's files' lines: its state's, when it has one. */
static void state_line(cv_part_state *ps, const char *line, uint64_t index) {
  unsigned v;
  unsigned long long off, size, tables, events;
  int clean, n = 0;
  if (sscanf(line,
             "RTG-PART-STATE version:%u offset:%llu size:%llu tables:%llu events:%llu clean:%d%n",
             &v, &off, &size, &tables, &events, &clean, &n) != 6 ||
      off > index || size > index - off || tables > size)
    return;
  *ps = (cv_part_state){.part = ps->part,
                        .has = true,
                        .clean = clean == 1,
                        .version = v,
                        .off = off,
                        .size = size,
                        .tables = tables,
                        .events = events};
  if (!strncmp(line + n, " why:", 5)) {
    snprintf(ps->why, sizeof ps->why, "%s", line + n + 5);
    ps->why[strcspn(ps->why, "\n")] = 0;
  }
}

/* -------------------------------------------------------------- --part */

/* Does the file start with a part's first line? */
static bool is_part(const char *path) {
  char head[sizeof MAGIC];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = pread(fd, head, sizeof head, 0);
  close(fd);
  return n == (ssize_t)sizeof head && !memcmp(head, MAGIC, sizeof MAGIC - 1) &&
         (head[sizeof MAGIC - 1] == ' ' || head[sizeof MAGIC - 1] == '\n');
}

/* Copies the file at path to f; its bytes in *size.  False after saying
 * why (what: its role in the message). */
static bool copy_file(FILE *f, const char *path, char *buf, uint64_t *size, bool *json) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    rtg_error("cannot open input: path=%s: %s", path, strerror(errno));
    return false;
  }
  *size = 0;
  *json = false;
  bool first = true;
  for (;;) {
    ssize_t n = read(fd, buf, COPY_BUF);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      rtg_error("cannot read input: path=%s: %s", path, strerror(errno));
      close(fd);
      return false;
    }
    if (n == 0) break;
    if (first) { /* a Chrome JSON file starts with '{' or '[' after blanks */
      ssize_t i = 0;
      while (i < n && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t')) i++;
      if (i < n) {
        first = false;
        *json = buf[i] == '{' || buf[i] == '[';
        if (*json) break;
      }
    }
    if (fwrite(buf, 1, (size_t)n, f) != (size_t)n) break; /* (rtg_out_close says why) */
    *size += (uint64_t)n;
  }
  close(fd);
  return true;
}

int cv_write_part(cv_ctx *ctx, const char *out) {
  for (int i = 0; i < ctx->ninputs; i++) {
    const char *p = ctx->inputs[i];
    if (!strcmp(p, "-")) {
      rtg_error("--part packs files, not stdin");
      return 2;
    }
    if (strchr(p, '\n')) {
      rtg_error("--part cannot pack a path with a newline in its name: path=%s", p);
      return 2;
    }
  }
  FILE *f = rtg_out_open(out);
  if (!f) {
    rtg_error("cannot write the part: path=%s: %s", out, strerror(errno));
    return 1;
  }
  uint64_t *offs = rtg_xcalloc((size_t)ctx->ninputs + 1, sizeof *offs, "the part's index");
  uint64_t *sizes = rtg_xcalloc((size_t)ctx->ninputs + 1, sizeof *sizes, "the part's index");
  char *buf = rtg_xmalloc(COPY_BUF, "the part's buffer");
  rtg_u64map seen = {0};
  bool ok = fputs(MAGIC_LINE, f) >= 0;
  uint64_t at = sizeof MAGIC_LINE - 1;
  for (int i = 0; i < ctx->ninputs && ok; i++) {
    const char *p = ctx->inputs[i];
    if (rtg_seen_file(&seen, p, 0, NULL)) {
      rtg_warning("%s: the same file as an earlier input (skipped)", p);
      sizes[i] = UINT64_MAX;
      continue;
    }
    if (is_part(p)) {
      rtg_error("%s is a part already: give it to --merge beside the new part", p);
      ok = false;
      break;
    }
    bool json;
    offs[i] = at;
    ok = copy_file(f, p, buf, &sizes[i], &json);
    if (ok && json) {
      rtg_error("%s: a Chrome JSON file: a part holds traces (give it to --merge beside the "
                "parts)",
                p);
      ok = false;
    }
    at += sizes[i];
  }
  char state[320] = "";
  if (ok) { /* (the state's bytes follow the files') */
    uint64_t before = at;
    /* the files packed, each once (read quietly: --merge says what they
     * hold, with the part's name) */
    const char **inputs = ctx->inputs;
    int ninputs = ctx->ninputs, n = 0, quiet = rtg_diag_quiet;
    const char **packed = rtg_xcalloc((size_t)ninputs + 1, sizeof *packed, "the part's index");
    for (int i = 0; i < ninputs; i++)
      if (sizes[i] != UINT64_MAX) packed[n++] = inputs[i];
    ctx->inputs = packed;
    ctx->ninputs = n;
    rtg_diag_quiet = 1;
    bool made = cv_part_state_write(ctx, f, at, state, sizeof state);
    rtg_diag_quiet = quiet;
    ctx->inputs = inputs;
    ctx->ninputs = ninputs;
    free(packed);
    if (!made) {
      ok = false;
    } else {
      unsigned long long size = 0;
      sscanf(state, "RTG-PART-STATE version:%*u offset:%*u size:%llu", &size);
      at = before + size;
    }
  }
  uint64_t index = at, nfiles = 0;
  for (int i = 0; i < ctx->ninputs && ok; i++) {
    if (sizes[i] == UINT64_MAX) continue;
    nfiles++;
    fprintf(f, "RTG-PART-FILE offset:%" PRIu64 " size:%" PRIu64 " path:%s\n", offs[i], sizes[i],
            ctx->inputs[i]);
  }
  if (ok && *state) fputs(state, f);
  if (ok) fprintf(f, "RTG-PART-INDEX offset:%" PRIu64 " files:%" PRIu64 "\n", index, nfiles);
  rtg_u64map_free(&seen);
  free(buf);
  free(offs);
  free(sizes);
  if (!rtg_out_close(f)) {
    if (ok) rtg_error("cannot write the part: path=%s: %s", out, rtg_out_why());
    ok = false;
  }
  if (ok && !rtg_out_commit()) ok = false;
  if (!ok) {
    rtg_out_discard();
    rtg_error("no part written: path=%s (an existing file there is left as it was)", out);
    return 1;
  }
  if (ctx->opt.verbose) {
    cv_part_state ps = {0};
    state_line(&ps, state, index);
    fprintf(stderr, "rtg-convert: %s: %" PRIu64 " files, %" PRIu64 " bytes", out, nfiles,
            ps.off ? ps.off : index);
    if (ps.clean)
      fprintf(stderr,
              "; the state of --summary and --stats: %" PRIu64 " events, %" PRIu64 " bytes\n",
              ps.events, ps.size);
    else
      fprintf(stderr, "; no state to merge by (%s): --merge reads the records\n", ps.why);
  }
  return 0;
}

/* -------------------------------------------------------------- --merge */

static rtg_inrange *ranges;
static size_t nranges, cap_ranges;
static cv_part_state *states;
static size_t nstates;
static bool other_inputs;

const cv_part_state *cv_part_states(size_t *n, bool *others) {
  *n = nstates;
  *others = other_inputs;
  return states;
}

uint64_t cv_part_records_bytes(void) {
  uint64_t b = 0;
  for (size_t i = 0; i < nranges; i++) b += ranges[i].size;
  return b;
}

/* One index line "RTG-PART-FILE offset:O size:S path:P": a range. */
static bool index_line(const char *part, char *line, uint64_t lo, uint64_t hi) {
  unsigned long long off, size;
  int n = 0;
  if (sscanf(line, "RTG-PART-FILE offset:%llu size:%llu path:%n", &off, &size, &n) != 2 || !n ||
      !line[n] || off < lo || off > hi || size > hi - off)
    return false;
  if (nranges == cap_ranges) {
    cap_ranges = cap_ranges ? 2 * cap_ranges : 64;
    ranges = rtg_xrealloc(ranges, cap_ranges * sizeof *ranges, "the files of the parts");
  }
  size_t plen = strlen(part), len = strlen(line + n);
  char *name = rtg_xmalloc(plen + len + 2, "the files of the parts");
  memcpy(name, part, plen);
  name[plen] = ':';
  memcpy(name + plen + 1, line + n, len + 1);
  ranges[nranges++] = (rtg_inrange){name, part, off, size};
  return true;
}

/* The index of a part: its ranges added; false after saying why. */
static bool read_index(const char *part) {
  int fd = open(part, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st)) {
    rtg_error("cannot open input: path=%s: %s", part, strerror(errno));
    if (fd >= 0) close(fd);
    return false;
  }
  uint64_t size = (uint64_t)st.st_size;
  char tail[INDEX_TAIL + 1];
  uint64_t from = size > INDEX_TAIL ? size - INDEX_TAIL : 0;
  ssize_t n = pread(fd, tail, (size_t)(size - from), (off_t)from);
  unsigned long long index = 0, files = 0;
  char *last = NULL;
  if (n > 0 && tail[n - 1] == '\n') {
    tail[n - 1] = 0;
    last = memrchr(tail, '\n', (size_t)n - 1); /* (the files' bytes before may hold NULs) */
    last = last ? last + 1 : from == 0 ? tail : NULL;
  }
  int end = 0;
  if (!last || sscanf(last, "RTG-PART-INDEX offset:%llu files:%llu%n", &index, &files, &end) != 2 ||
      last[end] || index < sizeof MAGIC_LINE - 1 || index > size) {
    rtg_error("%s: a part without its index (a part cut short, or still being written?): no "
              "'RTG-PART-INDEX' line at its end",
              part);
    close(fd);
    return false;
  }
  FILE *f = fdopen(fd, "rb");
  if (!f || fseeko(f, (off_t)index, SEEK_SET)) {
    rtg_error("cannot read input: path=%s: %s", part, strerror(errno));
    if (f)
      fclose(f);
    else
      close(fd);
    return false;
  }
  char *line = NULL;
  size_t cap = 0;
  uint64_t lineno = 0;
  bool ok = true;
  for (unsigned long long i = 0; i < files && ok; i++) {
    ssize_t len = getline(&line, &cap, f);
    lineno++;
    if (len > 0 && line[len - 1] == '\n') line[--len] = 0;
    if (len <= 0 || !index_line(part, line, sizeof MAGIC_LINE - 1, index)) {
      rtg_error("%s: line %" PRIu64 " of its index (byte %llu on) is not a file of the part: %.80s",
                part, lineno, index, len > 0 ? line : "(end of the file)");
      ok = false;
    }
  }
  states = rtg_xrealloc(states, (nstates + 1) * sizeof *states, "the parts' state");
  cv_part_state *ps = &states[nstates++];
  *ps = (cv_part_state){.part = part};
  ssize_t len;
  if (ok && (len = getline(&line, &cap, f)) > 0) {
    if (line[len - 1] == '\n') line[--len] = 0;
    state_line(ps, line, index);
  }
  free(line);
  fclose(f);
  return ok;
}

int cv_open_parts(cv_ctx *ctx) {
  bool any = false;
  for (int i = 0; i < ctx->ninputs; i++)
    if (strcmp(ctx->inputs[i], "-") && is_part(ctx->inputs[i])) any = true;
  if (!any && !ctx->opt.merge) return -1;
  if (any && !ctx->opt.merge) {
    rtg_error("the inputs hold parts (made by --part): convert them with --merge");
    return 2;
  }
  /* the inputs in order: each part's files, and the other inputs as they are */
  const char **inputs = NULL;
  size_t n = 0, cap = 0;
  for (int i = 0; i < ctx->ninputs; i++) {
    const char *p = ctx->inputs[i];
    size_t before = nranges;
    bool part = strcmp(p, "-") && is_part(p);
    if (part && !read_index(p)) return 1;
    size_t add = part ? nranges - before : 1;
    if (n + add > cap) {
      cap = (n + add) * 2;
      inputs = rtg_xrealloc(inputs, cap * sizeof *inputs, "the files of the parts");
    }
    if (!part) inputs[n++] = p, other_inputs = true;
    for (size_t k = before; k < nranges; k++) inputs[n++] = ranges[k].name;
  }
  rtg_inrange_set(ranges, nranges);
  ctx->inputs = inputs;
  ctx->ninputs = (int)n;
  if (ctx->opt.verbose)
    fprintf(stderr, "rtg-convert: --merge: %zu files in the parts, %zu inputs in all\n", nranges,
            n);
  return -1;
}
