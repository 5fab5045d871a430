// dlperf against GPUs it measured itself: kernels timed through PyTorch on an H100 SXM and an H200
// SXM lent by the project's device tool (tools/measure/torch_kernels.py, 2026-11-27; the rows are
// in tests/data/measured/) set beside the GEMM model on the catalog entries and on the device
// files `dlperf calibrate --backend cuda` wrote on the same GPUs (examples/devices/). docs/
// calibration.md, "Measured on a lent H100".
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/dlperf.hpp>
#include <dlperf/io/device_file.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace dlperf;

namespace {

// A GPU the project measured: its catalog entry, the device file `dlperf calibrate` wrote on it and
// the rows tools/measure/torch_kernels.py timed on it, with how many GEMMs of 20 us and more and
// GEMVs of 10 us and more they hold (the rows each check below reads).
struct measured_gpu {
  const char* id;
  const char* device_file;
  const char* rows_file;
  std::size_t long_gemms;
  std::size_t long_gemvs;
};

constexpr std::array<measured_gpu, 2> measured_gpus{{
    {"h100_sxm", DLPERF_SOURCE_DIR "/examples/devices/h100_sxm_calibrated.json",
     DLPERF_SOURCE_DIR "/tests/data/measured/h100_sxm_torch_2026-11-27.json", 62, 70},
    {"h200_sxm", DLPERF_SOURCE_DIR "/examples/devices/h200_sxm_calibrated.json",
     DLPERF_SOURCE_DIR "/tests/data/measured/h200_sxm_torch_2026-11-27.json", 59, 65},
}};

measured_device calibrated(const measured_gpu& g) {
  return std::get<measured_device>(calibrate::read_device_file(g.device_file));
}

nlohmann::json measured_rows(const measured_gpu& g) {
  std::ifstream in(g.rows_file);
  REQUIRE(in);
  return nlohmann::json::parse(in).at("rows");
}

struct error_summary {
  std::size_t rows = 0;
  double median_abs = 0;
  double worst_abs = 0;
};

// estimate / measured - 1 over the rows of @p section whose device time is at least @p shortest
// seconds (shorter kernels are the launch's, which a CUDA graph hides and the model charges).
template <class Device>
error_summary gemm_errors(const Device& d, const nlohmann::json& rows, const std::string& section,
                          double shortest) {
  std::vector<double> errors;
  for (const auto& r : rows) {
    if (r.at("section") != section || r.at("graph_s").get<double>() < shortest) continue;
    const gemm_problem p{r.at("m").get<long long>(), r.at("n").get<long long>(),
                         r.at("k").get<long long>(), 1,
                         parse_dtype(r.at("dtype").get<std::string>())};
    const double estimate = best_gemm(d, p).time.value();
    errors.push_back(std::abs(estimate / r.at("graph_s").get<double>() - 1));
  }
  REQUIRE_FALSE(errors.empty());
  std::sort(errors.begin(), errors.end());
  const std::size_t n = errors.size();
  const double median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
  return {n, median, errors.back()};
}

}  // namespace

TEST_CASE("GPUs calibrated on lent machines: their measurements are physically ordered",
          "[calibrate][measured]") {
  for (const measured_gpu& g : measured_gpus) {
    INFO(g.id);
    const measured_device d = calibrated(g);
    CHECK(d.nominal().id() == g.id);
    // The probes' three bugs these files were written after: DRAM latency is not L2's (a chase
    // that replayed the same lines measured 292 cycles for both on the H100), L2 streams faster
    // than DRAM (50 launches of a 12.5 MiB triad measured 3.2 TB/s, launch-bound), and the GEMM
    // peaks sit below the dense peak by what random operands cost (on zeros: 892 TFLOP/s BF16).
    CHECK(d.memory(tier::global).latency_cycles > 2.0 * d.memory(tier::l2).latency_cycles);
    CHECK(d.memory(tier::l2).throughput > 2.0 * d.memory(tier::global).throughput);
    // DRAM: STREAM triad within [0.8, 0.9] of the datasheet (3.35 TB/s H100, 4.8 TB/s H200).
    const double dram_share = d.memory(tier::global).throughput.value() /
                              d.nominal().memory(tier::global).throughput.value();
    CHECK(dram_share > 0.8);
    CHECK(dram_share < 0.9);
    // BF16: 8192^3 at 0.7-0.85 of the dense peak (both ran at 1978 of 1980 MHz).
    const double bf16_share = d.peak(dtype::bf16).value() / d.nominal().peak(dtype::bf16).value();
    CHECK(bf16_share > 0.7);
    CHECK(bf16_share < 0.85);
  }
}

