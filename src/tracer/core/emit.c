/* Records made by hand (rtg_emit): the record is copied into the entry
 * with the text of every string it points to, so the caller's strings may
 * die at once; the writer points the copy at the copied text again and
 * formats it.  Which members are strings comes from the one definition of
 * each kind (rtg/record.h). */
#include "emit.h"

#include <string.h>

/* Read (rtg_emit_on) or changed (the counters) on every record: each on a
 * cache line of its own, never beside what the writer changes per record
 * (a line shared with the writer's count costs every traced call a cache
 * miss). */
_Alignas(64) _Atomic uint64_t rtg_counters[RTG_CNT_COUNT];
_Alignas(64) _Atomic uint64_t rtg_written_counts[RTG_CNT_COUNT]; /* the writer's */
_Alignas(64) _Atomic int rtg_emit_on;

size_t rtg_entry_record(char *out, size_t cap, const rtg_record *r) {
  size_t n = rtg_record_format(out, cap, r);
  if (!n) rtg_count(RTG_CNT_LOST, 1);
  return n;
}

/* The string members of r's kind, as the addresses of its pointers. */
#define SLOT_u64(K, m)
#define SLOT_i64(K, m)
#define SLOT_dim3(K, m)
#define SLOT_str(K, m) slots[n++] = &r->u.K.m;
#define SLOT_FIELD(K, type, member, key, style, flags) SLOT_##type(K, member)
#define SLOT_KIND(K, p, k, FIELDS)                                                                 \
  case RTG_KIND_##K:                                                                               \
    FIELDS(SLOT_FIELD, K)                                                                          \
    break;
enum { MAX_STR_FIELDS = 16 };
#define COUNT_u64
#define COUNT_i64
#define COUNT_dim3
#define COUNT_str +1
#define COUNT_FIELD(K, type, member, key, style, flags) COUNT_##type
#define CHECK_KIND(K, p, k, FIELDS)                                                                \
  _Static_assert(0 FIELDS(COUNT_FIELD, K) <= MAX_STR_FIELDS, "more strings in " #K);
RTG_RECORD_KINDS(CHECK_KIND)

static int string_slots(rtg_record *r, const char **slots[MAX_STR_FIELDS]) {
  int n = 0;
  switch (r->kind) {
    RTG_RECORD_KINDS(SLOT_KIND)
  default:
    break;
  }
  return n;
}

/* In the copy, a string member holds 1 + the offset of its text after the
 * record (0 stays NULL). */
static size_t format_copy(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                          uint64_t tid) {
  (void)pid, (void)tid; /* the record says whose it is */
  rtg_record r;
  if (len < sizeof r) return 0;
  memcpy(&r, payload, sizeof r);
  const char *text = (const char *)payload + sizeof r;
  size_t text_len = len - sizeof r;
  const char **slots[MAX_STR_FIELDS];
  int n = string_slots(&r, slots);
  for (int i = 0; i < n; i++) {
    uintptr_t at = (uintptr_t)*slots[i];
    if (!at) continue;
    if (at - 1 >= text_len || !memchr(text + at - 1, 0, text_len - (at - 1))) return 0;
    *slots[i] = text + at - 1;
  }
  return rtg_entry_record(out, cap, &r);
}

void rtg_emit(const rtg_record *rec) {
  union {
    rtg_record r;
    char bytes[RTG_PAYLOAD_MAX];
  } u;
  u.r = *rec;
  size_t n = sizeof u.r;
  const char **slots[MAX_STR_FIELDS];
  int ns = string_slots(&u.r, slots);
  for (int i = 0; i < ns; i++) {
    const char *s = *slots[i];
    if (!s) continue;
    size_t l = strlen(s) + 1;
    if (n + l > sizeof u.bytes) { /* longer than any line may be */
      rtg_count(RTG_CNT_LOST, 1);
      return;
    }
    memcpy(u.bytes + n, s, l);
    *slots[i] = (const char *)(uintptr_t)(n - sizeof u.r + 1);
    n += l;
  }
  rtg_emit_entry(format_copy, u.bytes, n);
}
