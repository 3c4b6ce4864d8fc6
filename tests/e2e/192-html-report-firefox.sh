# rtg-convert --html in headless Firefox ESR (through puppeteer-core and
# WebDriver BiDi): every check of 191-html-report, the same expected output.
export RTG_BROWSER=firefox
. "$TOP/tests/e2e/191-html-report.sh"