TEST_CASE(
    "GEMMs measured on an H100 and an H200: the catalog and the calibrated devices predict "
    "them",
    "[calibrate][measured]") {
  // GEMMs of 20 us and more: squares 2048-8192 in BF16, FP16, FP8, TF32 and FP32, and the
  // Llama-2 7B and 70B projections at 16-8192 tokens in BF16 and FP8.
  for (const measured_gpu& g : measured_gpus) {
    INFO(g.id);
    const nlohmann::json rows = measured_rows(g);
    const error_summary catalog = gemm_errors(catalog::find(g.id), rows, "gemm", 20e-6);
    const error_summary measured = gemm_errors(calibrated(g), rows, "gemm", 20e-6);
    CHECK(catalog.rows == g.long_gemms);
    CHECK(catalog.median_abs < 0.12);   // H100 8.1 %, H200 11.2 % when written
    CHECK(catalog.worst_abs < 0.30);    // 23 %, 24 %
    CHECK(measured.median_abs < 0.10);  // 5.8 %, 7.7 %; the launch-bound L2 probe made it 145 %
    CHECK(measured.worst_abs < 0.40);   // 33 %, 24 %
  }
}

TEST_CASE(
    "Decode-shaped GEMVs measured on an H100 and an H200: the calibrated devices predict "
    "them",
    "[calibrate][measured]") {
  // Matrix-vector products of 10 us and more: Llama-2-7B and 70B weights, batch 1 to 64.
  for (const measured_gpu& g : measured_gpus) {
    INFO(g.id);
    const nlohmann::json rows = measured_rows(g);
    const error_summary catalog = gemm_errors(catalog::find(g.id), rows, "gemv", 10e-6);
    const error_summary measured = gemm_errors(calibrated(g), rows, "gemv", 10e-6);
    CHECK(catalog.rows == g.long_gemvs);
    CHECK(catalog.median_abs < 0.12);   // 9.9 %, 8.4 %: the datasheet's DRAM rate, not the reached
    CHECK(catalog.worst_abs < 0.25);    // 17 %, 19 %
    CHECK(measured.median_abs < 0.10);  // 4.3 %, 6.9 %
    CHECK(measured.worst_abs < 0.25);   // 18 %, 15 %
  }
}

TEST_CASE("GEMM traffic Nsight Compute read on an H100: DRAM as modelled and L2 twice the measured",
          "[calibrate][measured]") {
  // tests/data/measured/h100_sxm_ncu_gemm_traffic_2026-11-27.csv: cuBLAS BF16 GEMMs (y = x W^T)
  // under Nsight Compute on a lent H100 SXM (tools/measure/gemm_traffic.py): DRAM bytes read
  // and written, L2 bytes (lts__t_bytes), for the catalog's h100_sxm. A known miss, kept: the
  // tile model reads each operand tile from L2 once per block, where cuBLAS's Hopper kernels
  // (320 x 128, 256 x 128 and 192 x 192 tiles, 2-block clusters) multicast one operand to both
  // blocks of a cluster; the model's L2 traffic is about twice the measured. It stays hidden
  // while Hopper's L2 bandwidth is the assumed 12.4 TB/s (measured: 7.7-8.1; docs/calibration.md).
  std::ifstream in(DLPERF_SOURCE_DIR
                   "/tests/data/measured/h100_sxm_ncu_gemm_traffic_2026-11-27.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header
  int gemms = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
    REQUIRE(f.size() == 11);
    const gemm_problem p{std::stoll(f[0]), std::stoll(f[1]), std::stoll(f[2]), 1, dtype::bf16};
    const gemm_estimate e = best_gemm(catalog::h100_sxm, p);
    const double dram = std::stod(f[7]) + std::stod(f[8]), l2 = std::stod(f[9]);
    INFO(line << ": model DRAM " << e.dram_bytes.value() << " B, L2 " << e.l2_bytes.value()
              << " B");
    CHECK(std::abs(e.dram_bytes.value() / dram - 1) < 0.15);  // -14 % to +8 %
    if (p.m == 1) {
      CHECK(e.l2_bytes.value() < l2);  // a GEMV: its weight once, as read
    } else {
      ++gemms;
      CHECK(e.l2_bytes.value() / l2 > 1.6);  // 2.07, 2.14, 1.98
      CHECK(e.l2_bytes.value() / l2 < 2.4);
    }
  }
  CHECK(gemms == 3);
}

