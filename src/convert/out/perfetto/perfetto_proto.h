/* Field numbers and enum values of Perfetto's trace protos that the
 * Perfetto output uses (facts from protos/perfetto/trace/: trace.proto,
 * trace_packet.proto, trace_packet_defaults.proto, clock_snapshot.proto, track_event/
 * track_event.proto, track_descriptor.proto, process_descriptor.proto,
 * counter_descriptor.proto, debug_annotation.proto,
 * interned_data/interned_data.proto; common/builtin_clock.proto).
 * Shared by the writer and the checkers of the tests. */
#ifndef RTG_PERFETTO_PROTO_H
#define RTG_PERFETTO_PROTO_H

enum {
  PF_TRACE_PACKET = 1, /* Trace.packet (repeated TracePacket) */

  /* TracePacket */
  PF_PKT_CLOCK_SNAPSHOT = 6,
  PF_PKT_TIMESTAMP = 8,
  PF_PKT_SEQUENCE_ID = 10, /* trusted_packet_sequence_id */
  PF_PKT_TRACK_EVENT = 11,
  PF_PKT_INTERNED_DATA = 12,
  PF_PKT_SEQUENCE_FLAGS = 13,
  PF_PKT_TIMESTAMP_CLOCK_ID = 58,
  PF_PKT_DEFAULTS = 59, /* trace_packet_defaults */
  PF_PKT_TRACK_DESCRIPTOR = 60,
  PF_PKT_FIRST_ON_SEQUENCE = 87,
  /* a field Perfetto does not define (readers skip it, as any unknown
   * field): the bytes of a padding packet */
  PF_PKT_RTG_PADDING = 2047,
  PF_SEQ_INCREMENTAL_STATE_CLEARED = 1,
  PF_SEQ_NEEDS_INCREMENTAL_STATE = 2,

  /* TracePacketDefaults, and its TrackEventDefaults */
  PF_DEF_TIMESTAMP_CLOCK_ID = 58,
  PF_DEF_TRACK_EVENT_DEFAULTS = 11,
  PF_TED_TRACK_UUID = 11,
  PF_TED_EXTRA_COUNTER_TRACK_UUIDS = 31, /* repeated: the counters of extra_counter_values */
  PF_CLOCK_BOOTTIME = 6,                 /* BuiltinClock BUILTIN_CLOCK_BOOTTIME */

  /* ClockSnapshot and its Clock; ids 64-127 are scoped to their sequence */
  PF_CS_CLOCKS = 1,
  PF_CLK_ID = 1,
  PF_CLK_TIMESTAMP = 2,
  PF_CLK_IS_INCREMENTAL = 3,
  PF_CLOCK_SEQ_INCREMENTAL = 64, /* the clock of each track's sequence */

  /* TrackEvent */
  PF_TE_DEBUG_ANNOTATIONS = 4,
  PF_TE_LEGACY_EVENT = 6,
  PF_TE_CATEGORY_IIDS = 3,
  PF_TE_TYPE = 9,
  PF_TE_NAME_IID = 10,
  PF_TE_TRACK_UUID = 11,
  PF_TE_NAME = 23,
  PF_TE_COUNTER_VALUE = 30,
  /* repeated int64: values of the counters the sequence's defaults name,
   * at the event's time */
  PF_TE_EXTRA_COUNTER_VALUES = 12,
  PF_TE_FLOW_IDS = 47, /* repeated fixed64 */
  PF_TYPE_SLICE_BEGIN = 1,
  PF_TYPE_SLICE_END = 2,
  PF_TYPE_INSTANT = 3,
  PF_TYPE_COUNTER = 4,

  /* TrackEvent.LegacyEvent: flow events bound to slices, like the JSON's */
  PF_LEG_PHASE = 2,
  PF_LEG_UNSCOPED_ID = 6,
  PF_LEG_BIND_TO_ENCLOSING = 12,

  /* DebugAnnotation */
  PF_DA_NAME_IID = 1,
  PF_DA_UINT = 3,
  PF_DA_DOUBLE = 5,
  PF_DA_STRING = 6,
  PF_DA_ARRAY = 12,
  PF_DA_STRING_IID = 17,

  /* InternedData, and the iid/name pairs in it */
  PF_ID_EVENT_CATEGORIES = 1,
  PF_ID_EVENT_NAMES = 2,
  PF_ID_DEBUG_ANNOTATION_NAMES = 3,
  PF_ID_DEBUG_ANNOTATION_STRINGS = 29,
  PF_IID = 1,
  PF_IID_NAME = 2, /* EventName.name, EventCategory.name, InternedString.str */

  /* TrackDescriptor */
  PF_TD_UUID = 1,
  PF_TD_NAME = 2,
  PF_TD_PROCESS = 3,
  PF_TD_PARENT_UUID = 5,
  PF_TD_COUNTER = 8,
  PF_TD_CHILD_ORDERING = 11,
  PF_TD_SIBLING_ORDER_RANK = 12,
  PF_TD_PROCESS_ORDERING = 19,
  PF_CHILD_ORDERING_EXPLICIT = 3,
  PF_PROCESS_ORDERING_EXPLICIT = 1,

  /* ProcessDescriptor */
  PF_PD_PID = 1,
  PF_PD_PROCESS_NAME = 6,

  /* CounterDescriptor */
  PF_CD_UNIT = 3,
  PF_UNIT_COUNT = 2,
  PF_UNIT_SIZE_BYTES = 3,
};

#endif
