// Published, measured GEMM throughput the tile-reuse model is checked against. Every row names
// its source; rows marked `calibration` set an efficiency default in an architecture or catalog
// header and are excluded from the error statistics (a model is not validated on the data it was
// fitted to). Rows taken from host-timed back-to-back torch.mm loops (zzc0721) carry +-5-10 %
// measurement noise of their own.
#pragma once

#include <array>
#include <dlperf/core/datatype.hpp>
#include <string_view>

namespace dlperf::test {

struct gemm_measurement {
  std::string_view gpu;
  dtype type;
  long long m, n, k, batch;
  double tflops;
  std::string_view source;
  bool calibration = false;
};

// Sources: MAMF = Stas Bekman, ml-engineering, compute/accelerator/README.md "Maximum Achievable
// Matmul FLOPS" v2 table (2025); ZZC#N = github.com/zzc0721/torch-performance-test-data issue N
// (torch.mm, host-timed); TRITON#N = triton-lang/triton issue N (cuBLAS column of the matmul
// tutorial benchmark, CUDA events); VLLM#23280 = vllm-project/vllm issue 23280 (torch bf16
// column, H100 80GB HBM3); AO#3342 = pytorch/ao issue 3342 (torch.mm bf16, H100 PCIe);
// PT#143465 = pytorch/pytorch issue 143465 (torch._scaled_mm FP8, H100); CUTLASS = NVIDIA/cutlass
// media/docs/profiler.md (cutlass_profiler on sm80); TILEOPS#2148 = tile-ai/TileOPs issue 2148
// (torch.bmm times, H200; TFLOPS computed from the reported time).
//
// NVIDIA TF32 / FP8 / Blackwell sources: XLA = the default matmul performance table XLA ships
// for its GPU cost model, third_party/xla/xla/backends/gpu/cost_model/matmul_interpolator_data.h
// in tensorflow/tensorflow at a305421c45a1ea5117c170b8d8a00a51f9dcee8f (openxla/xla mirror);
// kernel throughput per shape, "sm_90" and "sm_100" sections, f32 dots run as TF32. The board
// is not named: sm_90 is read as H100 SXM (its BF16 4096^3, 780 TFLOPS, matches ZZC#79's
// 788.7) and sm_100 as B200 (its BF16 4096^3, 1417, matches AO#2427's 1410). Its sm_90 FP8
// entries exceed H100's FP8 dense peak (2593 TFLOPS at 4 x 4096^3 against 1979) and are not
// used (docs/gemm.md). AO#2427 = pytorch/ao pull request 2427 (benchmarks/float8/
// bench_matmul.py, torch.mm BF16 on B200).
//
// AMD sources: ROCMBLOG = AMD, "Measuring Max-Achievable FLOPs - Part 2", ROCm blogs, 28 Feb
// 2025 (rocm.blogs.amd.com/software-tools-optimization/measuring-max-achievable-flops-part2;
// hipblaslt-bench with trig_float data, cold caches and a 512 MB rotating buffer, MI300X at 750 W
// and MI325X at 1000 W; the values of its Table 1, the MI300X FP8 footnote gives 1223.6 instead
// of 1273); MAMF (above) also has MI300X and MI325X BF16 rows (torch.mm with
// PYTORCH_TUNABLEOP_ENABLED=1); MAMF-v1 = the older v1 table of the same page (caches not reset
// between iterations); ZZC#58, #68 = zzc0721/torch-performance-test-data issues with RX 7900 XTX
// results (torch.mm, host-timed; torch 2.7.1 + ROCm 6.3 and a ROCm 7.0 nightly; issue 103, a
// torch 2.10 alpha on a ROCm 7.1 nightly, is not used: docs/gemm.md, "AMD");
// AITER#1092 = ROCm/aiter pull request 1092 (FP8 FNUZ GEMMs with BF16 output, MI300X, the faster
// of the "ck" and "ck bpreshuffle" kernel times; TFLOPS computed from the reported
// microseconds); HIPBLASLT#1721 = ROCm/hipBLASLt issue 1721 (hipblaslt-bench -r f8_r, MI300X
// "fixed to 1005Mhz"; only its anomaly is kept, as a known miss, docs/gemm.md "AMD").
inline constexpr std::array gemm_measurements{
    // Calibration rows (set the efficiency defaults).
    gemm_measurement{"a100_sxm4_40gb", dtype::bf16, 1024, 10240, 5120, 1, 271.2, "MAMF", true},
    gemm_measurement{"h100_sxm", dtype::bf16, 2048, 2048, 13312, 1, 794.5, "MAMF", true},
    gemm_measurement{"h100_sxm", dtype::fp8_e4m3, 1024, 9216, 14336, 1, 1402.6, "MAMF", true},
    gemm_measurement{"h100_sxm", dtype::tf32, 4096, 4096, 4096, 1, 402.15, "ZZC#79", true},
    gemm_measurement{"h100_sxm", dtype::fp32, 4096, 4096, 4096, 1, 51.88, "ZZC#79", true},
    gemm_measurement{"h100_pcie", dtype::bf16, 8192, 8192, 8192, 1, 492.84, "ZZC#95", true},
    gemm_measurement{"v100_sxm2", dtype::fp16, 8192, 8192, 8192, 1, 97.36, "ZZC#140", true},
    gemm_measurement{"v100_sxm2", dtype::fp32, 10240, 10240, 10240, 1, 14.51, "ZZC#140", true},
    gemm_measurement{"a100_sxm4_40gb", dtype::fp32, 3456, 4096, 4096, 1, 17.22, "CUTLASS", true},
    gemm_measurement{"rtx_4090", dtype::bf16, 8192, 8192, 8192, 1, 160.17, "ZZC#78", true},
    gemm_measurement{"rtx_4090", dtype::tf32, 8192, 8192, 8192, 1, 85.65, "ZZC#78", true},
    gemm_measurement{"rtx_4090", dtype::fp32, 8192, 8192, 8192, 1, 53.41, "ZZC#78", true},
    gemm_measurement{"l4", dtype::fp16, 8192, 8192, 8192, 1, 53.80, "ZZC#120", true},
    // NVIDIA Blackwell calibration rows: the largest shape of the XLA sm_100 table.
    gemm_measurement{"b200", dtype::bf16, 4096, 4096, 4096, 4, 1670.5, "XLA", true},
    gemm_measurement{"b200", dtype::tf32, 4096, 4096, 4096, 4, 869.7, "XLA", true},
    gemm_measurement{"b200", dtype::fp8_e4m3, 4096, 4096, 4096, 4, 3279.7, "XLA", true},
    // AMD calibration rows (docs/gemm.md, "AMD").
    gemm_measurement{"mi300x", dtype::bf16, 10240, 15360, 8192, 1, 668.4, "MAMF", true},
    gemm_measurement{"mi300x", dtype::fp8_e4m3_fnuz, 4096, 3648, 32896, 1, 1273.0, "ROCMBLOG",
                     true},
    gemm_measurement{"mi325x", dtype::bf16, 13312, 10240, 8192, 1, 784.9, "MAMF", true},
    gemm_measurement{"rx_7900_xtx", dtype::fp16, 4096, 4096, 4096, 1, 105.43, "ZZC#58", true},
    gemm_measurement{"rx_7900_xtx", dtype::fp32, 4096, 4096, 4096, 1, 26.84, "ZZC#58", true},
    // Validation rows.
    gemm_measurement{"h100_sxm", dtype::bf16, 8192, 8192, 8192, 1, 797.51, "ZZC#79"},
    gemm_measurement{"h100_sxm", dtype::bf16, 4096, 4096, 4096, 1, 788.72, "ZZC#79"},
    gemm_measurement{"h100_sxm", dtype::bf16, 2048, 2048, 2048, 1, 676.59, "ZZC#79"},
    gemm_measurement{"h100_sxm", dtype::fp16, 8192, 8192, 8192, 1, 736.19, "ZZC#79"},
    gemm_measurement{"h100_sxm", dtype::fp16, 4096, 4096, 4096, 1, 760.04, "ZZC#79"},
    gemm_measurement{"h100_sxm", dtype::tf32, 8192, 8192, 8192, 1, 372.05, "ZZC#79"},
    gemm_measurement{"h100_sxm", dtype::fp8_e4m3, 8192, 8192, 8192, 1, 1304.5, "PT#143465"},
    gemm_measurement{"h100_sxm", dtype::fp8_e4m3, 16384, 8192, 7168, 1, 1332.3, "PT#143465"},
    gemm_measurement{"h100_sxm", dtype::fp8_e4m3, 16384, 1024, 8192, 1, 1347.1, "PT#143465"},
    gemm_measurement{"h100_sxm", dtype::fp8_e4m3, 16384, 8192, 1280, 1, 1239.4, "PT#143465"},
    gemm_measurement{"h100_sxm", dtype::fp16, 2048, 8192, 8192, 1, 721.6, "TRITON#2339"},
    gemm_measurement{"h100_sxm", dtype::fp16, 2048, 4096, 4096, 1, 613.7, "TRITON#2339"},
    gemm_measurement{"h100_sxm", dtype::fp16, 2048, 2048, 2048, 1, 515.2, "TRITON#2339"},
    gemm_measurement{"h100_sxm", dtype::fp16, 2048, 1024, 1024, 1, 243.1, "TRITON#2339"},
    gemm_measurement{"h100_sxm", dtype::bf16, 8192, 2112, 7168, 1, 666.4, "VLLM#23280"},
    gemm_measurement{"h100_sxm", dtype::bf16, 4096, 2112, 7168, 1, 715.8, "VLLM#23280"},
    gemm_measurement{"h100_sxm", dtype::bf16, 1024, 2112, 7168, 1, 619.8, "VLLM#23280"},
    gemm_measurement{"h100_sxm", dtype::bf16, 256, 2112, 7168, 1, 401.9, "VLLM#23280"},
    gemm_measurement{"h100_sxm", dtype::bf16, 64, 2112, 7168, 1, 163.5, "VLLM#23280"},
    gemm_measurement{"h100_sxm", dtype::bf16, 16, 2112, 7168, 1, 49.6, "VLLM#23280"},
    gemm_measurement{"h100_pcie", dtype::bf16, 4096, 4096, 4096, 1, 495.93, "ZZC#95"},
    gemm_measurement{"h100_pcie", dtype::fp16, 2048, 2048, 2048, 1, 458.03, "ZZC#95"},
    gemm_measurement{"h100_pcie", dtype::tf32, 8192, 8192, 8192, 1, 240.43, "ZZC#95"},
    gemm_measurement{"h100_pcie", dtype::fp32, 8192, 8192, 8192, 1, 36.95, "ZZC#95"},
    gemm_measurement{"h100_pcie", dtype::bf16, 16640, 5120, 8192, 1, 433.0, "AO#3342"},
    gemm_measurement{"h200_sxm", dtype::bf16, 1024, 1024, 1024, 8, 559.6, "TILEOPS#2148"},
    gemm_measurement{"a100_sxm4_40gb", dtype::fp16, 3456, 4096, 8192, 1, 235.1, "CUTLASS"},
    gemm_measurement{"a100_sxm4_40gb", dtype::fp16, 1024, 1024, 1024, 1, 99.86, "TRITON#7085"},
    gemm_measurement{"v100_sxm2", dtype::fp16, 4096, 4096, 4096, 1, 95.73, "ZZC#140"},
    gemm_measurement{"v100_sxm2", dtype::fp16, 1024, 1024, 1024, 1, 57.30, "ZZC#140"},
    gemm_measurement{"v100_sxm2", dtype::fp32, 4096, 4096, 4096, 1, 13.85, "ZZC#140"},
    gemm_measurement{"rtx_4090", dtype::fp16, 8192, 8192, 8192, 1, 155.50, "ZZC#78"},
    gemm_measurement{"rtx_4090", dtype::fp16, 4096, 4096, 4096, 1, 168.38, "ZZC#78"},
    gemm_measurement{"rtx_4090", dtype::fp16, 1024, 1024, 1024, 1, 106.10, "ZZC#78"},
    gemm_measurement{"rtx_3090", dtype::fp16, 1024, 1024, 1024, 1, 53.77, "TRITON#319"},
    gemm_measurement{"l4", dtype::bf16, 8192, 8192, 8192, 1, 59.40, "ZZC#120"},
    gemm_measurement{"l4", dtype::fp16, 2048, 2048, 2048, 1, 68.83, "ZZC#120"},
    gemm_measurement{"l4", dtype::tf32, 8192, 8192, 8192, 1, 25.69, "ZZC#120"},
    // NVIDIA Hopper TF32 (XLA sm_90).
    gemm_measurement{"h100_sxm", dtype::tf32, 4096, 4096, 4096, 1, 403.1, "XLA"},
    gemm_measurement{"h100_sxm", dtype::tf32, 4096, 4096, 4096, 4, 345.6, "XLA"},
    gemm_measurement{"h100_sxm", dtype::tf32, 4096, 2048, 4096, 1, 381.7, "XLA"},
    gemm_measurement{"h100_sxm", dtype::tf32, 2048, 4096, 4096, 1, 383.4, "XLA"},
    gemm_measurement{"h100_sxm", dtype::tf32, 2048, 2048, 4096, 4, 328.3, "XLA"},
    gemm_measurement{"h100_sxm", dtype::tf32, 2048, 2048, 2048, 1, 342.6, "XLA"},
    gemm_measurement{"h100_sxm", dtype::tf32, 4096, 1024, 2048, 1, 345.9, "XLA"},
    gemm_measurement{"h100_sxm", dtype::tf32, 4096, 4096, 512, 1, 237.4, "XLA"},
    // NVIDIA Blackwell B200 (XLA sm_100; AO#2427 torch.mm BF16).
    gemm_measurement{"b200", dtype::bf16, 4096, 4096, 4096, 1, 1416.9, "XLA"},
    gemm_measurement{"b200", dtype::bf16, 4096, 2048, 4096, 4, 1465.7, "XLA"},
    gemm_measurement{"b200", dtype::bf16, 4096, 4096, 2048, 4, 1539.9, "XLA"},
    gemm_measurement{"b200", dtype::bf16, 4096, 4096, 1024, 4, 1350.5, "XLA"},
    gemm_measurement{"b200", dtype::bf16, 4096, 4096, 2048, 1, 1277.8, "XLA"},
    gemm_measurement{"b200", dtype::bf16, 4096, 2048, 1024, 1, 913.8, "XLA"},
    gemm_measurement{"b200", dtype::tf32, 4096, 4096, 4096, 1, 757.9, "XLA"},
    gemm_measurement{"b200", dtype::tf32, 4096, 2048, 4096, 4, 869.5, "XLA"},
    gemm_measurement{"b200", dtype::tf32, 4096, 4096, 2048, 4, 844.2, "XLA"},
    gemm_measurement{"b200", dtype::tf32, 4096, 4096, 1024, 4, 770.0, "XLA"},
    gemm_measurement{"b200", dtype::tf32, 4096, 4096, 2048, 1, 740.0, "XLA"},
    gemm_measurement{"b200", dtype::tf32, 4096, 2048, 1024, 1, 546.2, "XLA"},
    gemm_measurement{"b200", dtype::fp8_e4m3, 4096, 4096, 4096, 1, 2765.0, "XLA"},
    gemm_measurement{"b200", dtype::fp8_e4m3, 4096, 2048, 4096, 4, 3133.3, "XLA"},
    gemm_measurement{"b200", dtype::fp8_e4m3, 4096, 4096, 2048, 4, 3122.5, "XLA"},
    gemm_measurement{"b200", dtype::fp8_e4m3, 4096, 4096, 1024, 4, 2651.2, "XLA"},
    gemm_measurement{"b200", dtype::fp8_e4m3, 4096, 4096, 2048, 1, 2485.0, "XLA"},
    gemm_measurement{"b200", dtype::fp8_e4m3, 4096, 2048, 1024, 1, 1332.2, "XLA"},
    gemm_measurement{"b200", dtype::bf16, 8192, 8192, 8192, 1, 1420.0, "AO#2427"},
    gemm_measurement{"b200", dtype::bf16, 6144, 6144, 6144, 1, 1450.0, "AO#2427"},
    gemm_measurement{"b200", dtype::bf16, 4096, 4096, 4096, 1, 1410.0, "AO#2427"},
    gemm_measurement{"b200", dtype::bf16, 3072, 3072, 3072, 1, 1510.0, "AO#2427"},
    gemm_measurement{"b200", dtype::bf16, 2048, 2048, 2048, 1, 1130.0, "AO#2427"},
    // AMD validation rows.
    gemm_measurement{"mi300x", dtype::bf16, 4096, 4864, 32896, 1, 708.0, "ROCMBLOG"},
    gemm_measurement{"mi300x", dtype::fp16, 4096, 4864, 32896, 1, 654.0, "ROCMBLOG"},
    gemm_measurement{"mi300x", dtype::bf16, 4096, 4864, 10240, 1, 781.9, "MAMF-v1"},
    gemm_measurement{"mi325x", dtype::bf16, 4096, 4864, 32896, 1, 843.0, "ROCMBLOG"},
    gemm_measurement{"mi325x", dtype::fp16, 4096, 4864, 32896, 1, 794.0, "ROCMBLOG"},
    gemm_measurement{"mi325x", dtype::fp8_e4m3_fnuz, 4096, 3648, 32896, 1, 1519.0, "ROCMBLOG"},
    gemm_measurement{"rx_7900_xtx", dtype::fp16, 8192, 8192, 8192, 1, 96.09, "ZZC#58"},
    gemm_measurement{"rx_7900_xtx", dtype::fp16, 10240, 10240, 10240, 1, 94.88, "ZZC#58"},
    gemm_measurement{"rx_7900_xtx", dtype::fp16, 2048, 2048, 2048, 1, 70.78, "ZZC#58"},
    gemm_measurement{"rx_7900_xtx", dtype::bf16, 4096, 4096, 4096, 1, 99.37, "ZZC#58"},
    gemm_measurement{"rx_7900_xtx", dtype::bf16, 8192, 8192, 8192, 1, 98.91, "ZZC#58"},
    gemm_measurement{"rx_7900_xtx", dtype::fp32, 8192, 8192, 8192, 1, 25.80, "ZZC#58"},
    gemm_measurement{"rx_7900_xtx", dtype::fp16, 8192, 8192, 8192, 1, 91.71, "ZZC#68"},
    gemm_measurement{"rx_7900_xtx", dtype::bf16, 8192, 8192, 8192, 1, 93.65, "ZZC#68"},
    gemm_measurement{"mi300x", dtype::fp8_e4m3_fnuz, 128, 1280, 8192, 1, 219.35, "AITER#1092"},
    gemm_measurement{"mi300x", dtype::fp8_e4m3_fnuz, 64, 1280, 8192, 1, 124.3, "AITER#1092"},
};

// Published measurements the model misses by more than the evidence test allows (75 %), kept (not
// dropped) with the mechanism, so that a model change that explains them shows up as a failing
// "still missed" check (docs/gemm.md, "Known misses").
struct gemm_miss {
  gemm_measurement row;
  std::string_view mechanism;
};

inline constexpr std::array gemm_known_misses{
    // The kernels measured do not split K; with M = 512 or 256 and N = 1280 a 64x64 tiling leaves
    // most of the 304 CUs idle, and the model's best tiling splits K 8 ways to fill them.
    gemm_miss{{"mi300x", dtype::fp8_e4m3_fnuz, 512, 1280, 8192, 1, 224.5, "AITER#1092"},
              "measured kernels do not split K"},
    gemm_miss{{"mi300x", dtype::fp8_e4m3_fnuz, 256, 1280, 8192, 1, 114.5, "AITER#1092"},
              "measured kernels do not split K"},
    // M = 1024: the search offers split-K to every tiling that leaves CUs idle (so that no larger
    // problem gets a schedule a smaller one lacks), and 160 tiles of 64x128 split 8 ways beat
    // 320 unsplit 64x64 tiles on 304 CUs; the measured kernels do not split K.
    gemm_miss{{"mi300x", dtype::fp8_e4m3_fnuz, 1024, 1280, 8192, 1, 402.6, "AITER#1092"},
              "measured kernels do not split K"},
    // RX 7900 XTX FP16 1024^3 at 25.94 TFLOPS is 83 us a call, three times the model's time; the
    // same script on RTX 4090 is predicted well (ZZC#78), and 2048^3 on this board reaches only
    // 0.67 of 4096^3: ROCm's small-GEMM kernel choice or per-call cost, not modelled.
    gemm_miss{{"rx_7900_xtx", dtype::fp16, 1024, 1024, 1024, 1, 25.94, "ZZC#58"},
              "ROCm small-GEMM kernel choice or per-call cost"},
    // A software regression: torch._scaled_mm on a ROCm nightly (pytorch/pytorch issue 143465,
    // "MI300X FP8 scaled_mm is extremely slow on nightly"), not a property of the hardware.
    gemm_miss{{"mi300x", dtype::fp8_e4m3_fnuz, 8192, 8192, 8192, 1, 109.86, "PT#143465"},
              "torch._scaled_mm regression on a ROCm nightly"},
    // hipBLASLt's own 16384^3 FP8 solution at 28 TFLOPS, 32x slower than its 8192^3 (907) on the
    // same machine, whose clock was "fixed to 1005Mhz" (ROCm/hipBLASLt issue 1721, "under
    // investigation"). The 8192^3 row is not used: a locked clock is not the stock board.
    gemm_miss{{"mi300x", dtype::fp8_e4m3_fnuz, 16384, 16384, 16384, 1, 28.0, "HIPBLASLT#1721"},
              "library solution-selection anomaly"},
};

}  // namespace dlperf::test
