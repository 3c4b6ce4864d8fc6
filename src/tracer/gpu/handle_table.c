/* Tables keyed by a signal handle (handle_table.h). */
#include "handle_table.h"

void rtg_handle_table_reset(rtg_handle_table *t) {
  for (int i = 0; i < RTG_HANDLE_BUCKETS; i++) {
    rtg_spin_init(&t->buckets[i].mu);
    t->buckets[i].head = NULL;
    t->buckets[i].spare = NULL; /* (a fork child's: the parent's, left) */
    t->buckets[i].serial = 0;
  }
}
