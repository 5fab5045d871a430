#!/usr/bin/env python3
"""Holds one load at a time on a CUDA GPU for a while and records, every 100 ms through NVML, the
SM clock, the board power, the temperature and the reasons NVML gives for a clock below its
maximum; and every quarter second the throughput the load achieves. The question (issue 30, item
4): which clock does a GPU hold under long GEMM load at its default power limit, per data type,
and is the gap between a GEMM's achieved rate and the datasheet's peak the clock or the kernel?

Loads, each after a few seconds idle (8192^3 GEMMs on random data unless named):
  bf16, fp16, fp8 (E4M3, torch._scaled_mm), int8 (torch._int_mm), tf32, fp32,
  bf16 on zeros (tensor cores whose operands are zero switch less and draw less),
  a device-to-device copy of 4 GiB (DRAM-bound).
The power limit and clocks are read, never set.

Usage: python3 tools/measure/sustained_clocks.py --out sustained.json [--seconds 60]
       [--loads bf16,fp8,...]
"""

import argparse
import json
import statistics
import threading
import time

import pynvml
import torch

REASONS = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clock_setting",
}


def reason_names(mask):
    return [name for bit, name in REASONS.items() if mask & bit]


class Sampler(threading.Thread):
    """Samples NVML every @p period seconds into self.rows until stop()."""

    def __init__(self, handle, period=0.1):
        super().__init__(daemon=True)
        self.handle = handle
        self.period = period
        self.rows = []
        self.done = threading.Event()
        self.reasons = getattr(pynvml, "nvmlDeviceGetCurrentClocksEventReasons", None) or getattr(
            pynvml, "nvmlDeviceGetCurrentClocksThrottleReasons")

    def run(self):
        h = self.handle
        while not self.done.is_set():
            try:
                self.rows.append({
                    "t": time.monotonic(),
                    "sm_mhz": pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM),
                    "mem_mhz": pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM),
                    "power_w": pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0,
                    "temp_c": pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU),
                    "reasons": int(self.reasons(h)),
                })
            except pynvml.NVMLError as e:  # keep sampling; say what failed once per row
                self.rows.append({"t": time.monotonic(), "error": str(e)})
            time.sleep(self.period)

    def stop(self):
        self.done.set()
        self.join()


def gemm_load(kind, n=8192):
    """A closure running one n^3 product of @p kind (bf16_N: an N^3 one), and the operations it
    does."""
    dev = "cuda"
    if kind.startswith("bf16_") and kind[5:].isdigit():
        kind, n = "bf16", int(kind[5:])
    if kind == "mlp_train":
        return mlp_train_load()
    torch.backends.cuda.matmul.allow_tf32 = kind == "tf32"
    if kind in ("bf16", "fp16", "bf16_zeros"):
        dt = torch.float16 if kind == "fp16" else torch.bfloat16
        make = torch.zeros if kind == "bf16_zeros" else torch.randn
        a = make(n, n, device=dev, dtype=dt)
        b = make(n, n, device=dev, dtype=dt)
        return (lambda: torch.mm(a, b)), 2.0 * n**3
    if kind in ("tf32", "fp32"):
        a = torch.randn(n, n, device=dev)
        b = torch.randn(n, n, device=dev)
        return (lambda: torch.mm(a, b)), 2.0 * n**3
    if kind == "fp8":
        a = (torch.randn(n, n, device=dev) * 0.5).to(torch.float8_e4m3fn)
        b = (torch.randn(n, n, device=dev) * 0.5).to(torch.float8_e4m3fn).t()  # column-major
        one = torch.tensor(1.0, device=dev)
        return (lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                                         out_dtype=torch.bfloat16)), 2.0 * n**3
    if kind == "int8":
        a = torch.randint(-128, 127, (n, n), device=dev, dtype=torch.int8)
        b = torch.randint(-128, 127, (n, n), device=dev, dtype=torch.int8).t().contiguous().t()
        return (lambda: torch._int_mm(a, b)), 2.0 * n**3
    if kind == "copy":
        count = 1 << 30  # 4 GiB of FP32
        src = torch.randn(count, device=dev)
        dst = torch.empty_like(src)
        return (lambda: dst.copy_(src)), 2.0 * 4 * count  # bytes read and written
    raise ValueError(kind)


def mlp_train_load(layers=4, width=4096, ffn=14336, tokens=8192):
    """Forward and backward of @p layers SwiGLU MLP blocks with RMSNorm in BF16 (a training
    step's mix of GEMMs and memory-bound kernels, without the optimizer), and its GEMM FLOPs."""
    dev, dt = "cuda", torch.bfloat16
    blocks = torch.nn.ModuleList()
    for _ in range(layers):
        blocks.append(torch.nn.ModuleDict({
            "norm": torch.nn.RMSNorm(width, device=dev, dtype=dt),
            "gate": torch.nn.Linear(width, ffn, bias=False, device=dev, dtype=dt),
            "up": torch.nn.Linear(width, ffn, bias=False, device=dev, dtype=dt),
            "down": torch.nn.Linear(ffn, width, bias=False, device=dev, dtype=dt),
        }))
    x = torch.randn(tokens, width, device=dev, dtype=dt, requires_grad=True)

    def step():
        h = x
        for b in blocks:
            n = b["norm"](h)
            h = h + b["down"](torch.nn.functional.silu(b["gate"](n)) * b["up"](n))
        h.float().square().mean().backward()

    return step, 6.0 * layers * 3 * width * ffn * tokens


