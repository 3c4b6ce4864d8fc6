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
 *    striding by next_chunk); hip_release.c says which layout applies.
 * Pointers in kernel arguments are GPU addresses: copies go through vm.c,
 * and code that indexes a buffer as an array gets a view of it. */
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

/* Writes v to every dword of [dst, end). */
static void fill_dwords(uint64_t dst, uint64_t end, uint32_t v) {
  sim_view_t view;
  uint64_t n = end > dst ? (end - dst) / 4 : 0;
  uint32_t *d = (uint32_t *)sim_view_open(&view, dst, n * 4);
  if (!d) return;
  for (uint64_t i = 0; i < n; i++) d[i] = v;
  sim_view_close(&view, 1);
}

static int rocr_blit(const hsa_kernel_dispatch_packet_t *pkt) {
  const uint64_t *a = pkt->kernarg_address;
  switch (rocr_blit_kind(pkt->kernel_object)) {
  case 1: /* phase1_src_start, phase1_dst_start, ..., phase4_src_end at [8] */
    sim_vm_copy(a[1], a[0], a[8] - a[0]);
    return 1;
  case 2: /* phase1_src_start, phase1_dst_start, ..., phase2_src_end at [4] */
    sim_vm_copy(a[1], a[0], a[4] - a[0]);
    return 1;
  case 3: /* phase1_dst_start, phase2_dst_start, phase2_dst_end, fill_value */
    fill_dwords(a[0], a[2], ((const uint32_t *)a)[6]);
    return 1;
  }
  return 0;
}

/* ---- ROCclr blit kernels ---- */

/* ROCclr 5.2.3 computes absurd sizes for some tiny unaligned fills (fixed
 * upstream later); a GPU would fault, we refuse and say so. */
static int in_bounds(uint64_t dst, uint64_t len) {
  if (sim_mem_valid((const void *)(uintptr_t)dst, len)) return 1;
  fprintf(stderr,
          "simgpu: emulated blit kernel would write %llu bytes at %#llx outside any "
          "allocation; skipped\n",
          (unsigned long long)len, (unsigned long long)dst);
  return 0;
}

#define ARG(type, off) (*(type *)((char *)pkt->kernarg_address + (off)))

/* ROCclr's fill kernels take four buffer arguments (uchar, ushort, uint,
 * ulong) of which exactly one is set: it is the target and chooses the
 * element size. */
static uint64_t fill_target(const hsa_kernel_dispatch_packet_t *pkt, size_t *es) {
  static const size_t esize[4] = {1, 2, 4, 8};
  *es = 1;
  for (int i = 3; i >= 0; i--)
    if (ARG(uint64_t, i * 8)) {
      *es = esize[i];
      return ARG(uint64_t, i * 8);
    }
  return 0;
}

/* Writes `count` patterns of psize bytes, the i-th at d + i * stride. */
static void put_patterns(char *d, const char *pattern, uint64_t psize, uint64_t count,
                         uint64_t stride) {
  for (uint64_t i = 0; i < count; i++) memcpy(d + i * stride, pattern, psize);
}

/* (bufUChar, bufUShort, bufUInt, bufULong, pattern, uint patternSize,
 *  ulong offset, ulong size): exactly one buffer is set and chooses the
 * element size; offset and patternSize count elements; work-item i writes
 * the pattern at offset + i * patternSize. */
static void fill_buffer_aligned(const hsa_kernel_dispatch_packet_t *pkt) {
  size_t es;
  uint64_t buf = fill_target(pkt, &es), pva = ARG(uint64_t, 32);
  uint64_t psize = ARG(uint32_t, 40) * es, offset = ARG(uint64_t, 48) * es;
  uint64_t count = ARG(uint64_t, 56);
  SIM_LOG("fillBufferAligned buf=%#llx elem=%zu pattern=%#llx psize=%llu offset=%llu count=%llu\n",
          (unsigned long long)buf, es, (unsigned long long)pva, (unsigned long long)psize,
          (unsigned long long)offset, (unsigned long long)count);
  sim_view_t pv, v;
  const char *pattern;
  char *d;
  if (!buf || !pva || !(pattern = sim_view_open(&pv, pva, psize))) return;
  if ((d = sim_view_open(&v, buf + offset, count * psize))) {
    put_patterns(d, pattern, psize, count, psize);
    sim_view_close(&v, 1);
  }
  sim_view_close(&pv, 0);
}

