/* Pinned, device and pageable host memory of a process: see memory.h. */
#include "memory.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/memuse.h"
#include "sort.h"

/* The value of "key=" in a HIP call's argument text ("ptr=0x7f.., size=64,
 * kind=HostToDevice"); false when absent. */
static bool arg(const char *args, const char *key, char *buf, size_t cap) {
  size_t kl = strlen(key);
  for (const char *p = args; (p = strstr(p, key)); p += kl) {
    if (p != args && p[-1] != ' ' && p[-1] != '(' && p[-1] != ',') continue;
    if (p[kl] != '=') continue;
    const char *v = p + kl + 1;
    size_t n = strcspn(v, ",)");
    if (n >= cap) n = cap - 1;
    memcpy(buf, v, n);
    buf[n] = 0;
    return true;
  }
  return false;
}

static bool num(const char *args, const char *key, uint64_t *out) {
  char b[64], *end;
  if (!arg(args, key, b, sizeof b)) return false;
  *out = strtoull(b, &end, 0);
  return end != b;
}

static bool one_of(const char *name, const char *const *names) {
  for (; *names; names++)
    if (!strcmp(name, *names)) return true;
  return false;
}

bool an_mem_of_call(const char *name, const char *args, an_mem *out, bool *copy_call) {
  static const char *const pin[] = {"hipHostMalloc",         "hipHostAlloc",    "hipMallocHost",
                                    "hipExtMallocWithFlags", "hipHostRegister", NULL};
  static const char *const unpin[] = {"hipHostFree", "hipFreeHost", "hipHostUnregister", NULL};
  static const char *const dev[] = {"hipMalloc", "hipMallocManaged", "hipMallocAsync",
                                    "hipMallocPitch", NULL};
  static const char *const h2d[] = {"hipMemcpyHtoDAsync", NULL};
  static const char *const d2h[] = {"hipMemcpyDtoHAsync", NULL};
  static const char *const kinded[] = {"hipMemcpyAsync", "hipMemcpyWithStream", "hipMemcpy2DAsync",
                                       NULL};
  memset(out, 0, sizeof *out);
  /* every name above is hipM..., hipH..., hipF... or hipE...: the other
   * calls (most of them: launches, syncs) go by without the lists */
  if (strncmp(name, "hip", 3) || !name[3] || !strchr("MHFE", name[3])) {
    *copy_call = false;
    return false;
  }
  *copy_call = one_of(name, h2d) || one_of(name, d2h) || one_of(name, kinded);
  if (!args) return false;
  if (one_of(name, pin) || one_of(name, dev)) {
    /* hipExtMallocWithFlags pins only with hipDeviceMallocFinegrained and
     * the like; it is device memory either way, so not pageable */
    out->kind =
        one_of(name, pin) && strcmp(name, "hipExtMallocWithFlags") ? AN_MEM_PIN : AN_MEM_DEV;
    return num(args, "ptr", &out->ptr) && num(args, "size", &out->size) && out->ptr;
  }
  if (one_of(name, unpin) || !strcmp(name, "hipFree")) {
    out->kind = strcmp(name, "hipFree") ? AN_MEM_UNPIN : AN_MEM_FREE;
    return num(args, "ptr", &out->ptr) && out->ptr;
  }
  if (!*copy_call) return false;
  uint64_t dst, src;
  if (!num(args, "dst", &dst) || !num(args, "src", &src)) return false;
  out->kind = AN_MEM_COPY;
  if (one_of(name, h2d)) return out->ptr = src, true;
  if (one_of(name, d2h)) return out->ptr = dst, true;
  char kind[32];
  if (!arg(args, "kind", kind, sizeof kind)) return false;
  if (!strcmp(kind, "HostToDevice")) return out->ptr = src, true;
  if (!strcmp(kind, "DeviceToHost")) return out->ptr = dst, true;
  if (!strcmp(kind, "Default")) return out->ptr = src, out->ptr2 = dst, true;
  return false; /* host to host, device to device: no staging */
}

