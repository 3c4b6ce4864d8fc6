/* sdma_queue.c - the copy engine of one SDMA queue.
 *
 * ROCR (BlitSdmaV4/V5, gfx9/gfx10) writes SDMA packets into a byte ring and
 * moves a 64-bit monotonic write pointer; we decode packets from our read
 * pointer and do the copies and fills on the CPU. ROCR brackets each copy with
 * TIMESTAMP packets when profiling, and ends with FENCE + TRAP (or ATOMIC) to
 * complete the signal, so those times come out right by themselves.
 * Packet layouts: ROCR's sdma_registers.h; bit positions noted per packet.
 * Addresses in packets are GPU addresses (vm.c); a word to poll, write or
 * add to that maps nowhere is a fault, logged and skipped. */
#define _GNU_SOURCE
#include <string.h>

#include "sim_core.h"

enum {
  SDMA_OP_NOP = 0,
  SDMA_OP_COPY = 1,
  SDMA_OP_FENCE = 5,
  SDMA_OP_TRAP = 6,
  SDMA_OP_POLL_REGMEM = 8,
  SDMA_OP_ATOMIC = 10,
  SDMA_OP_CONST_FILL = 11,
  SDMA_OP_TIMESTAMP = 13,
  SDMA_OP_GCR = 17,
};
enum { SDMA_SUBOP_COPY_LINEAR = 0, SDMA_SUBOP_COPY_LINEAR_RECT = 4 };
enum { SDMA_ATOMIC_ADD64 = 47 };

static uint64_t addr64(const uint32_t *p, int lo) {
  return (uint64_t)p[lo] | ((uint64_t)p[lo + 1] << 32);
}

/* The CPU address of the n-byte word at the GPU address in p[lo..lo+1]. */
static void *word_at(const uint32_t *p, int lo, uint64_t n) {
  void *w = sim_vm_ptr(addr64(p, lo), n);
  if (!w) SIM_LOG("sdma: word at %#llx maps nowhere\n", (unsigned long long)addr64(p, lo));
  return w;
}

static int compare(uint32_t func, uint32_t v, uint32_t ref) {
  switch (func) {
  case 0:
    return 1;
  case 1:
    return v < ref;
  case 2:
    return v <= ref;
  case 3:
    return v == ref;
  case 4:
    return v != ref;
  case 5:
    return v >= ref;
  case 6:
    return v > ref;
  default:
    return 1;
  }
}

/* With SIMGPU_SDMA_MBPS set, a transfer of n bytes takes n / rate. */
static void transfer_time(uint64_t bytes) {
  if (sim_cfg.sdma_mbps) sim_sleep_ns(bytes * 1000ull / sim_cfg.sdma_mbps);
}

static uint32_t *packet_at(sim_queue_t *q, uint64_t rd) {
  return (uint32_t *)(q->ring + (rd % q->ring_size));
}

static int poll_done(const uint32_t *p) {
  uint32_t func = (p[0] >> 28) & 7;
  volatile uint32_t *a = word_at(p, 1, 4);
  return !a || compare(func, *a & p[4], p[3]);
}

/* Ready when there are bytes to read and the head is not an unsatisfied
 * memory poll. */
static int sdma_ready(sim_queue_t *q) {
  uint64_t rd = *q->rptr;
  if (q->suspended || rd >= __atomic_load_n(q->wptr, __ATOMIC_ACQUIRE)) return 0;
  const uint32_t *p = packet_at(q, rd);
  if ((p[0] & 0xff) == SDMA_OP_POLL_REGMEM && (p[0] >> 31)) return poll_done(p);
  return 1;
}

static void copy_rect(const uint32_t *p) {
  uint32_t es = 1u << ((p[0] >> 29) & 7); /* element size log2 in the header */
  uint64_t s = addr64(p, 1), d = addr64(p, 6);
  uint64_t sx = p[3] & 0x3fff, sy = (p[3] >> 16) & 0x3fff, sz = p[4] & 0x7ff;
  uint64_t spitch = (p[4] >> 13) + 1, sslice = (p[5] & 0xfffffff) + 1;
  uint64_t dx = p[8] & 0x3fff, dy = (p[8] >> 16) & 0x3fff, dz = p[9] & 0x7ff;
  uint64_t dpitch = (p[9] >> 13) + 1, dslice = (p[10] & 0xfffffff) + 1;
  uint64_t rx = (p[11] & 0x3fff) + 1, ry = ((p[11] >> 16) & 0x3fff) + 1, rz = (p[12] & 0x7ff) + 1;
  for (uint64_t z = 0; z < rz; z++)
    for (uint64_t y = 0; y < ry; y++)
      sim_vm_copy(d + ((dz + z) * dslice + (dy + y) * dpitch + dx) * es,
                  s + ((sz + z) * sslice + (sy + y) * spitch + sx) * es, rx * es);
  transfer_time(rx * ry * rz * es);
}

