/* The Chrome JSON of an API call or a kernel, made on the trace reader's
 * threads.
 *
 * HSA and HIP API calls and kernels are most lines of a big trace, and
 * their JSON text is most of the work of the -o output.  All of it but the track
 * (",\"pid\":P,\"tid\":T", known only in file order) follows from the
 * record alone, so the reader's producers write it beside the line
 * (rtg_reader_opts.prepare) and the Chrome sink (chrome.c) only copies it
 * around the track.  What needs state is left to the sink's own way: a call
 * with a stack, a HIP call renamed after its kernel (-k), a duration that
 * overflows; and a line whose text may not fit the space. */
#include <string.h>

#include "chrome.h"
#include "convert.h"
#include "jsonw.h"
#include "trace_reader.h"

/* Text made into the line's space: each put fails (false) when it has no
 * room, and the line then has none. */
typedef struct text {
  char *p, *end;
} text;

static inline bool put_raw(text *t, const char *s, size_t n) {
  if ((size_t)(t->end - t->p) < n) return false;
  memcpy(t->p, s, n);
  t->p += n;
  return true;
}
#define put_lit(t, lit) put_raw(t, lit, sizeof lit - 1)

static inline bool put_quoted_n(text *t, const char *s, size_t len) {
  size_t n = rtg_json_quote_into(t->p, (size_t)(t->end - t->p), s, len);
  if (n == SIZE_MAX) return false;
  t->p += n;
  return true;
}

static inline bool put_quoted(text *t, const char *s) {
  return put_quoted_n(t, s, strlen(s));
}

/* The length of an HSA call's function name and arguments, from where the
 * parser left them in the line ("FUNC (ARGS) ret=R": each ended by the NUL
 * it wrote): no strlen over the arguments.  Checked at the NUL, else
 * counted. */
static inline size_t hsa_len(const char *s, const char *next, size_t gap) {
  if (next >= s + gap && !s[next - gap - s]) return (size_t)(next - gap - s);
  return strlen(s);
}

static inline bool put_us(text *t, uint64_t ns) {
  if (t->end - t->p < 32) return false;
  t->p += rtg_fmt_ns_as_us(t->p, ns);
  return true;
}

static inline bool put_u64(text *t, uint64_t v) {
  if (t->end - t->p < 24) return false;
  t->p += rtg_json_fmt_u64(t->p, v);
  return true;
}

/* As chrome.c writes a call: {"ph":"X","name":..,"cat":..,"ts":..,"dur":..
 * (the mark: the track goes here) ,"args":{..}} */
static bool api_text(const cv_chrome_pre *o, const rtg_clock_host *h_clock, const rtg_record *rec,
                     text *t, char **mark) {
  bool hip = rec->kind == RTG_KIND_HIP_API;
  const char *name, *args, *kernel = NULL, *ret;
  uint64_t start, dur, corr, ancestor;
  bool has_corr;
  size_t name_len, args_len = 0;
  if (hip) {
    const rtg_rec_HIP_API *h = &rec->u.HIP_API;
    if (RTG_HAS(rec, RTG_FIELD(HIP_API, stack)) && h->stack) return false;
    name = h->func, ret = h->ret, start = h->start, dur = h->dur, corr = h->corr;
    args = RTG_HAS(rec, RTG_FIELD(HIP_API, args)) ? h->args : NULL;
    kernel = RTG_HAS(rec, RTG_FIELD(HIP_API, kernel)) ? h->kernel : NULL;
    has_corr = RTG_HAS(rec, RTG_FIELD(HIP_API, corr));
    ancestor = RTG_HAS(rec, RTG_FIELD(HIP_API, ancestor)) ? h->ancestor : 0;
    if (kernel && *kernel && o->kernel_names) return false; /* renamed by what the trace tells */
    name_len = strlen(name);
    if (args) args_len = strlen(args);
  } else {
    const rtg_rec_HSA_API *h = &rec->u.HSA_API;
    if (RTG_HAS(rec, RTG_FIELD(HSA_API, stack)) && h->stack) return false;
    if (RTG_HAS(rec, RTG_FIELD(HSA_API, polls))) return false; /* repeated calls: few lines */
    name = h->func, args = h->args, ret = h->ret, start = h->start, dur = h->dur, corr = h->cid;
    /* its own id is cid; corr is the call it was made in (in/trace.c) */
    has_corr = RTG_HAS(rec, RTG_FIELD(HSA_API, cid));
    ancestor = RTG_HAS(rec, RTG_FIELD(HSA_API, corr)) ? h->corr : 0;
    name_len = hsa_len(name, args, 2); /* " (" between them */
    args_len = hsa_len(args, ret, 6);  /* ") ret=" */
  }
  if (start + dur < start) return false; /* skipped, with a warning */
  if (h_clock) {                         /* on the common axis, as in/trace.c moves the event */
    uint64_t end = rtg_clockmap_apply(h_clock, o->clock->lift_ns, start + dur);
    start = rtg_clockmap_apply(h_clock, o->clock->lift_ns, start);
    if (end < start) return false;
    dur = end - start;
  }
  uint64_t base = o->time_base;
  if (!put_lit(t, "{\"ph\":\"X\",\"name\":") || !put_quoted_n(t, name, name_len) ||
      !(hip ? put_lit(t, ",\"cat\":\"hip\",\"ts\":") : put_lit(t, ",\"cat\":\"hsa\",\"ts\":")) ||
      !put_us(t, start > base ? start - base : 0) || !put_lit(t, ",\"dur\":") || !put_us(t, dur))
    return false;
  *mark = t->p;
  const char *sep = ",\"args\":{"; /* before the first argument, then a comma */
  size_t nsep = 9;
  if (kernel) {
    if (!put_raw(t, sep, nsep) || !put_lit(t, "\"kernel\":") || !put_quoted(t, kernel))
      return false;
    sep = ",", nsep = 1;
  }
  if (args) {
    if (!put_raw(t, sep, nsep) || !put_lit(t, "\"args\":") || !put_quoted_n(t, args, args_len))
      return false;
    sep = ",", nsep = 1;
  }
  if (!put_raw(t, sep, nsep) || !put_lit(t, "\"ret\":") || !put_quoted(t, ret)) return false;
  if (has_corr && (!put_lit(t, ",\"corr\":") || !put_u64(t, corr))) return false;
  if (ancestor && (!put_lit(t, ",\"ancestor\":") || !put_u64(t, ancestor))) return false;
  return put_lit(t, "}}");
}

