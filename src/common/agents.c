/* Agents and device names; see agents.h for the rule. */
#include "agents.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void rtg_agents_free(rtg_agents *t) {
  for (size_t i = 0; i < t->n; i++) free(t->a[i].desc);
  free(t->a);
  free(t->unknown);
  memset(t, 0, sizeof *t);
}

static enum rtg_device_class class_of_type(const char *type) {
  if (!strcasecmp(type, "gpu")) return RTG_DEV_GPU;
  if (!strcasecmp(type, "cpu")) return RTG_DEV_CPU;
  return RTG_DEV_OTHER;
}

bool rtg_agents_add(rtg_agents *t, const rtg_record *rec) {
  const rtg_rec_AGENT *ag = &rec->u.AGENT;
  for (size_t i = 0; i < t->n; i++)
    if (t->a[i].index == ag->index) return true;
  const char *name = RTG_HAS(rec, RTG_FIELD(AGENT, name)) ? ag->name : "";
  const char *product = RTG_HAS(rec, RTG_FIELD(AGENT, product)) ? ag->product : "";
  size_t len = strlen(name) + 1 + strlen(product) + 1;
  char *desc = malloc(len);
  rtg_agent *na = realloc(t->a, (t->n + 1) * sizeof *na);
  if (!desc || !na) {
    free(desc);
    if (na) t->a = na;
    return false;
  }
  snprintf(desc, len, "%s%s%s", name, *name && *product ? " " : "", product);
  t->a = na;
  t->a[t->n++] = (rtg_agent){
      .index = ag->index,
      .handle = ag->handle,
      .has_handle = RTG_HAS(rec, RTG_FIELD(AGENT, handle)),
      .cls = class_of_type(ag->type),
      .desc = desc,
  };
  t->have_last = false; /* numbers may have moved */
  return true;
}

/* The number of agent a: how many agents of its class have a lower index. */
static uint32_t number_of(const rtg_agents *t, const rtg_agent *a) {
  uint32_t n = 0;
  for (size_t i = 0; i < t->n; i++) n += t->a[i].cls == a->cls && t->a[i].index < a->index;
  return n;
}

static uint32_t known_gpus(const rtg_agents *t) {
  uint32_t n = 0;
  for (size_t i = 0; i < t->n; i++) n += t->a[i].cls == RTG_DEV_GPU;
  return n;
}

static rtg_device resolve(rtg_agents *t, uint64_t value) {
  const rtg_agent *hit = NULL;
  for (size_t i = 0; i < t->n && !hit; i++)
    if (t->a[i].has_handle && t->a[i].handle == value) hit = &t->a[i];
  for (size_t i = 0; i < t->n && !hit; i++)
    if (t->a[i].index == value) hit = &t->a[i];
  if (hit) return RTG_DEVICE(hit->cls, number_of(t, hit));
  size_t u = 0;
  while (u < t->nunknown && t->unknown[u] != value) u++;
  if (u == t->nunknown) {
    uint64_t *nu = realloc(t->unknown, (t->nunknown + 1) * sizeof *nu);
    if (nu) { /* out of memory: named as the next one, not remembered */
      t->unknown = nu;
      t->unknown[t->nunknown++] = value;
    }
  }
  return RTG_DEVICE(RTG_DEV_GPU, known_gpus(t) + u);
}

rtg_device rtg_agents_device(rtg_agents *t, uint64_t value) {
  if (t->have_last && t->last_value == value) return t->last_device;
  rtg_device d = resolve(t, value);
  t->last_value = value;
  t->last_device = d;
  t->have_last = true;
  return d;
}

const char *rtg_device_name(rtg_device d, char *buf, size_t cap) {
  static const char *const prefix[] = {"GPU", "CPU", "AGENT"};
  unsigned c = rtg_device_class_of(d);
  snprintf(buf, cap, "%s%u", prefix[c < 3 ? c : 2], rtg_device_number(d));
  return buf;
}

const char *rtg_agents_label(const rtg_agents *t, rtg_device d, char *buf, size_t cap) {
  rtg_device_name(d, buf, cap);
  for (size_t i = 0; t && i < t->n; i++) {
    const rtg_agent *a = &t->a[i];
    if (a->cls != rtg_device_class_of(d) || number_of(t, a) != rtg_device_number(d)) continue;
    if (*a->desc) {
      size_t n = strlen(buf);
      snprintf(buf + n, cap > n ? cap - n : 0, " (%s)", a->desc);
    }
    break;
  }
  return buf;
}
