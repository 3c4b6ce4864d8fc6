# A real HIP trace (sg_hip on simgpu, backtraces of hipMemcpy and
# hipLaunchKernel): every launch has an arrow to its kernel, every stack
# frame is symbolized although the SYMBOL records come at the end of the
# file; -k names launches by their kernels, demangled (from the dispatch
# records' demangled: field, although they come after the launches).
R="$TOP/tests/data/convert/real"
"$B/rtg-convert" -v -f -o out.json "$R/sg_hip.txt" | grep -v '^ '
echo "exit $?"
"$B/tests/test_convert_chrome" out.json | sed 's/.*: //'
"$B/tests/test_convert_chrome" --facts out.json
echo "-- the first stack"
grep -o '"stack":\[[^]]*\]' out.json | head -n 1 | tr -d '[]"' | tr ',' '\n' | sed 's/^stack://'
echo "-- -k"
"$B/rtg-convert" -q -k -f -o k.json "$R/sg_hip.txt"
"$B/tests/test_convert_chrome" --facts k.json | sed -n '/^slices/,/^names/p' | grep -E 'hip (_Z|hipLaunch|busy|vadd)'
grep -o '"name":"vadd[^"]*","cat":"hip"[^}]*"api":"[^"]*"' k.json | head -n 1 | sed 's/"ts".*"args"/.../'
