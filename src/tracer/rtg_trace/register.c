/* rtg_register.so: the tool library rocprofiler-register calls on ROCm
 * 6.2+ (LD_PRELOAD and ROCPROFILER_REGISTER_LIBRARY point here; rtg-trace
 * --hip-table sets both).
 *
 * HIP and roctx hand their dispatch tables to rocprofiler-register at their
 * first call, which looks up `rocprofiler_set_api_table` in the preloaded
 * tool and calls it at once -- before hsa_init has loaded rtg_tracer.so
 * (HSA_TOOLS_LIB), whose settings and output are not ready then and whose
 * exports are only the HSA entry points.  So this library just keeps what
 * it is given; rtg_tracer.so calls rtg_register_attach() at its init, gets
 * every table kept so far, and every later one as it arrives.  The tables
 * are HIP's own live objects: pointers the tracer replaces later still take
 * effect for every later call. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
#define MAX_REGS 16  /* hsa, hip, hip_compiler, roctx: a few instances each */
#define MAX_TABLES 8 /* tables per registration (roctx: 3) */

typedef int (*set_api_table_fn)(const char *name, uint64_t lib_version, uint64_t lib_instance,
                                void **tables, uint64_t num_tables);

typedef struct reg {
  char name[32];
  uint64_t version, instance, n;
  void *tables[MAX_TABLES]; /* the array itself lives on the caller's stack */
} reg;

static reg regs[MAX_REGS];
static int nregs;
static set_api_table_fn handler;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void deliver(set_api_table_fn h, reg *r) {
  h(r->name, r->version, r->instance, r->tables, r->n);
}

/* rocprofiler-register's contract: 0 = accepted (nonzero is reported to
 * the library as a tool error). */
EXPORT int rocprofiler_set_api_table(const char *name, uint64_t lib_version, uint64_t lib_instance,
                                     void **tables, uint64_t num_tables) {
  if (!name || !tables || !num_tables) return 0;
  pthread_mutex_lock(&lock);
  if (nregs < MAX_REGS) {
    reg *r = &regs[nregs++];
    size_t len = strlen(name);
    if (len >= sizeof r->name) len = sizeof r->name - 1;
    memcpy(r->name, name, len);
    r->name[len] = 0;
    r->version = lib_version;
    r->instance = lib_instance;
    r->n = num_tables < MAX_TABLES ? num_tables : MAX_TABLES;
    memcpy(r->tables, tables, r->n * sizeof *tables);
    /* under the lock, so a concurrent attach neither misses nor repeats it */
    if (handler) deliver(handler, r);
  }
  pthread_mutex_unlock(&lock);
  return 0;
}

EXPORT void rtg_register_attach(set_api_table_fn h) {
  pthread_mutex_lock(&lock);
  handler = h;
  for (int i = 0; i < nregs; i++) deliver(h, &regs[i]);
  pthread_mutex_unlock(&lock);
}
