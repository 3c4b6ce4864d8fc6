/* The HIP argument decoding (hip/hip_args.c) as the two threads use it:
 * the application's thread copies a call's argument union with its outputs
 * read through the caller's pointers (rtg_hip_args_capture), the writer
 * makes the text from the copy alone (rtg_hip_args_format_dec).  The
 * unions are laid out here as HIP's hip_api_data_t lays them out. */
#include "check.h"
#include "hip/hip_internal.h"

#include <stdint.h>

typedef struct dim3 {
  uint32_t x, y, z;
} dim3;

/* capture args of function name, then format the copy */
static const char *text(const char *name, const void *args, char *buf, size_t cap) {
  unsigned dec = rtg_hip_args_find(name);
  unsigned char image[256];
  size_t n = rtg_hip_args_capture(dec, args, image, sizeof image);
  rtg_hip_args_format_dec(buf, cap, dec, image, n);
  return buf;
}

int main(void) {
  char buf[512];

  /* an output pointer: its value when captured, not when formatted */
  void *p = (void *)(uintptr_t)0x7f0012340000ull;
  struct {
    void **ptr;
    void *ptr__val;
    size_t size;
  } malloc_args = {&p, NULL, 4096};
  unsigned dec = rtg_hip_args_find("hipMalloc");
  CHECK(dec != 0);
  unsigned char image[256];
  size_t n = rtg_hip_args_capture(dec, &malloc_args, image, sizeof image);
  CHECK_U64(n, 24);
  p = NULL;
  rtg_hip_args_format_dec(buf, sizeof buf, dec, image, n);
  CHECK_STR(buf, "ptr=0x7f0012340000, size=4096");
  /* no output pointer given; a null pointer is 0 */
  malloc_args.ptr = NULL;
  CHECK_STR(text("hipMalloc", &malloc_args, buf, sizeof buf), "ptr=NULL, size=4096");
  struct {
    void *ptr;
  } free_args = {NULL};
  CHECK_STR(text("hipFree", &free_args, buf, sizeof buf), "ptr=0");
  /* the per-thread variants decode as their function */
  CHECK_U64(rtg_hip_args_find("hipFree_spt"), rtg_hip_args_find("hipFree"));
  CHECK_U64(rtg_hip_args_find("hipNoSuchCall"), 0);

  /* a float output in ms with three decimals; events */
  float ms = 1.5f;
  struct {
    float *ms;
    float ms__val;
    void *start, *stop;
  } elapsed = {&ms, 0, (void *)0x10, (void *)0xabc};
  CHECK_STR(text("hipEventElapsedTime", &elapsed, buf, sizeof buf),
            "ms=1.500, start=0x10, stop=0xabc");
  ms = -0.25f;
  CHECK_STR(text("hipEventElapsedTime", &elapsed, buf, sizeof buf),
            "ms=-0.250, start=0x10, stop=0xabc");
  int count = -3;
  struct {
    int *count;
    int count__val;
  } count_args = {&count, 0};
  CHECK_STR(text("hipGetDeviceCount", &count_args, buf, sizeof buf), "count=-3");

  /* copy kinds by name, an unknown one as its number */
  struct {
    void *dst;
    const void *src;
    size_t size;
    uint32_t kind;
  } copy = {(void *)0x1000, (void *)0x2000, 65536, 1};
  CHECK_STR(text("hipMemcpy", &copy, buf, sizeof buf),
            "dst=0x1000, src=0x2000, size=65536, kind=HostToDevice");
  copy.kind = 9;
  CHECK_STR(text("hipMemcpy", &copy, buf, sizeof buf),
            "dst=0x1000, src=0x2000, size=65536, kind=9");

  /* small integers, signed and not */
  struct {
    void *dst;
    unsigned char value;
    size_t count;
    void *stream;
  } d8 = {(void *)0x30, 255, 7, NULL};
  CHECK_STR(text("hipMemsetD8Async", &d8, buf, sizeof buf),
            "dst=0x30, value=255, count=7, stream=0");
  struct {
    int device;
  } dev = {-1};
  CHECK_STR(text("hipSetDevice", &dev, buf, sizeof buf), "device=-1");

  /* a launch: dim3s, the kernel arguments not shown */
  struct {
    const void *func;
    dim3 grid, block;
    void **args;
    void *args__val;
    size_t shmem;
    void *stream;
  } launch = {(void *)0x400, {64, 2, 1}, {256, 1, 1}, NULL, NULL, 0, (void *)0x99};
  CHECK_STR(text("hipLaunchKernel", &launch, buf, sizeof buf),
            "func=0x400, grid={64,2,1}, block={256,1,1}, shmem=0, stream=0x99");
  CHECK(rtg_hip_args_is_launch(rtg_hip_args_find("hipLaunchKernel")));
  CHECK(!rtg_hip_args_is_launch(rtg_hip_args_find("hipMemcpy")));

  /* no arguments; a text cut at the buffer's end; a short copy stops */
  CHECK_STR(text("hipDeviceSynchronize", NULL, buf, sizeof buf), "");
  CHECK_STR(text("hipMemcpy", &copy, buf, 12), "dst=0x1000,");
  dec = rtg_hip_args_find("hipMemcpy");
  n = rtg_hip_args_capture(dec, &copy, image, sizeof image);
  rtg_hip_args_format_dec(buf, sizeof buf, dec, image, 16);
  CHECK_STR(buf, "dst=0x1000, src=0x2000");
  CHECK_U64(rtg_hip_args_capture(dec, &copy, image, 8), 0); /* does not fit */
  return check_done("test_hip_args");
}
