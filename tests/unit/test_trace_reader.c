/* The trace reader: a file cut into chunks and read by several producers
 * must give exactly the lines, classes, line numbers and END counts that
 * the same bytes give read as a stream (a pipe: one chunk, read with the
 * line reader), for every way of asking (threads, text lines or not, text
 * kept or not).  The input mixes what traces hold: records of every
 * classified kind, profile lines, text, CRLF, NUL bytes, empty lines,
 * lines longer than the 128 KB window and than RTG_LINE_MAX, and a last
 * line without '\n'; it spans several 1 MB chunks.  With transient text
 * (the producers' own buffers) a prepare hook sees the same text.  Also the line
 * classification on its own. */
#include "check.h"

#include "linereader.h"
#include "strtab.h"
#include "trace_reader.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *make_input(size_t *size) {
  size_t cap = 8u << 20, n = 0;
  char *buf = malloc(cap);
  unsigned seed = 7;
#define ADD(...) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__)
  ADD("RTG: pid:5 tid:5 trace format:1 host:h clock:boottime\n");
  ADD("RTG: pid:5 tid:5 agent index:1 type:gpu name:'gfx90a'\n");
  for (int i = 0; n < cap - (3u << 20) - 4096; i++) {
    seed = seed * 1103515245u + 12345u;
    switch ((seed >> 16) % 16) {
    case 0:
      ADD("profile: kernel; k%d; 1.0 us; %d; %d; #0.0.%d;\n", i, 100 + i, 200 + i, i);
      break;
    case 1:
      ADD("application text %d\r\n", i);
      break;
    case 2:
      ADD("\n");
      break;
    case 3:
      ADD("HSA: pid:5 tid:6 dispatch queue:0 agent:1 signal:1 name:'k' start:x stop:2 id:1\n");
      break;
    case 4:
      buf[n++] = 'b', buf[n++] = 0, buf[n++] = 'x', buf[n++] = '\n';
      break;
    case 5:
      ADD("HIP: pid:%d tid:6 hipMalloc ret=0 @%d +5\n", 5 + (i & 1), i);
      break;
    case 6:
      if (i % 97 == 0) { /* longer than a window */
        memset(buf + n, 'w', 200000);
        n += 200000;
        ADD("\n");
      }
      break;
    default:
      ADD("HSA: pid:5 tid:6 dispatch queue:%d agent:1 signal:1 name:'k%d' start:%d stop:%d id:%d\n",
          i & 3, i % 9, 1000 + i, 2000 + i, i);
    }
  }
  memset(buf + n, 'L', RTG_LINE_MAX + 10); /* too long: counted and skipped */
  n += RTG_LINE_MAX + 10;
  buf[n++] = '\n';
  ADD("HSA: pid:5 tid:6 copy agent:1 signal:0 start:1 stop:2 dep1:0 dep2:0 dep3:0 dep4:0 dep5:0");
#undef ADD
  *size = n;
  return buf;
}

typedef struct feed {
  int fd;
  const char *buf;
  size_t n;
} feed;

static void *feed_main(void *arg) {
  feed *f = arg;
  for (size_t off = 0; off < f->n;) {
    ssize_t k = write(f->fd, f->buf + off, f->n - off);
    if (k <= 0) break;
    off += (size_t)k;
  }
  close(f->fd);
  return NULL;
}

/* A line as the test compares it. */
typedef struct seen {
  uint8_t cls, kind;
  bool nul;
  uint32_t pid, count;
  uint64_t lineno, h; /* h: a hash of the text */
} seen;

/* A prepare hook for transient text: the text's hash, kept in the line. */
static size_t hash_text(rtg_line *l, size_t used, rtg_line_space *space, void *arg) {
  (void)used, (void)space, (void)arg;
  uint64_t h = rtg_hash_bytes(l->text, l->len);
  memcpy(l->u.user, &h, sizeof h);
  return sizeof h;
}

static bool same(const seen *a, const seen *b) {
  return a->cls == b->cls && a->kind == b->kind && a->nul == b->nul && a->pid == b->pid &&
         a->count == b->count && a->lineno == b->lineno && a->h == b->h;
}