static inline bool put_dim3(text *t, rtg_dim3 d) {
  return put_lit(t, "[") && put_u64(t, d.x) && put_lit(t, ",") && put_u64(t, d.y) &&
         put_lit(t, ",") && put_u64(t, d.z) && put_lit(t, "]");
}

/* As chrome.c writes a kernel (the event in/trace.c makes of a
 * dispatch record): {"ph":"X","name":..,"cat":"kernel","ts":..,"dur":..
 * (the mark) ,"args":{"queue":..,..}} */
static bool kernel_text(const cv_chrome_pre *o, const rtg_clock_host *h_clock,
                        const rtg_record *rec, text *t, char **mark) {
  const rtg_rec_DISPATCH *d = &rec->u.DISPATCH;
  if (!d->start || d->stop < d->start) return false; /* skipped, with a warning */
  const char *name = d->name, *mangled = NULL;
  if (RTG_HAS(rec, RTG_FIELD(DISPATCH, demangled)) && *d->demangled)
    mangled = name, name = d->demangled;
  uint64_t base = o->time_base, start = d->start, stop = d->stop;
  if (h_clock) { /* on the common axis, as in/trace.c moves the event */
    start = rtg_clockmap_apply(h_clock, o->clock->lift_ns, start);
    stop = rtg_clockmap_apply(h_clock, o->clock->lift_ns, stop);
    if (stop < start) return false;
  }
  if (!put_lit(t, "{\"ph\":\"X\",\"name\":") || !put_quoted(t, name) ||
      !put_lit(t, ",\"cat\":\"kernel\",\"ts\":") || !put_us(t, start > base ? start - base : 0) ||
      !put_lit(t, ",\"dur\":") || !put_us(t, stop - start))
    return false;
  *mark = t->p;
  /* (the agent as the event holds it: 32 bits) */
  if (!put_lit(t, ",\"args\":{\"queue\":") || !put_u64(t, d->queue) || !put_lit(t, ",\"agent\":") ||
      !put_u64(t, (uint32_t)d->agent) || !put_lit(t, ",\"id\":") || !put_u64(t, d->id))
    return false;
  if (RTG_HAS(rec, RTG_FIELD(DISPATCH, corr)) &&
      (!put_lit(t, ",\"corr\":") || !put_u64(t, d->corr)))
    return false;
  if (RTG_HAS(rec, RTG_FIELD(DISPATCH, workgroup)) && RTG_HAS(rec, RTG_FIELD(DISPATCH, grid)) &&
      (!put_lit(t, ",\"workgroup\":") || !put_dim3(t, d->workgroup) || !put_lit(t, ",\"grid\":") ||
       !put_dim3(t, d->grid)))
    return false;
  if (d->lds && (!put_lit(t, ",\"lds\":") || !put_u64(t, d->lds))) return false;
  if (d->scratch && (!put_lit(t, ",\"scratch\":") || !put_u64(t, d->scratch))) return false;
  if (mangled && (!put_lit(t, ",\"mangled\":") || !put_quoted(t, mangled))) return false;
  if (d->graph && (!put_lit(t, ",\"graph\":") || !put_u64(t, d->graph) ||
                   !put_lit(t, ",\"node\":") || !put_u64(t, d->node)))
    return false;
  return put_lit(t, "}}");
}

size_t cv_chrome_prepare(rtg_line *l, size_t used, rtg_line_space *space, void *arg) {
  if (l->cls != RTG_LINE_RECORD || l->nul) return used;
  text t = {space->p, space->p + space->left};
  char *mark;
  const cv_chrome_pre *o = arg;
  const rtg_clock_host *h = o->clock->files ? o->clock->files[l->file] : NULL;
  bool api = l->kind == RTG_KIND_HSA_API || l->kind == RTG_KIND_HIP_API;
  if (api ? !api_text(o, h, &l->u.rec, &t, &mark)
          : l->kind != RTG_KIND_DISPATCH || !kernel_text(o, h, &l->u.rec, &t, &mark))
    return used;
  l->prep = space->p;
  l->prep_len = (uint32_t)(t.p - space->p);
  l->prep_mark = (uint32_t)(mark - space->p);
  space->p = t.p;
  space->left = (size_t)(t.end - t.p);
  return used;
}
