/* blit.c - the kernels whose results programs depend on, done on the CPU.
 *
 * 1. ROCR's own blit kernels (CopyAligned, CopyMisaligned, Fill), used for
 *    code object upload, hsa_memory_copy, device-to-device copies and all
 *    copies when HSA_ENABLE_SDMA=0. They have no symbol: ROCR assembles them
 *    behind a bare amd_kernel_code_t whose granulated register counts tell the
 *    three apart (GpuAgent::AssembleShader: sgprs/vgprs 32/12, 23/10, 19/8).
 *    Kernel arguments: BlitKernel::KernelArgs in ROCR 5.2.3.
 * 2. HIP's ROCclr blit kernels, by name. Kernel arguments as declared in the
 *    blit source that ROCclr compiles at run time (a string inside
 *    libamdhip64) and filled by roc::KernelBlitManager; what each work-item
 *    does follows that source (or the device library's amdblit.cl it calls).
 *    Pointers are 8 bytes, ulong4 is 32-byte aligned. ROCclr 6.2 changed
 *    fillBufferAligned and copyBuffer (one buffer, an end pointer, work-items
 *    striding by next_chunk); hip_release.c says which layout applies. */
#define _GNU_SOURCE
#include <hsa/amd_hsa_kernel_code.h>
#include <string.h>

#include "sim_core.h"

/* ---- ROCR blit kernels ---- */

static int rocr_blit_kind(uint64_t kobj) {
  const amd_kernel_code_t *h = (const amd_kernel_code_t *)(uintptr_t)kobj;
  if (!h || (kobj & 0xfff)) /* AssembleShader allocates a page per kernel */
    return 0;
  if (h->amd_kernel_code_version_major || h->amd_kernel_code_version_minor || h->amd_machine_kind ||
      h->kernel_code_entry_byte_offset != sizeof(amd_kernel_code_t) ||
      h->kernel_code_prefetch_byte_offset || h->kernel_code_prefetch_byte_size ||
      h->kernarg_segment_byte_size || h->wavefront_sgpr_count)
    return 0;
  uint32_t vgprs = h->compute_pgm_rsrc1 & 0x3f, sgprs = (h->compute_pgm_rsrc1 >> 6) & 0xf;
  if (sgprs == 3 && vgprs == 2) return 1; /* CopyAligned */
  if (sgprs == 2 && vgprs == 2) return 2; /* CopyMisaligned */
  if (sgprs == 2 && vgprs == 1) return 3; /* Fill */
  return 0;
}

static int rocr_blit(const hsa_kernel_dispatch_packet_t *pkt) {
  const uint64_t *a = pkt->kernarg_address;
  switch (rocr_blit_kind(pkt->kernel_object)) {
  case 1: /* phase1_src_start, phase1_dst_start, ..., phase4_src_end at [8] */
    memmove((void *)(uintptr_t)a[1], (void *)(uintptr_t)a[0], a[8] - a[0]);
    return 1;
  case 2: /* phase1_src_start, phase1_dst_start, ..., phase2_src_end at [4] */
    memmove((void *)(uintptr_t)a[1], (void *)(uintptr_t)a[0], a[4] - a[0]);
    return 1;
  case 3: { /* phase1_dst_start, phase2_dst_start, phase2_dst_end, fill_value */
    uint32_t v = ((const uint32_t *)a)[6];
    for (uint32_t *p = (uint32_t *)(uintptr_t)a[0]; p < (uint32_t *)(uintptr_t)a[2]; p++) *p = v;
    return 1;
  }
  }
  return 0;
}

/* ---- ROCclr blit kernels ---- */

/* ROCclr 5.2.3 computes absurd sizes for some tiny unaligned fills (fixed
 * upstream later); a GPU would fault, we refuse and say so. */
static int in_bounds(const void *dst, uint64_t len) {
  if (sim_mem_valid(dst, len)) return 1;
  fprintf(stderr,
          "simgpu: emulated blit kernel would write %llu bytes at %p outside any "
          "allocation; skipped\n",
          (unsigned long long)len, dst);
  return 0;
}

#define ARG(type, off) (*(type *)((char *)pkt->kernarg_address + (off)))

/* ROCclr's fill kernels take four buffer arguments (uchar, ushort, uint,
 * ulong) of which exactly one is set: it is the target and chooses the
 * element size. */
static char *fill_target(const hsa_kernel_dispatch_packet_t *pkt, size_t *es) {
  static const size_t esize[4] = {1, 2, 4, 8};
  *es = 1;
  for (int i = 3; i >= 0; i--)
    if (ARG(char *, i * 8)) {
      *es = esize[i];
      return ARG(char *, i * 8);
    }
  return NULL;
}

