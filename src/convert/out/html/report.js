/* rtg's HTML report: draws what rtg-convert --html embedded (html_write.c).
 * It computes no analysis: the numbers are the --analyze JSON's
 * (#rtg-analysis) and the sink's (#rtg-meta, #rtg-bin); this only lays
 * them out, formats them and draws them on canvases. */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'class') e.className = attrs[k];
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of kids) if (c != null) e.append(c instanceof Node ? c : String(c));
    return e;
  };
  const A = JSON.parse($('rtg-analysis').textContent);
  const M = JSON.parse($('rtg-meta').textContent);
  const BASE = BigInt(M.base_ns);
  const CAUSE_COLORS = {
    busy: '#3a9d5d', copy_busy: '#7a3b10', startup: '#b8bec6', dependency: '#8e6cc0',
    copy_only: '#f0b04a', launch_latency: '#e3d24a', host_sync: '#d64545', host_api: '#e58fb4',
    host_outside_api: '#4f86c6',
  };
  const color = (k) => CAUSE_COLORS[k] || hashColor(k);
  function hashColor(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    return 'hsl(' + ((h >>> 0) % 360) + ',55%,' + (52 + ((h >>> 9) % 14)) + '%)';
  }

  /* the typed arrays */
  function b64decode(s) {
    const T = new Uint8Array(128);
    const cs = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (let i = 0; i < 64; i++) T[cs.charCodeAt(i)] = i;
    let n = s.length;
    while (n && (s.charCodeAt(n - 1) === 61 || s.charCodeAt(n - 1) <= 32)) n--;
    const out = new Uint8Array(Math.floor((n * 3) / 4) + 8);
    let o = 0, acc = 0, bits = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c <= 32) continue;
      acc = (acc << 6) | T[c];
      bits += 6;
      if (bits >= 8) { bits -= 8; out[o++] = (acc >> bits) & 255; }
    }
    return out.buffer.slice(0, o + ((8 - (o % 8)) % 8));
  }
  const BUF = b64decode($('rtg-bin').textContent);
  const arr = (k) => {
    const [t, off, n] = M.arrays[k];
    const C = { f64: Float64Array, u32: Uint32Array, f32: Float32Array, u8: Uint8Array }[t];
    return new C(BUF, off, n);
  };
  const ST = arr('start'), DU = arr('dur'), NM = arr('name'), AG = arr('args');
  const PS = arr('pstart'), PD = arr('pdur'), PC = arr('pcause');
  const UT = new Float32Array(BUF, 0, BUF.byteLength >> 2), BI = new Uint8Array(BUF);
  const LONG = new Map(M.long);
  const dur = (i) => (DU[i] === 0xffffffff ? LONG.get(i) : DU[i]);

  /* formatting */
  const fmtUs = (us) => (typeof us === 'number' ? us.toFixed(3) : String(us));
  function fmtDur(ns) {
    const a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toPrecision(3) + ' s';
    if (a >= 1e6) return (ns / 1e6).toPrecision(3) + ' ms';
    if (a >= 1e3) return (ns / 1e3).toPrecision(3) + ' us';
    return Math.round(ns) + ' ns';
  }
  /* a time as the trace writes it: boot-time microseconds, to the ns */
  function absUs(rel) {
    const t = BASE + BigInt(Math.round(rel));
    const s = t.toString().padStart(4, '0');
    return s.slice(0, -3) + '.' + s.slice(-3);
  }
  const pct = (a, b) => (b ? (100 * a) / b : 0).toFixed(1);

  const report = $('report');
  const toc = $('toc');
  function section(id, title) {
    const s = el('section', { id });
    s.append(el('h2', null, title));
    report.append(s);
    toc.append(el('a', { href: '#' + id }, title));
    return s;
  }

  /* summary */
  {
    const np = M.procs.length, nt = M.tracks.length;
    let s = np + ' process' + (np === 1 ? '' : 'es') + ', ' + (A.gpus || []).length +
      ' GPU(s) analysed, ' + nt + ' timeline tracks, ' + M.events_total.toLocaleString('en') +
      ' events over ' + fmtDur(M.span_ns) + '. ' + M.tool + '.';
    $('summary').textContent = s;
    if (!M.all_embedded) {
      report.append(el('p', { class: 'note', id: 'partial' },
        'This trace has ' + M.events_total.toLocaleString('en') + ' events, more than the ' +
        M.max_events.toLocaleString('en') + ' the report embeds one by one: the timeline shows ' +
        'every track as coverage blocks, and single events only around the largest gaps (' +
        M.events.toLocaleString('en') + ' events, ' + M.windows.length + ' windows, marked).'));
    }
    if (M.args_dropped)
      report.append(el('p', { class: 'note' }, M.args_dropped.toLocaleString('en') +
        ' events are shown without their arguments (the report keeps 24 MB of distinct argument texts).'));
  }

  /* 1. verdicts and causes */
  const CAUSES = ['startup', 'copy_only', 'dependency', 'launch_latency', 'host_sync', 'host_api',
    'host_outside_api'];
  function causeBar(causes, total, skipStartup) {
    const bar = el('div', { class: 'bar' });
    for (const k of Object.keys(causes)) {
      if (skipStartup && k === 'startup') continue;
      const v = causes[k];
      if (!v || !total) continue;
      bar.append(el('span', { style: 'width:' + (100 * v) / total + '%;background:' + color(k),
        title: k + ': ' + fmtUs(v) + ' us (' + pct(v, total) + ' %)' }));
    }
    return bar;
  }
  function legend(keys) {
    const l = el('div', { class: 'legend' });
    for (const k of keys) l.append(el('i', { style: 'background:' + color(k) }), k);
    return l;
  }
  {
    const s = section('verdict', 'Verdict and idle causes');
    const lines = M.text.split('\n');
    const verdicts = [];
    for (const ln of lines) { if (!ln.trim()) break; verdicts.push(ln); }
    s.append(el('pre', { class: 'verdict', id: 'verdict-lines' }, verdicts.join('\n')));
    s.append(legend(CAUSES));
    for (const g of A.gpus || []) {
      const c = el('div', { class: 'card gpu', 'data-gpu': g.gpu, 'data-pid': g.pid });
      const after = g.idle_us - (g.idle_causes.startup || 0);
      const spanAfter = g.span_us - (g.idle_causes.startup || 0);
      c.append(el('h3', null, g.gpu + ' of pid ' + g.pid + ' on ' + g.host + ': idle ' +
        pct(after, spanAfter) + ' % of the ' + fmtDur(spanAfter * 1e3) + ' after startup'));
      c.append(el('div', { class: 'muted' }, 'after startup, by cause:'), causeBar(g.idle_causes, after, true));
      const t = el('table', { class: 'causes' });
      t.append(el('tr', null, el('th', { class: 'l' }, 'cause'), el('th', null, 'time (us)'),
        el('th', null, '% of idle'), el('th', null, '% after startup')));
      t.append(el('tr', null, el('td', { class: 'l' }, 'span'), el('td', null, fmtUs(g.span_us)), el('td'), el('td')));
      t.append(el('tr', null, el('td', { class: 'l' }, 'busy (kernels)'), el('td', { class: 'busy' }, fmtUs(g.busy_us)),
        el('td'), el('td')));
      if (g.copy_busy_us != null)
        t.append(el('tr', null, el('td', { class: 'l' }, 'copy busy (beside busy)'), el('td', null, fmtUs(g.copy_busy_us)), el('td'), el('td')));
      t.append(el('tr', null, el('td', { class: 'l' }, 'idle'), el('td', { class: 'idle' }, fmtUs(g.idle_us)), el('td'), el('td')));
      for (const k of Object.keys(g.idle_causes)) {
        const v = g.idle_causes[k];
        t.append(el('tr', { 'data-cause': k }, el('td', { class: 'l' },
          el('i', { style: 'display:inline-block;width:10px;height:10px;margin-right:5px;background:' + color(k) }), k),
        el('td', { class: 'us' }, fmtUs(v)), el('td', { class: 'pct-idle' }, pct(v, g.idle_us)),
        el('td', { class: 'pct-after' }, k === 'startup' ? '-' : pct(v, after))));
      }
      c.append(t);
      for (const k of Object.keys(g.host_by_call || {})) {
        const calls = g.host_by_call[k];
        const names = Object.keys(calls);
        if (!names.length) continue;
        c.append(el('div', null, k + ' by call: ' + names.map((n) => n + ' ' + fmtUs(calls[n]) + ' us').join(', ')));
      }
      const waited = (on) => Object.keys(on || {}).map((n) => n + ' ' + fmtUs(on[n]) + ' us').join(', ');
      if (waited(g.dependency_on)) c.append(el('div', null, 'dependency by what it waited for: ' + waited(g.dependency_on)));
      /* per queue, when the analysis has them */
      const qs = g.queues || [];
      if (qs.length > 1) c.append(el('div', { class: 'muted' }, 'by queue (each queue\'s own ops), after its startup: busy, then idle by cause:'));
      for (const q of qs.length > 1 ? qs : []) {
        if (!q || !q.idle_causes) continue;
        const st = q.idle_causes.startup || 0, after = q.span_us - st;
        const parts = Object.assign({ busy: q.busy_us }, q.idle_causes);
        c.append(el('div', { class: 'muted' }, 'queue ' + q.queue + ': ' + q.kernels + ' kernels, idle ' +
          pct(q.idle_us - st, after) + ' % of ' + fmtDur(after * 1e3) +
          (waited(q.dependency_on) ? '; dependency waiting for ' + waited(q.dependency_on) : '')), causeBar(parts, after, true));
      }
      const rest = Object.keys(g).filter((k) => !['pid', 'host', 'gpu', 'span_us', 'busy_us', 'copy_busy_us', 'idle_us', 'idle_causes', 'host_by_call', 'dependency_on', 'queues', 'span_start_ns', 'span_end_ns'].includes(k));
      for (const k of rest) c.append(el('h3', null, k), generic(g[k]));
      s.append(c);
    }
    if (!(A.gpus || []).length) s.append(el('p', null, 'No GPU ops: nothing to analyze.'));
  }

  /* the timeline's jump target for a record of the analysis with a time */
  function recordTime(o) {
    if (!o || typeof o !== 'object') return null;
    const num = (k) => (typeof o[k] === 'number' ? o[k] : null);
    let s = null, e = null;
    for (const k of ['start_us', 'ts_us', 'time_us', 'begin_us', 'at_us', 't_us']) if (s == null && num(k) != null) s = num(k) * 1e3;
    for (const k of ['start_ns', 'ts_ns', 'begin_ns']) if (s == null && num(k) != null) s = num(k);
    if (s == null) return null;
    for (const k of ['end_us', 'stop_us']) if (e == null && num(k) != null) e = num(k) * 1e3;
    for (const k of ['end_ns', 'stop_ns']) if (e == null && num(k) != null) e = num(k);
    for (const k of ['dur_us', 'duration_us', 'cost_us', 'idle_us', 'wait_us', 'queue_us']) if (e == null && num(k) != null) e = s + num(k) * 1e3;
    for (const k of ['dur_ns', 'duration_ns']) if (e == null && num(k) != null) e = s + num(k);
    if (e == null) e = s;
    /* absolute boot time (as the trace's times), else from the base */
    const base = Number(BASE);
    if (s > base / 2) { s -= base; e -= base; }
    return [s, e];
  }

  /* any JSON as a table: arrays of objects as rows, objects as key/value */
  function generic(v, depth) {
    depth = depth || 0;
    if (v == null || typeof v !== 'object') return el('span', null, typeof v === 'number' && !Number.isInteger(v) ? fmtUs(v) : String(v));
    if (Array.isArray(v)) {
      if (v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
        const cols = [];
        for (const r of v) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
        const t = el('table', { class: 'generic' });
        t.append(el('tr', null, ...cols.map((c) => el('th', { class: 'l' }, c)), el('th')));
        for (const r of v) {
          const tr = el('tr', null, ...cols.map((c) => el('td', { class: 'l' }, r[c] === undefined ? '' : depth < 3 ? generic(r[c], depth + 1) : JSON.stringify(r[c]))));
          const at = recordTime(r);
          tr.append(el('td', null, at ? jumpLink(at, r) : ''));
          t.append(tr);
        }
        return t;
      }
      return el('span', null, v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', '));
    }
    const t = el('table', { class: 'generic' });
    for (const k of Object.keys(v)) t.append(el('tr', null, el('th', { class: 'l' }, k), el('td', { class: 'l' }, depth < 3 ? generic(v[k], depth + 1) : JSON.stringify(v[k]))));
    return t;
  }
  function jumpLink(at, r) {
    return el('a', { class: 'jump', onclick: () => TL.jump(at[0], at[1], r) }, 'show in timeline');
  }

  /* the process start of a pid, for times "from its start" */
  const procStart = {};
  for (const p of A.processes || []) procStart[p.pid] = p.start_ns;
  const fromStart = (pid, ns) => (procStart[pid] != null ? '+' + fmtDur(ns - procStart[pid]) : absUs(ns - Number(BASE)) + ' us');
  const who = (r) => (r.gpu ? r.gpu + ' (pid ' + r.pid + ')' : 'pid ' + r.pid);

  /* rules: those that fired, with their instances; the others in one line */
  if (Array.isArray(A.rules)) {
    const s = section('rules', 'Rules');
    const fired = A.rules.filter((r) => r.fired !== false);
    const quiet = A.rules.filter((r) => r.fired === false);
    if (!fired.length) s.append(el('p', null, 'No rule fired.'));
    fired.sort((a, b) => (b.cost_us || 0) - (a.cost_us || 0));
    for (const r of fired) {
      const c = el('div', { class: 'card rule', 'data-rule': r.id });
      c.append(el('h3', null, who(r) + ': ' + r.id + (r.title ? ': ' + r.title : '')));
      c.append(el('div', null, (r.count != null ? r.count + (r.of ? ' of ' + r.of : '') : '') +
        (r.cost_us != null ? ', costing ' + fmtDur(r.cost_us * 1e3) : '')));
      if (r.advice) c.append(el('div', { class: 'muted' }, '\u2192 ' + r.advice));
      const inst = r.instances || [];
      if (inst.length) {
        const t = el('table', { class: 'instances' });
        t.append(el('tr', null, el('th', null, 'at'), el('th', null, 'time'), el('th', null, 'tid'), el('th', { class: 'l' }, 'what'), el('th')));
        for (const i of inst) {
          const at = recordTime(i);
          t.append(el('tr', null,
            el('td', null, i.start_ns != null ? fromStart(r.pid, i.start_ns) : i.start_us != null ? fmtUs(i.start_us) + ' us' : ''),
            el('td', null, i.dur_us != null ? fmtDur(i.dur_us * 1e3) : ''), el('td', null, i.tid ? String(i.tid) : ''),
            el('td', { class: 'l name' }, i.what || i.call || ''), el('td', null, at ? jumpLink(at, i) : '')));
        }
        c.append(t);
      }
      s.append(c);
    }
    if (quiet.length)
      s.append(el('p', { class: 'muted' }, 'Checked, not fired: ' + quiet.map((r) => who(r) + ' ' + r.id).join(', ') + '.'));
  }

  /* launch decomposition: per kernel, the medians of API, queue and kernel time */
  if (Array.isArray(A.launch) && A.launch.length) {
    const s = section('launch', 'Launch decomposition');
    s.append(el('p', { class: 'muted' }, 'Per kernel (the most kernel time first): the median time in the call that launched it (api), from its enqueue to its start (queue), and on the GPU (kernel); p95 and max in the tooltip and the table.'));
    const LC = { api: '#e58fb4', queue: '#e3d24a', kernel: '#3a9d5d' };
    Object.assign(CAUSE_COLORS, LC);
    s.append(legend(['api', 'queue', 'kernel']));
    const rows = A.launch.slice(0, 20);
    const max = Math.max(...rows.map((r) => r.api_us.median + r.queue_us.median + r.kernel_us.median), 1e-9);
    for (const r of rows) {
      const line = el('div', { class: 'hbar', 'data-kernel': r.kernel });
      line.append(el('span', { class: 'lb', title: r.kernel }, (r.kernel.length > 28 ? r.kernel.slice(0, 27) + '\u2026' : r.kernel)));
      const bar = el('span', { class: 'stack', style: 'width:' + Math.max(1, (70 * (r.api_us.median + r.queue_us.median + r.kernel_us.median)) / max) + '%' });
      for (const k of ['api', 'queue', 'kernel']) {
        const d = r[k + '_us'], tot = r.api_us.median + r.queue_us.median + r.kernel_us.median;
        if (!d.n || !tot) continue;
        bar.append(el('span', { style: 'width:' + (100 * d.median) / tot + '%;background:' + LC[k],
          title: k + ': median ' + fmtDur(d.median * 1e3) + ', p95 ' + fmtDur(d.p95 * 1e3) + ', max ' + fmtDur(d.max * 1e3) + ' (' + d.n + ')' }));
      }
      line.append(bar, el('span', { class: 'v' }, r.count + ' x, ' + (r.launch_bound ? r.launch_bound + ' launch-bound, ' : '') + who(r)));
      s.append(line);
    }
    const details = el('details', null, el('summary', null, 'the table (median / p95 / max), by kernel and by queue'));
    const tab = (list, key) => {
      const t = el('table', { class: 'launch' });
      t.append(el('tr', null, el('th', { class: 'l' }, key), el('th', null, 'count'), el('th', null, 'api'), el('th', null, 'queue'), el('th', null, 'kernel'), el('th', null, 'launch-bound'), el('th', { class: 'l' }, 'where')));
      const f = (d) => (d.n ? fmtDur(d.median * 1e3) + ' / ' + fmtDur(d.p95 * 1e3) + ' / ' + fmtDur(d.max * 1e3) : '-');
      for (const r of list)
        t.append(el('tr', null, el('td', { class: 'l name' }, String(r[key])), el('td', null, String(r.count)), el('td', null, f(r.api_us)), el('td', null, f(r.queue_us)), el('td', null, f(r.kernel_us)), el('td', null, String(r.launch_bound)), el('td', { class: 'l' }, who(r))));
      return t;
    };
    details.append(tab(A.launch, 'kernel'));
    if (Array.isArray(A.launch_queues)) details.append(tab(A.launch_queues, 'queue'));
    s.append(details);
  }

  /* the critical path of each process, and its what-ifs */
  if (Array.isArray(A.critical_path) && A.critical_path.length) {
    const s = section('critical', 'Critical path');
    s.append(el('p', { class: 'muted' }, 'The chain of host calls and GPU ops that sets each process\'s end, back from its last event; its parts add up to its length. A what-if runs the graph again with a kernel (or every copy) twice as fast.'));
    Object.assign(CAUSE_COLORS, { host_cpu: '#4f86c6', runtime_api: '#e58fb4', queue: '#e3d24a',
      kernels: '#3a9d5d', copies: '#f0b04a', barriers: '#8e6cc0' });
    s.append(legend(Object.keys(A.critical_path[0].parts_us)));
    for (const cp of A.critical_path) {
      const c = el('div', { class: 'card critical', 'data-pid': cp.pid });
      c.append(el('h3', null, 'pid ' + cp.pid + ' on ' + cp.host + ': ' + fmtDur(cp.length_us * 1e3) + ' (' + cp.steps + ' steps)'));
      c.append(causeBar(cp.parts_us, cp.length_us, false));
      const list = (title, v) => {
        if (!v || !v.length) return;
        c.append(el('div', null, title + ': ' + v.slice(0, 5).map((x) => x.name + ' ' + fmtDur(x.us * 1e3) + ' (' + pct(x.us, cp.length_us) + ' %)').join(', ')));
      };
      list('kernels on it', cp.kernels);
      list('calls on it', cp.calls);
      for (const w of cp.whatif || [])
        c.append(el('div', { class: 'whatif' }, 'what if ' + w.twice_as_fast + ' ran twice as fast: ' + fmtDur(cp.length_us * 1e3) + ' \u2192 ' + fmtDur(w.length_us * 1e3) + ', ' + pct(cp.length_us - w.length_us, cp.length_us) + ' % shorter'));
      s.append(c);
    }
  }

  /* processes side by side */
  if (Array.isArray(A.processes) && A.processes.length > 1) {
    const s = section('processes', 'Processes');
    const t0 = Math.min(...A.processes.map((p) => p.start_ns));
    s.append(el('p', null, 'GPU work ends last in pid ' + A.finishes_last + '; the GPUs of pid ' + A.waits_most + ' wait most.'));
    const t = el('table', { class: 'processes' });
    t.append(el('tr', null, el('th', null, 'pid'), el('th', { class: 'l' }, 'host'), el('th', null, 'GPUs'), el('th', null, 'GPU work ends'), el('th', null, 'busy'), el('th', null, 'idle after startup'), el('th', { class: 'l' }, 'top cause')));
    for (const p of A.processes)
      t.append(el('tr', null, el('td', null, String(p.pid)), el('td', { class: 'l' }, p.host), el('td', null, String(p.gpus)), el('td', null, '+' + fmtDur(p.end_ns - t0)), el('td', null, fmtDur(p.busy_us * 1e3)), el('td', null, fmtDur(p.idle_after_startup_us * 1e3)), el('td', { class: 'l' }, p.top_cause)));
    s.append(t);
  }

  /* any other section of the analysis */
  const SHOWN = ['gpus', 'rules', 'launch', 'launch_queues', 'critical_path', 'processes', 'finishes_last', 'waits_most'];
  for (const k of Object.keys(A)) {
    if (SHOWN.includes(k)) continue;
    section('analysis-' + k, k.replace(/_/g, ' ')).append(generic(A[k]));
  }

  /* 2. utilisation over time */
  const devs = M.devs, UTIL = [];
  if (devs.length) {
    const s = section('utilisation', 'Utilisation over time');
    s.append(el('p', { class: 'muted' }, 'Per GPU: busy (kernels) and idle by cause, stacked, ' +
      'as a share of each slice of the span (' + (devs[0].nbins) + ' slices); copies (beside busy) as the brown line. ' +
      'It opens at the first op (startup aside): drag to zoom, double-click for the whole span, click to show that time in the timeline.' +
      (devs[0].pieces ? ' Zoomed below a slice, busy and idle come from the analysis\'s idle pieces themselves (copies stay at slice resolution).'
        : ' The idle pieces are too many to embed: zoom stops at a slice.')));
    s.append(legend(['busy'].concat(CAUSES).concat(['copy_busy'])));
    for (const d of devs) {
      s.append(el('h3', null, d.label + ', pid ' + d.pid));
      const cv = el('canvas', { class: 'chart util', 'data-gpu': d.gpu, 'data-pid': d.pid });
      s.append(cv);
      UTIL.push(utilChart(cv, d));
    }
  }
  /* [t0, t1) (ns from base_ns) of device d from its idle pieces: the
   * nanoseconds of each series (busy, copy_busy left 0, each cause) */
  function piecesIn(d, t0, t1) {
    const out = new Float64Array(d.series.length);
    const a = Math.max(t0, d.span[0]), b = Math.min(t1, d.span[1]);
    if (b <= a) return out;
    const first = d.pieces[0], end = first + d.pieces[1];
    let lo = first, hi = end; /* the first piece to end after a (disjoint, by start) */
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (PS[m] + PD[m] <= a) lo = m + 1; else hi = m;
    }
    let idle = 0;
    for (let i = lo; i < end && PS[i] < b; i++) {
      const w = Math.min(b, PS[i] + PD[i]) - Math.max(a, PS[i]);
      if (w > 0) out[2 + PC[i]] += w, idle += w;
    }
    out[0] = Math.max(0, b - a - idle);
    return out;
  }
  function utilChart(cv, d) {
    const nb = d.nbins, ns = d.series.length, base = d.util_off >> 2;
    const span0 = d.span[0], span1 = d.span[1], bw = (span1 - span0) / nb;
    const fine = !!d.pieces, minw = fine ? Math.min(0.5, 100 / bw) : 0.5;
    /* from the first op (startup aside); double-click: the whole span */
    const si = d.series.indexOf('startup');
    let first = 0;
    while (first < nb - 1 && UT[base + first * ns + si] >= bw * 0.999) first++;
    let v0 = first, v1 = nb, drag = null;
    function draw() {
      const W = (cv.width = cv.clientWidth * devicePixelRatio), H = (cv.height = cv.clientHeight * devicePixelRatio);
      const g = cv.getContext('2d');
      g.clearRect(0, 0, W, H);
      const per = (v1 - v0) / W;
      const copyY = [];
      for (let x = 0; x < W; x++) {
        const a = v0 + x * per, b = a + per;
        const sum = new Float64Array(ns);
        let wsum = 0;
        for (let i = Math.floor(a); i < Math.min(nb, Math.ceil(b)); i++) {
          const w = Math.min(b, i + 1) - Math.max(a, i);
          if (w <= 0) continue;
          wsum += w;
          for (let k = 0; k < ns; k++) sum[k] += UT[base + i * ns + k] * w;
        }
        if (!wsum) continue;
        if (fine && per < 1) { /* below a slice: the pieces themselves, copies as the slice has them */
          const p = piecesIn(d, span0 + a * bw, span0 + b * bw);
          for (let k = 0; k < ns; k++) if (k !== 1) sum[k] = (p[k] * wsum) / (b - a);
        }
        let y = H;
        const order = [0].concat(d.series.map((_, k) => k).slice(2));
        for (const k of order) {
          const h = (sum[k] / wsum / bw) * H;
          if (h <= 0) continue;
          g.fillStyle = color(d.series[k]);
          g.fillRect(x, y - h, 1, h);
          y -= h;
        }
        copyY.push([x, H - (sum[1] / wsum / bw) * H]);
      }
      g.strokeStyle = color('copy_busy');
      g.lineWidth = 1.5 * devicePixelRatio;
      g.beginPath();
      copyY.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
      g.stroke();
      if (drag && drag.b != null) {
        g.fillStyle = '#1f6fd133';
        g.fillRect(Math.min(drag.a, drag.b), 0, Math.abs(drag.b - drag.a), H);
      }
      g.fillStyle = '#1d232b';
      g.font = 11 * devicePixelRatio + 'px sans-serif';
      g.fillText('+' + fmtDur((v0 * bw)) + ' .. +' + fmtDur(v1 * bw) + ' from the span start', 4, 12 * devicePixelRatio);
    }
    const xOf = (e) => (e.offsetX * devicePixelRatio);
    cv.addEventListener('mousedown', (e) => { drag = { a: xOf(e), b: null }; });
    cv.addEventListener('mousemove', (e) => { if (drag) { drag.b = xOf(e); draw(); } });
    cv.addEventListener('mouseup', (e) => {
      const W = cv.width, per = (v1 - v0) / W;
      if (drag && drag.b != null && Math.abs(drag.b - drag.a) > 4) {
        const a = v0 + Math.min(drag.a, drag.b) * per, b = v0 + Math.max(drag.a, drag.b) * per;
        v0 = a; v1 = Math.max(b, a + minw);
      } else {
        const t = span0 + (v0 + xOf(e) * per) * bw;
        TL.jump(t - ((v1 - v0) * bw) / 20, t + ((v1 - v0) * bw) / 20);
      }
      drag = null;
      draw();
    });
    cv.addEventListener('dblclick', () => { v0 = 0; v1 = nb; draw(); });
    addEventListener('resize', draw);
    draw();
    window.rtgFirstChart = window.rtgFirstChart || performance.now();
    /* zoom to [t0, t1) ns from base_ns (as a drag does) */
    const zoom = (t0, t1) => {
      v0 = (t0 - span0) / bw;
      v1 = Math.max((t1 - span0) / bw, v0 + minw);
      draw();
    };
    return { canvas: cv, dev: d, zoom, at: (t0, t1) => (fine ? piecesIn(d, t0, t1) : null), bw };
  }

  /* 3. top kernels and gaps */
  if (devs.length) {
    const s = section('kernels', 'Top kernels');
    s.append(el('p', { class: 'muted' }, 'Per GPU, by total time; click a header to sort. Median and p95 are nearest-rank.'));
    for (const d of devs) {
      s.append(el('h3', null, d.label + ', pid ' + d.pid));
      const rows = d.kernels.map((k) => ({ name: M.strings[k[0]], count: k[1], total: k[2], median: k[3], p95: k[4], max: k[5] }));
      s.append(sortable(rows, [['name', 'kernel', 1], ['total', 'time (us)'], ['count', 'count'], ['median', 'median (us)'], ['p95', 'p95 (us)'], ['max', 'max (us)']], 'top-kernels', d));
    }
    const g = section('gaps', 'Gaps between kernels');
    g.append(el('p', { class: 'muted' }, 'Idle stretches after startup (touching idle pieces of the analysis merged), by length; the largest link to the timeline.'));
    for (const d of devs) {
      g.append(el('h3', null, d.label + ', pid ' + d.pid + ': ' + d.gaps.toLocaleString('en') + ' gaps'));
      const max = Math.max(1, ...d.gap_count);
      const h = el('div', { class: 'hist', 'data-gpu': d.gpu });
      d.gap_buckets.forEach((b, i) => h.append(el('div', { class: 'hbar' }, el('span', { class: 'lb' }, b),
        el('span', { class: 'b', style: 'width:' + (300 * d.gap_count[i]) / max + 'px' }),
        el('span', { class: 'v' }, d.gap_count[i] + ' (' + fmtDur(d.gap_ns[i]) + ')'))));
      g.append(h);
      if (d.worst.length) {
        const t = el('table', { class: 'worst' });
        t.append(el('tr', null, el('th', null, 'largest gaps'), el('th', null, 'start (us)'), el('th', null, 'length'), el('th')));
        d.worst.slice(0, 10).forEach(([a, b], i) => t.append(el('tr', null, el('td', null, i + 1), el('td', null, absUs(a)),
          el('td', null, fmtDur(b - a)), el('td', null, jumpLink([a, b], { gap: i + 1 })))));
        g.append(t);
      }
    }
  }
  function sortable(rows, cols, cls, d) {
    const t = el('table', { class: 'sortable ' + cls, 'data-gpu': d.gpu, 'data-pid': d.pid });
    let key = 'total', desc = true;
    const head = el('tr');
    for (const [k, label, left] of cols) head.append(el('th', { class: 'sortable' + (left ? ' l' : ''), 'data-key': k, onclick: () => { desc = key === k ? !desc : k !== 'name'; key = k; fill(); } }, label));
    t.append(head);
    const body = el('tbody');
    t.append(body);
    function fill() {
      rows.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0) * (desc ? -1 : 1));
      body.replaceChildren(...rows.map((r) => el('tr', null, ...cols.map(([k, , left]) => left ?
        el('td', { class: 'name' }, el('a', { class: 'jump', onclick: () => TL.find(r.name) }, r[k])) :
        el('td', { class: k }, k === 'count' ? r[k] : (r[k] / 1e3).toFixed(3))))));
    }
    fill();
    return t;
  }

  /* 4. the timeline */
  const TL = (function () {
    const s = section('timeline-section', 'Timeline');
    const findBox = el('input', { id: 'tl-find', placeholder: 'find an event by name (Enter: next)' });
    const view = el('span', { id: 'tl-view', class: 'muted' });
    s.append(el('p', { class: 'muted' }, 'Every track: wheel to zoom, drag to pan, hover for an event, click to select it. ' +
      'Zoomed out, dense tracks show coverage blocks (darker: busier); zoomed in, single events.'));
    s.append(el('div', { class: 'toolbar' }, findBox, el('button', { onclick: () => reset() }, 'whole run'),
      el('button', { onclick: () => zoom(0.5, 0.5) }, '+'), el('button', { onclick: () => zoom(2, 0.5) }, '-'), view));
    /* the canvas is the visible window only (sticky at the top of the
     * scrolled box); the spacer under it gives the box the height of every
     * row, so any number of tracks scrolls without a canvas that tall */
    const wrap = el('div', { id: 'tl-wrap' });
    const cv = el('canvas', { id: 'timeline' });
    const spacer = el('div', { class: 'tl-spacer' });
    wrap.append(cv, spacer);
    s.append(wrap);
    const info = el('div', { id: 'tl-info' }, 'Hover or click an event.');
    s.append(info);
    const tip = el('div', { id: 'tip' });
    document.body.append(tip);
    const RH = 18, LW = 230;
    /* rows: a process's header, then its tracks */
    const rows = [];
    let lastProc = -1;
    M.tracks.forEach((t, i) => {
      if (t.proc !== lastProc) {
        const p = M.procs[t.proc];
        rows.push({ head: 'pid ' + p.pid + ' on ' + p.host + (p.exe ? ' ' + p.exe : '') + (p.rank ? ' rank ' + p.rank : '') });
        lastProc = t.proc;
      }
      rows.push({ t, i });
    });
    const span = Math.max(1, M.span_ns);
    let v0 = 0, v1 = span, sel = -1, mark = null, findPos = -1, findName = null;
    const state = () => ({ v0, v1, sel });
    function lower(t, x) { /* first event of track t with start >= x */
      let lo = t.off, hi = t.off + t.n;
      while (lo < hi) { const m = (lo + hi) >> 1; if (ST[m] < x) lo = m + 1; else hi = m; }
      return lo;
    }
    /* the visible height: every row, up to the box's (70 % of the window) */
    function viewHeight() {
      return Math.min(rows.length * RH, Math.max(RH, Math.floor(innerHeight * 0.7) - 2));
    }
    function draw() {
      const dpr = devicePixelRatio, W = cv.clientWidth, H = viewHeight();
      cv.style.height = H + 'px';
      spacer.style.height = rows.length * RH - H + 'px';
      cv.width = W * dpr;
      cv.height = H * dpr;
      const g = cv.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, W, H);
      g.font = '11px system-ui, sans-serif';
      g.textBaseline = 'middle';
      const PW = W - LW, k = PW / (v1 - v0);
      const top = wrap.scrollTop;
      for (const [a, b] of M.windows) { /* where single events are embedded */
        const x0 = LW + Math.max(0, (a - v0) * k), x1 = LW + Math.min(PW, (b - v0) * k);
        if (x1 > x0) { g.fillStyle = '#fff6db'; g.fillRect(x0, 0, x1 - x0, H); }
      }
      const first = Math.floor(top / RH), last = Math.min(rows.length, Math.ceil((top + H) / RH));
      for (let ri = first; ri < last; ri++) {
        const r = rows[ri], y = ri * RH - top;
        if (r.head) {
          g.fillStyle = '#e9edf1'; g.fillRect(0, y, W, RH);
          g.fillStyle = '#1d232b'; g.font = 'bold 11px system-ui, sans-serif';
          g.fillText(r.head, 4, y + RH / 2); g.font = '11px system-ui, sans-serif';
          continue;
        }
        const t = r.t;
        g.fillStyle = ri % 2 ? '#fafbfc' : '#fff';
        g.fillRect(0, y, LW, RH);
        g.fillStyle = '#1d232b';
        g.fillText(t.label, 8, y + RH / 2, LW - 12);
        g.save();
        g.beginPath(); g.rect(LW, y, PW, RH); g.clip();
        const lo = lower(t, v0 - t.maxdur), hi = lower(t, v1);
        const n = hi - lo;
        if (!M.all_embedded || n > 2 * PW) drawBins(g, t, y, PW, k);
        if (n <= 2 * PW) drawEvents(g, t, lo, hi, y, PW, k);
        else if (M.all_embedded && n < 400000) drawCoverage(g, t, lo, hi, y, PW, k);
        g.restore();
      }
      if (mark) {
        const x0 = LW + (mark[0] - v0) * k, x1 = LW + (mark[1] - v0) * k;
        g.fillStyle = '#1f6fd122'; g.fillRect(x0, 0, Math.max(2, x1 - x0), H);
        g.strokeStyle = '#1f6fd1'; g.strokeRect(x0, 0, Math.max(2, x1 - x0), H);
      }
      g.strokeStyle = '#d8dde3'; g.beginPath(); g.moveTo(LW - 0.5, 0); g.lineTo(LW - 0.5, H); g.stroke();
      cv.dataset.rows = rows.length;
      cv.dataset.top = top;
      view.textContent = 'view: ' + absUs(v0) + ' .. ' + absUs(v1) + ' us (' + fmtDur(v1 - v0) + ')';
      cv.dataset.v0 = v0; cv.dataset.v1 = v1;
    }
    function drawBins(g, t, y, PW, k) {
      const nb = t.nbins, bw = span / nb;
      const b0 = Math.max(0, Math.floor(v0 / bw)), b1 = Math.min(nb, Math.ceil(v1 / bw));
      for (let b = b0; b < b1; b++) {
        const c = BI[t.bins_off + b];
        if (!c) continue;
        const x = LW + (b * bw - v0) * k, w = Math.max(1, bw * k);
        g.fillStyle = 'rgba(80,110,150,' + (0.15 + (0.6 * c) / 255) + ')';
        g.fillRect(x, y + 3, w, RH - 6);
      }
    }
    function drawCoverage(g, t, lo, hi, y, PW, k) {
      const cov = new Float32Array(Math.ceil(PW) + 1);
      for (let i = lo; i < hi; i++) {
        const a = Math.max(0, (ST[i] - v0) * k), b = Math.min(PW, (ST[i] + dur(i) - v0) * k);
        if (b < 0 || a > PW) continue;
        const xa = Math.floor(a), xb = Math.floor(b);
        if (xa === xb) cov[xa] += Math.max(b - a, 0.05);
        else { cov[xa] += xa + 1 - a; for (let x = xa + 1; x < xb; x++) cov[x] += 1; cov[xb] += b - xb; }
      }
      for (let x = 0; x < PW; x++) {
        if (!cov[x]) continue;
        g.fillStyle = 'rgba(50,90,140,' + (0.25 + 0.75 * Math.min(1, cov[x])) + ')';
        g.fillRect(LW + x, y + 2, 1, RH - 4);
      }
    }
    function drawEvents(g, t, lo, hi, y, PW, k) {
      for (let i = lo; i < hi; i++) {
        const a = (ST[i] - v0) * k, w = Math.max(1, dur(i) * k);
        if (a + w < 0 || a > PW) continue;
        const name = M.strings[NM[i]];
        g.fillStyle = i === sel ? '#111' : hashColor(name);
        g.fillRect(LW + a, y + 2, w, RH - 4);
        if (w > 24) {
          g.fillStyle = i === sel ? '#fff' : '#111';
          const x = LW + Math.max(a, 0) + 2;
          g.fillText(name, x, y + RH / 2, Math.min(w, PW - Math.max(a, 0)) - 4);
        }
      }
    }
    function hit(mx, my) { /* my: from the canvas's top, the visible window's */
      const r = rows[Math.floor((my + wrap.scrollTop) / RH)];
      if (!r || r.head || mx < LW) return -1;
      const t = r.t, PW = cv.clientWidth - LW, k = PW / (v1 - v0);
      const at = v0 + (mx - LW) / k, tol = 2 / k;
      const lo = lower(t, at - t.maxdur - tol), hi = lower(t, at + tol);
      let best = -1;
      for (let i = lo; i < hi; i++)
        if (ST[i] <= at + tol && ST[i] + dur(i) >= at - tol && (best < 0 || dur(i) < dur(best))) best = i;
      return best;
    }
    function trackOf(i) { return M.tracks.find((t) => i >= t.off && i < t.off + t.n); }
    function describe(i) {
      const t = trackOf(i);
      const gpu = t.kind === 'queue' || t.kind === 'copy';
      const a = AG[i] === 0xffffffff ? '' : M.args[AG[i]];
      return M.strings[NM[i]] + '\n' + (gpu ? 'GPU ' : '') + 'start ' + absUs(ST[i]) + ' us, ' + (gpu ? 'GPU ' : '') + 'stop ' +
        absUs(ST[i] + dur(i)) + ' us (' + fmtDur(dur(i)) + ')\ntrack: pid ' + M.procs[t.proc].pid + ' ' + t.label + (a ? '\nargs: ' + a : '');
    }
    function select(i) {
      sel = i;
      info.textContent = i < 0 ? 'Hover or click an event.' : describe(i);
      info.dataset.event = i;
      draw();
    }
    function setView(a, b) {
      const w = Math.max(50, b - a);
      v0 = Math.max(-w, a); v1 = v0 + w;
      draw();
    }
    function reset() { setView(0, span); }
    function zoom(f, at) {
      const c = v0 + (v1 - v0) * at, w = (v1 - v0) * f;
      setView(c - w * at, c - w * at + w);
    }
    function rowOfTrack(t) { return rows.findIndex((r) => r.t === t); }
    function reveal(i) {
      const ri = rowOfTrack(trackOf(i));
      wrap.scrollTop = Math.max(0, ri * RH - wrap.clientHeight / 2);
      s.scrollIntoView({ block: 'start' });
    }
    function find(name) {
      if (name !== findName) { findName = name; findPos = -1; }
      const q = name.toLowerCase();
      /* GPU tracks first: a kernel's name also names its launch call */
      const order = M.tracks.filter((t) => t.kind === 'queue' || t.kind === 'copy').concat(M.tracks.filter((t) => !(t.kind === 'queue' || t.kind === 'copy')));
      const hits = [];
      for (const t of order) for (let i = t.off; i < t.off + t.n; i++) if (M.strings[NM[i]].toLowerCase().includes(q)) { hits.push(i); if (hits.length > 10000) break; }
      if (!hits.length) { info.textContent = 'no event named like "' + name + '" is embedded'; return -1; }
      findPos = (findPos + 1) % hits.length;
      const i = hits[findPos], d = Math.max(dur(i), 100);
      mark = null;
      setView(ST[i] - d * 0.25, ST[i] + d * 1.25);
      select(i);
      reveal(i);
      return i;
    }
    function jump(a, b, rec) {
      const w = Math.max(b - a, 1000);
      mark = [a, b];
      setView(a - w * 0.25, b + w * 0.25);
      info.textContent = 'jumped to ' + absUs(a) + ' .. ' + absUs(b) + ' us' + (rec ? '\n' + JSON.stringify(rec) : '');
      sel = -1;
      draw();
      s.scrollIntoView({ block: 'start' });
    }
    let dragX = null, dragV = null, moved = false;
    cv.addEventListener('wheel', (e) => {
      e.preventDefault();
      const at = Math.min(1, Math.max(0, (e.offsetX - LW) / (cv.clientWidth - LW)));
      zoom(e.deltaY > 0 ? 1.25 : 0.8, at);
    }, { passive: false });
    cv.addEventListener('mousedown', (e) => { dragX = e.offsetX; dragV = [v0, v1]; moved = false; });
    addEventListener('mouseup', (e) => {
      if (dragX != null && !moved && e.target === cv) select(hit(e.offsetX, e.offsetY));
      dragX = null;
    });
    cv.addEventListener('mousemove', (e) => {
      if (dragX != null && Math.abs(e.offsetX - dragX) > 3) {
        moved = true;
        const k = (dragV[1] - dragV[0]) / (cv.clientWidth - LW), d = (e.offsetX - dragX) * k;
        v0 = dragV[0] - d; v1 = dragV[1] - d;
        draw();
      }
      const i = hit(e.offsetX, e.offsetY);
      if (i < 0) { tip.style.display = 'none'; return; }
      tip.textContent = describe(i);
      tip.style.display = 'block';
      tip.style.left = Math.min(e.clientX + 14, innerWidth - 580) + 'px';
      tip.style.top = e.clientY + 14 + 'px';
    });
    cv.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
    wrap.addEventListener('scroll', () => draw());
    findBox.addEventListener('keydown', (e) => { if (e.key === 'Enter' && findBox.value) find(findBox.value); });
    addEventListener('resize', draw);
    draw();
    return { jump, find, setView, select, state, draw, LW, RH, rows, wrap };
  })();

  /* the analysis as text */
  {
    const s = section('text', 'The analysis as text');
    s.append(el('details', null, el('summary', null, 'rtg-convert --analyze'), el('pre', { class: 'text' }, M.text)));
  }
  window.rtgReport = { analysis: A, meta: M, timeline: TL, util: UTIL, color };
  document.body.dataset.ready = '1';
})();
