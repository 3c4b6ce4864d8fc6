/* Checking an API filter against the release's functions (filter_check.h).
 * The closest names are those with the fewest edits (insertion, deletion,
 * substitution; a letter in the other case counts as half an edit) between
 * the token and a part of the name, as the filter matches parts; a keyword
 * must be matched whole, and one that differs only in case comes first. */
#include "filter_check.h"

#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { TOKEN_MAX = 128, NAME_MAX_LEN = 128, SHOWN = 3 };

/* Edits (in halves) from t[0..m) to s, or to a part of s when part. */
static unsigned distance(const char *t, size_t m, const char *s, bool part) {
  size_t n = strnlen(s, NAME_MAX_LEN);
  unsigned row[NAME_MAX_LEN + 1], next[NAME_MAX_LEN + 1];
  for (size_t j = 0; j <= n; j++) row[j] = part ? 0 : 2 * (unsigned)j;
  for (size_t i = 1; i <= m; i++) {
    next[0] = 2 * (unsigned)i;
    for (size_t j = 1; j <= n; j++) {
      char a = t[i - 1], b = s[j - 1];
      unsigned sub = a == b ? 0 : tolower((unsigned char)a) == tolower((unsigned char)b) ? 1 : 2;
      unsigned best = row[j - 1] + sub;
      if (row[j] + 2 < best) best = row[j] + 2;
      if (next[j - 1] + 2 < best) best = next[j - 1] + 2;
      next[j] = best;
    }
    memcpy(row, next, sizeof(unsigned) * (n + 1));
  }
  if (!part) return row[n];
  unsigned best = row[0];
  for (size_t j = 1; j <= n; j++)
    if (row[j] < best) best = row[j];
  return best;
}

static bool is_part(const char *t, size_t m, const char *name) {
  for (const char *s = name; *s; s++)
    if (!strncmp(s, t, m)) return true;
  return false;
}

typedef struct near {
  const char *name;
  unsigned d;
} near;

/* Keep the SHOWN closest: fewer edits first, then the shorter name. */
static void consider(near *best, const char *name, unsigned d) {
  for (int i = 0; i < SHOWN; i++) {
    if (best[i].name && !strcmp(best[i].name, name)) return;
    if (best[i].name && (best[i].d < d || (best[i].d == d && strlen(best[i].name) <= strlen(name))))
      continue;
    memmove(&best[i + 1], &best[i], sizeof *best * (size_t)(SHOWN - 1 - i));
    best[i] = (near){name, d};
    return;
  }
}

int rtg_filter_check(const char *var, const char *spec, const char *what, const char *const *names,
                     size_t n, const char *const *keywords) {
  int bad = 0;
  for (const char *p = spec; p && *p;) {
    const char *e = strchr(p, ',');
    size_t m = e ? (size_t)(e - p) : strlen(p);
    const char *t = p;
    p = e ? e + 1 : p + m;
    while (m && isspace((unsigned char)*t)) t++, m--;
    while (m && isspace((unsigned char)t[m - 1])) m--;
    if (!m) continue;
    if (m > TOKEN_MAX) m = TOKEN_MAX;
    bool found = false;
    for (int k = 0; keywords && keywords[k] && !found; k++)
      found = strlen(keywords[k]) == m && !strncmp(keywords[k], t, m);
    for (size_t i = 0; i < n && !found; i++) found = names[i] && is_part(t, m, names[i]);
    if (found) continue;
    near best[SHOWN + 1];
    memset(best, 0, sizeof best);
    for (int k = 0; keywords && keywords[k]; k++) /* a keyword in the wrong case comes first */
      consider(best, keywords[k],
               strlen(keywords[k]) == m && !strncasecmp(keywords[k], t, m)
                   ? 0
                   : distance(t, m, keywords[k], false));
    for (size_t i = 0; i < n; i++)
      if (names[i]) consider(best, names[i], distance(t, m, names[i], true));
    char list[3 * (NAME_MAX_LEN + 2)] = "";
    for (int i = 0; i < SHOWN && best[i].name; i++) {
      size_t l = strlen(list);
      snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", best[i].name);
    }
    rtg_log(0, "%s: \"%.*s\" is part of no %s function of this release; closest: %s", var, (int)m,
            t, what, *list ? list : "(none)");
    bad++;
  }
  return bad;
}