/* (bufUChar, bufUShort, bufUInt, bufULong, pattern, uint patternSize,
 *  ulong offset, ulong size): exactly one buffer is set and chooses the
 * element size; offset and patternSize count elements; work-item i writes
 * the pattern at offset + i * patternSize. */
static void fill_buffer_aligned(const hsa_kernel_dispatch_packet_t *pkt) {
  size_t es;
  char *buf = fill_target(pkt, &es);
  const char *pattern = ARG(const char *, 32);
  uint64_t psize = ARG(uint32_t, 40) * es, offset = ARG(uint64_t, 48) * es;
  uint64_t count = ARG(uint64_t, 56);
  SIM_LOG("fillBufferAligned buf=%p elem=%zu pattern=%p psize=%llu offset=%llu count=%llu\n",
          (void *)buf, es, (const void *)pattern, (unsigned long long)psize,
          (unsigned long long)offset, (unsigned long long)count);
  if (!buf || !pattern) return;
  for (uint64_t i = 0; i < count; i++) memcpy(buf + offset + i * psize, pattern, psize);
}

/* (bufs x4, pattern, uint patternSize, ulong origin, ulong width, ulong height,
 *  ulong pitch): work-item (x, y) writes the pattern at origin + y*pitch + x. */
static void fill_buffer_aligned_2d(const hsa_kernel_dispatch_packet_t *pkt) {
  size_t es;
  char *buf = fill_target(pkt, &es);
  const char *pattern = ARG(const char *, 32);
  uint64_t psize = ARG(uint32_t, 40) * es, origin = ARG(uint64_t, 48);
  uint64_t width = ARG(uint64_t, 56), height = ARG(uint64_t, 64), pitch = ARG(uint64_t, 72);
  if (!buf || !pattern) return;
  for (uint64_t y = 0; y < height; y++)
    for (uint64_t x = 0; x < width; x++)
      memcpy(buf + (origin + y * pitch + x) * es, pattern, psize);
}

/* ROCclr >= 6.2: (void *buf, pattern, uint pattern_size, uint alignment,
 * ulong end_ptr, uint next_chunk). Elements are `alignment` bytes; work-item
 * i writes the pattern (pattern_size elements) at element i * pattern_size,
 * then every next_chunk elements further, while it starts below end_ptr. */
static void fill_buffer_aligned_62(const hsa_kernel_dispatch_packet_t *pkt) {
  char *buf = ARG(char *, 0);
  const char *pattern = ARG(const char *, 8);
  uint64_t align = ARG(uint32_t, 20), psize = ARG(uint32_t, 16) * align;
  uint64_t end = ARG(uint64_t, 24), step = ARG(uint32_t, 32) * align;
  SIM_LOG("fillBufferAligned buf=%p align=%llu psize=%llu end=%#llx step=%llu\n", (void *)buf,
          (unsigned long long)align, (unsigned long long)psize, (unsigned long long)end,
          (unsigned long long)step);
  if (!buf || !pattern || !psize || !step || end <= (uint64_t)(uintptr_t)buf) return;
  uint64_t len = end - (uint64_t)(uintptr_t)buf;
  if (!in_bounds(buf, len)) return;
  /* ROCclr makes end_ptr a whole number of patterns; a partial last one is
   * cut at end_ptr rather than written past it */
  for (uint64_t i = 0; i < pkt->grid_size_x; i++)
    for (uint64_t o = i * psize; o < len; o += step)
      memcpy(buf + o, pattern, len - o < psize ? len - o : psize);
}

/* (src, dst, ulong srcOrigin, ulong dstOrigin, ulong size, uint remain):
 * origins in bytes; remain == 8 means size bytes, else size - 1 dwords plus
 * remain bytes. */
static void copy_buffer(const hsa_kernel_dispatch_packet_t *pkt) {
  const char *src = ARG(const char *, 0) + ARG(uint64_t, 16);
  char *dst = ARG(char *, 8) + ARG(uint64_t, 24);
  uint64_t size = ARG(uint64_t, 32);
  uint32_t remain = ARG(uint32_t, 40);
  uint64_t bytes = remain == 8 ? size : (size ? (size - 1) * 4 + remain : 0);
  if (in_bounds(dst, bytes)) memmove(dst, src, bytes);
}

/* ROCclr >= 6.2: (src, dst, ulong size, uint remainder, uint aligned_size,
 * ulong end_ptr, uint next_chunk), src and dst already offset, size in
 * bytes. Work-item i copies element i (aligned_size bytes: 16, else 4) and
 * every next_chunk-th after it while it lies below end_ptr; work-item 0 then
 * copies the last `remainder` bytes. */