static int by_start(const void *a, const void *b) {
  const an_mem *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* Ranges [start, start + size), sorted by start. */
typedef struct ranges {
  uint64_t (*v)[2];
  size_t n, cap;
} ranges;

/* The index of the last range starting at or before p, or n. */
static size_t at_or_before(const ranges *r, uint64_t p) {
  size_t lo = 0, hi = r->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->v[mid][0] <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? lo - 1 : r->n;
}

static bool holds(const ranges *r, uint64_t p) {
  size_t i = at_or_before(r, p);
  return i < r->n && p - r->v[i][0] < r->v[i][1];
}

static void add(ranges *r, uint64_t start, uint64_t size) {
  if (r->n == r->cap) {
    size_t nc = r->cap ? 2 * r->cap : 64;
    void *nv = rtg_xrealloc(r->v, nc * sizeof *r->v, "the memory ranges of --analyze");
    r->v = nv;
    r->cap = nc;
  }
  size_t i = at_or_before(r, start);
  i = i == r->n ? 0 : i + 1;
  memmove(&r->v[i + 1], &r->v[i], (r->n - i) * sizeof *r->v);
  r->v[i][0] = start;
  r->v[i][1] = size;
  r->n++;
}

static void drop(ranges *r, uint64_t start) {
  size_t i = at_or_before(r, start);
  if (i == r->n || r->v[i][0] != start) return;
  memmove(&r->v[i], &r->v[i + 1], (r->n - i - 1) * sizeof *r->v);
  r->n--;
}

bool an_mem_take_records(an_mem **v, size_t *n, size_t *cap, const cv_mem *mem, uint32_t proc) {
  size_t first = SIZE_MAX, k = 0;
  for (size_t i = 0; mem && i < mem->n; i++)
    if (mem->v[i].proc == proc) {
      first = i;
      break;
    }
  if (first == SIZE_MAX) return false;
  for (size_t i = 0; i < *n; i++) /* the copies stay */
    if ((*v)[i].kind == AN_MEM_COPY) (*v)[k++] = (*v)[i];
  *n = k;
  for (size_t i = first; i < mem->n && mem->v[i].proc == proc; i++) {
    const cv_mem_rec *m = &mem->v[i];
    /* managed memory is not pinned host memory: the GPU reaches its pages
     * as it does device memory's, so copies of it are not staged */
    bool dev = m->kind == CV_MEMK_DEVICE || m->kind == CV_MEMK_MANAGED;
    an_mem a = {.start = m->start, .end = m->end, .tid = m->tid, .ptr = m->addr, .size = m->size};
    switch (m->op) {
    case CV_MEM_ALLOC:
    case CV_MEM_LOCK:
      a.kind = dev ? AN_MEM_DEV : AN_MEM_PIN;
      break;
    default:
      if (!m->matched) continue;
      a.kind = dev ? AN_MEM_FREE : AN_MEM_UNPIN;
    }
    if (*n == *cap) {
      *cap = *cap ? 2 * *cap : 64;
      *v = rtg_xrealloc(*v, *cap * sizeof **v, "the memory ranges of --analyze");
    }
    (*v)[(*n)++] = a;
  }
  return true;
}

static bool known(const ranges *pinned, const ranges *dev, uint64_t p) {
  return holds(pinned, p) || holds(dev, p);
}

void an_rule_pageable(an_mem *v, size_t n, uint64_t unchecked, an_rule *out) {
  memset(out, 0, sizeof *out);
  out->unchecked = unchecked;
  out->evaluated = n || unchecked;
  an_sort(v, n, sizeof *v, by_start);
  ranges pinned = {0}, dev = {0};
  for (size_t i = 0; i < n; i++) {
    const an_mem *m = &v[i];
    switch (m->kind) {
    case AN_MEM_PIN:
      add(&pinned, m->ptr, m->size);
      break;
    case AN_MEM_DEV:
      add(&dev, m->ptr, m->size);
      break;
    case AN_MEM_UNPIN:
      drop(&pinned, m->ptr);
      break;
    case AN_MEM_FREE:
      drop(&dev, m->ptr);
      break;
    default: { /* a copy: Default kinds stage when either side is pageable */
      out->of++;
      bool paged = !known(&pinned, &dev, m->ptr) || (m->ptr2 && !known(&pinned, &dev, m->ptr2));
      if (paged)
        an_rule_instance(
            out, (an_instance){
                     .start = m->start, .dur = m->end - m->start, .tid = m->tid, .name = m->name});
    }
    }
  }
  free(pinned.v);
  free(dev.v);
  out->fired = out->count > 0;
}
