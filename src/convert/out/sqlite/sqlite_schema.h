/* The rocmProfileData (RPD) database layout, schema version 3: table and
 * column names and types as RPD defines them, so that its views and tools
 * (rpd2tracing.py, the top/busy views) read our databases unchanged.  The
 * statements are written for rtg from the published schema's facts. */
#ifndef RTG_CONVERT_SQLITE_SCHEMA_H
#define RTG_CONVERT_SQLITE_SCHEMA_H

/* SQL laid out as SQL, not as C: */
/* clang-format off */

#define RPD_FK(t) " bigint NOT NULL REFERENCES \"" t "\" (\"id\") DEFERRABLE INITIALLY DEFERRED"
#define RPD_ID "\"id\" integer NOT NULL PRIMARY KEY AUTOINCREMENT"

static const char rpd_tables[] =
    "CREATE TABLE \"rocpd_metadata\" (" RPD_ID ", \"tag\" varchar(4096) NOT NULL,"
    " \"value\" varchar(4096) NOT NULL);\n"
    "CREATE TABLE \"rocpd_string\" (" RPD_ID ", \"string\" varchar(4096) NOT NULL);\n"
    "CREATE TABLE \"rocpd_ustring\" (" RPD_ID ", \"string\" varchar(4096) NOT NULL);\n"
    "CREATE TABLE \"rocpd_api\" (" RPD_ID ", \"pid\" integer NOT NULL, \"tid\" integer NOT NULL,"
    " \"start\" integer NOT NULL, \"end\" integer NOT NULL,"
    " \"apiName_id\"" RPD_FK("rocpd_string") ", \"category_id\"" RPD_FK("rocpd_string") ","
    " \"domain_id\"" RPD_FK("rocpd_string") ", \"args_id\"" RPD_FK("rocpd_ustring") ");\n"
    "CREATE TABLE \"rocpd_copyapi\" (\"api_ptr_id\" bigint NOT NULL PRIMARY KEY REFERENCES"
    " \"rocpd_api\" (\"id\") DEFERRABLE INITIALLY DEFERRED, \"stream\" varchar(18) NOT NULL,"
    " \"size\" integer NOT NULL, \"width\" integer NOT NULL, \"height\" integer NOT NULL,"
    " \"kind\" integer NOT NULL, \"dst\" varchar(18) NOT NULL, \"src\" varchar(18) NOT NULL,"
    " \"dstDevice\" integer NOT NULL, \"srcDevice\" integer NOT NULL, \"sync\" bool NOT NULL,"
    " \"pinned\" bool NOT NULL);\n"
    "CREATE TABLE \"rocpd_kernelapi\" (\"api_ptr_id\" bigint NOT NULL PRIMARY KEY REFERENCES"
    " \"rocpd_api\" (\"id\") DEFERRABLE INITIALLY DEFERRED, \"stream\" varchar(18) NOT NULL,"
    " \"gridX\" integer NOT NULL, \"gridY\" integer NOT NULL, \"gridZ\" integer NOT NULL,"
    " \"workgroupX\" integer NOT NULL, \"workgroupY\" integer NOT NULL,"
    " \"workgroupZ\" integer NOT NULL, \"groupSegmentSize\" integer NOT NULL,"
    " \"privateSegmentSize\" integer NOT NULL, \"kernelName_id\"" RPD_FK("rocpd_string") ");\n"
    "CREATE TABLE \"rocpd_op\" (" RPD_ID ", \"gpuId\" integer NOT NULL,"
    " \"queueId\" integer NOT NULL, \"sequenceId\" integer NOT NULL, \"start\" integer NOT NULL,"
    " \"end\" integer NOT NULL, \"description_id\"" RPD_FK("rocpd_string") ","
    " \"opType_id\"" RPD_FK("rocpd_string") ");\n"
    "CREATE TABLE \"rocpd_api_ops\" (" RPD_ID ", \"api_id\"" RPD_FK("rocpd_api") ","
    " \"op_id\"" RPD_FK("rocpd_op") ");\n"
    "CREATE TABLE \"rocpd_monitor\" (" RPD_ID ", \"deviceType\" varchar(16) NOT NULL,"
    " \"deviceId\" integer NOT NULL, \"monitorType\" varchar(16) NOT NULL,"
    " \"start\" integer NOT NULL, \"end\" integer NOT NULL, \"value\" varchar(255) NOT NULL);\n"
    "CREATE TABLE \"rocpd_counter\" (" RPD_ID ", \"value\" real NOT NULL,"
    " \"op_id\"" RPD_FK("rocpd_op") ", \"name_id\"" RPD_FK("rocpd_string") ");\n"
    "CREATE TABLE \"rocpd_stackframe\" (" RPD_ID ", \"api_ptr_id\"" RPD_FK("rocpd_api") ","
    " \"depth\" integer NOT NULL, \"name_id\"" RPD_FK("rocpd_string") ");\n"
    "INSERT INTO rocpd_metadata(tag, value) VALUES ('gpu_stride', '1000'),"
    " ('pid_stride', '10000000'), ('schema_version', '3');\n";

