/* Tables keyed by a signal handle (handle_table.h). */
#include "handle_table.h"

void rtg_handle_table_reset(rtg_handle_table *t) {
  for (int i = 0; i < RTG_HANDLE_BUCKETS; i++) {
    pthread_mutex_init(&t->buckets[i].mu, NULL);
    t->buckets[i].head = NULL;
  }
}
