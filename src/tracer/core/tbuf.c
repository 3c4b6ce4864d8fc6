/* Per-thread record buffers as chains of pooled chunks (lttng-ust's
 * per-thread buffers, grown on demand).
 *
 * A thread appends entries to its current chunk and publishes the new end
 * with a release store: the only memory it touches per entry is its own
 * chunk.  When the chunk is full the thread takes another from the pool,
 * links it after the full one and seals that one; the drainer walks each
 * chain from its oldest chunk, hands out the entries in order, and gives
 * every sealed chunk it has emptied back to the pool.  An entry never spans
 * two chunks, so the drainer reads it in place.
 *
 * The pool grows one chunk at a time up to its cap (RTG_BUFFER_MB).  At the
 * cap a producer waits until the writer gives a chunk back, or drops the
 * entry and counts it (RTG_BUFFER_FULL=drop).  It never waits where that
 * could hang or hurt: on the writer's or a waiter's thread, in a signal
 * handler, while no writer runs (start, exit), or when no sealed chunk is
 * waiting to be drained (every chunk held is some thread's current one).
 * GPU records and the summary are never dropped and never wait: past the
 * cap they take a chunk anyway.
 *
 * A thread may also hold its last entry back, written past its chunk's
 * head but not published, to count repeats into it (hold.h): any other
 * entry of the thread publishes it first, and the final drain writes what
 * each thread still holds. */
#include "tbuf.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK_BYTES = 64 * 1024, WAIT_SLICE_MS = 10 };
enum { CHAIN_FREE, CHAIN_ACTIVE, CHAIN_DEAD };

static _Atomic(rtg_tchain *) chains;

/* ----------------------------------------------------------------- pool */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static rtg_chunk *free_chunks;
static size_t held_bytes, cap_bytes = 256u << 20;
static rtg_full_policy full_policy = RTG_FULL_WAIT;
static _Atomic uint32_t free_gen;      /* futex word: bumped when a chunk comes back */
static _Atomic uint32_t sleepers;      /* producers waiting on free_gen */
static _Atomic uint64_t sealed_chunks; /* sealed, not yet given back */
static _Atomic int writer_alive;
static void (*kick_writer)(void);
static _Atomic uint64_t st_waits, st_wait_ns, st_peak, st_lost;

void rtg_tbuf_configure(size_t cap, rtg_full_policy full) {
  cap_bytes = cap < CHUNK_BYTES ? CHUNK_BYTES : cap;
  full_policy = full;
}
void rtg_tbuf_set_writer_alive(bool alive) {
  atomic_store(&writer_alive, alive);
}
void rtg_tbuf_set_kick(void (*kick)(void)) {
  kick_writer = kick;
}
static void kick(void) {
  if (kick_writer) kick_writer();
}

/* CPUID 0x80000001 ECX bit 8: PREFETCHW (AMD since K6, Intel since
 * Broadwell). */
static bool cpu_has_prefetchw(void) {
#if defined(__x86_64__)
  /* asked once: cpuid traps to the hypervisor in a VM; threads that map
   * their first chunks at once may each ask, and store the same answer */
  static _Atomic int has = -1;
  int h = atomic_load_explicit(&has, memory_order_relaxed);
  if (h < 0) {
    unsigned a, b, c, d;
    h = __get_cpuid(0x80000001, &a, &b, &c, &d) && (c >> 8 & 1);
    atomic_store_explicit(&has, h, memory_order_relaxed);
  }
  return h;
#else
  return false;
#endif
}

static rtg_chunk *chunk_map(void) {
  void *m = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  rtg_chunk *c = m;
  c->cap = CHUNK_BYTES - (uint32_t)offsetof(rtg_chunk, data);
  c->prefetchw = cpu_has_prefetchw();
  return c;
}

static void chunk_reset(rtg_chunk *c) {
  c->next = NULL;
  atomic_store_explicit(&c->head, 0, memory_order_relaxed);
  atomic_store_explicit(&c->sealed, 0, memory_order_relaxed);
  c->tail = 0;
}

/* Would waiting for the writer end?  Only if it runs, this thread is not
 * one it depends on, and there is a sealed chunk for it to give back. */
