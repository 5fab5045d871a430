// The page's logic: fills the form from the tool's own lists (gpus --json, models --json, the
// valid names in its error messages), runs `dlperf model ... --json` in WebAssembly for each
// chosen GPU, and draws the result. The JSON of every run is also written into #result-json so a
// test can compare it with the tool's (web/test_page.py).
"use strict";

let dlperf = null;  // the WebAssembly module (createDlperf in dlperf.js)

// Runs a dlperf command line (an array of words); returns {result} or {error}.
function run(args) {
  return JSON.parse(dlperf.ccall("dlperf_run", "string", ["string"], [JSON.stringify(args)]));
}

// The names an option accepts, from the tool's own error message "... (valid: a, b, c)", so the
// page lists exactly what the tool's enumerator lists hold.
function validNames(command, flag) {
  const reply = run(command.concat([flag, "?"]));
  const m = /\(valid: ([^)]*)\)/.exec(reply.error || "");
  return m ? m[1].split(", ") : [];
}

function fill(select, names, chosen) {
  for (const n of names) {
    const o = document.createElement("option");
    o.value = o.textContent = n;
    o.selected = chosen.includes(n);
    select.appendChild(o);
  }
}

const params = new URLSearchParams(location.search);

function setup() {
  const base = ["model", "--preset", "gpt2", "--gpu", "t4"];
  fill(document.getElementById("preset"), run(["models", "--json"]).result.map((m) => m.name),
       [params.get("preset") || "gpt2"]);
  fill(document.getElementById("gpus"), run(["gpus", "--json"]).result.map((g) => g.id),
       (params.get("gpus") || "h100_sxm,a100_sxm4_80gb,rtx_4090").split(","));
  fill(document.getElementById("dtype"), validNames(base, "--dtype"), [params.get("dtype") || "bf16"]);
  fill(document.getElementById("weights"), validNames(base, "--weights"),
       [params.get("weights") || "native"]);
  for (const id of ["batch", "seq"]) if (params.has(id)) document.getElementById(id).value = params.get(id);
  if (params.get("mode") === "infer") document.querySelector("input[value=infer]").checked = true;
  if (params.has("config")) document.getElementById("config").value = params.get("config");
}

// The command line the form describes for one GPU, or throws a message for the person.
function commandLine(gpu) {
  const args = ["model", "--gpu", gpu];
  const config = document.getElementById("config").value.trim();
  if (config) {
    try {
      JSON.parse(config);
    } catch (e) {
      throw "the pasted config.json is not valid JSON: " + e.message;
    }
    dlperf.FS.writeFile("/config.json", config);
    args.push("--config", "/config.json");
  } else {
    args.push("--preset", document.getElementById("preset").value);
  }
  const mode = document.querySelector("input[name=mode]:checked").value;
  args.push("--" + mode);
  for (const id of ["batch", "seq"]) {
    const v = document.getElementById(id).value.trim();
    if (v === "") throw id + " is empty";
    args.push("--" + id, v);
  }
  args.push("--dtype", document.getElementById("dtype").value);
  if (mode === "infer") args.push("--weights", document.getElementById("weights").value);
  args.push("--json");
  return args;
}

const parts = [
  ["weights_bytes", "weights", "#4e79a7"], ["gradients_bytes", "gradients", "#f28e2b"],
  ["optimizer_bytes", "optimizer", "#e15759"], ["activations_bytes", "activations", "#76b7b2"],
  ["kv_cache_bytes", "KV cache", "#59a14f"], ["overhead_bytes", "overhead", "#bab0ac"],
];

function three(x) { return Number(x.toPrecision(3)).toString(); }
function duration(s) { return s >= 1 ? three(s) + " s" : s >= 1e-3 ? three(s * 1e3) + " ms" : three(s * 1e6) + " µs"; }
function gb(b) { return three(b / 1e9) + " GB"; }
function esc(s) { return String(s).replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]); }

function memoryBar(r) {
  const m = r.memory, scale = Math.max(m.total_bytes, m.capacity_bytes);
  let bar = "";
  for (const [key, , color] of parts)
    if (m[key] > 0) bar += `<div style="width:${(100 * m[key]) / scale}%;background:${color}" title="${key}"></div>`;
  return `<div class="bar">${bar}</div>`;
}

function rankingChart(rows) {
  const key = rows[0].tokens_per_s !== null ? "tokens_per_s" : "samples_per_s";
  const sorted = rows.slice().sort((a, b) => b[key] - a[key]);
  const top = sorted[0][key], w = 560, h = 24 * sorted.length + 10;
  let svg = `<svg width="${w + 200}" height="${h}" role="img" aria-label="ranking">`;
  sorted.forEach((r, i) => {
    const len = (w * r[key]) / top, y = 5 + 24 * i;
    svg += `<text x="0" y="${y + 15}" font-size="13">${esc(r.gpu)}</text>`;
    svg += `<rect x="130" y="${y}" width="${len}" height="18" fill="${r.fits ? "#4e79a7" : "#ccc"}"></rect>`;
    svg += `<text x="${136 + len}" y="${y + 15}" font-size="12">${three(r[key])} ${key === "tokens_per_s" ? "tokens/s" : "samples/s"}${r.fits ? "" : " (does not fit)"}</text>`;
  });
  return svg + "</svg>";
}

function show(rows) {
  let html = "<h2>Results</h2><table><tr><th>GPU</th><th>step</th><th>tokens/s</th><th>MFU</th><th>memory</th><th>fits</th></tr>";
  for (const r of rows)
    html += `<tr><td>${esc(r.gpu)}</td><td>${duration(r.step_time_s)}</td><td>${r.tokens_per_s === null ? "-" : three(r.tokens_per_s)}</td>` +
      `<td>${three(100 * r.mfu)}%</td><td>${gb(r.memory.total_bytes)} of ${gb(r.memory.capacity_bytes)}</td>` +
      `<td class="${r.fits ? "fits" : "nofit"}">${r.fits ? "fits" : "does not fit"}</td></tr>`;
  html += "</table><h2>Memory per GPU</h2>";
  for (const r of rows) html += `<div>${esc(r.gpu)}: ${gb(r.memory.total_bytes)} of ${gb(r.memory.capacity_bytes)}</div>${memoryBar(r)}`;
  html += '<div class="legend">' + parts.map(([, label, c]) => `<span><span class="swatch" style="background:${c}"></span>${label}</span>`).join("") + "</div>";
  html += "<h2>Ranking</h2>" + rankingChart(rows);
  document.getElementById("output").innerHTML = html;
}

function estimate(event) {
  if (event) event.preventDefault();
  const message = document.getElementById("message"), json = document.getElementById("result-json");
  message.textContent = "";
  const gpus = Array.from(document.getElementById("gpus").selectedOptions).map((o) => o.value);
  const rows = [], runs = [];
  try {
    if (gpus.length === 0) throw "choose at least one GPU";
    for (const gpu of gpus) {
      const args = commandLine(gpu), reply = run(args);
      if (reply.error) throw reply.error;
      rows.push(reply.result);
      runs.push({ args, result: reply.result });
    }
  } catch (e) {
    message.textContent = "dlperf: " + e;
    document.getElementById("output").innerHTML = "";
    json.textContent = JSON.stringify({ error: String(e) });
    return;
  }
  show(rows);
  json.textContent = JSON.stringify({ runs });
}

createDlperf().then((module) => {
  dlperf = module;
  setup();
  document.getElementById("form").addEventListener("submit", estimate);
  estimate();
}).catch((e) => {
  document.getElementById("message").textContent = "could not load dlperf.wasm: " + e;
});
