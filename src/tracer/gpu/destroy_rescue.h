/* The rescue of a queue destroy that lost its wakeup (destroy_rescue.c). */
#ifndef RTG_DESTROY_RESCUE_H
#define RTG_DESTROY_RESCUE_H

#include "core/visibility.h"

struct hsa_queue_s; /* hsa_queue_t (no hsa.h here: its HSA_API macro would
                       empty a member's name in rtg/record.h after it) */

/* Around the runtime's hsa_queue_destroy: begin returns a slot (-1: not
 * watched), end takes it back. */
RTG_HIDDEN int rtg_destroy_rescue_begin(const struct hsa_queue_s *queue);
RTG_HIDDEN void rtg_destroy_rescue_end(int slot);
/* Fork child: the parent's destroys in flight are not the child's. */
RTG_HIDDEN void rtg_destroy_rescue_after_fork(void);

#endif
