#!/usr/bin/env python3
"""The web page's browser test (docs/web.md): headless Chromium loads the page from a local
static server with its inputs in the query string, and the numbers the page shows must equal
what the dlperf tool prints with --json for the same inputs, bit for bit; a bad input must show
the tool's one-line error. Python's standard library only.

    python3 web/browser_test.py --site build-web/web --cli build/bin/dlperf \
        [--screenshot docs/images/web_page.png]

Exits 0 when every case passes, 1 otherwise (each failure is printed).
"""
import argparse
import html.parser
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

# Each case: the page's query string (what a person picks in the form), as a dict.
CASES = [
    # Inference of a preset on several GPUs: the detail, the memory bar and the ranking.
    {"preset": "llama3_8b", "gpu": "rtx_4090,h100_sxm,mi300x,rtx_3060", "mode": "infer",
     "batch": "1", "seq": "2048", "generate": "128"},
    # Training on two GPUs, a data-parallel job of 8 GPUs.
    {"preset": "gpt2_xl", "gpu": "a100_sxm4_80gb,rtx_4090", "gpus": "8", "mode": "train",
     "batch": "4", "seq": "1024"},
    # A software stack from the menu: the times and the ranking as vLLM runs them.
    {"preset": "mistral_7b", "gpu": "rtx_4090,a100_sxm4_80gb", "mode": "infer", "batch": "8",
     "seq": "2048", "generate": "128", "stack": "vllm"},
    # One model over two GeForce cards as llama.cpp splits it (by layers, its default), and the
    # same forced to a tensor split (docs/parallel.md).
    {"preset": "llama3_70b", "gpu": "rtx_3090,rtx_4090", "gpus": "2", "mode": "infer",
     "batch": "1", "seq": "512", "generate": "128", "weights": "q4_k_m", "stack": "llama.cpp"},
    {"preset": "llama3_8b", "gpu": "rtx_4090", "gpus": "2", "split": "tensor", "mode": "infer",
     "batch": "1", "seq": "512", "generate": "128", "stack": "llama.cpp"},
    # A weight format and a datatype from the menus; a model that does not fit one of them.
    {"preset": "llama3_70b", "gpu": "rtx_4090,h200_sxm", "mode": "infer", "batch": "8",
     "seq": "4096", "generate": "256", "weights": "int4"},
    # Fine-tuning on short documents, packed; a CNN in PyTorch's default NCHW layout.
    {"preset": "llama3_8b", "gpu": "rtx_4090,a100_sxm4_80gb", "mode": "train", "batch": "2",
     "seq": "2048", "doc-tokens": "400", "packing": "1"},
    {"preset": "resnet50", "gpu": "a100_sxm4_80gb,rtx_4090", "mode": "train", "batch": "256",
     "dtype": "fp16", "stack": "pytorch-eager", "nchw": "1"},
    # Fields from "Every other run field": an FP8 KV cache under vLLM, and an FSDP training job
    # with selective checkpointing and 8-bit Adam (the job's layout is the model line's only).
    {"preset": "llama3_8b", "gpu": "h100_sxm,rtx_4090", "mode": "infer", "batch": "16",
     "seq": "4096", "generate": "256", "kv-dtype": "fp8", "stack": "vllm"},
    {"preset": "llama3_8b", "gpu": "h100_sxm,a100_sxm4_80gb", "gpus": "8", "zero": "3",
     "mode": "train", "batch": "2", "seq": "4096", "selective-checkpointing": "ops",
     "optimizer": "adam8bit", "fp32-reduce": "1", "stack": "pytorch-eager"},
    # A pasted HuggingFace config.json.
    {"config": "tests/data/hf/qwen2_5_7b.json", "gpu": "l40s,rtx_5090", "mode": "infer",
     "batch": "2", "seq": "1024", "generate": "64", "dtype": "fp16"},
    # Serving (`model --serve`): 64 requests in flight under vLLM, a rate under TensorRT-LLM on
    # two GPUs, and a training run, which serving refuses with the tool's own line.
    {"preset": "llama3_8b", "gpu": "h100_sxm,a100_sxm4_80gb", "mode": "infer", "batch": "1",
     "seq": "1000", "generate": "1000", "stack": "vllm", "serve": "1", "concurrency": "64"},
    {"preset": "llama3_3_70b", "gpu": "h100_sxm", "gpus": "2", "tp": "2", "mode": "infer",
     "batch": "1", "seq": "5000", "generate": "500", "dtype": "fp8_e4m3", "weights": "fp8",
     "stack": "tensorrt-llm", "serve": "1", "concurrency": "50", "rate": "1"},
    # A benchmark's random lengths: prompts of 1 to 1024 tokens and outputs of 1 to 1024 under
    # SGLang over four H200s, everything in flight at once.
    {"preset": "llama3_3_70b", "gpu": "h200_sxm", "gpus": "4", "tp": "4", "mode": "infer",
     "batch": "1", "seq": "1024", "generate": "1024", "stack": "sglang", "serve": "1",
     "concurrency": "3000", "prompt_min": "1", "generate_min": "1"},
    {"preset": "gpt2", "gpu": "rtx_4090", "mode": "train", "batch": "4", "seq": "1024",
     "serve": "1"},
    # Bad input in a field: the tool's one-line message.
    {"preset": "llama3_8b", "gpu": "rtx_4090", "mode": "infer", "batch": "abc"},
    {"preset": "llama3_8b", "gpu": "rtx_4090", "mode": "train", "seq": "-5"},
    {"preset": "no_such_model", "gpu": "rtx_4090", "mode": "infer"},
    {"preset": "llama3_8b", "gpu": "rtx_4090", "mode": "infer", "stack": "pytorch"},
    {"config": "{ not json", "gpu": "rtx_4090", "mode": "infer"},
]
# The fields of a case that are not run flags; every other key is one (its flag without dashes).
NOT_FLAGS = ("preset", "config", "gpu", "mode", "serve", "concurrency", "rate", "prompt_min",
             "generate_min")
