/* The tracer's core with its HIP and ROCTx wings, without the HSA side
 * (tracer_core.c): what OnLoad and process exit do for them, for the ABI
 * tests, which load no HSA runtime. */
#ifndef RTG_TEST_TRACER_CORE_H
#define RTG_TEST_TRACER_CORE_H

void rtg_test_tracer_start(void);
void rtg_test_tracer_stop(void);

#endif