def hold(run, work, seconds, batch_seconds=0.25):
    """Runs @p run back to back for @p seconds; returns (time, rate) per batch of launches."""
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(10):
        run()
    torch.cuda.synchronize()
    per = (time.perf_counter() - t0) / 10
    k = max(1, int(batch_seconds / per))
    rows = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(k):
            run()
        stop.record()
        stop.synchronize()
        rows.append({"t": time.monotonic(), "rate": k * work / (start.elapsed_time(stop) / 1e3)})
    return rows


def trace(run, work, seconds):
    """From idle: @p run back to back for about @p seconds, each launch timed by its own events;
    returns (seconds since the first launch, rate) per launch, to set beside the clock samples."""
    pairs = []
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        stop.record()
        pairs.append((start, stop))
    torch.cuda.synchronize()
    first = pairs[0][0]
    return [{"t": t0 + first.elapsed_time(b) / 1e3,
             "rate": work / (a.elapsed_time(b) / 1e3)} for a, b in pairs]


def summary(samples, rates, t_from):
    """Medians over the samples from @p t_from on (the steady part)."""
    s = [r for r in samples if "sm_mhz" in r and r["t"] >= t_from]
    r = [x["rate"] for x in rates if x["t"] >= t_from]
    mask = 0
    for x in s:
        mask |= x["reasons"]
    med = lambda key: statistics.median(x[key] for x in s) if s else None
    return {
        "sm_mhz": med("sm_mhz"),
        "sm_mhz_min": min((x["sm_mhz"] for x in s), default=None),
        "sm_mhz_max": max((x["sm_mhz"] for x in s), default=None),
        "mem_mhz": med("mem_mhz"),
        "power_w": med("power_w"),
        "temp_c_end": s[-1]["temp_c"] if s else None,
        "reasons_seen": reason_names(mask),
        "rate": statistics.median(r) if r else None,
        "rate_first_second": rates[0]["rate"] if rates else None,
        "samples": len(s),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--idle", type=float, default=4.0)
    ap.add_argument("--loads", default="bf16,fp8,fp16,int8,tf32,fp32,bf16_zeros,copy")
    ap.add_argument("--trace", type=float, default=0.0,
                    help="instead: time each launch from idle for this many seconds, sampling "
                    "NVML every 5 ms")
    args = ap.parse_args()

    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    info = {
        "name": pynvml.nvmlDeviceGetName(h),
        "driver": pynvml.nvmlSystemGetDriverVersion(),
        "torch": torch.__version__,
        "power_limit_w": pynvml.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0,
        "power_limit_range_w": [x / 1000.0 for x in
                                pynvml.nvmlDeviceGetPowerManagementLimitConstraints(h)],
        "default_power_limit_w": pynvml.nvmlDeviceGetPowerManagementDefaultLimit(h) / 1000.0,
        "max_sm_mhz": pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM),
        "max_mem_mhz": pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_MEM),
    }
    for key, clock in (("applications_sm_mhz", pynvml.NVML_CLOCK_SM),):
        try:
            info[key] = pynvml.nvmlDeviceGetApplicationsClock(h, clock)
        except pynvml.NVMLError as e:
            info[key] = str(e)
    print(json.dumps(info), flush=True)

    sampler = Sampler(h, 0.005 if args.trace else 0.1)
    sampler.start()
    loads = {}
    for kind in args.loads.split(","):
        if args.trace:
            run, work = gemm_load(kind)
            run()
            torch.cuda.synchronize()
            time.sleep(args.idle)
            rows = trace(run, work, args.trace)
            loads[kind] = {"trace": rows}
            t_first = rows[0]["t"]
            for lo, hi in ((0, 0.02), (0.02, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 0.5),
                           (0.5, 1), (1, 2), (2, args.trace)):
                r = [x["rate"] for x in rows if lo <= x["t"] - t_first < hi]
                c = [x["sm_mhz"] for x in sampler.rows
                     if "sm_mhz" in x and lo <= x["t"] - t_first < hi]
                print(kind, f"{lo}-{hi} s", "launches", len(r),
                      "rate", statistics.median(r) if r else None,
                      "sm_mhz", statistics.median(c) if c else None, flush=True)
            del run
            torch.cuda.empty_cache()
            continue
        try:
            run, work = gemm_load(kind)
            time.sleep(args.idle)
            t_start = time.monotonic()
            e0 = pynvml.nvmlDeviceGetTotalEnergyConsumption(h)
            rates = hold(run, work, args.seconds if kind in ("bf16", "fp8") else args.seconds / 2)
            e1 = pynvml.nvmlDeviceGetTotalEnergyConsumption(h)
            t_end = time.monotonic()
            steady_from = t_start + (t_end - t_start) / 3
            s = summary(sampler.rows, rates, steady_from)
            s["energy_w"] = (e1 - e0) / 1e3 / (t_end - t_start)
            s["seconds"] = t_end - t_start
            s["unit"] = "B/s" if kind == "copy" else "op/s"
            loads[kind] = {"summary": s, "rates": rates}
            print(kind, json.dumps(s), flush=True)
            del run
            torch.cuda.empty_cache()
        except Exception as e:  # one load failing must not lose the others
            loads[kind] = {"error": repr(e)}
            print(kind, "failed:", repr(e), flush=True)
    sampler.stop()
    with open(args.out, "w") as f:
        json.dump({"device": info, "loads": loads, "samples": sampler.rows}, f)


if __name__ == "__main__":
    main()
