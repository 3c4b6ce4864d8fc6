# --sqlite on real traces: RPD views, HIP calls linked to their kernels and
# copies through correlation ids, symbolized stack frames.
R="$TOP/tests/data/convert/real"
"$B/rtg-convert" -q --sqlite out.rpd "$R/sg_hip.txt" "$R/hip_streams_2gpu.txt" "$R/hsa_vadd.txt"
echo "exit $?"
q() { echo "> $1"; sqlite3 out.rpd "$1"; }
# Percentage printed with 9 decimals: sqlite >= 3.47 prints doubles with 17 digits, older ones 15
q "select Name, TotalCalls, TotalDuration_us, Ave_us, printf('%.9f', Percentage) from top"
q "select gpuId, GpuTime, WallTime, round(Busy, 4) from busy"
q "select count(*), sum(duration) from kernel"
q "select count(*), sum(size) from copy"
q "select domain, apiName, count(*) from api group by domain, apiName order by 1, 2"
q "select count(*) from rocpd_api_ops"
q "select A.string, count(*) from rocpd_api_ops join rocpd_api on rocpd_api_ops.api_id = rocpd_api.id join rocpd_string A on A.id = rocpd_api.apiName_id group by A.string order by 1"
q "select count(*), sum(case when B.string like '0x%' then 1 else 0 end) from rocpd_stackframe join rocpd_string B on B.id = rocpd_stackframe.name_id"
q "select count(*) from rocpd_kernelapi"
q "select count(*) from rocpd_copyapi"
