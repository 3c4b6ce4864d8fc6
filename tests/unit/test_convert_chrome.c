/* Checks every event of rtg-convert's Chrome JSON with cJSON: the fields
 * each phase needs, numeric times, valid UTF-8 in every string, flows that
 * pair up (s then f with "bp":"e"), a thread_name for every track used, and
 * X slices that nest on each track (what Perfetto needs).
 *   test_convert_chrome            convert the test inputs and check them
 *   test_convert_chrome FILE.json  check one file
 *   test_convert_chrome --facts FILE.json  print facts for golden tests */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "check.h"
#include "jsonw.h"

typedef struct slice {
  double pid, tid, ts, end;
} slice;

static int cmp_slice(const void *a, const void *b) {
  const slice *x = a, *y = b;
  if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end; /* the enclosing one first */
}

static int utf8_ok_str(const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n;) {
    int k = rtg_utf8_seq_len((const unsigned char *)s + i, n - i);
    if (!k) return 0;
    i += (size_t)k;
  }
  return 1;
}

static int utf8_ok(const cJSON *j) {
  for (; j; j = j->next) {
    if (j->string && !utf8_ok_str(j->string)) return 0;
    if (cJSON_IsString(j) && !utf8_ok_str(j->valuestring)) return 0;
    if (j->child && !utf8_ok(j->child)) return 0;
  }
  return 1;
}