static bool may_wait(void) {
  return atomic_load_explicit(&writer_alive, memory_order_relaxed) && !rtg_tls.no_wait &&
         atomic_load_explicit(&sealed_chunks, memory_order_relaxed) > 0;
}

static rtg_chunk *pool_get(rtg_push_class cls) {
  uint64_t waited_from = 0;
  rtg_chunk *c = NULL;
  for (;;) {
    pthread_mutex_lock(&pool_mu);
    if ((c = free_chunks)) {
      free_chunks = c->next;
      pthread_mutex_unlock(&pool_mu);
      break;
    }
    bool room = held_bytes + CHUNK_BYTES <= cap_bytes;
    bool force = !room && (cls == RTG_PUSH_KEEP || (full_policy == RTG_FULL_WAIT && !may_wait()));
    if (room || force) {
      held_bytes += CHUNK_BYTES;
      if (held_bytes > atomic_load_explicit(&st_peak, memory_order_relaxed))
        atomic_store_explicit(&st_peak, held_bytes, memory_order_relaxed);
      pthread_mutex_unlock(&pool_mu);
      if (!(c = chunk_map())) {
        pthread_mutex_lock(&pool_mu);
        held_bytes -= CHUNK_BYTES;
        pthread_mutex_unlock(&pool_mu);
      }
      break;
    }
    uint32_t gen = atomic_load_explicit(&free_gen, memory_order_acquire);
    pthread_mutex_unlock(&pool_mu);
    if (full_policy == RTG_FULL_DROP) break;
    /* wait for the writer to give a chunk back */
    if (!waited_from) {
      waited_from = rtg_now();
      atomic_fetch_add_explicit(&st_waits, 1, memory_order_relaxed);
    }
    kick();
    atomic_fetch_add(&sleepers, 1);
    struct timespec ts = {0, WAIT_SLICE_MS * 1000000L};
    syscall(SYS_futex, &free_gen, FUTEX_WAIT_PRIVATE, gen, &ts, NULL, 0);
    atomic_fetch_sub(&sleepers, 1);
  }
  if (waited_from)
    atomic_fetch_add_explicit(&st_wait_ns, rtg_now() - waited_from, memory_order_relaxed);
  if (c) chunk_reset(c);
  return c;
}

