// The page's logic: builds the model and rank requests from the form, runs them in the
// WebAssembly module (web/dlperf_web.cpp: the application layer and the tool's own commands) and
// draws the replies.
// Every figure shown is a field of the tool's JSON, written by the tool's own formatting
// (dlperf_format). The form's state is the URL's query string, so a link reproduces a result
// (the browser test sets its inputs that way: web/browser_test.py).
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  // The run's fields, from the module (dlperf_fields: the list the tool's run flags come from),
  // but --train and --infer, which the mode menu sets. Each is held by the form element named
  // as its flag without the dashes ('doc-tokens'); a switch is a checkbox, '1' in the address.
  // The model lines pass every field, the rank lines those that do not lay out a job (rank runs
  // each GPU in the fewest of 1, 2, 4, 8 that fit).
  let runFields = [];
  const formName = (f) => f.flag.slice(2);
  // Every field the page's address carries, so that a copied link reproduces the run.
  let FIELDS = [];
  const DEFAULTS = {preset: 'llama3_8b', gpu: 'rtx_4090,a100_sxm4_80gb,h100_sxm,mi300x,rtx_5090',
    gpus: '1', mode: 'infer', batch: '1', seq: '2048', generate: '128', dtype: '', weights: ''};
  const MEMORY_PARTS = [
    ['weights_bytes', 'weights', '#4e79a7'], ['gradients_bytes', 'gradients', '#f28e2b'],
    ['optimizer_bytes', 'optimizer', '#e15759'], ['activations_bytes', 'activations', '#76b7b2'],
    ['kv_cache_bytes', 'KV cache', '#59a14f'], ['overhead_bytes', 'overhead', '#b07aa1']];
  // The serving form's fields (`model --serve`): the switch, then its keywords (the load's two
  // flags and the lengths' spread), each held by the form element named as its keyword
  // (app::serve_keywords; the flag is the keyword with dashes: prompt_min, --prompt-min).
  const SERVE_KEYWORDS = ['concurrency', 'rate', 'prompt_min', 'generate_min'];
  const SERVE_FIELDS = ['serve', ...SERVE_KEYWORDS];
  const SVG = 'http://www.w3.org/2000/svg';
  let dlperf = null;  // the module
  const gpuNames = {};

  // --- the module --------------------------------------------------------------------------
  function run(args) {  // {json: ...} or {error: 'the tool's one-line message'}
    return JSON.parse(dlperf.ccall('dlperf_run', 'string', ['string'], [JSON.stringify(args)]));
  }
  function fmt(unit, value) {  // the tool's text for a figure; never NaN on the page
    if (typeof value !== 'number' || !isFinite(value)) return '\u2014';
    return dlperf.ccall('dlperf_format', 'string', ['string', 'number'], [unit, value]);
  }
  // Command @p command's request by keywords through the application layer (web/dlperf_web.cpp:
  // dlperf_report), the tool's JSON exactly; a request it refuses runs the tool's command line
  // @p args instead, for the tool's own message. {path, refused, reply} says which ran and why.
  function runKeywords(command, keywords, args) {
    const reply = JSON.parse(dlperf.ccall('dlperf_report', 'string', ['string', 'string'],
      [command, JSON.stringify(keywords)]));
    if (reply.json !== undefined) return {path: 'keywords', reply: reply};
    return {path: 'command line', refused: reply.refused, reply: run(args)};
  }
  // The run fields the form's state @p s gives, each with its value, that a model line
  // (@p forRank false) or a rank line (those that do not lay out a job) passes: a field left
  // empty, or a switch unchecked, is not given.
  function givenFields(s, forRank) {
    return runFields
      .filter((f) => !(forRank && f.job_layout))
      .map((f) => [f, s[formName(f)]])
      .filter(([f, v]) => (f.kind === 'toggle' ? v === '1' : v !== ''));
  }
  // The run's keywords of @p s, into @p keywords (a switch as 'true').
  function runKeywordsOf(s, forRank, keywords) {
    keywords.mode = s.mode === 'infer' ? 'infer' : 'train';
    for (const [f, v] of givenFields(s, forRank))
      keywords[f.keyword] = f.kind === 'toggle' ? 'true' : v;
    return keywords;
  }
  // The same as flags of a command line, onto @p args (a switch as its bare flag).
  function runFlagsOf(s, forRank, args) {
    for (const [f, v] of givenFields(s, forRank))
      args.push(...(f.kind === 'toggle' ? [f.flag] : [f.flag, v]));
    return args;
  }
  // The model for GPU @p gpu (`model`, or the command line @p args).
  function runModel(s, gpu, args) {
    const keywords = {gpu: gpu};
    if (s.config !== undefined) {
      keywords.config = 'config.json';  // written by commandLine
    } else {
      keywords.preset = s.preset;
    }
    return runKeywords('model', runKeywordsOf(s, false, keywords), args);
  }
  // The ranking of the form's preset and run (`rank`, or the command line @p args).
  function runRank(s, args) {
    return runKeywords('rank', runKeywordsOf(s, true, {task: s.preset}), args);
  }
  function mustRun(args) {
    const reply = run(args);
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.json;
  }

  // --- the form ----------------------------------------------------------------------------
  function addOption(select, value, text, selected) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    o.selected = !!selected;
    select.appendChild(o);
    return o;
  }
  function fillMenus() {
    for (const m of mustRun(['models', '--json']))
      addOption($('preset'), m.name, m.name + ' (' + fmt('', m.parameters / 1e9) + ' B)');
    for (const g of mustRun(['gpus', '--json'])) {
      gpuNames[g.id] = g.name;
      addOption($('gpu'), g.id, g.name + ' (' + g.memory_gb + ' GiB)');
    }
    runFields = JSON.parse(dlperf.ccall('dlperf_fields', 'string', [], []))
      .filter((f) => f.keyword !== 'train' && f.keyword !== 'infer');
    FIELDS = ['preset', 'config', 'gpu', 'mode', ...runFields.map(formName), ...SERVE_FIELDS];
    for (const f of runFields) fieldElement(f);
  }
  // The form element of run field @p f: the main form's own, or one made for it under "Every
  // run field", with the field's help as its tooltip and its names as choices.
  function fieldElement(f) {
    let e = $(formName(f));
    if (e === null) {
      const label = document.createElement('label');
      if (f.kind === 'toggle') {
        e = document.createElement('input');
        e.type = 'checkbox';
        e.value = '1';
        label.append(e, ' ' + f.flag);
      } else {
        e = document.createElement(f.kind === 'choice' ? 'select' : 'input');
        if (f.kind === 'text') {
          e.size = 8;
          e.placeholder = f.default;
          if (f.names.length > 0) {  // the catalog's names it reads, as suggestions
            const list = document.createElement('datalist');
            list.id = formName(f) + '-names';
            for (const n of f.names) addOption(list, n, n);
            label.appendChild(list);
            e.setAttribute('list', list.id);
          }
        }
        label.append(f.flag + ' ', e);
      }
      e.id = formName(f);
      e.name = formName(f);
      $('more-fields').appendChild(label);
    }
    if (!e.title) e.title = f.help;
    if (f.kind === 'choice') {
      addOption(e, '', f.default === '' ? 'default' : 'default (' + f.default + ')');
      for (const n of f.names) addOption(e, n, n);
    }
    return e;
  }
  // Selects @p value in @p select, adding it when the menu lacks it, so that the tool (not the
  // page) names a value it does not know.
  function choose(select, value) {
    for (const o of select.options) if (o.value === value) { o.selected = true; return; }
    addOption(select, value, value, true);
  }
  function applyQuery() {
    const q = new URLSearchParams(location.search);
    const given = (k) => (q.has(k) ? q.get(k) : DEFAULTS[k] || '');
    if (q.has('config')) {
      $('source-config').checked = true;
      $('config').value = q.get('config');
    }
    choose($('preset'), given('preset'));
    for (const o of $('gpu').options) o.selected = false;
    gpuOrder = given('gpu').split(',').map((s) => s.trim()).filter((s) => s);
    for (const id of gpuOrder) choose($('gpu'), id);
    choose($('mode'), given('mode'));
    for (const f of runFields) {
      const e = $(formName(f));
      if (f.kind === 'toggle') e.checked = given(formName(f)) === '1';
      else if (f.kind === 'choice') choose(e, given(formName(f)));
      else e.value = given(formName(f));
    }
    $('serve').checked = given('serve') === '1';
    for (const k of SERVE_KEYWORDS) $(k).value = given(k);
  }
  // The chosen GPUs in the order they were chosen (the query's order first), not the menu's: the
  // first is the one shown in detail.
  let gpuOrder = [];
  function selectedGpus() {
    const selected = Array.from($('gpu').selectedOptions).map((o) => o.value);
    gpuOrder = gpuOrder.filter((id) => selected.includes(id))
      .concat(selected.filter((id) => !gpuOrder.includes(id)));
    return gpuOrder;
  }
  function formState() {
    const s = {};
    if ($('source-config').checked) s.config = $('config').value;
    else s.preset = $('preset').value;
    s.gpu = selectedGpus().join(',');
    s.mode = $('mode').value;
    for (const f of runFields) {
      const e = $(formName(f));
      s[formName(f)] = f.kind === 'toggle' ? (e.checked ? '1' : '') : e.value.trim();
    }
    s.serve = $('serve').checked ? '1' : '';
    for (const k of SERVE_KEYWORDS) s[k] = $(k).value.trim();
    return s;
  }
  // The tool's command line for GPU @p gpu: an empty field leaves its flag out (the default).
  function commandLine(s, gpu) {
    const args = ['model'];
    if (s.config !== undefined) {
      dlperf.FS.writeFile('config.json', s.config);
      args.push('--config', 'config.json');
    } else {
      args.push('--preset', s.preset);
    }
    args.push('--gpu', gpu, s.mode === 'infer' ? '--infer' : '--train');
    runFlagsOf(s, false, args);
    args.push('--json');
    return args;
  }

  // The serving request for GPU @p gpu: the model line's run without its batch (the engine's KV
  // memory sets the batch), with --serve and the load's flags. {args, keywords}.
  function servingRequest(s, gpu) {
    const run = {...s, batch: ''};
    const args = commandLine(run, gpu);
    args.splice(args.length - 1, 0, '--serve');
    const keywords = {gpu: gpu};
    if (s.config !== undefined) keywords.config = 'config.json';
    else keywords.preset = s.preset;
    runKeywordsOf(run, false, keywords);
    for (const k of SERVE_KEYWORDS) {
      if (s[k] === '') continue;
      args.splice(args.length - 1, 0, '--' + k.replace(/_/g, '-'), s[k]);
      keywords[k] = s[k];
    }
    return {args: args, keywords: keywords};
  }

  // --- drawing -----------------------------------------------------------------------------
  function svgEl(name, attrs, text) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function row(table, label, key, value, text) {
    const tr = table.insertRow();
    tr.insertCell().textContent = label;
    const td = tr.insertCell();
    td.textContent = text;
    td.dataset.key = key;
    if (value !== undefined && value !== null) td.dataset.value = String(value);
    return td;
  }
  function showSummary(gpu, j) {
    $('result-title').textContent = j.model + ' on ' + (gpuNames[gpu] || gpu) +
      (j.gpus > 1 ? ' \u00d7 ' + j.gpus : '') + ': ' +
      (j.mode === 'infer' ? 'inference' : 'training') + ', ' + j.dtype + ', batch ' + j.batch +
      (j.seq ? ', sequence ' + j.seq : '') +
      (j.stack && j.stack !== 'ceiling' ? ', under ' + j.stack : '');
    const t = $('summary');
    t.replaceChildren();
    // The verdict before any number: a run that does not fit gets its times marked.
    const fit = row(t, 'memory', 'fits', j.fits,
      j.fits ? 'fits' : 'does not fit: every time below is hypothetical');
    fit.className = j.fits ? 'fits' : 'nofit';
    row(t, 'parameters', 'parameters', j.parameters, fmt('', j.parameters / 1e9) + ' B');
    if (j.mode === 'infer' && j.decode_s_per_token !== null) {
      row(t, 'time to first token', 'prefill_s', j.prefill_s, fmt('s', j.prefill_s));
      row(t, 'per output token', 'decode_s_per_token', j.decode_s_per_token,
        fmt('s', j.decode_s_per_token));
      row(t, 'whole request', 'step_time_s', j.step_time_s, fmt('s', j.step_time_s));
      row(t, 'prompt processing tokens/s', 'prompt_tokens_per_s', j.prompt_tokens_per_s,
        fmt('', j.prompt_tokens_per_s));
      row(t, 'generation tokens/s', 'decode_tokens_per_s', j.decode_tokens_per_s,
        fmt('', j.decode_tokens_per_s));
      row(t, 'output tokens/s over the request', 'tokens_per_s', j.tokens_per_s,
        fmt('', j.tokens_per_s));
    } else {
      row(t, j.mode === 'infer' ? 'batch latency' : 'step time', 'step_time_s', j.step_time_s,
        fmt('s', j.step_time_s));
      if (j.tokens_per_s > 0)
        row(t, 'tokens/s', 'tokens_per_s', j.tokens_per_s, fmt('', j.tokens_per_s));
      row(t, 'samples/s', 'samples_per_s', j.samples_per_s, fmt('', j.samples_per_s));
    }
    row(t, 'per GPU', 'tflops', j.tflops, fmt('FLOP/s', j.tflops * 1e12));
    row(t, 'model FLOPs utilisation', 'mfu', j.mfu, fmt('%', j.mfu));
    row(t, 'largest batch that fits', 'max_batch', j.max_batch,
      j.max_batch === null ? '\u2014' : String(j.max_batch));
    if (j.fits_with_tp !== null)
      row(t, 'fits with tensor parallelism', 'fits_with_tp', j.fits_with_tp, '--tp ' + j.fits_with_tp);
  }
  function showMemory(j) {
    const m = j.memory;
    const svg = $('memory-bar');
    svg.replaceChildren();
    const width = 700;
    const scale = width / Math.max(m.total_bytes, m.capacity_bytes);
    let x = 0;
    const words = [];
    for (const [key, label, colour] of MEMORY_PARTS) {
      const w = m[key] * scale;
      if (m[key] > 0) {
        const r = svgEl('rect', {x: x, y: 5, width: Math.max(w, 0.5), height: 30, fill: colour,
          'data-key': key, 'data-value': String(m[key])});
        r.appendChild(svgEl('title', {}, label + ' ' + fmt('B', m[key])));
        svg.appendChild(r);
        if (w > 60) svg.appendChild(svgEl('text', {x: x + 4, y: 25, fill: '#fff'}, label));
        words.push(label + ' ' + fmt('B', m[key]));
      }
      x += w;
    }
    const cap = m.capacity_bytes * scale;
    svg.appendChild(svgEl('line', {x1: cap, x2: cap, y1: 0, y2: 40, stroke: '#000',
      'stroke-width': 2, 'stroke-dasharray': '4 2'}));
    svg.appendChild(svgEl('text', {x: Math.min(cap, width - 130), y: 55},
      'capacity ' + fmt('B', m.capacity_bytes)));
    $('memory-text').textContent = words.join(', ') + '; total ' + fmt('B', m.total_bytes) +
      ' of ' + fmt('B', m.capacity_bytes) + (j.fits ? ': fits' : ': does not fit');
  }
  // The serving figures of `model --serve --json` reply @p j: each row a field of it, by its
  // path in the JSON (data-serve-key, "at_concurrency.ttft_s").
  function showServing(ran) {
    const t = $('serving');
    t.replaceChildren();
    const note = [];
    if (ran.reply.error !== undefined) {
      note.push('dlperf model --serve: ' + ran.reply.error);
    } else {
      const j = ran.reply.json;
      const add = (label, path, unit) => {
        const value = path.split('.').reduce((o, k) => (o === null ? null : o[k]), j);
        // A count of sequences is whole: written as the tool's text writes it, no decimals.
        const text = unit === 'count' ? String(value) : fmt(unit, value);
        const td = row(t, label, '', value, text);
        delete td.dataset.key;
        td.dataset.serveKey = path;
      };
      add('sequences decoding at saturation', 'concurrency', 'count');
      add('decode step at saturation', 'decode_step_s', 's');
      add('maximum output tokens/s', 'output_tokens_per_second', '');
      if (j.at_concurrency !== null) {
        add('output tokens/s at ' + j.at_concurrency.concurrency + ' in flight',
          'at_concurrency.output_tokens_per_second', '');
        add('time to first token', 'at_concurrency.ttft_s', 's');
        add('per output token', 'at_concurrency.tpot_s', 's');
      }
      if (j.at_rate !== null) {
        add('time to first token at the rate', 'at_rate.ttft_s', 's');
        add('per output token at the rate', 'at_rate.tpot_s', 's');
      }
      note.push('Under ' + j.stack + '; KV cache ' + fmt('B', j.kv_budget_bytes) + ', ' +
        j.blocks_per_sequence + ' blocks of ' + j.block_tokens + ' tokens per request.');
    }
    $('serving-note').textContent = note.join(' ');
    $('serving-section').hidden = false;
  }
  // The tool's `rank` command line for the form's model and run: the same run flags as the model
  // lines, but no --gpus (rank runs each GPU in the fewest of 1, 2, 4, 8 that fit). Null for a
  // pasted config.json: rank's --task takes a preset or a task of the guide.
  function rankLine(s) {
    if (s.config !== undefined) return null;
    const args = ['rank', '--task', s.preset, s.mode === 'infer' ? '--infer' : '--train'];
    runFlagsOf(s, true, args);
    args.push('--json');
    return args;
  }
  // The bars: the chosen GPUs that rank ranks and its best TOP_BUYS, in rank's order (best
  // performance per dollar first), each a field of rank's JSON.
  const TOP_BUYS = 3;
  function showRanking(gpus, ranked) {
    const svg = $('ranking');
    svg.replaceChildren();
    const notes = [];
    if (ranked.args === null) {
      notes.push('The ranking needs a preset: dlperf rank --task takes a preset, not a ' +
        'config.json.');
    } else if (ranked.reply.error !== undefined) {
      notes.push('dlperf rank: ' + ranked.reply.error);
    }
    const entries = ranked.reply && ranked.reply.json ? ranked.reply.json : [];
    const shown = entries.filter((e, i) => i < TOP_BUYS || gpus.includes(e.id));
    const top = Math.max(...shown.map((e) => e.perf_per_dollar), 0);
    const barX = 270, barW = 250, h = 24;
    shown.forEach((e, i) => {
      const y = 10 + i * h;
      const w = top > 0 ? (e.perf_per_dollar / top) * barW : 0;
      const chosen = gpus.includes(e.id);
      svg.appendChild(svgEl('text', {x: 0, y: y + 15, 'font-weight': chosen ? 'bold' : 'normal'},
        (entries.indexOf(e) + 1) + '. ' + (gpuNames[e.id] || e.id)));
      svg.appendChild(svgEl('rect', {x: barX, y: y + 2, width: Math.max(w, 1), height: h - 6,
        fill: chosen ? '#4e79a7' : '#c9c9c9', 'data-gpu': e.id,
        'data-value': String(e.perf_per_dollar),
        'data-relative': String(e.relative_performance)}));
      svg.appendChild(svgEl('text', {x: barX + w + 6, y: y + 15},
        fmt('', e.perf_per_dollar * 1000) + ' per $1000, performance ' +
        fmt('', e.relative_performance) + (e.gpus > 1 ? ', ' + e.gpus + ' GPUs' : '')));
    });
    if (entries.length > 0)
      notes.push('Performance relative to the ' +
        (gpuNames[entries[0].reference] || entries[0].reference) + ' (= 1).');
    const unranked = ranked.reply && ranked.reply.json ?
      gpus.filter((id) => !entries.some((e) => e.id === id)) : [];
    if (unranked.length > 0)
      notes.push('Not ranked: ' + unranked.map((id) => gpuNames[id] || id).join(', ') +
        ' (no price, not the datatype, or does not fit in 8 GPUs).');
    svg.setAttribute('height', 20 + shown.length * h);
    $('ranking-note').textContent = notes.join(' ');
    $('ranking-section').hidden = false;
  }

  // --- one estimate ------------------------------------------------------------------------
  function showError(message) {
    $('error').textContent = message;
    $('error').hidden = false;
  }
  function estimate() {
    $('error').hidden = true;
    $('result').hidden = true;
    $('ranking-section').hidden = true;
    $('serving-section').hidden = true;
    $('raw').textContent = '[]';
    $('raw-rank').textContent = '';
    $('raw-serve').textContent = '';
    const s = formState();
    const q = new URLSearchParams();
    for (const k of FIELDS) if (s[k] !== undefined) q.set(k, s[k]);
    history.replaceState(null, '', '?' + q.toString());
    $('permalink').href = '?' + q.toString();
    const gpus = selectedGpus();
    if (gpus.length === 0) {
      showError('choose at least one GPU');
      return;
    }
    // The first chosen GPU in detail (`model`); all of them, among the catalog, in the ranking
    // (`rank`).
    const args = commandLine(s, gpus[0]);
    const detail = {gpu: gpus[0], args: args, ...runModel(s, gpus[0], args)};
    $('raw').textContent = JSON.stringify([detail]);
    if (detail.reply.error !== undefined) {
      showError(detail.reply.error);
      return;
    }
    showSummary(detail.gpu, detail.reply.json);
    showMemory(detail.reply.json);
    $('result').hidden = false;
    if (s.serve === '1') {
      const q = servingRequest(s, gpus[0]);
      const served = {gpu: gpus[0], args: q.args, ...runKeywords('serve', q.keywords, q.args)};
      $('raw-serve').textContent = JSON.stringify(served);
      showServing(served);
    }
    const rankArgs = rankLine(s);
    const ranked = {args: rankArgs, ...(rankArgs === null ? {reply: {}} : runRank(s, rankArgs))};
    $('raw-rank').textContent = JSON.stringify(ranked);
    showRanking(gpus, ranked);
  }
  function guarded(f) {  // anything unexpected becomes a message, never a blank page
    try {
      f();
    } catch (e) {
      showError(e && e.message ? e.message : String(e));
    }
  }

  $('form').addEventListener('submit', (event) => {
    event.preventDefault();
    guarded(estimate);
  });
  createDlperf().then((module) => {
    dlperf = module;
    guarded(() => {
      fillMenus();
      applyQuery();
      $('status').textContent = $('gpu').options.length + ' GPUs, ' + $('preset').options.length +
        ' model presets; every figure computed in this browser.';
      estimate();
      document.body.dataset.ready = 'true';
    });
    document.body.dataset.ready = document.body.dataset.ready || 'error';
  }, (e) => {
    $('status').textContent = '';
    showError('could not load the WebAssembly module (dlperf.js, dlperf.wasm): ' + e +
      '. Serve this folder over HTTP (python3 -m http.server), not as a file.');
    document.body.dataset.ready = 'error';
  });
})();
