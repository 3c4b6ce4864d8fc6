/* libFuzzer target: the whole of rtg-convert on one trace text (rtg
 * records, profile: lines, strace lines, anything): every output at once
 * (Chrome JSON with flows, gap events and kernel names, the same as a
 * native Perfetto trace, statistics CSVs, the terminal summary, the gap
 * report with its second pass over the input, workgroups, -v counts), as
 * main.c wires them and runs the passes.  Inputs whose size is odd also get
 * -p (tracks by process) and an RPD SQLite database.
 * Oracles: no crash, no sanitizer report; every sink closes successfully;
 * the Chrome JSON is valid JSON, every event has a "ph", and complete
 * events ("X") have a non-negative "dur"; the Perfetto trace is valid
 * (tests/perfetto/pf_wire.h: wire format, interning, every track's slices
 * closed) and holds as many slices and instants as the JSON; the
 * statistics files begin with rocprof's header; the rocprofv3 CSV files and
 * the OTF2 archive hold the JSON's events (fuzz_csv_otf2.h). */
#include "../perfetto/pf_wire.h"
#include "fuzz_csv_otf2.h"
#include "fuzz_cv.h"

static char fz_stats[128];

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  fz_setup();
  if (!fz_stats[0]) snprintf(fz_stats, sizeof fz_stats, "%s", fz_dir);
  if (size && (data[0] == '{' || data[0] == '[')) return 0; /* JSON: fuzz_json's */
  fz_write(fz_in, data, size);
  cv_ctx ctx;
  fz_ctx_init(&ctx);
  bool odd = size & 1;
  ctx.opt.json_out = fz_json;
  ctx.opt.perfetto_out = fz_pf;
  ctx.opt.flows = ctx.opt.gap_events = ctx.opt.kernel_names = true;
  ctx.opt.by_process = odd;
  ctx.opt.stats_dir = fz_stats;
  ctx.opt.summary = true;
  ctx.opt.gaps_out = fz_gaps;
  ctx.opt.workgroups = true;
  ctx.opt.verbose = true;
  if (odd) {
    unlink(fz_db);
    ctx.opt.sqlite_out = fz_db;
  }

  const char *inputs[1] = {fz_in};
  ctx.inputs = inputs;
  ctx.ninputs = 1;
  bool ok = cv_add_sink(&ctx, &cv_chrome_sink) && cv_add_sink(&ctx, &cv_perfetto_sink) &&
            cv_add_sink(&ctx, &cv_stats_sink) && cv_add_sink(&ctx, &cv_gaps_sink) &&
            cv_add_sink(&ctx, &cv_workgroups_sink) &&
            (!odd || cv_add_sink(&ctx, &cv_sqlite_sink)) && fz_add_csv_otf2_sinks(&ctx);
  if (!ok) abort();
  if (!cv_read_inputs(&ctx)) abort(); /* a readable file is never refused */
  if (!fz_ctx_finish(&ctx)) abort();

  cJSON *root, *evs = fz_check_chrome(fz_json, &root), *ev;
  uint64_t slices = 0, instants = 0;  /* what the Perfetto trace must hold */
  uint64_t pairs = 0, csv_events = 0; /* what OTF2 and the CSV files must hold */
  cJSON_ArrayForEach(ev, evs) {
    cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
    if (!cJSON_IsString(ph)) abort();
    cJSON *cat = cJSON_GetObjectItemCaseSensitive(ev, "cat");
    const char *c = cJSON_IsString(cat) ? cat->valuestring : "";
    instants += !strcmp(ph->valuestring, "i");
    if (!strcmp(ph->valuestring, "X")) {
      slices++;
      cJSON *dur = cJSON_GetObjectItemCaseSensitive(ev, "dur");
      if (!cJSON_IsNumber(dur) || dur->valuedouble < 0) abort();
      pairs += strcmp(c, "gap") != 0;
    }
    if (!strcmp(ph->valuestring, "i")) pairs += !strcmp(c, "roctx"); /* a mark: a pair in OTF2 */
    if (!strcmp(ph->valuestring, "X") || !strcmp(ph->valuestring, "i"))
      csv_events += !strcmp(c, "hip") || !strcmp(c, "hsa") || !strcmp(c, "kernel") ||
                    !strcmp(c, "copy") || !strcmp(c, "roctx");
  }
  cJSON_Delete(root);
  if (fz_check_csv() != csv_events) abort();
  fz_check_otf2(pairs);
  size_t pf_size;
  char *pf = fz_slurp(fz_pf, &pf_size);
  pf_wire_stats st;
  if (!pf || !pf_wire_check((const uint8_t *)pf, pf_size, &st)) {
    fprintf(stderr, "invalid Perfetto trace: %s\n", pf ? st.why : "missing");
    abort();
  }
  if (st.begins != slices || st.instants != instants) {
    fprintf(stderr, "Perfetto trace: %llu slices, %llu instants; JSON %llu, %llu\n",
            (unsigned long long)st.begins, (unsigned long long)st.instants,
            (unsigned long long)slices, (unsigned long long)instants);
    abort();
  }
  free(pf);
  char path[256];
  snprintf(path, sizeof path, "%s/kernel_stats.csv", fz_stats);
  char *csv = fz_slurp(path, NULL);
  if (!csv ||
      strncmp(csv, "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\"", 54))
    abort();
  free(csv);
  return 0;
}
