/* Per-thread record buffers: each thread appends entries to a chain of
 * chunks taken from one shared pool; the writer drains the chains in order
 * and gives drained chunks back to the pool (tbuf.c).
 *
 * This header is the producer's fast path, inlined where a record is made
 * (lttng-ust's frontend_api.h fast path and its _slow functions): an entry
 * that fits the thread's current chunk is written there and published with
 * one release store, touching nothing but that chunk - no call, lock,
 * allocation or shared cache line.  Everything else (the thread's first
 * entry, a full chunk, an entry too long) goes to rtg_tbuf_push_slow. */
#ifndef RTG_TBUF_H
#define RTG_TBUF_H

#include "thread_state.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { RTG_ENTRY_MAX = 8192 }; /* payload bytes of one entry, at most */

/* One chunk: the owner writes and publishes head; the drainer reads up to
 * head and keeps tail on a line of its own. */
typedef struct rtg_chunk {
  struct rtg_chunk *next;  /* the chain's next chunk, set before sealed */
  _Atomic uint32_t head;   /* bytes written: the owner stores, release */
  _Atomic uint32_t sealed; /* the owner moved on; head is final */
  uint32_t cap;            /* bytes of data */
  bool prefetchw;          /* the CPU has PREFETCHW (rtg_prefetch_for_write) */
  char pad1[64 - 8 - 12 - 1];
  uint32_t tail; /* bytes drained: the drainer's alone, on its own line */
  char pad2[64 - 4];
  char data[];
} rtg_chunk;

/* Every entry starts with this header; the payload follows, padded to 8. */
typedef struct rtg_entry_hdr {
  uint32_t len; /* payload bytes */
  uint32_t tag; /* 0, or the tag of the held entry it is (rtg_hold) */
} rtg_entry_hdr;

/* The most payload bytes (with the room kept to grow) of an entry a
 * thread can hold back (hold.h). */
enum { RTG_HOLD_MAX = 512 };

/* Where the entry a thread holds back lies (hold.h), for the drainer: in
 * the owner's current chunk, just past its published head.  The owner
 * changes it, and the entry, inside a sequence lock (seq odd while it
 * does), so the drainer can copy it at the final flush while the owner
 * still runs. */
typedef struct rtg_hold {
  _Atomic uint32_t seq;   /* even: stable; odd: the owner is changing it */
  uint32_t tag;           /* the hold's number on its chain (never 0; 0: none yet) */
  rtg_chunk *chunk;       /* where the entry is */
  uint32_t off, len;      /* its header's offset in chunk->data, its payload bytes */
  _Atomic uint32_t taken; /* the drainer's: the tag of a hold it wrote itself */
} rtg_hold;

struct rtg_tchain {
  struct rtg_tchain *next; /* registry, push-only */
  rtg_chunk *oldest;       /* the drainer's chunk */
  rtg_chunk *cur;          /* the owner's chunk */
  _Atomic int state;
  uint32_t holding; /* the owner's: the tag of the entry it holds back, 0 = none */
  uint64_t tid;
  uint32_t held_end;    /* the owner's: cur's head once the held entry is published */
  uint32_t next_tag;    /* the owner's: the last tag it gave a hold */
  uint32_t drained_tag; /* the drainer's: the newest held entry it wrote */
  _Alignas(64) rtg_hold hold;
};

/* How one entry may be treated when the pool is at its cap. */
typedef enum {
  RTG_PUSH_NORMAL, /* as RTG_BUFFER_FULL says */
  RTG_PUSH_KEEP,   /* never dropped, never waits: GPU records, the summary */
} rtg_push_class;

/* Bytes an entry of len payload bytes takes in a chunk. */
static inline uint32_t rtg_entry_size(size_t len) {
  return (uint32_t)(sizeof(rtg_entry_hdr) + ((len + 7) & ~(size_t)7));
}

/* Ask for the line at p ahead of writing it.  A recycled chunk's lines sit
 * in the writer's cache, read: x86's PREFETCHT0 would fetch them shared,
 * and the producer's stores would still wait for ownership; PREFETCHW
 * takes the line for writing.  Older x86 lack it (chunk_map asks cpuid). */
static inline void rtg_prefetch_for_write(const rtg_chunk *c, const char *p) {
#if defined(__x86_64__)
  if (c->prefetchw) {
    __asm__ volatile("prefetchw %0" : : "m"(*p));
    return;
  }
#endif
  __builtin_prefetch(p, 1, 3);
}

/* Write the entry (a then b) at head of c, which has room for need bytes,
 * without publishing it.  tag: 0, or the tag of a held entry (hold.h). */
static inline void rtg_tbuf_write(rtg_chunk *c, uint32_t head, uint32_t need, const void *a,
                                  size_t alen, const void *b, size_t blen, uint32_t tag) {
  char *p = c->data + head;
  rtg_entry_hdr h = {(uint32_t)(alen + blen), tag};
  memcpy(p, &h, sizeof h);
  memcpy(p + sizeof h, a, alen);
  /* The C library's memcpy for the variable part: GCC would inline a copy
   * it knows to be whole words as rep movsq, whose start-up costs more
   * than a short record: hide the length's form. */
  size_t n = blen;
  __asm__("" : "+r"(n));
  memcpy(p + sizeof h + alen, b, n);
  /* the lines a few entries ahead were last read by the writer (a recycled
   * chunk): ask for them now, so the next entries do not wait for them.
   * Two lines, so entries longer than a line skip none. */
  rtg_prefetch_for_write(c, p + need + 192);
  rtg_prefetch_for_write(c, p + need + 256);
}

