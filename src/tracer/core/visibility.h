/* Everything the tracer's files share stays inside rtg_tracer.so: only
 * OnLoad/OnUnload are exported (exports.map). */
#ifndef RTG_VISIBILITY_H
#define RTG_VISIBILITY_H

#define RTG_HIDDEN __attribute__((visibility("hidden")))

#endif
