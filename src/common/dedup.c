/* Duplicate inputs: the fingerprints (see dedup.h). */
#include "dedup.h"

#include "inrange.h"

#include <string.h>
#include <sys/stat.h>

static uint64_t hash_str(uint64_t h, const char *s) {
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return rtg_mix64(h);
}

uint64_t rtg_header_fingerprint(const rtg_record *rec) {
  uint64_t h = rtg_mix64(rec->pid ^ rtg_mix64(rec->tid));
  h = hash_str(h, rec->u.HEADER.host);
  h ^= rtg_mix64(rec->u.HEADER.boot_ns + 1) ^ rtg_mix64(rec->u.HEADER.realtime_ns + 3) * 7 ^
       rtg_mix64(rec->u.HEADER.ppid + 5) * 13;
  if (RTG_HAS(rec, RTG_FIELD(HEADER, exe))) h = hash_str(h, rec->u.HEADER.exe);
  return h | 1;
}

bool rtg_seen_header(rtg_u64map *seen, uint64_t fingerprint) {
  bool added = true;
  rtg_u64map_put(seen, fingerprint, 0, &added);
  return !added;
}

bool rtg_seen_file(rtg_u64map *seen, const char *path, uint64_t val, uint64_t *first) {
  struct stat st;
  if (rtg_inrange_find(path)) return false; /* (a part holds each file once) */
  if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode)) return false;
  bool added = true;
  uint64_t *v =
      rtg_u64map_put(seen, rtg_mix64((uint64_t)st.st_dev) ^ (uint64_t)st.st_ino, val, &added);
  if (!added && v && first) *first = *v;
  return !added;
}