static void copy_buffer_62(const hsa_kernel_dispatch_packet_t *pkt) {
  const char *src = ARG(const char *, 0);
  char *dst = ARG(char *, 8);
  uint64_t size = ARG(uint64_t, 16), remainder = ARG(uint32_t, 24);
  uint64_t es = ARG(uint32_t, 28) == 16 ? 16 : 4, end = ARG(uint64_t, 32);
  uint64_t step = ARG(uint32_t, 40) * es;
  SIM_LOG("copyBuffer %p <- %p size=%llu end=%#llx\n", (void *)dst, (const void *)src,
          (unsigned long long)size, (unsigned long long)end);
  if (!dst || !src || remainder > size) return;
  uint64_t len = end > (uint64_t)(uintptr_t)dst ? end - (uint64_t)(uintptr_t)dst : 0;
  if (!in_bounds(dst, len > size ? len : size)) return;
  if (len && step)
    for (uint64_t i = 0; i < pkt->grid_size_x; i++)
      for (uint64_t o = i * es; o < len; o += step)
        memmove(dst + o, src + o, len - o < es ? len - o : es);
  memmove(dst + size - remainder, src + size - remainder, remainder);
}

/* (src, dst, ulong srcOrigin, ulong dstOrigin, ulong size, uint alignment):
 * origins and size count elements of 16 bytes (alignment 16) or 4. */
static void copy_buffer_aligned(const hsa_kernel_dispatch_packet_t *pkt) {
  uint64_t es = ARG(uint32_t, 40) == 16 ? 16 : 4;
  const char *src = ARG(const char *, 0) + ARG(uint64_t, 16) * es;
  char *dst = ARG(char *, 8) + ARG(uint64_t, 24) * es;
  if (in_bounds(dst, ARG(uint64_t, 32) * es)) memmove(dst, src, ARG(uint64_t, 32) * es);
}

/* (src, dst, ulong4 srcRect, ulong4 dstRect, ulong4 size): rect = {row pitch,
 * slice pitch, offset, -}, size = {x, y, z, element size for the aligned
 * variant}; all counts in elements. */
static void copy_buffer_rect(const hsa_kernel_dispatch_packet_t *pkt, int aligned) {
  const char *src = ARG(const char *, 0);
  char *dst = ARG(char *, 8);
  const uint64_t *sr = &ARG(uint64_t, 32), *dr = &ARG(uint64_t, 64), *sz = &ARG(uint64_t, 96);
  uint64_t es = aligned ? (sz[3] == 16 ? 16 : 4) : 1;
  for (uint64_t z = 0; z < sz[2]; z++)
    for (uint64_t y = 0; y < sz[1]; y++)
      memmove(dst + (dr[2] + y * dr[0] + z * dr[1]) * es,
              src + (sr[2] + y * sr[0] + z * sr[1]) * es, sz[0] * es);
}

static int rocclr_blit(const hsa_kernel_dispatch_packet_t *pkt, const char *name) {
  static const char prefix[] = "__amd_rocclr_";
  if (!name || strncmp(name, prefix, sizeof prefix - 1)) return 0;
  const char *k = name + sizeof prefix - 1;
  size_t n = strlen(k);
  if (n > 3 && !strcmp(k + n - 3, ".kd")) n -= 3;
#define IS(s) (n == sizeof(s) - 1 && !strncmp(k, s, n))
  int rel = sim_hip_release(), v62 = rel >= 602;
  if (rel >= 600 && rel < 602 && (IS("fillBufferAligned") || IS("copyBuffer"))) {
    SIM_LOG("ROCclr %d.%d kernel %s: argument layout not known\n", rel / 100, rel % 100, name);
    return 0;
  }
  if (IS("fillBufferAligned") && v62)
    fill_buffer_aligned_62(pkt);
  else if (IS("copyBuffer") && v62)
    copy_buffer_62(pkt);
  else if (IS("fillBufferAligned"))
    fill_buffer_aligned(pkt);
  else if (IS("fillBufferAligned2D"))
    fill_buffer_aligned_2d(pkt);
  else if (IS("copyBuffer"))
    copy_buffer(pkt);
  else if (IS("copyBufferAligned"))
    copy_buffer_aligned(pkt);
  else if (IS("copyBufferRect"))
    copy_buffer_rect(pkt, 0);
  else if (IS("copyBufferRectAligned"))
    copy_buffer_rect(pkt, 1);
  else {
    SIM_LOG("ROCclr kernel %s is not emulated\n", name);
    return 0;
  }
#undef IS
  return 1;
}

int sim_blit_emulate(const hsa_kernel_dispatch_packet_t *pkt, const char *name) {
  if (!pkt->kernarg_address) return 0;
  if (!name) return rocr_blit(pkt);
  return rocclr_blit(pkt, name);
}
