# The Chrome JSON loads in a real viewer: speedscope in headless Chromium
# (the script installs them with apt and npm when missing).
"$TOP/scripts/browser-test-convert.sh" "$TOP/tests/data/convert/small.txt" "$TOP/tests/data/convert/gen.txt"
