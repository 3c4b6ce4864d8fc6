/* HIP called only through pointers from dlsym, as frameworks that load HIP
 * themselves do: taken before the first call (before the runtime loads the
 * tracer: "early") or after it ("late").  Plain C, HIP never linked:
 *   tp_dlsym_hip early|late
 * Allocates, sets and reads back 4 KiB, twice, and says whether the bytes
 * came back. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*set_device_fn)(int);
typedef int (*malloc_fn)(void **, size_t);
typedef int (*memset_fn)(void *, int, size_t);
typedef int (*sync_fn)(void);
typedef int (*memcpy_fn)(void *, const void *, size_t, int);
typedef int (*free_fn)(void *);

static set_device_fn set_device;
static malloc_fn hmalloc;
static memset_fn hmemset;
static sync_fn hsync;
static memcpy_fn hmemcpy;
static free_fn hfree;

static void *hip;

static void *must(const char *name) {
  void *p = dlsym(hip, name);
  if (!p) fprintf(stderr, "tp_dlsym_hip: no %s: %s\n", name, dlerror());
  return p;
}

static void resolve_rest(void) {
  *(void **)&hmalloc = must("hipMalloc");
  *(void **)&hmemset = must("hipMemset");
  *(void **)&hsync = must("hipDeviceSynchronize");
  *(void **)&hmemcpy = must("hipMemcpy");
  *(void **)&hfree = must("hipFree");
}

/* 4 KiB set to v on the GPU and read back: 0 when every byte is v. */
static int round_trip(int v) {
  void *d = NULL;
  unsigned char h[4096];
  memset(h, 0, sizeof h);
  if (hmalloc(&d, sizeof h) || hmemset(d, v, sizeof h) || hsync() ||
      hmemcpy(h, d, sizeof h, 2 /* hipMemcpyDeviceToHost */) || hfree(d))
    return 1;
  for (size_t i = 0; i < sizeof h; i++)
    if (h[i] != (unsigned char)v) return 1;
  return 0;
}

int main(int argc, char **argv) {
  int late = argc > 1 && !strcmp(argv[1], "late");
  static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
                                      "libamdhip64.so.5", NULL};
  for (int i = 0; names[i] && !hip; i++) hip = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!hip) {
    fprintf(stderr, "tp_dlsym_hip: no HIP runtime\n");
    return 2;
  }
  *(void **)&set_device = must("hipSetDevice");
  if (!late) resolve_rest();
  if (!set_device || set_device(0)) return 1; /* the runtime loads the tracer here */
  if (late) resolve_rest();
  if (!hmalloc || !hmemset || !hsync || !hmemcpy || !hfree) return 1;
  int bad = round_trip(7) + round_trip(9);
  printf("tp_dlsym_hip %s: %s\n", late ? "late" : "early", bad ? "wrong bytes" : "result ok");
  return bad != 0;
}
