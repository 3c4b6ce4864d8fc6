// Drives rtg's HTML report (rtg-convert --html) in a headless browser:
// Chromium through playwright-core ($PLAYWRIGHT_CORE), or with
// RTG_BROWSER=firefox Firefox ESR through puppeteer-core and WebDriver BiDi
// ($PUPPETEER_CORE); scripts/playwright.sh and scripts/puppeteer.sh install
// them.  The checks use what both drivers' pages have alike (see `open`
// below).  Prints "browser: ..." lines; exit 1 when a check fails.
//   node browser-html.js check REPORT.html EXPECT.json
//     EXPECT: {"analysis": the --analyze=FILE.json document, "verdicts": its
//     printed verdict lines, "top_kernel": [name, total ns] from
//     kernel_stats.csv, "dispatches": [[name, start ns, stop ns], ...] of the
//     trace, "rules": true when the report's analysis has rule instances,
//     "partial": true when not every event is embedded}
//   node browser-html.js bench REPORT.html
//     the time to the first chart drawn and to the whole page, in ms
//   node browser-html.js rows REPORT.html NAME
//     a report of more rows than a canvas can be tall: the timeline scrolls
//     over every row with a canvas of the window's height, and the event
//     NAME (on the last row) is found, scrolled to and hovered
'use strict';
const fs = require('fs');
const firefox = process.env.RTG_BROWSER === 'firefox';

const [mode, report, expectPath] = process.argv.slice(2);
let failed = 0;
const say = (s) => console.log('browser: ' + s);
const check = (ok, what) => {
  say((ok ? '' : 'FAIL: ') + what);
  if (!ok) failed++;
};

// The browser and a 1400x900 page in it.
async function open() {
  if (firefox) {
    const puppeteer = require(process.env.PUPPETEER_CORE);
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: process.env.FIREFOX || '/usr/bin/firefox-esr',
      headless: true,
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    return { browser, page };
  }
  const { chromium } = require(process.env.PLAYWRIGHT_CORE);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  return { browser, page: await browser.newPage({ viewport: { width: 1400, height: 900 } }) };
}