# The serving form's keywords, each its `model --serve` line's flag with dashes; the first two
# are loads, each with its own figures (at_concurrency, at_rate).
SERVE_FLAGS = ("concurrency", "rate", "prompt_min", "generate_min")
LOAD_FLAGS = ("concurrency", "rate")
# The flags that lay out a job over GPUs: the model lines pass them, the rank lines do not (rank
# picks the count itself).
JOB_LAYOUT = ("gpus", "zero", "tp", "pp", "vpp", "split", "gpus-per-node", "network",
              "fp32-reduce", "gpu-layers", "host-memory")
# The run's switches the cases use: a bare flag when the case sets "1" (a checked box).
SWITCHES = ("packing", "nchw", "checkpointing", "fp32-reduce")
# The fields with a default in the page's form, emptied where a case leaves them out.
FORM_DEFAULTS = ("gpus", "batch", "seq", "generate", "dtype", "weights")
TIME_KEYS = ("prefill_s", "decode_s_per_token", "step_time_s")


class PageReader(html.parser.HTMLParser):
    """What the test reads from the page's DOM: the raw replies, the error, the summary cells,
    the ranking bars, the memory text and all visible text."""

    def __init__(self):
        super().__init__()
        self.stack = []
        self.texts = {}  # element id -> its text
        self.hidden = set()  # ids of hidden elements
        self.cells = []  # (data-key, data-value, text) of the summary
        self.serving = []  # (data-serve-key, data-value, text) of the serving table
        self.bars = []  # (data-gpu, data-value, data-relative) of the ranking, top to bottom
        self.ready = None
        self.visible_text = []
        self.permalink = None  # the href of the page's link to the run

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.ready = a.get("data-ready")
        if tag == "rect" and "data-gpu" in a:
            self.bars.append((a["data-gpu"], a["data-value"], a.get("data-relative")))
        if a.get("id") == "permalink":
            self.permalink = a.get("href")
        if "hidden" in a and "id" in a:
            self.hidden.add(a["id"])
        self.stack.append((tag, a, []))

    def handle_endtag(self, tag):
        while self.stack:
            t, a, parts = self.stack.pop()
            text = "".join(parts)
            if self.stack:
                self.stack[-1][2].append(text)
            if "id" in a:
                self.texts[a["id"]] = text
            if t == "td" and "data-key" in a:
                self.cells.append((a["data-key"], a.get("data-value"), text))
            if t == "td" and "data-serve-key" in a:
                self.serving.append((a["data-serve-key"], a.get("data-value"), text))
            if t == tag:
                break

    def handle_data(self, data):
        if self.stack:
            self.stack[-1][2].append(data)
            if self.stack[-1][0] not in ("script", "style", "pre"):
                self.visible_text.append(data)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def chromium_command(chromium, profile):
    cmd = [chromium, "--headless", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           f"--user-data-dir={profile}", "--virtual-time-budget=60000"]
    if os.geteuid() == 0:
        cmd.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return cmd


def cli_args(case, gpu, config_file):
    """The tool's command line for a case, built here independently of the page's JS."""
    args = ["model"]
    args += ["--config", config_file] if "config" in case else ["--preset", case["preset"]]
    args += ["--gpu", gpu, "--infer" if case.get("mode") == "infer" else "--train"]
    return args + run_flags(case, layout=True)


