/* strace/ltrace -tttT lines, as the original converter accepted:
 *   [PID ]SECS.USECS call(args) = RET <DUR>
 *   [PID ]SECS.USECS call(args <unfinished ...>
 *   [PID ]SECS.USECS <... call resumed> rest) = RET <DUR>
 * Times are CLOCK_REALTIME; when a trace header gave both clocks they are
 * moved to CLOCK_BOOTTIME so the calls line up with the GPU work. */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "xalloc.h"

#define PENDING 64

typedef struct pending {
  uint64_t tid, start;
  char name[64];
  char text[448];
  bool used;
} pending;

struct cv_strace {
  pending p[PENDING];
  char name[64], text[512]; /* strings of the event handed out */
  unsigned next;            /* round-robin victim when full */
};

cv_strace *cv_strace_new(void) {
  return rtg_xcalloc(1, sizeof(cv_strace), "the strace/ltrace reader");
}
void cv_strace_free(cv_strace *s) {
  free(s);
}

/* SECS.USECS -> ns; advances *p. */
static bool parse_stamp(char **p, uint64_t *ns) {
  char *s = *p, *e;
  unsigned long long sec = strtoull(s, &e, 10);
  if (e == s || *e != '.') return false;
  s = e + 1;
  uint64_t frac = 0;
  int digits = 0;
  while (*s >= '0' && *s <= '9') {
    if (digits < 9) frac = frac * 10 + (uint64_t)(*s - '0'), digits++;
    s++;
  }
  if (!digits) return false;
  while (digits < 9) frac *= 10, digits++;
  *ns = (uint64_t)sec * 1000000000ull + frac;
  *p = s;
  return true;
}

/* " = RET <DUR>" at the end: the duration in ns and where " = " starts. */
static char *parse_tail(char *line, size_t len, uint64_t *dur) {
  char *end = line + len;
  while (end > line && end[-1] == ' ') end--;
  if (end == line || end[-1] != '>') return NULL;
  char *lt = end - 1;
  while (lt > line && *lt != '<') lt--;
  if (*lt != '<') return NULL;
  char *e;
  double d = strtod(lt + 1, &e);
  if (e == lt + 1 || *e != '>' || d < 0 || d > 1e9) return NULL;
  *dur = (uint64_t)(d * 1e9 + 0.5);
  /* the last " = " before the duration */
  for (char *p = lt - 1; p >= line + 2; p--)
    if (p[-2] == ' ' && p[-1] == '=' && p[0] == ' ') return p - 2;
  return NULL;
}

static void fn_name(const char *text, char *out, size_t cap) {
  size_t n = strcspn(text, "( ");
  if (n >= cap) n = cap - 1;
  memcpy(out, text, n);
  out[n] = 0;
}

static uint64_t to_boot(const cv_ctx *ctx, uint64_t ns) {
  if (!ctx->have_clock_offset) return ns;
  int64_t v = (int64_t)ns - ctx->realtime_minus_boot;
  return v > 0 ? (uint64_t)v : 1;
}

int cv_strace_line(cv_ctx *ctx, cv_strace *s, uint32_t proc, char *line, size_t len,
                   rtg_diag_file *df, uint64_t lineno, cv_event *out) {
  char *p = line;
  uint64_t tid = 0, start;
  /* optional leading PID (strace -f) */
  char *e;
  unsigned long long pid = strtoull(p, &e, 10);
  if (e != p && *e == ' ') {
    tid = pid;
    p = e;
    while (*p == ' ') p++;
  }
  if (!parse_stamp(&p, &start) || *p != ' ') return -1;
  while (*p == ' ') p++;
  size_t rest = len - (size_t)(p - line);
  static const char unfinished[] = " <unfinished ...>";
  size_t ul = sizeof unfinished - 1;
  cv_event ev;
  memset(&ev, 0, sizeof ev);
  char *name = s->name;
  ev.type = CV_SYSCALL;
  ev.proc = proc;
  ev.tid = tid;
  if (rest > ul && !memcmp(p + rest - ul, unfinished, ul)) {
    p[rest - ul] = 0;
    pending *slot = NULL;
    for (int i = 0; i < PENDING && !slot; i++)
      if (!s->p[i].used) slot = &s->p[i];
    if (!slot) slot = &s->p[s->next++ % PENDING];
    slot->used = true;
    slot->tid = tid;
    slot->start = start;
    fn_name(p, slot->name, sizeof slot->name);
    snprintf(slot->text, sizeof slot->text, "%s", p);
    return 0;
  }
  uint64_t dur;
  char *eq = parse_tail(p, rest, &dur);
  if (eq) { /* cut " <DUR>" off the return value, trailing blanks off the call */
    char *lt = strrchr(eq, '<');
    while (lt > eq + 3 && lt[-1] == ' ') lt--;
    *lt = 0;
    char *c = eq;
    while (c > p && c[-1] == ' ') c--;
    *c = 0;
  }
  if (!strncmp(p, "<... ", 5)) {
    fn_name(p + 5, name, sizeof s->name);
    pending *m = NULL;
    for (int i = 0; i < PENDING && !m; i++)
      if (s->p[i].used && s->p[i].tid == tid && !strcmp(s->p[i].name, name)) m = &s->p[i];
    if (!m || !eq) {
      rtg_warn_line(df, lineno, "strace: resumed call without its start (skipped)");
      return 0;
    }
    m->used = false;
    snprintf(s->text, sizeof s->text, "%s)", m->text);
    ev.name = name;
    ev.args = s->text;
    ev.start = to_boot(ctx, m->start);
    ev.end = ev.start + dur;
    ev.ret = eq + 3;
    *out = ev;
    return 1;
  }
  if (!eq) return -1;
  fn_name(p, name, sizeof s->name);
  ev.name = name;
  ev.args = p;
  ev.ret = eq + 3;
  ev.start = to_boot(ctx, start);
  ev.end = ev.start + dur;
  *out = ev;
  return 1;
}