static seen *read_all(const char *path, const rtg_reader_opts *base, size_t *n, rtg_line *end) {
  rtg_reader_opts o = *base;
  o.paths = &path;
  o.npaths = 1;
  rtg_reader *r = rtg_reader_open(&o);
  CHECK(r != NULL);
  size_t cap = 1 << 16;
  seen *v = malloc(cap * sizeof *v);
  *n = 0;
  rtg_line *l;
  while ((l = rtg_reader_next(r))) {
    if (l->cls == RTG_LINE_END) {
      *end = *l;
      continue;
    }
    if (*n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
    uint64_t h;
    if (o.transient_text) {
      memcpy(&h, l->u.user, sizeof h);
      CHECK(l->text == NULL);
    } else {
      h = rtg_hash_bytes(l->text, l->len);
    }
    v[(*n)++] = (seen){l->cls, l->kind, l->nul, l->pid, l->count, l->lineno, h};
    if (!o.transient_text && l->cls == RTG_LINE_RECORD && l->kind == RTG_KIND_DISPATCH)
      v[*n - 1].h ^= rtg_hash_bytes(l->u.rec.u.DISPATCH.name, strlen(l->u.rec.u.DISPATCH.name));
  }
  rtg_reader_close(r);
  return v;
}

static void compare_ways(const char *file, const char *buf, size_t size) {
  static const uint32_t masks[] = {RTG_PARSE_ALL, RTG_PARSE(RTG_KIND_DISPATCH)};
  for (int m = 0; m < 2; m++)
    for (int t = 0; t < 2; t++)
      for (int k = 0; k < 3; k++) { /* k: 0 text in place, 1 kept, 2 transient */
        rtg_reader_opts o = {.parse = masks[m], .text_lines = t, .keep_text = k == 1};
        if (k == 2) o.transient_text = true, o.prepare = hash_text;
        int fds[2];
        CHECK(pipe(fds) == 0);
        feed f = {fds[1], buf, size};
        pthread_t th;
        pthread_create(&th, NULL, feed_main, &f);
        char pipe_path[64];
        snprintf(pipe_path, sizeof pipe_path, "/proc/self/fd/%d", fds[0]);
        size_t ns, nc;
        rtg_line es, ec;
        seen *vs = read_all(pipe_path, &o, &ns, &es);
        pthread_join(th, NULL);
        close(fds[0]);
        for (unsigned threads = 0; threads <= 4; threads += 2) {
          o.threads = threads;
          o.serial = threads == 0; /* on this thread */
          seen *vc = read_all(file, &o, &nc, &ec);
          CHECK_U64(nc, ns);
          size_t bad = 0;
          for (size_t i = 0; i < nc && i < ns; i++)
            if (!same(&vc[i], &vs[i]) && bad++ < 3)
              fprintf(stderr,
                      "mask %d text %d keep %d threads %u (0: none): line %zu differs: line "
                      "%llu/%llu class "
                      "%u/%u kind %u/%u pid %u/%u count %u/%u\n",
                      m, t, k, threads, i, (unsigned long long)vc[i].lineno,
                      (unsigned long long)vs[i].lineno, vc[i].cls, vs[i].cls, vc[i].kind,
                      vs[i].kind, vc[i].pid, vs[i].pid, vc[i].count, vs[i].count);
          CHECK_U64(bad, 0);
          CHECK_U64(ec.u.end.lines, es.u.end.lines);
          CHECK_U64(ec.u.end.too_long, 1);
          CHECK_U64(es.u.end.too_long, 1);
          CHECK(ec.u.end.err == 0 && es.u.end.err == 0);
          free(vc);
        }
        free(vs);
      }
}

static void test_chunks_match_stream(void) {
  size_t size;
  char *buf = make_input(&size);
  char file[] = "trace_reader_XXXXXX";
  int fd = mkstemp(file);
  CHECK(fd >= 0 && write(fd, buf, size) == (ssize_t)size);
  close(fd);
  CHECK(size > (5u << 20)); /* several chunks */
  compare_ways(file, buf, size);
  unlink(file);
  free(buf);
}

static void test_classify(void) {
  rtg_line l;
  char line[256];
  rtg_line_how all = {.parse = RTG_PARSE_ALL};
#define CLASSIFY(s, how)                                                                           \
  (snprintf(line, sizeof line, "%s", s), rtg_line_classify(&l, line, strlen(line), how))
  CLASSIFY("hello world", &all);
  CHECK_U64(l.cls, RTG_LINE_TEXT);
  CLASSIFY("HSA: pid:7 tid:8 hsa_init () ret=0 @1 +2", &all);
  CHECK_U64(l.cls, RTG_LINE_RECORD);
  CHECK_U64(l.kind, RTG_KIND_HSA_API);
  CHECK_U64(l.pid, 7);
  rtg_line_how gpu = {.parse = RTG_PARSE(RTG_KIND_DISPATCH) | RTG_PARSE(RTG_KIND_HEADER)};
  CLASSIFY("HSA: pid:7 tid:8 hsa_init () ret=0 @1 +2", &gpu); /* not asked for: only its pid */
  CHECK_U64(l.cls, RTG_LINE_SEEN);
  CHECK_U64(l.kind, RTG_KIND_HSA_API);
  CHECK_U64(l.pid, 7);
  CLASSIFY("RTG: pid:7 tid:7 trace format:x", &gpu); /* asked for, bad */
  CHECK_U64(l.cls, RTG_LINE_BAD);
  CHECK_U64(l.kind, RTG_KIND_HEADER);
  CHECK(l.why != NULL);
  CLASSIFY("RTG: pid:7 tid:7 bogus x:1", &gpu); /* no kind: not asked for */
  CHECK_U64(l.cls, RTG_LINE_SEEN);
  CLASSIFY("RTG: pid:7 tid:7 bogus x:1", &all);
  CHECK_U64(l.cls, RTG_LINE_BAD);
  CHECK_STR(l.why, "unknown record keyword");
  CLASSIFY("HSA: garbage", &gpu);
  CHECK_U64(l.cls, RTG_LINE_TEXT);
  CLASSIFY("HSA: garbage", &all);
  CHECK_U64(l.cls, RTG_LINE_BAD);
  CLASSIFY("profile: kernel; k; 1.0 us; 10; 20; #1.2.3;", &gpu);
  CHECK_U64(l.cls, RTG_LINE_PROFILE);
  CHECK_U64(l.u.hcc.device, 1);
  CLASSIFY("profile: kernel", &gpu);
  CHECK_U64(l.cls, RTG_LINE_BAD);
  rtg_line_how cut = {.parse = RTG_PARSE(RTG_KIND_DISPATCH), .unterminated = true};
  CLASSIFY("HIP: pid:7 tid:8 hipMalloc ret=0 @1 +", &cut); /* any record kind */
  CHECK_U64(l.cls, RTG_LINE_CUT);
  CLASSIFY("some text", &cut);
  CHECK_U64(l.cls, RTG_LINE_TEXT);
  char copy[256];
  rtg_line_how keep = {.parse = RTG_PARSE_ALL, .copy = copy, .copy_kinds = RTG_PARSE_ALL};
  CLASSIFY("HSA: pid:7 tid:8 dispatch queue:0 agent:1 signal:1 name:'a\\x41' start:1 stop:2 id:1",
           &keep);
  CHECK_U64(l.cls, RTG_LINE_RECORD);
  CHECK_STR(l.u.rec.u.DISPATCH.name, "aA");
  CHECK(strstr(line, "name:'a\\x41'") != NULL); /* the text as read */
  memcpy(line, "HSA: pid:7 tid:8 x\0y", 20);
  rtg_line_classify(&l, line, 20, &all);
  CHECK(l.nul);
  CHECK_U64(l.cls, RTG_LINE_BAD);
#undef CLASSIFY
}

/* Several inputs: each one's lines, then its END, in the order given; an
 * input that cannot be opened or is empty has an END of its own. */
static void test_files_in_order(void) {
  FILE *f = fopen("a.txt", "w");
  fputs("one\ntwo\n", f);
  fclose(f);
  fclose(fopen("empty.txt", "w"));
  f = fopen("b.txt", "w");
  fputs("HSA: pid:1 tid:1 hsa_init () ret=0 @1 +2\n", f);
  fclose(f);
  const char *paths[] = {"a.txt", "missing.txt", "empty.txt", "b.txt"};
  rtg_reader_opts o = {.paths = paths, .npaths = 4, .parse = RTG_PARSE_ALL, .text_lines = true};
  rtg_reader *r = rtg_reader_open(&o);
  char got[512] = "";
  rtg_line *l;
  while ((l = rtg_reader_next(r))) {
    size_t n = strlen(got);
    if (l->cls == RTG_LINE_END)
      snprintf(got + n, sizeof got - n, "[end %u: %llu lines%s%s] ", l->file,
               (unsigned long long)l->u.end.lines, l->u.end.err ? ", error" : "",
               l->u.end.not_opened ? " (not opened)" : "");
    else
      snprintf(got + n, sizeof got - n, "%u:%llu:%u ", l->file, (unsigned long long)l->lineno,
               l->cls);
  }
  rtg_reader_close(r);
  CHECK_STR(
      got,
      "0:1:0 0:2:0 [end 0: 2 lines] [end 1: 0 lines, error (not opened)] [end 2: 0 lines] 3:1:1 "
      "[end 3: 1 lines] ");
  unlink("a.txt"), unlink("empty.txt"), unlink("b.txt");
}

int main(void) {
  test_files_in_order();
  test_classify();
  test_chunks_match_stream();
  return check_done("test_trace_reader");
}