def run_flags(case, layout):
    """The case's run flags, those that lay out a job too when @p layout."""
    args = []
    for key, value in case.items():
        if key in NOT_FLAGS or value == "" or (key in JOB_LAYOUT and not layout):
            continue
        args += [f"--{key}"] if key in SWITCHES else [f"--{key}", value]
    return args


def check_reply(what, ran, args, cli, workdir, note):
    """The page's run @p ran of line @p args against the tool: the same line, through the
    application layer's keywords (dlperf_report) where the tool takes it and through the tool's
    command line where it refuses it, for the tool's message, which the page's @p note shows.
    (failures, the tool's JSON or None where it refused)."""
    if not same_line(ran["args"], args + ["--json"]):
        return [f"{what}: the page ran {ran['args']}, the test expects {args + ['--json']}"], None
    out, error = run_cli(cli, args + ["--json"], workdir)
    path = "command line" if error is not None else "keywords"
    if ran.get("path") != path:
        return [f"{what}: the page ran it through {ran.get('path')!r}, not {path!r} "
                f"(refused: {ran.get('refused')!r})"], None
    if error is not None:
        if ran["reply"].get("error") != error or error not in note:
            return [f"{what}: the tool says {error!r}, the page {ran['reply']!r}"], None
        return [], None
    expected = json.loads(out)
    if ran["reply"].get("json") != expected:
        return [f"{what}: the page's JSON differs from the tool's"], None
    return [], expected


def serve_args(case, gpu, config_file):
    """The tool's `model --serve` line for a case: its model line without the batch (the KV
    memory sets it), with --serve and the load's flags."""
    args = [a for a in cli_args({k: v for k, v in case.items() if k != "batch"}, gpu, config_file)]
    args.append("--serve")
    for key in SERVE_FLAGS:
        if case.get(key, "") != "":
            args += ["--" + key.replace("_", "-"), case[key]]
    return args


def check_serving(page, case, gpu, cli, workdir):
    """The serving table against `dlperf model ... --serve --json` for the same inputs: the page
    ran the test's own line's request (by keywords, or the line when the layer refuses it) and
    got the tool's JSON, and every figure shown is the field of it that it names, exactly; a
    line the tool refuses shows the tool's message."""
    ran = json.loads(page.texts.get("raw-serve", "") or "null")
    if case.get("serve") != "1":
        bad = [] if ran is None else ["the page ran a serving line unasked"]
        if "serving-section" not in page.hidden:
            bad.append("the serving section is shown unasked")
        return bad
    if ran is None or "serving-section" in page.hidden:
        return ["the page shows no serving"]
    bad, expected = check_reply("serve", ran, serve_args(case, gpu, "config.json"), cli, workdir,
                                page.texts.get("serving-note", ""))
    if expected is None:
        return bad
    keys = [k for k, _, _ in page.serving]
    wanted = ["output_tokens_per_second"] + [
        f"at_{flag}.ttft_s" for flag in LOAD_FLAGS if case.get(flag, "") != ""]
    for want in wanted:
        if want not in keys:
            bad.append(f"serve: the page does not show {want}")
    # Each time shown is a phrase of the tool's own text output for the same line.
    text, _ = run_cli(cli, serve_args(case, gpu, "config.json"), workdir)
    for key, value, shown in page.serving:
        want = expected
        for part in key.split("."):
            want = want[part]
        if value is None or float(value) != want:
            bad.append(f"serve {key}: the page has {value}, the tool {want!r}")
        if key.endswith("_s") and shown not in text:
            bad.append(f"serve {key}: the page shows {shown!r}, which the tool's text does not")
    return bad


def rank_args(case):
    """The tool's `rank` command line for a case (None for a config.json: rank takes presets)."""
    if "config" in case:
        return None
    args = ["rank", "--task", case["preset"], "--infer" if case.get("mode") == "infer" else "--train"]
    return args + run_flags(case, layout=False)


def same_line(a, b):
    """Whether command lines @p a and @p b give the same command the same flags, in any order."""
    def groups(args):
        out = [[]]
        for arg in args:
            if arg.startswith("--"):
                out.append([])
            out[-1].append(arg)
        return out[0], sorted(out[1:])
    return groups(a) == groups(b)


def run_cli(cli, args, cwd):
    p = subprocess.run([cli] + args, capture_output=True, text=True, cwd=cwd, check=False)
    if p.returncode == 0:
        return p.stdout, None
    lines = p.stderr.splitlines()
    prefix = "dlperf: error: "
    if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith(prefix):
        raise RuntimeError(f"dlperf {' '.join(args)}: exit {p.returncode}, stderr {p.stderr!r}")
    return None, lines[0][len(prefix):]