/* (bufs x4, pattern, uint patternSize, ulong origin, ulong width, ulong height,
 *  ulong pitch): work-item (x, y) writes the pattern at origin + y*pitch + x. */
static void fill_buffer_aligned_2d(const hsa_kernel_dispatch_packet_t *pkt) {
  size_t es;
  uint64_t buf = fill_target(pkt, &es), pva = ARG(uint64_t, 32);
  uint64_t psize = ARG(uint32_t, 40) * es, origin = ARG(uint64_t, 48);
  uint64_t width = ARG(uint64_t, 56), height = ARG(uint64_t, 64), pitch = ARG(uint64_t, 72);
  if (!buf || !pva || !width || !height) return;
  /* the bytes the work-items write, from the first one's to the last's end */
  uint64_t len = ((height - 1) * pitch + width - 1) * es + psize;
  sim_view_t pv, v;
  const char *pattern;
  char *d;
  if (!(pattern = sim_view_open(&pv, pva, psize))) return;
  if ((d = sim_view_open(&v, buf + origin * es, len))) {
    for (uint64_t y = 0; y < height; y++)
      put_patterns(d + y * pitch * es, pattern, psize, width, es);
    sim_view_close(&v, 1);
  }
  sim_view_close(&pv, 0);
}

/* The pattern of fill_buffer_aligned_62, every `step` bytes from each
 * work-item's start, cut at len. */
static void fill_strided(char *d, uint64_t len, const char *pattern, uint64_t psize, uint64_t step,
                         uint64_t items) {
  for (uint64_t i = 0; i < items; i++)
    for (uint64_t o = i * psize; o < len; o += step)
      memcpy(d + o, pattern, len - o < psize ? len - o : psize);
}

/* ROCclr >= 6.2: (void *buf, pattern, uint pattern_size, uint alignment,
 * ulong end_ptr, uint next_chunk). Elements are `alignment` bytes; work-item
 * i writes the pattern (pattern_size elements) at element i * pattern_size,
 * then every next_chunk elements further, while it starts below end_ptr.
 * ROCclr makes end_ptr a whole number of patterns; a partial last one is
 * cut at end_ptr rather than written past it. */
static void fill_buffer_aligned_62(const hsa_kernel_dispatch_packet_t *pkt) {
  uint64_t buf = ARG(uint64_t, 0), pva = ARG(uint64_t, 8);
  uint64_t align = ARG(uint32_t, 20), psize = ARG(uint32_t, 16) * align;
  uint64_t end = ARG(uint64_t, 24), step = ARG(uint32_t, 32) * align;
  SIM_LOG("fillBufferAligned buf=%#llx align=%llu psize=%llu end=%#llx step=%llu\n",
          (unsigned long long)buf, (unsigned long long)align, (unsigned long long)psize,
          (unsigned long long)end, (unsigned long long)step);
  if (!buf || !pva || !psize || !step || end <= buf || !in_bounds(buf, end - buf)) return;
  sim_view_t pv, v;
  const char *pattern;
  char *d;
  if (!(pattern = sim_view_open(&pv, pva, psize))) return;
  if ((d = sim_view_open(&v, buf, end - buf))) {
    fill_strided(d, end - buf, pattern, psize, step, pkt->grid_size_x);
    sim_view_close(&v, 1);
  }
  sim_view_close(&pv, 0);
}

/* (src, dst, ulong srcOrigin, ulong dstOrigin, ulong size, uint remain):
 * origins in bytes; remain == 8 means size bytes, else size - 1 dwords plus
 * remain bytes. */
