/* Classifying one line of a trace; see trace_line.h.
 *
 * Most lines of a big trace are records a tool may not need whole (rpt
 * reads only the GPU ops out of millions of API calls), so the kind of a
 * record is first told from its prefix and keyword, as the record format
 * defines them (include/rtg/record.h), and the line is parsed only when
 * that kind was asked for. */
#include "trace_line.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

/* The prefix and keyword of each kind, from the one list of kinds, with
 * their lengths (this runs for every line: no pointer to follow). */
static const struct {
  char prefix[8], keyword[16];
  uint8_t plen, kwlen;
} kinds[RTG_KIND_COUNT] = {
#define KW_X(K, p, k, F) [RTG_KIND_##K] = {p, k, sizeof p - 1, sizeof k - 1},
    RTG_RECORD_KINDS(KW_X)
#undef KW_X
};

/* The kinds of each prefix, found by its second letter (the prefixes
 * differ there), by the length of their keyword: most lines then compare
 * one keyword, or none (an API call's function name), built once. */
#define MAX_KW 16
typedef struct kind_group {
  uint32_t fallback;       /* the kind without a keyword (the API calls) */
  uint32_t by_len[MAX_KW]; /* the kinds whose keyword has that length */
} kind_group;
static kind_group groups[128];
static pthread_once_t groups_once = PTHREAD_ONCE_INIT;
static _Atomic bool groups_built; /* (checked inline: once built, no call per line) */

static void build_groups(void) {
  for (int k = 1; k < RTG_KIND_COUNT; k++) {
    kind_group *g = &groups[(unsigned char)kinds[k].prefix[1] & 127];
    if (kinds[k].kwlen)
      g->by_len[kinds[k].kwlen] |= RTG_PARSE(k);
    else
      g->fallback |= RTG_PARSE(k);
  }
  atomic_store_explicit(&groups_built, true, memory_order_release);
}

/* The start every record shares, "PREFIX: pid:P tid:T WORD": the length
 * of the prefix (3 or 5; 0 when the line does not begin with one), the
 * keyword (scan_start) and, when pid and tid are there, the pid (scan_pid:
 * only for a record that is not parsed). */
typedef struct record_start {
  size_t plen;
  bool has_pid;
  uint32_t pid;
  const char *kw;
  size_t kwlen;
} record_start;

static size_t prefix_len(const char *s, size_t len) {
  if (len <= 4 || (s[0] != 'H' && s[0] != 'R' && s[0] != 'M')) return 0;
  if (s[3] == ':' && s[4] == ' ' &&
      (!memcmp(s, "HSA", 3) || !memcmp(s, "HIP", 3) || !memcmp(s, "RTG", 3) ||
       !memcmp(s, "MPI", 3)))
    return 3;
  if (len > 6 && !memcmp(s, "ROCTX: ", 7)) return 5;
  return 0;
}

static const char *digits(const char *p, const char *e, uint64_t *v) {
  const char *d = p;
  uint64_t x = 0;
  for (; p < e && *p >= '0' && *p <= '9'; p++) {
    x = x * 10 + (unsigned)(*p - '0');
    if (x > UINT32_MAX) x = UINT64_MAX / 16; /* stays too large, never wraps */
  }
  *v = x;
  return p > d ? p : NULL;
}

/* The prefix and the keyword: the third word, whatever the first two hold
 * (a record whose pid is damaged is still a record of its kind, and bad). */
static record_start scan_start(const char *s, size_t len) {
  record_start r = {.plen = prefix_len(s, len)};
  if (!r.plen) return r;
  const char *e = s + len, *p = s + r.plen + 1;
  for (int w = 0; w < 3; w++) { /* (memchr: no loop ending at a mispredicted branch) */
    while (p < e && *p == ' ') p++;
    r.kw = p;
    const char *sp = memchr(p, ' ', (size_t)(e - p));
    p = sp ? sp : e;
  }
  r.kwlen = (size_t)(p - r.kw);
  if (!r.kwlen) r.kw = NULL;
  return r;
}

/* The pid of a record that is not parsed, when "pid:P tid:T" follow its
 * prefix. */
static void scan_pid(const char *s, size_t len, record_start *r) {
  const char *e = s + len, *p = s + r->plen + 2;
  uint64_t pid, tid;
  if (e - p >= 4 && !memcmp(p, "pid:", 4) && (p = digits(p + 4, e, &pid)) && pid <= UINT32_MAX &&
      e - p >= 5 && !memcmp(p, " tid:", 5) && digits(p + 5, e, &tid)) {
    r->has_pid = true;
    r->pid = (uint32_t)pid;
  }
}

/* kw[0..n) is word: keywords are 4 to 8 bytes, compared as two overlapping
 * 4-byte words (no loop whose length the CPU would mispredict). */