/* rtg's own table: the time model (src/convert/shared/timemodel.h) per
 * (process, GPU), in ns; pid and gpuId as in rocpd_api and rocpd_op. */
static const char rtg_gpu_time_table[] =
    "CREATE TABLE rtg_gpu_time (pid integer NOT NULL, gpuId integer NOT NULL,"
    " spanStart integer NOT NULL, spanEnd integer NOT NULL, span integer NOT NULL,"
    " busy integer NOT NULL, copyBusy integer NOT NULL, idle integer NOT NULL);\n";

/* rtg's own table: the memory records (src/convert/shared/memuse.h), in
 * time order: op alloc, free, lock, unlock; kind device, host, pinned; agent
 * the trace's agent index and device its name (GPU0, CPU0); address and
 * size in bytes (a free: its allocation's size, NULL when unknown); corr the
 * HIP call's (NULL for the runtime's own); inUse the bytes in use on the
 * agent after it (allocations and frees; NULL for locks). */
static const char rtg_memory_table[] =
    "CREATE TABLE rtg_memory (pid integer NOT NULL, tid integer NOT NULL, op text NOT NULL,"
    " kind text, agent integer, device text, start integer NOT NULL, \"end\" integer NOT NULL,"
    " address integer NOT NULL, size integer, corr integer, inUse integer);\n";

/* RPD's index names, created after the rows are in (faster). */
static const char rpd_indexes[] =
    "CREATE INDEX \"rocpd_strin_string_c7b9cd_idx\" ON \"rocpd_string\" (\"string\");\n"
    "CREATE INDEX \"rocpd_ustri_string_84d4a7_idx\" ON \"rocpd_ustring\" (\"string\");\n"
    "CREATE UNIQUE INDEX \"rocpd_api_ops_api_id_op_id_e7e52317_uniq\" ON \"rocpd_api_ops\""
    " (\"api_id\", \"op_id\");\n"
    "CREATE INDEX \"rocpd_api_ops_api_id_f87632ad\" ON \"rocpd_api_ops\" (\"api_id\");\n"
    "CREATE INDEX \"rocpd_api_ops_op_id_b35ab7c9\" ON \"rocpd_api_ops\" (\"op_id\");\n"
    "CREATE INDEX \"rocpd_op_description_id_c8dc8310\" ON \"rocpd_op\" (\"description_id\");\n"
    "CREATE INDEX \"rocpd_op_opType_id_810aaccd\" ON \"rocpd_op\" (\"opType_id\");\n"
    "CREATE INDEX \"rocpd_counter_op_id_0b4d4b59\" ON \"rocpd_counter\" (\"op_id\");\n"
    "CREATE INDEX \"rocpd_counter_name_id_92b0ed0c\" ON \"rocpd_counter\" (\"name_id\");\n"
    "CREATE INDEX \"rocpd_api_apiName_id_54bc0a6c\" ON \"rocpd_api\" (\"apiName_id\");\n"
    "CREATE INDEX \"rocpd_api_category_id_16543984\" ON \"rocpd_api\" (\"category_id\");\n"
    "CREATE INDEX \"rocpd_api_domain_id_081456b2\" ON \"rocpd_api\" (\"domain_id\");\n"
    "CREATE INDEX \"rocpd_api_args_id_6a626626\" ON \"rocpd_api\" (\"args_id\");\n"
    "CREATE INDEX \"rocpd_kernelapi_kernelName_id_c8efa6f0\" ON \"rocpd_kernelapi\""
    " (\"kernelName_id\");\n";

