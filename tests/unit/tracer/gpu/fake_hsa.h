/* A stand-in for the HSA runtime under the GPU wing's unit tests
 * (fake_hsa.c): signals are amd_signal_t in plain memory, as the tracer
 * reads them; rtg_real holds the few functions the wing calls; the op's
 * record is caught instead of written. */
#ifndef RTG_TEST_FAKE_HSA_H
#define RTG_TEST_FAKE_HSA_H

#include "gpu/gpu_op.h"

#include <hsa/amd_hsa_signal.h>

/* Fill rtg_real with the stand-ins. */
void fake_hsa_install(void);
/* A signal of that value, with its start and end times. */
hsa_signal_t fake_signal_new(int64_t value);
amd_signal_t *fake_amd(hsa_signal_t s);
int64_t fake_value(hsa_signal_t s);
/* The hardware's decrement of a finished packet, with its times. */
void fake_hw_done(hsa_signal_t s, uint64_t start, uint64_t end);

/* What the stand-ins saw. */
typedef struct fake_log {
  int signals_live; /* created by the runtime's functions, not destroyed */
  int subtracts;    /* hsa_signal_subtract_screlease calls */
  int records;      /* rtg_op_record_done calls */
  const rtg_op *op; /* and the last one's op and times */
  uint64_t start, stop;
  bool times_fail; /* make the profiling calls fail */
  /* the profiling calls take a while; the most threads inside at once */
  bool times_slow;
  _Atomic int times_inside, times_max_inside;
} fake_log;
extern fake_log fake;
/* fake.records, as another thread (a waiter) left it */
int fake_records(void);

#endif