/* Writes the dword v over the n bytes at GPU address dst. */
static void const_fill(uint64_t dst, uint32_t v, uint64_t n) {
  sim_view_t view;
  uint32_t *d = (uint32_t *)sim_view_open(&view, dst, n);
  if (!d) return;
  for (uint64_t i = 0; i < n / 4; i++) d[i] = v;
  sim_view_close(&view, 1);
  transfer_time(n);
}

/* Executes the packet at p and returns its size in dwords. */
static uint32_t execute(sim_queue_t *q, const uint32_t *p) {
  uint32_t op = p[0] & 0xff, sub = (p[0] >> 8) & 0xff;
  switch (op) {
  case SDMA_OP_NOP:
    return 1 + ((p[0] >> 16) & 0x3fff);
  case SDMA_OP_COPY:
    if (sub == SDMA_SUBOP_COPY_LINEAR) {
      /* count = bytes - 1 (gfx9+): 30 bits on gfx90a and gfx10.3+, where
       * ROCR >= 6.1 copies up to 1 GiB per packet, 22 bits on the others,
       * whose bits above are reserved and left 0 by ROCR */
      uint64_t n = (p[1] & 0x3fffffff) + 1;
      sim_vm_copy(addr64(p, 5), addr64(p, 3), n);
      transfer_time(n);
      SIM_LOG("sdma q%u copy %#llx <- %#llx %llu bytes\n", q->id, (unsigned long long)addr64(p, 5),
              (unsigned long long)addr64(p, 3), (unsigned long long)n);
      return 7;
    }
    if (sub == SDMA_SUBOP_COPY_LINEAR_RECT) {
      copy_rect(p);
      return 13;
    }
    SIM_LOG("sdma q%u: unsupported copy sub-op %u\n", q->id, sub);
    return 7;
  case SDMA_OP_FENCE: {
    uint32_t *w = word_at(p, 1, 4);
    if (w) __atomic_store_n(w, p[3], __ATOMIC_RELEASE);
    return 4;
  }
  case SDMA_OP_TRAP: /* interrupt; the context is the event id */
    sim_event_fire(p[1] & 0xfffffff);
    return 2;
  case SDMA_OP_POLL_REGMEM: /* memory polls were waited for in sdma_ready; */
    return 6;               /* register polls (HDP flush) have no effect */
  case SDMA_OP_ATOMIC: {
    uint32_t atomic_op = (p[0] >> 25) & 0x7f;
    uint64_t src = (uint64_t)p[3] | ((uint64_t)p[4] << 32), *w;
    if (atomic_op == SDMA_ATOMIC_ADD64) {
      if ((w = word_at(p, 1, 8))) __atomic_fetch_add(w, src, __ATOMIC_ACQ_REL);
    } else
      SIM_LOG("sdma q%u: unsupported atomic op %u\n", q->id, atomic_op);
    return 8;
  }
  case SDMA_OP_CONST_FILL: /* dword fill; count = bytes - 4 (gfx9+) */
    const_fill(addr64(p, 1), p[3], (p[4] & 0x3fffff) + 4);
    return 5;
  case SDMA_OP_TIMESTAMP: {
    volatile uint64_t *w = word_at(p, 1, 8);
    if (w) *w = sim_now_ns();
    return 3;
  }
  case SDMA_OP_GCR: /* gfx10 cache control */
    return 5;
  default:
    SIM_LOG("sdma q%u: unknown op %u skipped\n", q->id, op);
    return 1;
  }
}

void *sim_sdma_worker(void *arg) {
  sim_queue_t *q = arg;
  char name[16];
  snprintf(name, sizeof name, "simgpu-sdma%u", q->id);
  sim_thread_setup(name);
  while (!q->stop) {
    if (!sdma_ready(q)) {
      sim_park(q, sdma_ready);
      continue;
    }
    uint64_t rd = *q->rptr;
    uint32_t ndw = execute(q, packet_at(q, rd));
    __atomic_store_n(q->rptr, rd + ndw * 4, __ATOMIC_RELEASE);
    q->npackets++;
  }
  return NULL;
}
