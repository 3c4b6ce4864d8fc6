/* got_hook.c: send the calls every loaded object makes to some libc
 * functions to wrappers here, by rewriting their GOT slots. */
#ifndef RTG_GOT_HOOK_H
#define RTG_GOT_HOOK_H

#include "core/tracer.h"

typedef struct rtg_got_hook {
  const char *name; /* the dynamic symbol, e.g. "execve" */
  void *wrapper;
} rtg_got_hook;

/* Patch every object loaded now (except this library); hooks must stay
 * valid for good.  Returns the number of slots written (0 off x86-64 and
 * aarch64). */
RTG_HIDDEN int rtg_got_install(const rtg_got_hook *hooks, int n);

/* A second kind of hook, chosen by name: match(name) gives the wrapper for
 * an imported name, or NULL to leave it.  Every object loaded now and later
 * is patched, except the one holding skip (the library whose functions
 * these are: its calls among themselves stay its own).  match runs with the
 * loader's lock held: no dlsym, dlopen or malloc there.  Up to four
 * matchers (one per wing) patch side by side; the first that answers for
 * a name wins; installing the same match again replaces its skip. */
RTG_HIDDEN int rtg_got_install_matching(void *(*match)(const char *name), const void *skip);

/* A third kind: hooks for one library's calls only, now and in objects
 * loaded later, the objects whose file name (its last component) starts
 * with prefix, e.g. "libamdhip64.so"; hooks and prefix must stay valid for
 * good.  Up to two such sets. */
RTG_HIDDEN int rtg_got_install_in(const char *prefix, const rtg_got_hook *hooks, int n);

/* Patch objects loaded since; cheap when none was (writer thread). */
RTG_HIDDEN void rtg_got_rescan(void);

/* Fork child: the lock may have been held by a thread the child lacks. */
RTG_HIDDEN void rtg_got_after_fork(void);

#endif
