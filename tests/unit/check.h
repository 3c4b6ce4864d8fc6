/* A minimal test harness for the unit-test programs: CHECK records a
 * failure with file:line and goes on; check_done() prints the counts and
 * gives the exit status. */
#ifndef RTG_TEST_CHECK_H
#define RTG_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    check_count++;                                                                                 \
    if (!(cond)) {                                                                                 \
      check_failures++;                                                                            \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                     \
    }                                                                                              \
  } while (0)

#define CHECK_STR(a, b)                                                                            \
  do {                                                                                             \
    const char *a_ = (a), *b_ = (b);                                                               \
    check_count++;                                                                                 \
    if (!a_ || !b_ || strcmp(a_, b_)) {                                                            \
      check_failures++;                                                                            \
      fprintf(stderr, "%s:%d: CHECK_STR failed: %s == %s\n  got:      '%s'\n  expected: '%s'\n",   \
              __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");                 \
    }                                                                                              \
  } while (0)

#define CHECK_U64(a, b)                                                                            \
  do {                                                                                             \
    unsigned long long a_ = (a), b_ = (b);                                                         \
    check_count++;                                                                                 \
    if (a_ != b_) {                                                                                \
      check_failures++;                                                                            \
      fprintf(stderr, "%s:%d: CHECK_U64 failed: %s == %s (%llu != %llu)\n", __FILE__, __LINE__,    \
              #a, #b, a_, b_);                                                                     \
    }                                                                                              \
  } while (0)

static inline int check_done(const char *name) {
  printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
  return check_failures ? 1 : 0;
}

#endif