static inline bool is_word(const char *kw, size_t n, const char *word) {
  if (n >= 4 && n <= 8) {
    uint32_t a0, b0, a1, b1;
    memcpy(&a0, kw, 4), memcpy(&b0, word, 4), memcpy(&a1, kw + n - 4, 4);
    memcpy(&b1, word + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  return !memcmp(kw, word, n);
}

/* The kinds a record start can be: those of its prefix and keyword, else
 * the one kind of its prefix without a keyword (the API calls). */
static uint32_t kinds_of(const char *s, const record_start *r) {
  if (!r->plen) return 0;
  if (!atomic_load_explicit(&groups_built, memory_order_acquire))
    pthread_once(&groups_once, build_groups);
  const kind_group *g = &groups[(unsigned char)s[1] & 127];
  uint32_t hit = 0, maybe = r->kwlen < MAX_KW ? g->by_len[r->kwlen] : 0;
  for (; maybe; maybe &= maybe - 1) {
    int k = __builtin_ctz(maybe);
    if (is_word(r->kw, r->kwlen, kinds[k].keyword)) hit |= RTG_PARSE(k);
  }
  return hit ? hit : g->fallback;
}

static uint8_t first_kind(uint32_t set) {
  return set ? (uint8_t)__builtin_ctz(set) : RTG_KIND_NONE;
}

static const char *const cut_why = "last line cut off (no newline): a partial record";

static void profile_line(rtg_line *l, char *text, size_t len, rtg_line_how *how) {
  if (how->unterminated) {
    l->cls = RTG_LINE_CUT, l->why = cut_why;
    return;
  }
  if (l->nul) {
    l->cls = RTG_LINE_BAD, l->why = "NUL bytes in a profile line";
    return;
  }
  const char *why = NULL;
  int r = rtg_hcc_profile_parse(text, len, &l->u.hcc, &why);
  if (r > 0)
    l->cls = RTG_LINE_PROFILE;
  else if (r < 0)
    l->cls = RTG_LINE_BAD, l->why = why ? why : "bad profile line";
  else
    l->cls = RTG_LINE_TEXT;
}

static void record_line(rtg_line *l, char *text, size_t len, rtg_line_how *how) {
  /* the words up to the keyword are scanned only when the kinds to parse
   * need them: with RTG_PARSE_ALL, only for a bad line (the parser changes
   * nothing up to the keyword a kind is told by) */
  bool all = how->parse == RTG_PARSE_ALL;
  record_start st = all ? (record_start){0} : scan_start(text, len);
  uint32_t cands = all ? RTG_PARSE_ALL : kinds_of(text, &st);
  bool want = how->unterminated || (cands & how->parse) || (!cands && (how->parse & 1u));
  if (!want) { /* a record nobody needs whole: its pid, for duplicates */
    if (st.plen) scan_pid(text, len, &st);
    l->cls = st.has_pid ? RTG_LINE_SEEN : RTG_LINE_TEXT;
    l->kind = first_kind(cands);
    l->has_pid = st.has_pid;
    l->pid = st.pid;
    return;
  }
  char *buf = text;
  how->copied = how->copy && (cands & how->copy_kinds);
  if (how->copied) {
    memcpy(how->copy, text, len);
    how->copy[len] = 0;
    buf = how->copy;
  }
  const char *why = NULL;
  /* (nul is known by now: the parser need not look again) */
  enum rtg_kind k = l->nul ? rtg_record_parse(buf, len, &l->u.rec, &why)
                           : rtg_record_parse_nul_free(buf, len, &l->u.rec, &why);
  if (k == RTG_KIND_NONE && !why) { /* a prefix, but not a record: text */
    l->cls = RTG_LINE_TEXT;
    return;
  }
  if (how->unterminated) {
    l->cls = RTG_LINE_CUT, l->why = cut_why;
    return;
  }
  if (k == RTG_KIND_NONE) { /* (the parser changes nothing up to the keyword) */
    l->cls = RTG_LINE_BAD, l->why = why;
    if (all) st = scan_start(text, len);
    l->kind = first_kind(cands == RTG_PARSE_ALL ? kinds_of(text, &st) : cands);
    scan_pid(text, len, &st);
    l->has_pid = st.has_pid;
    l->pid = st.pid;
    return;
  }
  l->cls = RTG_LINE_RECORD;
  l->kind = (uint8_t)k;
  l->has_pid = true;
  l->pid = l->u.rec.pid;
}

void rtg_line_classify(rtg_line *l, char *text, size_t len, rtg_line_how *how) {
  l->text = text;
  l->len = len;
  l->why = NULL;
  l->prep = NULL;
  l->kind = RTG_KIND_NONE;
  l->has_pid = false;
  l->pid = 0;
  l->count = 1;
  l->nul = !how->nul_free && memchr(text, 0, len) != NULL;
  how->copied = false;
  if (len >= 8 && text[0] == 'p' && !memcmp(text, "profile:", 8))
    profile_line(l, text, len, how);
  else if (len > 4 && (text[0] == 'H' || text[0] == 'R' || text[0] == 'M') &&
           (text[3] == ':' || (len > 6 && text[5] == ':')))
    record_line(l, text, len, how);
  else
    l->cls = RTG_LINE_TEXT;
}
