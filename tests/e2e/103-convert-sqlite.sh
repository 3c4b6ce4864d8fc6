# --sqlite: an RPD (schema v3) database; the queries RPD's views and
# rpd2tracing.py run must work on it.
"$B/rtg-convert" -q --sqlite out.rpd $TOP/tests/data/convert/small.txt $TOP/tests/data/convert/gen.txt
echo "exit $?"
q() { echo "> $1"; sqlite3 out.rpd "$1"; }
q "select tag, value from rocpd_metadata order by tag"
q "select name from sqlite_master where type='view' order by name"
q "select count(*) from sqlite_master where type='index' and name like 'rocpd_%'"
# Percentage printed with 9 decimals: sqlite >= 3.47 prints doubles with 17 digits, older ones 15
q "select Name, TotalCalls, TotalDuration_us, Ave_us, printf('%.9f', Percentage) from top limit 5"
q "select gpuId, GpuTime, WallTime, round(Busy, 4) from busy"
q "select count(*), sum(duration) from kernel"
q "select * from kernel where kernelName like 'vadd%'"
q "select count(*), sum(size) from copyop"
q "select count(*), sum(size) from copy"
q "select domain, apiName, count(*) from api group by domain, apiName order by 1, 2"
q "select * from stackframe"
q "select distinct gpuId from rocpd_op"
q "select count(*) from rocpd_api_ops join rocpd_api on rocpd_api_ops.api_id = rocpd_api.id join rocpd_op on rocpd_api_ops.op_id = rocpd_op.id"
q "select A.string, B.string, gpuId, queueId, rocpd_op.start/1000.0, (rocpd_op.end-rocpd_op.start)/1000.0 from rocpd_op join rocpd_string A on A.id = rocpd_op.opType_id join rocpd_string B on B.id = rocpd_op.description_id where rocpd_op.start < 1000002000 order by rocpd_op.start limit 4"
q "select A.string, B.string from rocpd_api join rocpd_string A on A.id = rocpd_api.apiName_id join rocpd_ustring B on B.id = rocpd_api.args_id where A.string = 'UserMarker' limit 3"
q "select count(*) from napi where node = 0"