TEST_CASE("A Llama-2-7B layer's decode GEMVs under cuBLAS: the stacks' GEMV share on HBM",
          "[calibrate][measured]") {
  // HuggingFace's Llama runs seven weight GEMVs a layer at batch 1: Q, K, V and O (4096 x 4096),
  // gate and up (11008 x 4096) and down (4096 x 11008); their device times were measured through
  // PyTorch (cuBLAS) on the H100 and H200 (rows 7b_q, 7b_up and 7b_down). The hardware model's
  // ceiling, at the datasheet's DRAM rate, is 8 % fast on them; under `pytorch-eager`, whose
  // fitted GEMV share 0.72 divides the ceiling's time, 28 % slow. A known miss, kept for
  // issue 31 (GEMV shares per memory system): cuBLAS reaches about 0.9 of the ceiling on HBM3 and
  // HBM3e (docs/calibration.md); the share was fitted on rows of other GPUs.
  for (const measured_gpu& g : measured_gpus) {
    INFO(g.id);
    const auto& d = catalog::find(g.id);
    double measured = 0;
    for (const auto& r : measured_rows(g)) {
      if (r.at("section") != "gemv" || r.at("m") != 1) continue;
      const std::string shape = r.at("shape");
      const double per_layer = shape == "7b_q"      ? 4
                               : shape == "7b_up"   ? 2
                               : shape == "7b_down" ? 1
                                                    : 0;
      measured += per_layer * r.at("graph_s").get<double>();
    }
    REQUIRE(measured > 0);
    const stack_op_context context{.dram_bandwidth = d.memory(tier::global).throughput};
    double ceiling = 0, eager = 0;
    for (const auto& [n, k, count] :
         {std::tuple{4096, 4096, 4}, std::tuple{11008, 4096, 2}, std::tuple{4096, 11008, 1}}) {
      const op_estimate op = best_gemm_op(d, "gemv", {1, n, k, 1, dtype::bf16});
      ceiling += count * op.time.value();
      // Device time alone: the stack's host time per kernel (eager PyTorch's 50 us) is left out.
      software_stack device_only = stacks::pytorch_eager;
      device_only.host_overhead.value = 0;
      eager += count * apply_stack(device_only, op, context).time.value();
    }
    CHECK(ceiling / measured > 0.85);  // H100 0.92, H200 0.92 when written
    CHECK(ceiling / measured < 1.0);
    CHECK(eager / measured > 1.15);  // 1.28, 1.28
    CHECK(eager / measured < 1.45);
  }
}

