"""Loads web/index.html in headless Chromium from a local static server and checks that the
numbers the page computed (its #result-json) equal the dlperf tool's --json for the same command
lines, and that bad input shows a message. Saves a screenshot.

    python3 web/test_page.py --cli build/bin/dlperf [--screenshot build/web.png]

Needs web/build.sh run first, and Debian's chromium."""

import argparse
import functools
import html
import http.server
import json
import pathlib
import re
import subprocess
import sys
import threading
import urllib.parse

WEB = pathlib.Path(__file__).resolve().parent


def serve():
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(WEB))
    handler.log_message = lambda *a: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def chromium(url, *extra):
    return subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
         *extra, url], capture_output=True, text=True, timeout=120)


def page_json(url):
    dom = chromium(url, "--dump-dom").stdout
    m = re.search(r'<pre id="result-json">(.*?)</pre>', dom, re.S)
    assert m and m.group(1), "the page wrote no #result-json:\n" + dom[-2000:]
    return json.loads(html.unescape(m.group(1))), dom


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--screenshot", default="build/web.png")
    a = ap.parse_args()
    httpd = serve()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/index.html?"
    failures = 0
    cases = [
        {"preset": "gpt2", "gpus": "h100_sxm,a100_sxm4_80gb,rtx_4090", "mode": "train", "batch": "8", "seq": "1024"},
        {"preset": "llama2_7b", "gpus": "rtx_4090,rtx_3090,h100_pcie", "mode": "infer", "batch": "1",
         "seq": "512", "weights": "int4"},
    ]
    for case in cases:
        got, _ = page_json(base + urllib.parse.urlencode(case))
        assert "runs" in got, got
        for run in got["runs"]:
            want = json.loads(subprocess.run([a.cli, *run["args"]], capture_output=True, text=True, check=True).stdout)
            if run["result"] != want:
                failures += 1
                print("MISMATCH", run["args"])
        print(f"page == CLI for {len(got['runs'])} GPUs: {case}")
    # Bad input: a message from the tool, no blank page, no NaN.
    for bad, expected in [({"batch": "-3"}, "--batch"), ({"batch": "abc"}, "--batch"),
                          ({"config": "{not json"}, "not valid JSON"), ({"gpus": "nope"}, "")]:
        got, dom = page_json(base + urllib.parse.urlencode({"preset": "gpt2", "gpus": "t4", **bad}))
        if bad.get("gpus") == "nope":  # no valid GPU selected
            expected = "choose at least one GPU"
        ok = "error" in got and expected in got["error"] and "NaN" not in dom
        failures += 0 if ok else 1
        print(("ok   " if ok else "FAIL ") + f"bad input {bad}: {got.get('error')}")
    shot = pathlib.Path(a.screenshot).resolve()
    chromium(base + urllib.parse.urlencode(cases[0]), f"--screenshot={shot}", "--window-size=1100,1400")
    print("screenshot", shot, shot.exists())
    httpd.shutdown()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