static void copy_buffer(const hsa_kernel_dispatch_packet_t *pkt) {
  uint64_t src = ARG(uint64_t, 0) + ARG(uint64_t, 16);
  uint64_t dst = ARG(uint64_t, 8) + ARG(uint64_t, 24);
  uint64_t size = ARG(uint64_t, 32);
  uint32_t remain = ARG(uint32_t, 40);
  uint64_t bytes = remain == 8 ? size : (size ? (size - 1) * 4 + remain : 0);
  if (in_bounds(dst, bytes)) sim_vm_copy(dst, src, bytes);
}

/* ROCclr >= 6.2: (src, dst, ulong size, uint remainder, uint aligned_size,
 * ulong end_ptr, uint next_chunk), src and dst already offset, size in
 * bytes. Work-item i copies element i (aligned_size bytes: 16, else 4) and
 * every next_chunk-th after it while it lies below end_ptr; work-item 0 then
 * copies the last `remainder` bytes. */
static void copy_buffer_62(const hsa_kernel_dispatch_packet_t *pkt) {
  uint64_t src = ARG(uint64_t, 0), dst = ARG(uint64_t, 8);
  uint64_t size = ARG(uint64_t, 16), remainder = ARG(uint32_t, 24);
  uint64_t es = ARG(uint32_t, 28) == 16 ? 16 : 4, end = ARG(uint64_t, 32);
  uint64_t step = ARG(uint32_t, 40) * es;
  SIM_LOG("copyBuffer %#llx <- %#llx size=%llu end=%#llx\n", (unsigned long long)dst,
          (unsigned long long)src, (unsigned long long)size, (unsigned long long)end);
  if (!dst || !src || remainder > size) return;
  uint64_t len = end > dst ? end - dst : 0, span = len > size ? len : size;
  sim_view_t sv, dv;
  const char *s;
  char *d;
  if (!in_bounds(dst, span) || !(s = sim_view_open(&sv, src, span))) return;
  if ((d = sim_view_open(&dv, dst, span))) {
    if (len && step)
      for (uint64_t i = 0; i < pkt->grid_size_x; i++)
        for (uint64_t o = i * es; o < len; o += step)
          memmove(d + o, s + o, len - o < es ? len - o : es);
    memmove(d + size - remainder, s + size - remainder, remainder);
    sim_view_close(&dv, 1);
  }
  sim_view_close(&sv, 0);
}

/* (src, dst, ulong srcOrigin, ulong dstOrigin, ulong size, uint alignment):
 * origins and size count elements of 16 bytes (alignment 16) or 4. */
static void copy_buffer_aligned(const hsa_kernel_dispatch_packet_t *pkt) {
  uint64_t es = ARG(uint32_t, 40) == 16 ? 16 : 4;
  uint64_t src = ARG(uint64_t, 0) + ARG(uint64_t, 16) * es;
  uint64_t dst = ARG(uint64_t, 8) + ARG(uint64_t, 24) * es;
  if (in_bounds(dst, ARG(uint64_t, 32) * es)) sim_vm_copy(dst, src, ARG(uint64_t, 32) * es);
}

/* (src, dst, ulong4 srcRect, ulong4 dstRect, ulong4 size): rect = {row pitch,
 * slice pitch, offset, -}, size = {x, y, z, element size for the aligned
 * variant}; all counts in elements. */
static void copy_buffer_rect(const hsa_kernel_dispatch_packet_t *pkt, int aligned) {
  uint64_t src = ARG(uint64_t, 0), dst = ARG(uint64_t, 8);
  const uint64_t *sr = &ARG(uint64_t, 32), *dr = &ARG(uint64_t, 64), *sz = &ARG(uint64_t, 96);
  uint64_t es = aligned ? (sz[3] == 16 ? 16 : 4) : 1;
  for (uint64_t z = 0; z < sz[2]; z++)
    for (uint64_t y = 0; y < sz[1]; y++)
      sim_vm_copy(dst + (dr[2] + y * dr[0] + z * dr[1]) * es,
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
