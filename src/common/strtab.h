/* String interning: each distinct string is stored once and named by a
 * small integer id, so tools can keep millions of events' names as 4-byte
 * ids and compare them with ==.  Ids are dense, in order of first sight. */
#ifndef RTG_STRTAB_H
#define RTG_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct rtg_strtab rtg_strtab;

rtg_strtab *rtg_strtab_new(void);
void rtg_strtab_free(rtg_strtab *t);

/* Id of s[0..len) (which may hold any bytes but NUL), adding it if new.
 * Returns UINT32_MAX only when memory runs out. */
uint32_t rtg_strtab_intern(rtg_strtab *t, const char *s, size_t len);

/* Id of s, or UINT32_MAX when it was never interned. */
uint32_t rtg_strtab_find(const rtg_strtab *t, const char *s, size_t len);

/* The NUL-terminated string of an id; stable until rtg_strtab_free. */
const char *rtg_strtab_get(const rtg_strtab *t, uint32_t id);

uint32_t rtg_strtab_count(const rtg_strtab *t);
/* Bytes held, for memory reports. */
size_t rtg_strtab_bytes(const rtg_strtab *t);

/* A hash of n bytes, 8 at a time (multiply and xor-shift per word, a final
 * mix), exposed because the hash maps of the tools use it too. */
uint64_t rtg_hash_bytes(const void *p, size_t n);

#endif