def check_case(case, dom, cli, workdir):
    """The failures of one case (an empty list when it passes)."""
    bad = []
    page = PageReader()
    page.feed(dom)
    if page.ready != "true":
        return [f"the page did not finish (data-ready={page.ready!r})"]
    visible = " ".join(page.visible_text)
    for word in ("NaN", "undefined", "Infinity"):
        if word in visible:
            bad.append(f"the page shows {word!r}")
    replies = json.loads(page.texts.get("raw", "null") or "null")
    gpus = [g for g in case["gpu"].split(",") if g]
    if [r["gpu"] for r in replies] != gpus[:1]:  # the first GPU in detail
        return bad + [f"the page ran model on {[r['gpu'] for r in replies]}, not {gpus[:1]}"]
    first_error = None
    for i, (gpu, ran) in enumerate(zip(gpus, replies)):
        args = cli_args(case, gpu, "config.json")
        if not same_line(ran["args"], args + ["--json"]):
            bad.append(f"{gpu}: the page ran {ran['args']}, the test expects {args + ['--json']}")
        reply = ran["reply"]
        out, error = run_cli(cli, args + ["--json"], workdir)
        # A run the tool takes goes through the application layer's keywords (dlperf_report); one
        # it refuses through the tool's command line, for the tool's message.
        path = "command line" if error is not None else "keywords"
        if ran.get("path") != path:
            bad.append(f"{gpu}: the page ran its model through {ran.get('path')!r}, not {path!r}"
                       f" (refused: {ran.get('refused')!r})")
        if error is not None:
            if reply.get("error") != error:
                bad.append(f"{gpu}: the tool says {error!r}, the page {reply!r}")
            if i == 0:
                first_error = error
            continue
        expected = json.loads(out)
        if reply.get("json") != expected:
            bad.append(f"{gpu}: the page's JSON differs from the tool's")
            continue
        if i == 0:
            text, _ = run_cli(cli, args, workdir)
            bad += check_shown(page, expected, text)
    if first_error is not None:
        if "error" in page.hidden or page.texts.get("error") != first_error:
            bad.append(f"the page shows error {page.texts.get('error')!r}, the tool {first_error!r}")
        if "result" not in page.hidden:
            bad.append("a result is shown beside the error")
    else:
        if "error" not in page.hidden:
            bad.append(f"an error is shown: {page.texts.get('error')!r}")
        bad += check_ranking(page, case, gpus, cli, workdir)
        bad += check_serving(page, case, gpus[0], cli, workdir)
        bad += check_permalink(page, case)
    return bad


def check_permalink(page, case):
    """The page's link to the run carries every field of the case, empty run flags included."""
    if not page.permalink or not page.permalink.startswith("?"):
        return [f"the page's link to the run is {page.permalink!r}"]
    link = dict(urllib.parse.parse_qsl(page.permalink[1:], keep_blank_values=True))
    expected = {key: "" for key in FORM_DEFAULTS + SWITCHES}
    expected.update({k: v for k, v in case.items() if k != "config"})
    return [f"the link to the run has {key}={link.get(key)!r}, not {value!r}"
            for key, value in expected.items() if link.get(key) != value]


def check_shown(page, expected, text):
    """The summary's figures against the tool's JSON (exactly) and its text output."""
    bad = []
    if not page.cells:
        return ["the page shows no summary"]
    for key, value, shown in page.cells:
        want = expected[key]
        if isinstance(want, bool):
            if value != ("true" if want else "false"):
                bad.append(f"{key}: the page has {value}, the tool {want}")
        elif want is None:
            if value is not None:
                bad.append(f"{key}: the page has {value}, the tool null")
        elif float(value) != want or not math.isfinite(float(value)):
            bad.append(f"{key}: the page has {value}, the tool {want!r}")
        if key in TIME_KEYS and shown not in text:
            bad.append(f"{key}: the page shows {shown!r}, which the tool's text does not")
    # The memory words ("weights 15.0 GiB") are the tool's own: its text has each of them.
    memory = page.texts.get("memory-text", "")
    for part in memory.split(";")[0].split(", "):
        if part and part not in text:
            bad.append(f"memory: the page shows {part!r}, which the tool's text does not")
    return bad