static const cJSON *get(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

static int check_file(const char *path) {
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  CHECK(fread(buf, 1, (size_t)n, f) == (size_t)n);
  fclose(f);
  buf[n] = 0;
  cJSON *root = cJSON_Parse(buf);
  free(buf);
  CHECK(root != NULL);
  if (!root) {
    fprintf(stderr, "%s: not JSON\n", path);
    return 1;
  }
  CHECK_STR(cJSON_GetStringValue(get(root, "displayTimeUnit")), "ns");
  const cJSON *evs = get(root, "traceEvents");
  CHECK(cJSON_IsArray(evs));
  int nev = cJSON_GetArraySize(evs);
  slice *sl = calloc((size_t)nev + 1, sizeof *sl);
  int nsl = 0, flows_s = 0, flows_f = 0;
  double *sids = calloc((size_t)nev + 1, sizeof *sids);
  /* named tracks, as "pid/tid" keys in a cJSON object */
  cJSON *named = cJSON_CreateObject(), *used = cJSON_CreateObject();
  const cJSON *e;
  int bad = 0;
  cJSON_ArrayForEach(e, evs) {
    const char *ph = cJSON_GetStringValue(get(e, "ph"));
    if (!ph) {
      bad++;
      continue;
    }
    const cJSON *pid = get(e, "pid"), *tid = get(e, "tid"), *ts = get(e, "ts");
    if (!utf8_ok(e->child)) bad++;
    char key[64];
    snprintf(key, sizeof key, "%.0f/%.0f", pid ? pid->valuedouble : -1,
             tid ? tid->valuedouble : -1);
    if (!strcmp(ph, "M")) {
      const char *nm = cJSON_GetStringValue(get(e, "name"));
      if (!nm || !cJSON_IsObject(get(e, "args")) || !cJSON_IsNumber(pid))
        bad++;
      else if (!strcmp(nm, "thread_name") && !get(named, key))
        cJSON_AddTrueToObject(named, key);
      continue;
    }
    if (!strcmp(ph, "C")) { /* a counter: of a process, its values in args, none negative */
      const cJSON *args = get(e, "args"), *v;
      if (!cJSON_IsNumber(pid) || !cJSON_IsNumber(ts) || ts->valuedouble < 0 ||
          !cJSON_IsString(get(e, "name")) || !cJSON_IsObject(args) || !args->child)
        bad++;
      else
        cJSON_ArrayForEach(v, args) if (!cJSON_IsNumber(v) || v->valuedouble < 0) bad++;
      continue;
    }
    if (!cJSON_IsNumber(pid) || !cJSON_IsNumber(tid) || !cJSON_IsNumber(ts) ||
        ts->valuedouble < 0 || !cJSON_IsString(get(e, "name")) || !cJSON_IsString(get(e, "cat"))) {
      bad++;
      char *text = cJSON_PrintUnformatted(e);
      fprintf(stderr, "bad event: %s\n", text ? text : "?");
      free(text);
      continue;
    }
    if (!get(used, key)) cJSON_AddTrueToObject(used, key);
    if (!strcmp(ph, "X")) {
      const cJSON *dur = get(e, "dur");
      if (!cJSON_IsNumber(dur) || dur->valuedouble < 0)
        bad++;
      else
        sl[nsl++] = (slice){pid->valuedouble, tid->valuedouble, ts->valuedouble,
                            ts->valuedouble + dur->valuedouble};
    } else if (!strcmp(ph, "s")) {
      if (!cJSON_IsNumber(get(e, "id")))
        bad++;
      else
        sids[flows_s++] = get(e, "id")->valuedouble;
    } else if (!strcmp(ph, "f")) {
      if (!cJSON_IsNumber(get(e, "id")) || strcmp(cJSON_GetStringValue(get(e, "bp")) ?: "", "e"))
        bad++;
      else if (flows_f >= flows_s || sids[flows_f] != get(e, "id")->valuedouble)
        bad++;
      flows_f++;
    } else if (!strcmp(ph, "i")) {
      if (!cJSON_IsString(get(e, "s"))) bad++;
    } else {
      bad++;
    }
  }
  CHECK_U64(bad, 0);
  CHECK_U64(flows_s, flows_f);
  /* every track used has a name */
  const cJSON *u;
  int unnamed = 0;
  cJSON_ArrayForEach(u, used) if (!get(named, u->string)) unnamed++;
  CHECK_U64(unnamed, 0);
  /* slices nest per track: compare each with the stack of open ones */
  qsort(sl, (size_t)nsl, sizeof *sl, cmp_slice);
  int overlaps = 0;
  double stack[256];
  int depth = 0;
  for (int i = 0; i < nsl; i++) {
    if (i && (sl[i].pid != sl[i - 1].pid || sl[i].tid != sl[i - 1].tid)) depth = 0;
    while (depth && stack[depth - 1] <= sl[i].ts + 1e-9) depth--;
    if (depth && sl[i].end > stack[depth - 1] + 1e-6) {
      overlaps++;
      fprintf(stderr, "partial overlap on %.0f/%.0f at %.3f\n", sl[i].pid, sl[i].tid, sl[i].ts);
    }
    if (depth < 256) stack[depth++] = sl[i].end;
  }
  CHECK_U64(overlaps, 0);
  printf("%s: %d events, %d slices, %d flows\n", path, nev, nsl, flows_s);
  free(sl);
  free(sids);
  cJSON_Delete(named);
  cJSON_Delete(used);
  cJSON_Delete(root);
  return 0;
}

/* ------------------------------------------------------------ --facts */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print the lines of a cJSON object used as a counter, sorted by key. */
static void print_counts(const char *title, cJSON *counts) {
  int n = cJSON_GetArraySize(counts), i = 0;
  char **keys = calloc((size_t)n + 1, sizeof *keys);
  const cJSON *c;
  cJSON_ArrayForEach(c, counts) keys[i++] = c->string;
  qsort(keys, (size_t)n, sizeof *keys, cmp_str);
  printf("%s:\n", title);
  for (i = 0; i < n; i++) printf("  %s: %.0f\n", keys[i], get(counts, keys[i])->valuedouble);
  free(keys);
}

static void count(cJSON *counts, const char *key) {
  cJSON *c = cJSON_GetObjectItemCaseSensitive(counts, key);
  if (c)
    cJSON_SetNumberValue(c, c->valuedouble + 1);
  else
    cJSON_AddNumberToObject(counts, key, 1);
}

/* Facts that stay the same for a given input (golden tests): events by
 * phase and category, slice names by category, track and process names,
 * launches with an arrow, stacks and their unsymbolized frames. */
static int print_facts(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  buf[fread(buf, 1, (size_t)n, f)] = 0;
  fclose(f);
  cJSON *root = cJSON_Parse(buf);
  free(buf);
  if (!root) return 1;
  cJSON *phases = cJSON_CreateObject(), *names = cJSON_CreateObject(),
        *tracks = cJSON_CreateObject();
  cJSON *starts = cJSON_CreateObject(); /* "pid/tid/ts" of flow starts */
  const cJSON *e, *evs = get(root, "traceEvents");
  cJSON_ArrayForEach(e, evs) {
    const char *ph = cJSON_GetStringValue(get(e, "ph")), *cat = cJSON_GetStringValue(get(e, "cat"));
    const char *name = cJSON_GetStringValue(get(e, "name"));
    char key[1200];
    snprintf(key, sizeof key, "%s %s", ph ? ph : "?", cat ? cat : "-");
    count(phases, key);
    if (ph && !strcmp(ph, "M") && name && strstr(name, "_name")) {
      snprintf(key, sizeof key, "%s %s", name,
               cJSON_GetStringValue(get(get(e, "args"), "name")) ?: "?");
      count(tracks, key);
    } else if (ph && (!strcmp(ph, "X") || !strcmp(ph, "i")) && name) {
      snprintf(key, sizeof key, "%s %.1000s", cat ? cat : "-", name);
      count(names, key);
    } else if (ph && !strcmp(ph, "s")) {
      snprintf(key, sizeof key, "%.0f/%.0f/%.3f", get(e, "pid")->valuedouble,
               get(e, "tid")->valuedouble, get(e, "ts")->valuedouble);
      count(starts, key);
    }
  }
  int launches = 0, with_arrow = 0, stacks = 0, frames = 0, raw_frames = 0;
  cJSON_ArrayForEach(e, evs) {
    const char *cat = cJSON_GetStringValue(get(e, "cat")),
               *name = cJSON_GetStringValue(get(e, "name"));
    const cJSON *args = get(e, "args"), *st = args ? get(args, "stack") : NULL, *fr;
    if (cJSON_IsArray(st)) {
      stacks++;
      cJSON_ArrayForEach(fr, st) {
        frames++;
        const char *s = cJSON_GetStringValue(fr);
        raw_frames += s && !strncmp(s, "0x", 2);
      }
    }
    if (!cat || strcmp(cat, "hip") || !name) continue;
    /* a launch: the call names a kernel (args.kernel, or -k renamed it) */
    if (!(args && get(args, "kernel")) && !(args && get(args, "api"))) continue;
    launches++;
    char key[128];
    snprintf(key, sizeof key, "%.0f/%.0f/%.3f", get(e, "pid")->valuedouble,
             get(e, "tid")->valuedouble, get(e, "ts")->valuedouble);
    with_arrow += get(starts, key) != NULL;
  }
  print_counts("events by phase and category", phases);
  print_counts("slices by category and name", names);
  print_counts("names of processes and tracks", tracks);
  printf("kernel launches with an arrow: %d of %d\n", with_arrow, launches);
  printf("stacks: %d, frames: %d, unsymbolized frames: %d\n", stacks, frames, raw_frames);
  cJSON_Delete(phases);
  cJSON_Delete(names);
  cJSON_Delete(tracks);
  cJSON_Delete(starts);
  cJSON_Delete(root);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "--facts")) {
    int st = 0;
    for (int i = 2; i < argc; i++) st |= print_facts(argv[i]);
    return st;
  }
  if (argc > 1) {
    for (int i = 1; i < argc; i++) check_file(argv[i]);
    return check_done("test_convert_chrome");
  }
  const char *b = getenv("B"), *top = getenv("TOP");
  if (!b || !top) {
    fprintf(stderr, "B and TOP must be set (tests/run.sh sets them)\n");
    return 1;
  }
  static const char *const variants[] = {"-f -g", "-p -k -f", "-f --zero",
                                         "-g --start 1000003% --end 90%"};
  static const char *const inputs[] = {"small.txt", "gen.txt", "hcc_strace.txt", "bad.txt"};
  char cmd[4096];
  for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
    snprintf(cmd, sizeof cmd, "%s/rtg-convert -q %s -o out.json", b, variants[v]);
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
      snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " %s/tests/data/convert/%s", top,
               inputs[i]);
    int st = system(cmd);
    if (strstr(variants[v], "1000003%")) { /* a bad percentage: usage error */
      CHECK(WEXITSTATUS(st) == 2);
      continue;
    }
    CHECK(st == 0);
    check_file("out.json");
  }
  return check_done("test_convert_chrome");
}
