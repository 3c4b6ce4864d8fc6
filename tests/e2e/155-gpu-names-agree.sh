# One rule names the GPUs in every output (src/common/agents.h): on the
# same multi-GPU traces, rpt's resources, rtg-convert's --gaps resources,
# the JSON lanes, the OTF2 location groups and the SQLite gpuIds name the
# same GPUs the same way.  GPUs are numbered apart from the CPU agent
# (agent index 1 is GPU0); the CPU agent's copies are shown as CPU0, never
# as a GPU.  The traces: two GPUs and a CPU agent (rtg style, agents by
# index); agents by HSA handle plus an agent value no AGENT record explains
# (numbered after the known GPUs); a real HIP trace of two GPUs.
D=$TOP/tests/data
export LC_ALL=C
gpus() { grep -o 'GPU[0-9][0-9]*' | sort -u | tr '\n' ' '; }
for f in "$D/rpt/rtg_trace.txt.1000" "$D/rpt/rtg_trace.txt.1001" "$D/convert/real/hip_streams_2gpu.txt"; do
  echo "== $(basename "$f")"
  "$B/rpt" "$f" | grep '^Resource=' | gpus >rpt.txt
  "$B/rtg-convert" -q --gaps=gaps.txt -o out.json --sqlite out.rpd --stats=st "$f"
  grep '^Resource=' gaps.txt | sed 's/ (.*//' >gaps-resources.txt
  # the statistics read the same kernels as the gap report (they name no device)
  k1=$(awk -F, 'NR > 1 { n += $(NF - 7) } END { print n + 0 }' st/kernel_stats.csv)
  k2=$(awk '/^  span / { n += $(NF - 3) } END { print n + 0 }' gaps.txt)
  gpus <gaps-resources.txt >gaps.txt
  grep -o '"thread_name"[^}]*"name":"[^"]*"' out.json | sed 's/.*"name":"//; s/"$//' >lanes.txt
  gpus <lanes.txt >json.txt
  sqlite3 out.rpd "select distinct gpuId from rocpd_op where gpuId >= 0" | sed 's/^/GPU/' | gpus >sqlite.txt
  if [ -x "$(command -v otf2-print)" ]; then
    "$B/rtg-convert" -q --otf2 otf "$f" && otf2-print -G otf/trace.otf2 | grep '^LOCATION_GROUP' | gpus >otf2.txt
  else
    cp rpt.txt otf2.txt # (no otf2-print here: checked where Debian's otf2-tools are)
  fi
  echo "rpt:     $(cat rpt.txt)"
  for t in gaps json sqlite otf2; do
    if cmp -s rpt.txt $t.txt; then echo "$t: the same"; else echo "$t: DIFFERS: $(cat $t.txt)"; fi
  done
  # the CPU agent's copies: on a lane of their own that says what they are
  grep -h 'CPU' gaps-resources.txt lanes.txt | sort -u
  echo "sqlite gpuIds: $(sqlite3 out.rpd "select distinct gpuId from rocpd_op order by 1" | tr '\n' ' ')"
  echo "kernels: $k1 in the statistics, $k2 in the gap report"
  rm -rf gaps.txt out.json out.rpd st otf
done