def check_ranking(page, case, gpus, cli, workdir):
    """The ranking against `dlperf rank --json` for the same inputs: the page ran the test's own
    rank line's request (by keywords, or the line itself when the layer refuses it) and got the
    tool's JSON; each bar is an entry of it (performance per dollar and
    relative performance exactly), in the tool's order, and the bars are the tool's best three
    and every chosen GPU it ranks."""
    ranked = json.loads(page.texts.get("raw-rank", "null") or "null")
    if ranked is None or "ranking-section" in page.hidden:
        return ["the page shows no ranking"]
    args = rank_args(case)
    if args is None:
        bad = [] if ranked["args"] is None else [f"a rank line for a config.json: {ranked['args']}"]
        if page.bars or "needs a preset" not in page.texts.get("ranking-note", ""):
            bad.append("a config.json: the ranking must say it needs a preset, with no bars")
        return bad
    bad, entries = check_reply("rank", ranked, args, cli, workdir,
                               page.texts.get("ranking-note", ""))
    if entries is None:
        return bad
    order = [e["id"] for e in entries]
    want = [e for i, e in enumerate(entries) if i < 3 or e["id"] in gpus]
    if [g for g, _, _ in page.bars] != [e["id"] for e in want]:
        return [f"the ranking shows {[g for g, _, _ in page.bars]}, the tool ranks {order[:10]}..."]
    bad = []
    for (gpu, value, relative), e in zip(page.bars, want):
        if float(value) != e["perf_per_dollar"] or float(relative) != e["relative_performance"]:
            bad.append(f"ranking {gpu}: {value}, {relative} are not the tool's "
                       f"{e['perf_per_dollar']!r}, {e['relative_performance']!r}")
    unranked = [g for g in gpus if g not in order]
    if bool(unranked) != ("Not ranked" in page.texts.get("ranking-note", "")):
        bad.append(f"chosen GPUs the tool does not rank: {unranked}, the page says "
                   f"{page.texts.get('ranking-note')!r}")
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", required=True, help="the built page (build-web/web)")
    parser.add_argument("--cli", required=True, help="the dlperf tool (build/bin/dlperf)")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--screenshot", help="save a screenshot of the first case here")
    o = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cli = os.path.abspath(o.cli)
    for need in ("index.html", "dlperf.js", "dlperf.wasm"):
        if not os.path.exists(os.path.join(o.site, need)):
            sys.exit(f"{o.site}/{need} is missing: build the page first (docs/web.md)")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
         o.site], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        try:
            base = f"http://127.0.0.1:{port}/index.html"
            for _ in range(100):  # the server is up when it answers
                try:
                    urllib.request.urlopen(base, timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            chromium = chromium_command(o.chromium, os.path.join(work, "profile"))
            for n, case in enumerate(CASES):
                # Every field given, empty ones too: an empty field leaves its flag out, as
                # cli_args does, instead of taking the page's defaults.
                query = {key: "" for key in FORM_DEFAULTS}
                query.update(case)
                if "config" in case:
                    path = os.path.join(root, case["config"])
                    text = open(path).read() if os.path.exists(path) else case["config"]
                    query["config"] = text
                    with open(os.path.join(work, "config.json"), "w") as f:
                        f.write(text)
                url = base + "?" + urllib.parse.urlencode(query)
                started = time.monotonic()
                dom = subprocess.run(chromium + ["--dump-dom", url], capture_output=True,
                                     text=True, timeout=120, check=False).stdout
                bad = check_case(case, dom, cli, work)
                name = " ".join(f"{k}={v[:20]}" for k, v in case.items())
                seconds = time.monotonic() - started
                print(f"{'ok  ' if not bad else 'FAIL'} {n + 1}. {name} ({seconds:.1f} s)")
                for b in bad:
                    print(f"     {b}")
                failures += bool(bad)
                if n == 0 and o.screenshot:
                    shot = os.path.abspath(o.screenshot)
                    subprocess.run(chromium + ["--window-size=1000,1500", f"--screenshot={shot}",
                                               url], capture_output=True, timeout=120, check=True)
                    print(f"     screenshot: {shot}")
            # No GPU chosen: the page's own message, never a blank page.
            dom = subprocess.run(chromium + ["--dump-dom", base + "?preset=gpt2&gpu="],
                                 capture_output=True, text=True, timeout=120, check=False).stdout
            page = PageReader()
            page.feed(dom)
            if page.texts.get("error") != "choose at least one GPU" or "error" in page.hidden:
                print(f"FAIL no GPU: the page shows {page.texts.get('error')!r}")
                failures += 1
            else:
                print("ok   no GPU chosen: 'choose at least one GPU'")
        finally:
            server.terminate()
            server.wait()
    print(f"{len(CASES) + 1 - failures} of {len(CASES) + 1} browser cases pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