/* RPD's convenience views: same names, same result columns. */
static const char rpd_views[] =
    "CREATE VIEW api AS SELECT a.id, a.pid, a.tid, a.start, a.end, d.string AS domain,"
    " c.string AS category, n.string AS apiName, g.string AS args FROM rocpd_api a"
    " JOIN rocpd_string d ON d.id = a.domain_id JOIN rocpd_string c ON c.id = a.category_id"
    " JOIN rocpd_string n ON n.id = a.apiName_id JOIN rocpd_ustring g ON g.id = a.args_id;\n"
    "CREATE VIEW op AS SELECT o.id, o.gpuId, o.queueId, o.sequenceId, o.start, o.end,"
    " d.string AS description, t.string AS opType FROM rocpd_op o"
    " JOIN rocpd_string d ON d.id = o.description_id JOIN rocpd_string t ON t.id = o.opType_id;\n"
    /* RPD's columns, from rtg's time model: GpuTime is the kernels' union,
     * WallTime the span of the process on the GPU (one row per process) */
    "CREATE VIEW busy AS SELECT gpuId, busy AS GpuTime, span AS WallTime,"
    " busy * 1.0 / span AS Busy FROM rtg_gpu_time;\n"
    /* an op is named by its description, or by its type when that is empty */
    "CREATE VIEW top AS SELECT s.string AS Name, count(s.string) AS TotalCalls,"
    " sum(x.end - x.start) / 1000 AS TotalDuration_us,"
    " (sum(x.end - x.start) / count(s.string)) / 1000.0 AS Ave_us,"
    " sum(x.end - x.start) * 100.0 / (SELECT sum(end - start) FROM rocpd_op) AS Percentage"
    " FROM (SELECT opType_id AS name_id, start, end FROM rocpd_op"
    " WHERE description_id IN (SELECT id FROM rocpd_string WHERE string = '')"
    " UNION SELECT description_id, start, end FROM rocpd_op"
    " WHERE description_id NOT IN (SELECT id FROM rocpd_string WHERE string = '')) x"
    " JOIN rocpd_string s ON s.id = x.name_id GROUP BY Name ORDER BY TotalDuration_us DESC, Name;\n"
    "CREATE VIEW kernel AS SELECT o.id, o.gpuId, o.queueId, o.sequenceId, o.start, o.end,"
    " (o.end - o.start) AS duration, k.stream, k.gridX, k.gridY, k.gridz, k.workgroupX,"
    " k.workgroupY, k.workgroupZ, k.groupSegmentSize, k.privateSegmentSize,"
    " s.string AS kernelName FROM rocpd_api_ops l JOIN rocpd_op o ON o.id = l.op_id"
    " JOIN rocpd_kernelapi k ON k.api_ptr_id = l.api_id"
    " JOIN rocpd_string s ON s.id = k.kernelName_id;\n"
    "CREATE VIEW copy AS SELECT a.id, a.pid, a.tid, a.start, a.end, s.string AS apiName,"
    " c.stream, c.size, c.width, c.height, c.kind, c.dst, c.src, c.dstDevice, c.srcDevice,"
    " c.sync, c.pinned FROM rocpd_copyapi c JOIN rocpd_api a ON a.id = c.api_ptr_id"
    " JOIN rocpd_string s ON s.id = a.apiName_id;\n"
    "CREATE VIEW copyop AS SELECT o.id, o.gpuId, o.queueId, o.sequenceId, o.start, o.end,"
    " (o.end - o.start) AS duration, c.stream, c.size, c.width, c.height, c.kind, c.dst, c.src,"
    " c.dstDevice, c.srcDevice, c.sync, c.pinned, s.string AS apiName FROM rocpd_api_ops l"
    " JOIN rocpd_op o ON o.id = l.op_id JOIN rocpd_copyapi c ON c.api_ptr_id = l.api_id"
    " JOIN rocpd_api a ON a.id = l.api_id JOIN rocpd_string s ON s.id = a.apiName_id;\n"
    "CREATE VIEW stackframe AS SELECT a.id, n.string, f.depth, s.string"
    " FROM rocpd_stackframe f JOIN rocpd_api a ON a.id = f.api_ptr_id"
    " JOIN rocpd_string n ON n.id = a.apiName_id JOIN rocpd_string s ON s.id = f.name_id;\n"
    "CREATE VIEW napi AS SELECT a.id,"
    " a.pid / (SELECT value FROM rocpd_metadata WHERE tag = 'pid_stride') AS node,"
    " a.pid % (SELECT value FROM rocpd_metadata WHERE tag = 'pid_stride') AS pid,"
    " a.tid % (SELECT value FROM rocpd_metadata WHERE tag = 'pid_stride') AS tid,"
    " a.start, a.end, d.string AS domain, c.string AS category, n.string AS apiName,"
    " g.string AS args FROM rocpd_api a JOIN rocpd_string d ON d.id = a.domain_id"
    " JOIN rocpd_string c ON c.id = a.category_id JOIN rocpd_string n ON n.id = a.apiName_id"
    " JOIN rocpd_ustring g ON g.id = a.args_id;\n"
    "CREATE VIEW nop AS SELECT o.id,"
    " o.gpuId / (SELECT value FROM rocpd_metadata WHERE tag = 'gpu_stride') AS node,"
    " o.gpuId % (SELECT value FROM rocpd_metadata WHERE tag = 'gpu_stride') AS gpuId,"
    " o.queueId % (SELECT value FROM rocpd_metadata WHERE tag = 'gpu_stride') AS queueId,"
    " o.sequenceId, o.start, o.end, d.string AS description, t.string AS opType"
    " FROM rocpd_op o JOIN rocpd_string d ON d.id = o.description_id"
    " JOIN rocpd_string t ON t.id = o.opType_id;\n";

/* clang-format on */

#endif