/* Write the entry (a then b) at head of c, which has room, and publish it. */
static inline void rtg_tbuf_put(rtg_chunk *c, uint32_t head, uint32_t need, const void *a,
                                size_t alen, const void *b, size_t blen) {
  rtg_tbuf_write(c, head, need, a, alen, b, blen, 0);
  atomic_store_explicit(&c->head, head + need, memory_order_release);
}

/* The rest of rtg_tbuf_push, out of line (tbuf.c): it publishes the entry
 * the thread holds back first. */
RTG_HIDDEN bool rtg_tbuf_push_slow(const void *a, size_t alen, const void *b, size_t blen,
                                   rtg_push_class cls);

/* Append one entry made of two parts (b may be empty) to the calling
 * thread's chain t (its rtg_tls.chain, read by the caller: a dynamic TLS
 * access costs a call, worth saving where the caller has it at hand).
 * An entry the thread holds back (hold.h) is published before it, so the
 * thread's entries keep their order.  false: dropped and counted (policy
 * drop, entry too long, no memory). */
static inline bool rtg_tbuf_push_on(rtg_tchain *t, const void *a, size_t alen, const void *b,
                                    size_t blen, rtg_push_class cls) {
  size_t len = alen + blen;
  if (__builtin_expect(t != NULL && !t->holding && len <= RTG_ENTRY_MAX, 1)) {
    rtg_chunk *c = t->cur;
    uint32_t head = atomic_load_explicit(&c->head, memory_order_relaxed);
    uint32_t need = rtg_entry_size(len);
    if (__builtin_expect(head + need <= c->cap, 1)) {
      rtg_tbuf_put(c, head, need, a, alen, b, blen);
      return true;
    }
  }
  return rtg_tbuf_push_slow(a, alen, b, blen, cls);
}

static inline bool rtg_tbuf_push(const void *a, size_t alen, const void *b, size_t blen,
                                 rtg_push_class cls) {
  return rtg_tbuf_push_on(rtg_tls.chain, a, alen, b, blen, cls);
}

/* The calling thread's chain, attached at its first use (NULL: no memory). */
RTG_HIDDEN rtg_tchain *rtg_tbuf_chain(void);

/* The chunk of chain t (the calling thread's) that has room for need
 * bytes at its head: the current one, or a new one (cls: as
 * rtg_tbuf_push); NULL: none (counted as lost). */
RTG_HIDDEN rtg_chunk *rtg_tbuf_room(rtg_tchain *t, uint32_t need, rtg_push_class cls);

/* What a producer does when the pool is at its cap (RTG_BUFFER_FULL). */
typedef enum {
  RTG_FULL_WAIT, /* wait for the writer to give a chunk back (default) */
  RTG_FULL_DROP, /* drop the entry and count it */
} rtg_full_policy;

/* Size the pool (cap in bytes) and choose the policy; before any push. */
RTG_HIDDEN void rtg_tbuf_configure(size_t cap_bytes, rtg_full_policy full);

/* May producers wait for the writer now?  The sink says no while its writer
 * is not running (before start, at exit, in a fork child's first moments). */
RTG_HIDDEN void rtg_tbuf_set_writer_alive(bool alive);

/* Called when a producer wants the writer to run (a chunk was sealed, or
 * it waits for one); set by the sink. */
RTG_HIDDEN void rtg_tbuf_set_kick(void (*kick)(void));

/* One entry as the drainer sees it: contiguous in memory. */
typedef void (*rtg_tbuf_entry_fn)(void *ctx, uint64_t tid, const char *payload, size_t len);

/* Drain every thread's chain in order, entry by entry, give drained chunks
 * back, and free the chains of exited threads for reuse.  One drainer at a
 * time (the writer's drain lock).  final: the trace is about to end (exit,
 * exec, a fatal signal): the entries threads hold back are drained too,
 * each after its thread's other entries.  Returns the number of entries. */
RTG_HIDDEN uint64_t rtg_tbuf_drain(rtg_tbuf_entry_fn fn, void *ctx, bool final);

/* Fork child: the parent's entries are the parent's to write; keep the
 * calling thread's chain (emptied) and free the rest. */
RTG_HIDDEN void rtg_tbuf_after_fork_child(void);

/* Pool figures for the summary and the closing message. */
typedef struct rtg_tbuf_stats {
  uint64_t waits;      /* times a producer waited for the writer */
  uint64_t wait_ns;    /* time producers spent waiting, in all */
  uint64_t peak_bytes; /* most chunk memory held at once */
  uint64_t lost;       /* entries dropped: no buffer space, or too long */
} rtg_tbuf_stats;
RTG_HIDDEN rtg_tbuf_stats rtg_tbuf_get_stats(void);

/* The held entry (hold.h) as the chain sees it: published, or copied by
 * the drainer. */
/* Publish the entry chain t (the calling thread's) holds, if any. */
static inline void rtg_hold_publish(rtg_tchain *t) {
  if (!t->holding) return;
  atomic_store_explicit(&t->cur->head, t->held_end, memory_order_release);
  t->holding = 0;
}
/* The drainer, at the final flush: copy what chain t holds (false: none).
 * Bounded: an entry its owner is changing (a thread stopped by a signal in
 * the middle of it) is copied as it is after a while. */
typedef struct rtg_hold_copy {
  uint32_t len, tag;
  _Alignas(8) char data[RTG_HOLD_MAX];
} rtg_hold_copy;
RTG_HIDDEN bool rtg_hold_copy_of(rtg_tchain *t, rtg_hold_copy *out);

#endif