namespace {

nlohmann::json llama_cpp_measured() {
  std::ifstream in(DLPERF_SOURCE_DIR "/tests/data/measured/h100_sxm_llama_cpp_2026-11-27.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// The least-squares line of kernel time over bytes through @p points (bytes, seconds): the fixed
// time (s) and the sustained rate (bytes/s, the inverse slope).
std::pair<double, double> time_over_bytes(const std::vector<std::pair<double, double>>& points) {
  REQUIRE(points.size() >= 4);
  double mx = 0, my = 0;
  for (const auto& [x, y] : points) {
    mx += x;
    my += y;
  }
  mx /= static_cast<double>(points.size());
  my /= static_cast<double>(points.size());
  double sxy = 0, sxx = 0;
  for (const auto& [x, y] : points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  const double slope = sxy / sxx;
  return {my - slope * mx, 1.0 / slope};
}

// The same line through the Nsight Compute rows of @p kernels whose name holds @p name and whose
// grid has at least @p least_grid blocks, over the DRAM bytes they read.
std::pair<double, double> time_over_bytes(const nlohmann::json& kernels, const std::string& name,
                                          double least_grid) {
  std::vector<std::pair<double, double>> points;
  for (const auto& k : kernels)
    if (k.at("kernel").get<std::string>().find(name) != std::string::npos &&
        k.at("grid").get<double>() >= least_grid)
      points.emplace_back(k.at("dram_read_bytes").get<double>(), k.at("time_s").get<double>());
  return time_over_bytes(points);
}

}  // namespace

TEST_CASE("llama.cpp's GEMV rates per SM clock are the slopes Nsight Compute measured on an H100",
          "[calibrate][measured]") {
  // stacks::llama_cpp's gemv_bytes_per_sm_cycle and quantized_gemv_bytes_per_sm_cycle are what
  // the GEMV kernels of llama.cpp 0df0aa8 (2024-05) moved on the lent H100 SXM: the inverse slope
  // of kernel time over DRAM bytes, over the catalog H100's SM cycles (132 x 1.98 GHz). The F16
  // kernel's 1024-row products (Llama 3's K and V) are left out: their 1024 one-warp blocks fill
  // a quarter of the H100's warp slots, a limit of its own (docs/stacks.md, "GEMV kernels per SM
  // clock").
  const nlohmann::json kernels = llama_cpp_measured().at("versions").at("gemv_kernels_0df0aa8");
  const auto& h100 = catalog::find("h100_sxm");
  const double cycles = h100.sm_count() * h100.sm_clock().value();
  const auto [q_fixed, q_rate] = time_over_bytes(kernels.at("q4_k_m"), "block_q4_K", 0);
  const auto [f_fixed, f_rate] = time_over_bytes(kernels.at("f16"), "convert_f16", 4096);
  CHECK(stacks::llama_cpp.quantized_gemv_bytes_per_sm_cycle.value ==
        Approx(q_rate / cycles).epsilon(0.005));  // 2.04 TB/s: 7.80
  CHECK(stacks::llama_cpp.gemv_bytes_per_sm_cycle.value ==
        Approx(f_rate / cycles).epsilon(0.005));  // 2.07 TB/s: 7.91
  // A few microseconds of each kernel are fixed (its ramp and tail), as the model's launch and
  // fill charge: 3.5 and 3.7 us when written.
  for (const double fixed : {q_fixed, f_fixed}) {
    CHECK(fixed > 1e-6);
    CHECK(fixed < 6e-6);
  }
  // Both sit far below the H100's 3.35 TB/s, where llama.cpp's kernels on a GDDR board reach
  // the fitted 0.95 of theirs.
  CHECK(q_rate / h100.memory(tier::global).throughput.value() < 0.65);
}

TEST_CASE("llama.cpp of 2024-05 on the lent H100 SXM: decode within its measured error",
          "[calibrate][measured]") {
  // llama-bench tg512 and pp512 of the XDAI-LLAMA3 rows' build (0df0aa8) on Llama-3-8B shapes,
  // flash attention off, against `dlperf model --stack llama.cpp` on the catalog H100 SXM.
  // Decode: +5.2 % (Q4_K_M) and -0.7 % (F16) since a decode step splits ggml's projections and
  // the F16 kernel's occupancy is priced (stack/gemv_occupancy.hpp); +19 % and +7 % before,
  // +45 % and +51 % before the GEMV rates per SM clock. Prompts: +4 % (Q4_K_M) and +11 % (F16)
  // since the layer is ggml's graph with its own kernels' rates (stack/kernel_choices.hpp,
  // layer_kernels; docs/stacks.md, "A prompt layer as ggml builds it"); 1.59x and 1.47x
  // before, 2.2-2.3x before the casts around every cuBLAS GEMM were counted.
  const auto& h100 = catalog::find("h100_sxm");
  int seen = 0;
  const nlohmann::json runs = llama_cpp_measured().at("versions").at("llama_bench");
  for (const auto& r : runs) {
    if (r.at("build").get<std::string>() != "0df0aa8") continue;
    const std::string test = r.at("test");
    const bool decode = test == "tg512";
    run_config run{.mode = run_mode::infer, .batch = 1, .type = dtype::fp16};
    run.flash_attention = false;
    run.weights = r.at("weights") == "fp16" ? weight_format::native : weight_format::q4_k_m;
    run.prompt = decode ? 1 : 512;
    run.generate = decode ? 512 : 1;
    const model_estimate e = estimate_model(h100, presets::llama3_8b, run, stacks::llama_cpp).stack;
    const double predicted = decode ? e.tokens_per_second() : 512.0 / e.prefill_time.value();
    const double ratio = predicted / r.at("tokens_per_s").get<double>();
    INFO(test << " " << r.at("weights").get<std::string>() << ": " << ratio);
    if (decode) {
      CHECK(ratio > 0.9);
      CHECK(ratio < 1.1);
    } else {
      CHECK(ratio > 0.9);
      CHECK(ratio < 1.15);
    }
    ++seen;
  }
  CHECK(seen == 4);
}

TEST_CASE("llama.cpp's casts around cuBLAS cost what the lent H100 SXM measured",
          "[calibrate][measured]") {
  // The F32-to-F16 casts of every cuBLAS product's activations and the F16-to-F32 casts of its
  // result (convert_unary) in two 512-token F16 prompt layers of the 2024-05 build (0df0aa8),
  // timed by Nsight Compute: 212 us a layer. The model's casts (stack/stack.hpp,
  // library_gemm_call) on the catalog H100 SXM, launches included, around Q, K and V apart as
  // ggml casts them (layer_kernels).
  const nlohmann::json kernels =
      llama_cpp_measured().at("versions").at("prompt_kernels_0df0aa8").at("f16");
  double measured = 0.0;
  int norms = 0;
  for (const auto& k : kernels) {
    const std::string name = k.at("kernel");
    if (name.find("convert_unary") != std::string::npos) measured += k.at("time_s").get<double>();
    if (name.find("rms_norm") != std::string::npos) ++norms;
  }
  REQUIRE(norms == 4);  // two layers, two norms each
  measured /= 2.0;
  run_config run{.mode = run_mode::infer, .batch = 1, .type = dtype::fp16};
  run.flash_attention = false;
  run.prompt = 512;
  run.generate = 1;
  const model_estimate e =
      estimate_model(catalog::find("h100_sxm"), presets::llama3_8b, run, stacks::llama_cpp).stack;
  double modelled = 0.0;
  for (const op_estimate& op : e.prefill)
    if (op.name.starts_with("cast to"))
      modelled += op.time.value() * static_cast<double>(op.repeats);
  modelled /= static_cast<double>(presets::llama3_8b.transformer.layers);
  INFO("measured " << measured * 1e6 << " us a layer, modelled " << modelled * 1e6);
  CHECK(modelled > 0.8 * measured);
  CHECK(modelled < 1.25 * measured);
}

namespace {

// The bytes a kernel of the 0df0aa8 prompt profile reads and writes, as its elements give them
// (grid x 256 super-block elements for a dequantisation, one element a thread for a copy, the
// F32 scores and F16 mask of 32 heads of 512 x 512 for the softmax); 0 for any other kernel.
double logical_bytes(const nlohmann::json& k, stream_kernel kind) {
  const std::string name = k.at("kernel");
  const double grid = k.at("grid").get<double>(), block = k.at("block").get<double>();
  switch (kind) {
    case stream_kernel::dequantize:
      if (name.find("dequantize_block_q4_K") != std::string::npos)
        return grid * 256.0 * (144.0 / 256.0 + 2.0);  // Q4_K: 144 bytes a 256-weight block
      if (name.find("dequantize_block_q6_K") != std::string::npos)
        return grid * 256.0 * (210.0 / 256.0 + 2.0);  // Q6_K: 210 bytes
      return 0.0;
    case stream_kernel::strided_copy:
      if (name.find("cpy_1_f32_f32") != std::string::npos) return grid * block * 8.0;
      if (name.find("cpy_1_f32_f16") != std::string::npos) return grid * block * 6.0;
      return 0.0;
    case stream_kernel::softmax:
      if (name.find("soft_max_f32") != std::string::npos)
        return 32.0 * 512.0 * 512.0 * 4.0 * 2.0 + 512.0 * 512.0 * 2.0;
      return 0.0;
    case stream_kernel::generic:
      break;
  }
  return 0.0;
}

// The rate (bytes/s) of @p kind's kernels in both formats' profiles: the inverse slope of kernel
// time over their bytes, or, where every kernel moves the same bytes (one shape), their mean rate.
double measured_rate(const nlohmann::json& profile, stream_kernel kind) {
  std::vector<std::pair<double, double>> points;
  for (const auto& [format, kernels] : profile.items())
    for (const auto& k : kernels)
      if (const double b = logical_bytes(k, kind); b > 0)
        points.emplace_back(b, k.at("time_s").get<double>());
  REQUIRE(points.size() >= 4);
  const bool one_shape = std::all_of(points.begin(), points.end(),
                                     [&](const auto& p) { return p.first == points[0].first; });
  if (!one_shape) return time_over_bytes(points).second;
  double rate = 0;
  for (const auto& [x, y] : points) rate += x / y;
  return rate / static_cast<double>(points.size());
}

}  // namespace

TEST_CASE("ggml's own streaming kernels' rates per SM clock are what Nsight Compute measured",
          "[calibrate][measured]") {
  // stacks::llama_cpp's dequantize_, softmax_ and strided_copy_bytes_per_sm_cycle: the rates of
  // ggml's kernels in two 512-token Llama-3-8B prompt layers of the 0df0aa8 build on the lent
  // H100 SXM, over the catalog H100's SM cycles (132 x 1.98 GHz).
  const nlohmann::json profile = llama_cpp_measured().at("versions").at("prompt_kernels_0df0aa8");
  const auto& h100 = catalog::find("h100_sxm");
  const double cycles = h100.sm_count() * h100.sm_clock().value();
  const software_stack& s = stacks::llama_cpp;
  CHECK(s.dequantize_bytes_per_sm_cycle.value ==
        Approx(measured_rate(profile, stream_kernel::dequantize) / cycles).epsilon(0.005));
  CHECK(s.softmax_bytes_per_sm_cycle.value ==
        Approx(measured_rate(profile, stream_kernel::softmax) / cycles).epsilon(0.005));
  CHECK(s.strided_copy_bytes_per_sm_cycle.value ==
        Approx(measured_rate(profile, stream_kernel::strided_copy) / cycles).epsilon(0.005));
  // All three move less per SM cycle than an H100's HBM asks (12.8 B at 3.35 TB/s), which is why
  // they hold the HBM boards' prompts and not the GDDR boards'.
  const double asks = h100.memory(tier::global).throughput.value() / cycles;
  for (const auto f :
       {stack_figure_id::dequantize_bytes_per_sm_cycle, stack_figure_id::softmax_bytes_per_sm_cycle,
        stack_figure_id::strided_copy_bytes_per_sm_cycle})
    CHECK(read_figure(s, f).number < 0.5 * asks);
}

TEST_CASE("llama.cpp's prompt layer runs the kernels the lent H100's profile lists",
          "[calibrate][measured]") {
  // A layer of the 0df0aa8 profile, from one rms_norm to the layer's next-but-one (43 kernels
  // in F16, 50 in Q4_K_M with its 7 dequantisations), against the model's prefill operators
  // under llama.cpp that run once a layer. The model leaves out ggml's k_compute_batched_ptrs, a
  // 2.5 us kernel that sets up each batched product's pointers (2 a layer).
  const nlohmann::json profile = llama_cpp_measured().at("versions").at("prompt_kernels_0df0aa8");
  for (const weight_format w : {weight_format::native, weight_format::q4_k_m}) {
    const nlohmann::json& kernels = profile.at(w == weight_format::native ? "f16" : "q4_k_m");
    std::vector<std::size_t> norms;
    for (std::size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i].at("kernel").get<std::string>().find("rms_norm") != std::string::npos)
        norms.push_back(i);
    REQUIRE(norms.size() == 4);
    int pointers = 0;
    for (std::size_t i = norms[0]; i < norms[2]; ++i)
      pointers +=
          kernels[i].at("kernel").get<std::string>().find("batched_ptrs") != std::string::npos;
    const auto measured = static_cast<int>(norms[2] - norms[0]);
    run_config run{.mode = run_mode::infer, .batch = 1, .type = dtype::fp16};
    run.flash_attention = false;
    run.weights = w;
    run.prompt = 512;
    run.generate = 1;
    const model_estimate e =
        estimate_model(catalog::find("h100_sxm"), presets::llama3_8b, run, stacks::llama_cpp).stack;
    int modelled = 0;
    for (const op_estimate& op : e.prefill)
      if (op.repeats == presets::llama3_8b.transformer.layers) modelled += op.kernels;
    INFO(name(w) << ": measured " << measured << " kernels a layer, modelled " << modelled);
    CHECK(pointers == 2);
    CHECK(modelled == measured - pointers);
  }
}
