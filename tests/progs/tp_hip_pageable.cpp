// tp_hip_pageable: host memory the GPU reaches at a GPU address of its own.
// A hipMemcpy of 2 MiB or more of pageable memory makes ROCclr pin the
// program's buffer (hsa_amd_memory_lock) and copy through that mapping;
// hipHostRegister gives a device pointer to the program's memory. The
// simulated GPU's thunk front end (ROCR <= 6.2) maps both at an address of
// its own, not at the CPU address, so the simulated copy engine and blit
// kernels must translate it; ROCR's built-in thunk (>= 6.3) registers them
// through KFD's SVM API at the CPU address. Copies 8 MiB (plus 3 bytes, from an unaligned start) of
// pageable memory both ways, then copies and a memset through the device
// pointer of registered memory, and checks every byte.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/hip_check.h"

static unsigned char pattern(size_t i) {
  return (unsigned char)(i * 131 + (i >> 12) + 7);
}

// The first offset where buf differs from the pattern (or from `value` when
// it is >= 0), or n when none does.
static size_t first_bad(const unsigned char *buf, size_t n, int value) {
  for (size_t i = 0; i < n; i++)
    if (buf[i] != (value >= 0 ? (unsigned char)value : pattern(i))) return i;
  return n;
}

static void report(const char *what, const unsigned char *buf, size_t n, int value) {
  size_t bad = first_bad(buf, n, value);
  if (bad == n)
    printf("%s: ok\n", what);
  else
    printf("%s: byte %zu differs\n", what, bad);
}

// Pageable memory, both ways: host -> device -> another host buffer.
static void pageable_round_trip(size_t n) {
  unsigned char *src_mem = (unsigned char *)malloc(n + 64),
                *dst_mem = (unsigned char *)malloc(n + 64);
  unsigned char *src = src_mem + 5, *dst = dst_mem + 3, *dev;
  if (!src_mem || !dst_mem) exit(1);
  for (size_t i = 0; i < n; i++) src[i] = pattern(i);
  memset(dst, 0, n);
  CK(hipMalloc(&dev, n));
  CK(hipMemcpy(dev, src, n, hipMemcpyHostToDevice));
  CK(hipMemcpy(dst, dev, n, hipMemcpyDeviceToHost));
  report("pageable 8 MiB H2D then D2H", dst, n, -1);
  CK(hipFree(dev));
  free(src_mem);
  free(dst_mem);
}

// Registered memory through its device pointer: a device-to-device copy
// into it and out of it, and a memset of it.
static void registered(size_t n) {
  unsigned char *reg = (unsigned char *)aligned_alloc(4096, n), *dev, *dptr, *back;
  back = (unsigned char *)malloc(n);
  if (!reg || !back) exit(1);
  for (size_t i = 0; i < n; i++) back[i] = pattern(i);
  memset(reg, 0, n);
  CK(hipMalloc(&dev, n));
  CK(hipMemcpy(dev, back, n, hipMemcpyHostToDevice));
  CK(hipHostRegister(reg, n, hipHostRegisterDefault));
  CK(hipHostGetDevicePointer((void **)&dptr, reg, 0));
  CK(hipMemcpy(dptr, dev, n, hipMemcpyDeviceToDevice));
  report("device to registered memory", reg, n, -1);
  CK(hipMemset(dev, 0, n));
  CK(hipMemcpy(dev, dptr, n, hipMemcpyDeviceToDevice));
  memset(back, 0, n);
  CK(hipMemcpy(back, dev, n, hipMemcpyDeviceToHost));
  report("registered memory to device", back, n, -1);
  CK(hipMemset(dptr, 0x5a, n));
  CK(hipDeviceSynchronize());
  report("hipMemset of registered memory", reg, n, 0x5a);
  CK(hipHostUnregister(reg));
  CK(hipFree(dev));
  free(reg);
  free(back);
}

int main() {
  pageable_round_trip((8u << 20) + 3);
  registered(4u << 20);
  return 0;
}