static void pool_put(rtg_chunk *c) {
  pthread_mutex_lock(&pool_mu);
  c->next = free_chunks;
  free_chunks = c;
  atomic_fetch_add_explicit(&free_gen, 1, memory_order_release);
  pthread_mutex_unlock(&pool_mu);
  if (atomic_load(&sleepers))
    syscall(SYS_futex, &free_gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

rtg_tbuf_stats rtg_tbuf_get_stats(void) {
  return (rtg_tbuf_stats){atomic_load(&st_waits), atomic_load(&st_wait_ns), atomic_load(&st_peak),
                          atomic_load(&st_lost)};
}

/* --------------------------------------------------------------- chains */
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void thread_exit(void *arg) {
  rtg_tchain *t = arg;
  rtg_hold_publish(t); /* what it held is its last entry */
  /* the drainer empties it, then frees it for a new thread */
  atomic_store_explicit(&t->state, CHAIN_DEAD, memory_order_release);
  if (rtg_tls.chain == t) rtg_tls.chain = NULL;
}
static void make_key(void) {
  pthread_key_create(&exit_key, thread_exit);
}

static rtg_tchain *chain_attach(void) {
  rtg_tchain *t;
  for (t = atomic_load(&chains); t; t = t->next) { /* one of an exited thread, drained */
    int st = CHAIN_FREE;
    if (atomic_compare_exchange_strong(&t->state, &st, CHAIN_ACTIVE)) break;
  }
  if (t) { /* (its thread published what it held as it exited) */
    t->holding = 0;
    t->hold.tag = 0;
  }
  if (!t) {
    rtg_chunk *c = pool_get(RTG_PUSH_KEEP); /* a thread's first chunk never waits */
    if (!c) return NULL;
    t = mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED) {
      pool_put(c);
      return NULL;
    }
    t->oldest = t->cur = c;
    atomic_store(&t->state, CHAIN_ACTIVE);
    rtg_tchain *old = atomic_load(&chains);
    do t->next = old;
    while (!atomic_compare_exchange_weak(&chains, &old, t));
  }
  t->tid = rtg_tid();
  rtg_tls.chain = t;
  pthread_once(&key_once, make_key);
  pthread_setspecific(exit_key, t);
  return t;
}

/* The current chunk is full: continue in a new one. */
static rtg_chunk *chain_grow(rtg_tchain *t, rtg_push_class cls) {
  rtg_chunk *n = pool_get(cls);
  if (!n) return NULL;
  rtg_chunk *c = t->cur;
  c->next = n;
  atomic_fetch_add_explicit(&sealed_chunks, 1, memory_order_relaxed);
  atomic_store_explicit(&c->sealed, 1, memory_order_release);
  t->cur = n;
  kick();
  return n;
}

rtg_tchain *rtg_tbuf_chain(void) {
  return rtg_tls.chain ? rtg_tls.chain : chain_attach();
}

rtg_chunk *rtg_tbuf_room(rtg_tchain *t, uint32_t need, rtg_push_class cls) {
  rtg_chunk *c = t->cur;
  if (atomic_load_explicit(&c->head, memory_order_relaxed) + need <= c->cap) return c;
  if ((c = chain_grow(t, cls))) return c;
  atomic_fetch_add_explicit(&st_lost, 1, memory_order_relaxed);
  return NULL;
}

/* The fast path (tbuf.h) found no chain, no room, or a held entry: that
 * one is published first (its place is before this one's), then this one
 * is written, in a new chunk when the current one is full. */
bool rtg_tbuf_push_slow(const void *a, size_t alen, const void *b, size_t blen,
                        rtg_push_class cls) {
  size_t len = alen + blen;
  rtg_tchain *t = rtg_tls.chain;
  if (t) rtg_hold_publish(t);
  if (len > RTG_ENTRY_MAX || (!t && !(t = chain_attach()))) goto lost;
  uint32_t need = rtg_entry_size(len);
  rtg_chunk *c = rtg_tbuf_room(t, need, cls);
  if (!c) return false;
  rtg_tbuf_put(c, atomic_load_explicit(&c->head, memory_order_relaxed), need, a, alen, b, blen);
  return true;
lost:
  atomic_fetch_add_explicit(&st_lost, 1, memory_order_relaxed);
  return false;
}

/* ------------------------------------------------------------- draining */

/* Is a held entry of this tag one the drainer wrote already (tags grow
 * along a chain: a held entry published after the final flush wrote its
 * copy, when an exec failed and the thread went on)? */
static bool tag_written(const rtg_tchain *t, uint32_t tag) {
  return (int32_t)(tag - t->drained_tag) <= 0;
}

static uint64_t drain_chunk(rtg_tchain *t, rtg_chunk *c, uint32_t head, rtg_tbuf_entry_fn fn,
                            void *ctx) {
  uint64_t n = 0;
  while (c->tail < head) {
    rtg_entry_hdr h;
    memcpy(&h, c->data + c->tail, sizeof h);
    uint32_t need = rtg_entry_size(h.len);
    if (h.len > RTG_ENTRY_MAX || need > head - c->tail) { /* never: skip the rest */
      c->tail = head;
      break;
    }
    /* a writer that fell behind reads what left the caches long ago: ask
     * for the lines a few entries on while this one is formatted */
    __builtin_prefetch(c->data + c->tail + 1024);
    if (!h.tag || !tag_written(t, h.tag)) {
      if (h.tag) t->drained_tag = h.tag;
      fn(ctx, t->tid, c->data + c->tail + sizeof h, h.len);
      n++;
    }
    c->tail += need;
  }
  return n;
}

enum { COPY_TRIES = 4096 };

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

bool rtg_hold_copy_of(rtg_tchain *t, rtg_hold_copy *out) {
  rtg_hold *h = &t->hold;
  for (int i = 0;; i++) {
    bool last = i >= COPY_TRIES;
    uint32_t s = atomic_load_explicit(&h->seq, memory_order_acquire);
    if ((s & 1) && !last) {
      cpu_relax();
      continue;
    }
    rtg_chunk *c = h->chunk;
    uint32_t off = h->off, len = h->len;
    out->tag = h->tag;
    out->len = 0;
    /* (out of bounds only in a torn copy, when given up) */
    if (c && out->tag && len <= RTG_HOLD_MAX && off <= c->cap &&
        len + sizeof(rtg_entry_hdr) <= c->cap - off) {
      memcpy(out->data, c->data + off + sizeof(rtg_entry_hdr), len);
      out->len = len;
    }
    atomic_thread_fence(memory_order_acquire); /* the copy before the second look */
    if (last || atomic_load_explicit(&h->seq, memory_order_relaxed) == s) return out->len != 0;
  }
}

/* What t holds, written by the drainer itself (after t's other entries) at
 * the final flush. */
static uint64_t drain_held(rtg_tchain *t, const rtg_hold_copy *h, rtg_tbuf_entry_fn fn, void *ctx) {
  if (!h->len || tag_written(t, h->tag)) return 0;
  t->drained_tag = h->tag;
  atomic_store_explicit(&t->hold.taken, h->tag, memory_order_relaxed); /* its owner drops it */
  fn(ctx, t->tid, h->data, h->len);
  return 1;
}

static uint64_t drain_chain(rtg_tchain *t, rtg_tbuf_entry_fn fn, void *ctx) {
  uint64_t n = 0;
  for (;;) {
    rtg_chunk *c = t->oldest;
    /* sealed first: once sealed, the head read after it is final */
    uint32_t sealed = atomic_load_explicit(&c->sealed, memory_order_acquire);
    uint32_t head = atomic_load_explicit(&c->head, memory_order_acquire);
    n += drain_chunk(t, c, head, fn, ctx);
    if (!sealed) break;
    t->oldest = c->next;
    atomic_fetch_sub_explicit(&sealed_chunks, 1, memory_order_relaxed);
    pool_put(c);
  }
  return n;
}

uint64_t rtg_tbuf_drain(rtg_tbuf_entry_fn fn, void *ctx, bool final) {
  uint64_t n = 0;
  for (rtg_tchain *t = atomic_load(&chains); t; t = t->next) {
    int st = atomic_load_explicit(&t->state, memory_order_acquire);
    if (st == CHAIN_FREE) continue;
    /* the copy first, then the chunks: an entry its owner publishes
     * meanwhile is in the chunks, and its copy is then not written */
    rtg_hold_copy held;
    bool holds = final && rtg_hold_copy_of(t, &held);
    n += drain_chain(t, fn, ctx);
    if (holds) n += drain_held(t, &held, fn, ctx);
    if (st == CHAIN_DEAD) { /* emptied after its thread exited: reusable */
      rtg_chunk *c = t->cur;
      if (t->oldest == c && c->tail == atomic_load(&c->head)) {
        chunk_reset(c);
        int dead = CHAIN_DEAD;
        atomic_compare_exchange_strong(&t->state, &dead, CHAIN_FREE);
      }
    }
  }
  return n;
}

void rtg_tbuf_after_fork_child(void) {
  pthread_mutex_init(&pool_mu, NULL);
  for (rtg_tchain *t = atomic_load(&chains); t; t = t->next) {
    while (t->oldest != t->cur) {
      rtg_chunk *c = t->oldest;
      t->oldest = c->next;
      c->next = free_chunks;
      free_chunks = c;
    }
    chunk_reset(t->cur);
    t->holding = 0; /* what the parent's threads held is the parent's */
    atomic_store(&t->hold.seq, 0);
    t->hold.tag = 0;
    if (t != rtg_tls.chain) atomic_store(&t->state, CHAIN_FREE);
  }
  if (rtg_tls.chain) rtg_tls.chain->tid = rtg_tid();
  atomic_store(&sealed_chunks, 0);
  atomic_store(&sleepers, 0);
  atomic_store(&st_waits, 0);
  atomic_store(&st_wait_ns, 0);
  atomic_store(&st_lost, 0);
}