(async () => {
  const { browser, page } = await open();
  const text = (sel) => page.$eval(sel, (e) => e.textContent);
  const errors = [], requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  // (data: URLs are the report's own inline fonts; Firefox lists them)
  page.on('request', (r) => {
    if (r.url() !== 'file://' + report && !r.url().startsWith('data:')) requests.push(r.url());
  });
  const t0 = Date.now();
  await page.goto('file://' + report);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  const loadMs = Date.now() - t0;
  const firstChart = await page.evaluate(() => window.rtgFirstChart || performance.now());
  if (mode === 'bench') {
    say((firefox ? 'firefox: ' : '') + 'first chart drawn ' + firstChart.toFixed(0) + ' ms after navigation, page ready in ' + loadMs + ' ms');
    console.log('BENCH_FIRST_CHART_MS=' + firstChart.toFixed(0));
    await browser.close();
    return;
  }
  if (mode === 'rows') {
    const name = expectPath;
    check(!errors.length && !requests.length, 'loaded with ' + errors.length + ' console errors and ' + requests.length + ' network requests' + (errors.length ? ': ' + errors.join('; ') : ''));
    const g = await page.evaluate(() => {
      const tl = window.rtgReport.timeline, cv = document.getElementById('timeline');
      return { rows: tl.rows.length, RH: tl.RH, canvas: cv.height / devicePixelRatio, scroll: tl.wrap.scrollHeight, view: innerHeight };
    });
    check(g.scroll >= g.rows * g.RH - 2 && g.canvas <= g.view, g.rows + ' rows scroll over ' + g.scroll + ' px with a canvas of at most the window\'s height' + (g.canvas <= g.view ? '' : ': ' + g.canvas + ' px'));
    await page.$eval('#tl-find', (e, v) => { e.value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, name);
    await page.focus('#tl-find');
    await page.keyboard.press('Enter');
    const at = await page.evaluate(() => {
      const tl = window.rtgReport.timeline, st = tl.state(), M = window.rtgReport.meta;
      const t = M.tracks.find((t) => st.sel >= t.off && st.sel < t.off + t.n);
      const ri = tl.rows.findIndex((r) => r.t === t);
      const cv = document.getElementById('timeline'), box = cv.getBoundingClientRect();
      return { ri, top: tl.wrap.scrollTop, x: box.left + tl.LW + (cv.clientWidth - tl.LW) * 0.5, y: box.top + ri * tl.RH - tl.wrap.scrollTop + tl.RH / 2 };
    });
    await page.mouse.move(at.x, at.y);
    const tip = await text('#tip');
    check(at.ri === g.rows - 1 && at.top > 0 && tip.startsWith(name + '\n'), 'the last row\'s ' + name + ' is found, scrolled to and shown on hover' + (tip.startsWith(name + '\n') ? '' : ': row ' + at.ri + ', tip ' + JSON.stringify(tip)));
    await browser.close();
    process.exit(failed ? 1 : 0);
  }
  const E = JSON.parse(fs.readFileSync(expectPath, 'utf8'));
  check(!errors.length && !requests.length, 'loaded with ' + errors.length + ' console errors and ' +
    requests.length + ' network requests' + (errors.length ? ': ' + errors.join('; ') : '') +
    (requests.length ? ': ' + requests.join(' ') : ''));

  // the verdict lines, as --analyze prints them
  const verdict = await text('#verdict-lines');
  check(verdict === E.verdicts.join('\n'), 'the verdict equals --analyze\'s (' + E.verdicts.length + ' lines)');

  // each cause's time and percentages, per GPU, against the JSON
  let ncause = 0, bad = [];
  for (const g of E.analysis.gpus) {
    const card = `.card.gpu[data-gpu="${g.gpu}"][data-pid="${g.pid}"]`;
    const after = g.idle_us - g.idle_causes.startup;
    for (const [k, v] of Object.entries(g.idle_causes)) {
      const row = `${card} tr[data-cause="${k}"]`;
      const us = await text(row + ' td.us');
      const pi = await text(row + ' td.pct-idle');
      const pa = await text(row + ' td.pct-after');
      const want = [v.toFixed(3), (g.idle_us ? (100 * v) / g.idle_us : 0).toFixed(1),
        k === 'startup' ? '-' : (after ? (100 * v) / after : 0).toFixed(1)];
      if (us !== want[0] || pi !== want[1] || pa !== want[2]) bad.push(`${g.gpu} ${k}: shown ${us} ${pi} ${pa}, JSON ${want}`);
      ncause++;
    }
  }
  check(!bad.length && ncause > 0, ncause + ' causes: time, % of idle and % after startup equal the JSON' + (bad.length ? ': ' + bad.join('; ') : ''));

  // what the dependencies waited for, per GPU, as the JSON has it
  const fmt = (o) => Object.keys(o || {}).map((n) => n + ' ' + o[n].toFixed(3) + ' us').join(', ');
  const waited = E.analysis.gpus.filter((g) => fmt(g.dependency_on)).map((g) => 'dependency by what it waited for: ' + fmt(g.dependency_on));
  const shownWaits = await page.$$eval('.card.gpu div', (ds) => ds.map((d) => d.textContent).filter((t) => t.startsWith('dependency by what it waited for: ')));
  check(JSON.stringify(shownWaits) === JSON.stringify(waited), 'what the dependencies waited for equals the JSON' + (JSON.stringify(shownWaits) === JSON.stringify(waited) ? '' : ': shown ' + JSON.stringify(shownWaits) + ', JSON ' + JSON.stringify(waited)));

  // the utilisation chart below a slice: its idle pieces add up to each
  // cause of the JSON, and zoomed to the edge of a gap (a quarter slice or
  // less) the column before it is busy and the one after it the cause of
  // the gap's first piece, not a slice's mix
  const z = await page.evaluate((gpus) => {
    const R = window.rtgReport, bad = [];
    const rgb = (css) => {
      const c = document.createElement('canvas').getContext('2d');
      c.fillStyle = css;
      c.fillRect(0, 0, 1, 1);
      return Array.from(c.getImageData(0, 0, 1, 1).data.slice(0, 3)).join(',');
    };
    let edges = 0;
    for (const u of R.util) {
      const d = u.dev, g = gpus.find((g) => g.gpu === d.gpu && g.pid === d.pid);
      if (!d.pieces || !g) { bad.push(d.gpu + ': no pieces'); continue; }
      const all = u.at(d.span[0], d.span[1]);
      d.series.forEach((k, i) => {
        if (i < 2) return;
        const want = g.idle_causes[k] * 1e3;
        if (Math.abs(all[i] - want) > 1e-3 * want + 1e3) bad.push(d.gpu + ' ' + k + ': pieces ' + all[i] + ' ns, JSON ' + want);
      });
      /* a gap whose start follows busy time, and its first piece */
      for (const [s, e] of d.worst) {
        const before = u.at(s - u.bw, s), after = u.at(s, s + 1);
        let busyFrom; /* where the busy stretch before s begins */
        const idleBefore = before.reduce((x, v, i) => x + (i >= 2 ? v : 0), 0);
        if (idleBefore >= u.bw - 1) continue;
        let lo = s - u.bw, hi = s; /* the last idle nanosecond before s */
        for (let it = 0; it < 60 && hi - lo > 1; it++) {
          const m = (lo + hi) / 2;
          if (u.at(m, s).reduce((x, v, i) => x + (i >= 2 ? v : 0), 0) > 0) lo = m; else hi = m;
        }
        busyFrom = hi;
        /* the gap's first piece: its cause, and where it ends */
        const ci = after.findIndex((v, i) => i >= 2 && v > 0), cause = d.series[ci];
        lo = s; hi = e;
        for (let it = 0; it < 60 && hi - lo > 1; it++) {
          const m = (lo + hi) / 2;
          if (u.at(s, m)[ci] >= m - s - 1e-6) lo = m; else hi = m;
        }
        /* the pixels sampled (at a quarter and three quarters of the
         * window) fall in the busy time before the gap and in its first piece */
        const h = Math.min(u.bw / 8, s - busyFrom, lo - s);
        if (!(h > 0)) continue;
        u.zoom(s - h, s + h);
        const cv = u.canvas, c = cv.getContext('2d'), W = cv.width, H = cv.height;
        /* (three rows of the column, two alike: the copy line crosses one at most) */
        const px = (x) => {
          const v = [0.25, 0.5, 0.75].map((f) => Array.from(c.getImageData(x, Math.floor(H * f), 1, 1).data.slice(0, 3)).join(','));
          return v[0] === v[1] || v[0] === v[2] ? v[0] : v[1];
        };
        const left = px(Math.floor(W / 4)), right = px(Math.floor((3 * W) / 4));
        if (left !== rgb(R.color('busy'))) bad.push(d.gpu + ': before the gap ' + left + ', busy is ' + rgb(R.color('busy')));
        if (right !== rgb(R.color(cause))) bad.push(d.gpu + ': in the gap ' + right + ', ' + cause + ' is ' + rgb(R.color(cause)));
        edges++;
        break;
      }
    }
    return { n: R.util.length, edges, bad };
  }, E.analysis.gpus);
  check(z.n > 0 && z.edges > 0 && !z.bad.length, 'below a slice the utilisation chart draws the idle pieces: they add up to each cause of the JSON, and a gap\'s edge is busy, then its cause' + (z.bad.length || !z.edges ? ': ' + z.edges + ' edges; ' + z.bad.join('; ') : ''));

  // the top kernel's total time
  const [kname, kns] = E.top_kernel;
  const top = await page.$$eval('table.top-kernels tbody tr', (rs) => rs.map((r) => [r.querySelector('td.name').textContent, r.querySelector('td.total').textContent]));
  const shown = top.find((r) => r[0] === kname);
  check(top.length && top[0][0] === kname && shown && shown[1] === (kns / 1e3).toFixed(3),
    'the top kernel and its time equal kernel_stats.csv: ' + kname + ' ' + (kns / 1e3).toFixed(3) + ' us' + (shown ? '' : ' (not shown; first: ' + (top[0] || []).join(' ') + ')'));

  // the timeline zoomed to one kernel: its name and GPU start and stop (a
  // partial report embeds single events only around the largest gaps: the
  // kernel may not be among them)
  if (!E.partial) {
  await page.$eval('#tl-find', (e, v) => { e.value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, kname);
  await page.focus('#tl-find');
  await page.keyboard.press('Enter');
  const info = await text('#tl-info');
  const m = /GPU start ([0-9.]+) us, GPU stop ([0-9.]+) us/.exec(info);
  const us2ns = (s) => BigInt(s.replace('.', ''));
  const isDispatch = m && E.dispatches.some((d) => d[0] === kname && BigInt(d[1]) === us2ns(m[1]) && BigInt(d[2]) === us2ns(m[2]));
  check(info.startsWith(kname + '\n') && isDispatch, 'zoomed to ' + kname + ': the timeline shows its name, GPU start and stop as the trace has them' + (isDispatch ? '' : ': ' + info));
  // hover over it on the canvas: the tooltip names it too
  const at = await page.evaluate(() => {
    const tl = window.rtgReport.timeline, st = tl.state(), M = window.rtgReport.meta;
    const t = M.tracks.find((t) => st.sel >= t.off && st.sel < t.off + t.n);
    const ri = tl.rows.findIndex((r) => r.t === t);
    const cv = document.getElementById('timeline'), box = cv.getBoundingClientRect();
    const PW = cv.clientWidth - tl.LW;
    return { x: box.left + tl.LW + PW * 0.5, y: box.top + ri * tl.RH - tl.wrap.scrollTop + tl.RH / 2 };
  });
  await page.mouse.move(at.x, at.y);
  const tip = await text('#tip');
  check(m && tip.startsWith(kname + '\n') && tip.includes('GPU start ' + m[1] + ' us'), 'hovering the kernel on the canvas shows it' + (m && tip.includes('GPU start ' + m[1] + ' us') ? '' : ': ' + tip));
  }

  if (E.rules) {
    // a rule's instance: clicking it scrolls the timeline to it
    await page.evaluate(() => window.scrollTo(0, 0));
    const link = await page.$('#rules a.jump');
    check(!!link, 'the rules section lists instances with links');
    if (link) {
      await link.click();
      const r = await page.evaluate(() => {
        const cv = document.getElementById('timeline'), b = cv.getBoundingClientRect();
        return { v0: +cv.dataset.v0, v1: +cv.dataset.v1, top: b.top, shown: b.top >= 0 && b.top < innerHeight - 60 };
      });
      const base = Number(BigInt(await page.evaluate(() => window.rtgReport.meta.base_ns)));
      const s0 = E.rule_instance_us * 1e3 - base;
      check(r.v0 <= s0 && s0 <= r.v1 && r.shown, 'clicking a rule instance scrolls the page and the timeline to it' + (r.shown ? '' : ' (canvas top at ' + r.top.toFixed(0) + ' px)') + (r.v0 <= s0 && s0 <= r.v1 ? '' : ' (view ' + r.v0 + ' .. ' + r.v1 + ' ns does not hold ' + s0 + ')'));
    }
  }
  if (E.partial) {
    const note = await page.$('#partial');
    check(!!note, 'the report says that not every event is embedded' + (note ? '' : ': no note'));
  }
  await browser.close();
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log('browser: FAIL: ' + e.message);
  process.exit(1);
});
