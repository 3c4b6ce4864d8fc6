/* Occupancy per kernel and launch shape (occupancy.h). */
#include "occupancy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "jsonw.h"

static uint64_t key_of(const cv_kinfo *k, uint64_t wg, uint64_t lds) {
  uint64_t h = (uint64_t)k->index * 0x9E3779B97F4A7C15ull;
  h ^= (wg + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  h ^= (lds + 0x165667B19E3779F9ull) * 0xFF51AFD7ED558CCDull;
  return h ? h : 1;
}

void cv_occ_add(cv_ctx *ctx, cv_occ *o, const cv_event *ev) {
  const cv_kinfo *k = ev->kinfo;
  if (ev->type != CV_KERNEL || !k || !k->has_regs || !k->main_pass) return;
  uint64_t wg = ev->has_dims ? (uint64_t)ev->wg.x * ev->wg.y * ev->wg.z : 0;
  uint64_t lds = ev->has_lds ? ev->lds : k->lds;
  uint64_t *v = rtg_u64map_put(&o->index, key_of(k, wg, lds), 0, NULL);
  if (!v) rtg_out_of_memory("the kernels' occupancy");
  /* (a key two shapes share: the first keeps it, the other is not counted) */
  if (*v) {
    cv_occ_row *r = &o->rows[*v - 1];
    if (r->k != k || r->wg != wg || r->lds != lds) return;
    r->calls++;
    r->total_ns += ev->end - ev->start;
    return;
  }
  if (o->n == o->cap) {
    o->cap = o->cap ? o->cap * 2 : 64;
    o->rows = rtg_xrealloc(o->rows, o->cap * sizeof *o->rows, "the kernels' occupancy");
  }
  o->rows[o->n] = (cv_occ_row){.k = k,
                               .name = cv_intern(ctx, ev->name ? ev->name : k->name),
                               .wg = wg,
                               .lds = lds,
                               .calls = 1,
                               .total_ns = ev->end - ev->start};
  *v = ++o->n;
}

static const cv_ctx *sort_ctx;
static int cmp_row(const void *a, const void *b) {
  const cv_occ_row *x = a, *y = b;
  if (x->total_ns != y->total_ns) return x->total_ns > y->total_ns ? -1 : 1;
  int c = strcmp(cv_str(sort_ctx, x->name), cv_str(sort_ctx, y->name));
  if (c) return c;
  if (x->wg != y->wg) return x->wg < y->wg ? -1 : 1;
  return x->lds < y->lds ? -1 : x->lds > y->lds;
}

void cv_occ_finish(const cv_ctx *ctx, cv_occ *o) {
  for (uint32_t i = 0; i < o->n; i++) {
    cv_occ_row *r = &o->rows[i];
    rtg_kernel_regs regs = {r->k->arch_vgpr, r->k->accum_vgpr, r->k->sgpr, r->k->wavefront};
    r->ok = rtg_occupancy_of(r->k->arch, &regs, r->lds, r->wg, &r->o);
  }
  sort_ctx = ctx;
  if (o->n) qsort(o->rows, o->n, sizeof *o->rows, cmp_row);
  rtg_u64map_free(&o->index);
  memset(&o->index, 0, sizeof o->index);
}

void cv_occ_free(cv_occ *o) {
  free(o->rows);
  rtg_u64map_free(&o->index);
  memset(o, 0, sizeof *o);
}

static void quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void cv_occ_csv(const cv_ctx *ctx, const cv_occ *o, FILE *f) {
  fputs("\"Pid\",\"Name\",\"Arch\",\"Calls\",\"TotalDurationNs\",\"Kernel_Id\",\"VGPR_Count\","
        "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Wavefront_Size\",\"Static_LDS\",\"Scratch_Size\","
        "\"Workgroup_Size\",\"LDS_Per_Workgroup\",\"Max_Waves_Per_SIMD\",\"Waves_By_VGPR\","
        "\"Waves_By_SGPR\",\"Waves_By_LDS\",\"Waves_Per_SIMD\",\"Limit\"\n",
        f);
  for (uint32_t i = 0; i < o->n; i++) {
    const cv_occ_row *r = &o->rows[i];
    const cv_kinfo *k = r->k;
    fprintf(f, "%u,", ctx->procs[k->proc].pid);
    quoted(f, cv_str(ctx, r->name));
    fputc(',', f);
    quoted(f, k->arch ? k->arch : "");
    fprintf(f,
            ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64
            ",%" PRIu64,
            r->calls, r->total_ns, k->id, k->arch_vgpr, k->accum_vgpr, k->sgpr, k->wavefront,
            k->lds, k->scratch, r->wg, r->lds);
    if (r->ok)
      fprintf(f, ",%u,%u,%u,%u,%u,\"%s\"\n", r->o.max_waves, r->o.by_vgpr, r->o.by_sgpr,
              r->o.by_lds, r->o.waves, r->o.limit);
    else
      fputs(",,,,,,\"\"\n", f);
  }
}

void cv_occ_text(const cv_ctx *ctx, const cv_occ *o, FILE *f) {
  if (!o->n) return;
  fprintf(f,
          "KERNEL_OCCUPANCY: waves per SIMD each resource allows (of the architecture's slots)\n");
  fprintf(f, "  %8s %-8s %8s %14s %5s %5s %5s %8s %6s %5s %5s %5s %5s  %-5s  %s\n", "Pid", "Arch",
          "Calls", "Time(us)", "VGPR", "AGPR", "SGPR", "LDS", "WG", "byV", "byS", "byL", "Waves",
          "Limit", "Name");
  for (uint32_t i = 0; i < o->n; i++) {
    const cv_occ_row *r = &o->rows[i];
    const cv_kinfo *k = r->k;
    char w[4][16];
    if (r->ok) {
      snprintf(w[0], sizeof w[0], "%u", r->o.by_vgpr);
      snprintf(w[1], sizeof w[1], "%u", r->o.by_sgpr);
      snprintf(w[2], sizeof w[2], "%u", r->o.by_lds);
      snprintf(w[3], sizeof w[3], "%u/%u", r->o.waves, r->o.max_waves);
    } else {
      for (int j = 0; j < 4; j++) snprintf(w[j], sizeof w[j], "?");
    }
    fprintf(f,
            "  %8u %-8s %8" PRIu64 " %14.3f %5u %5u %5u %8" PRIu64 " %6" PRIu64
            " %5s %5s %5s %5s  %-5s  %s\n",
            ctx->procs[k->proc].pid, k->arch ? k->arch : "?", r->calls,
            (double)r->total_ns / 1000.0, k->arch_vgpr, k->accum_vgpr, k->sgpr, r->lds, r->wg, w[0],
            w[1], w[2], w[3], r->ok ? r->o.limit : "?", cv_str(ctx, r->name));
  }
  fputc('\n', f);
}

void cv_occ_json(const cv_ctx *ctx, const cv_occ *o, FILE *f) {
  fputc('[', f);
  for (uint32_t i = 0; i < o->n; i++) {
    const cv_occ_row *r = &o->rows[i];
    const cv_kinfo *k = r->k;
    fprintf(f, "%s\n{\"pid\":%u,\"name\":", i ? "," : "", ctx->procs[k->proc].pid);
    rtg_json_fputs(f, cv_str(ctx, r->name));
    fprintf(f, ",\"arch\":");
    rtg_json_fputs(f, k->arch ? k->arch : "");
    fprintf(
        f,
        ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"kernel_id\":%" PRIu64
        ",\"arch_vgpr\":%u,\"accum_vgpr\":%u,\"sgpr\":%u,\"wavefront\":%u,\"static_lds\":%" PRIu64
        ",\"scratch\":%" PRIu64 ",\"workgroup_size\":%" PRIu64 ",\"lds_per_workgroup\":%" PRIu64,
        r->calls, r->total_ns, k->id, k->arch_vgpr, k->accum_vgpr, k->sgpr, k->wavefront, k->lds,
        k->scratch, r->wg, r->lds);
    if (r->ok)
      fprintf(f,
              ",\"max_waves_per_simd\":%u,\"waves_by_vgpr\":%u,\"waves_by_sgpr\":%u,"
              "\"waves_by_lds\":%u,\"waves_per_simd\":%u,\"limit\":\"%s\"",
              r->o.max_waves, r->o.by_vgpr, r->o.by_sgpr, r->o.by_lds, r->o.waves, r->o.limit);
    fputc('}', f);
  }
  fputc(']', f);
}
