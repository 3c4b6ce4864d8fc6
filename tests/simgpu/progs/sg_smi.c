/* sg_smi: ROCm SMI (rocm_smi_lib, which rocBLAS asks for the device of a
 * HIP PCI address) enumerates the simulated GPUs from the host view: DRM
 * cards whose PCI directory names the bus address, matched to KFD topology
 * nodes by unique_id. Prints each device's vendor, device id, PCI address
 * and unique id. The library is looked up at run time; where no release of
 * it is installed the program says SKIP and exits 77. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

typedef int (*init_fn)(uint64_t flags);
typedef int (*count_fn)(uint32_t *n);
typedef int (*u16_fn)(uint32_t dv, uint16_t *v);
typedef int (*u64_fn)(uint32_t dv, uint64_t *v);

static void *open_rsmi(void) {
  static const char *const names[] = {"librocm_smi64.so.7", "librocm_smi64.so.1",
                                      "librocm_smi64.so"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    void *h = dlopen(names[i], RTLD_NOW);
    if (h) return h;
  }
  return NULL;
}

/* rsmi_dev_pci_id_get's BDFID: domain << 32 | bus << 8 | device << 3 | function. */
static void print_device(void *h, uint32_t dv) {
  u16_fn vendor = (u16_fn)dlsym(h, "rsmi_dev_vendor_id_get");
  u16_fn id = (u16_fn)dlsym(h, "rsmi_dev_id_get");
  u64_fn pci = (u64_fn)dlsym(h, "rsmi_dev_pci_id_get");
  u64_fn uid = (u64_fn)dlsym(h, "rsmi_dev_unique_id_get");
  uint16_t v = 0, d = 0;
  uint64_t b = 0, u = 0;
  int rv = vendor(dv, &v), rd = id(dv, &d), rb = pci(dv, &b), ru = uid(dv, &u);
  printf(
      "device %u: vendor %#x (%d) id %#x (%d) pci %04llx:%02llx:%02llx.%llx (%d) unique_id %#llx "
      "(%d)\n",
      dv, v, rv, d, rd, (unsigned long long)(b >> 32), (unsigned long long)((b >> 8) & 0xff),
      (unsigned long long)((b >> 3) & 0x1f), (unsigned long long)(b & 7), rb, (unsigned long long)u,
      ru);
}

int main(void) {
  void *h = open_rsmi();
  if (!h) {
    printf("SKIP: no librocm_smi64 installed\n");
    return 77;
  }
  init_fn init = (init_fn)dlsym(h, "rsmi_init");
  count_fn count = (count_fn)dlsym(h, "rsmi_num_monitor_devices");
  int (*shut_down)(void) = (int (*)(void))dlsym(h, "rsmi_shut_down");
  if (!init || !count || !shut_down || !dlsym(h, "rsmi_dev_unique_id_get")) {
    printf("SKIP: librocm_smi64 lacks the calls used\n");
    return 77;
  }
  int r = init(0);
  printf("rsmi_init: %d\n", r);
  uint32_t n = 0;
  if (!r) r = count(&n);
  printf("devices: %u (%d)\n", n, r);
  for (uint32_t dv = 0; dv < n; dv++) print_device(h, dv);
  shut_down();
  return r ? 1 : 0;
}
