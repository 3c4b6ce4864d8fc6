# A real HSA trace (hsa_vadd on simgpu: host dispatch records, every HSA
# call): Chrome JSON with -f checked event by event with cJSON, dispatch
# arrows from each host enqueue to its kernel or barrier, and its facts.
R="$TOP/tests/data/convert/real"
"$B/rtg-convert" -v -f -o out.json "$R/hsa_vadd.txt"
echo "exit $?"
"$B/tests/test_convert_chrome" out.json | sed 's/.*: //'
"$B/tests/test_convert_chrome" --facts out.json
