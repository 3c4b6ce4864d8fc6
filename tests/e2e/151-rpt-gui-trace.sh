# -g: the ROI's commands as Chrome-tracing JSON (valid JSON, names escaped,
# one process per resource, queues as threads, exact microseconds).
D=$TOP/tests/data/rpt
"$B/rpt" -g out.json -r @4 -R @15 "$D/app.log" >/dev/null; echo "exit=$?"
cat out.json
"$B/rpt" -g /no/such/dir/x.json "$D/app.log" >/dev/null; echo "unwritable exit=$?"
