// Apple silicon through the same estimators: a GPU core of 128 ALUs with no matrix unit, a GPU
// that takes a share of its Mac's unified memory, one GPU to a machine priced as the machine,
// llama.cpp's Metal build, and the vendor's vocabulary (docs/catalog.md, "Apple silicon").
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>

#include "run_types.hpp"

using namespace dlperf;

namespace {

// Batch-1 decode of 128 tokens after a one-token prompt in FP16 on one GPU.
run_config decode_128(stack_id s, weight_format w) { return test::decode_run(s, w, 1); }

}  // namespace

// Compile-time checks: FP16 and FP32 run on the same ALUs at the same rate, and there are no
// tensor cores to ask for.
static_assert(peak(catalog::m2_ultra_76c_192gb, datatype<dtype::fp16>{}) ==
              peak(catalog::m2_ultra_76c_192gb, datatype<dtype::fp32>{}));
static_assert(apple_m4::spec.tensor_cores_per_sm == 0);
static_assert(!tensor_cores_support<apple_m3, datatype<dtype::fp16>>);

TEST_CASE("an Apple GPU's peak is cores x 128 ALUs x 2 FLOP x its clock", "[apple][catalog]") {
  // philipturner/metal-benchmarks: M1 Max 32 cores at 1296 MHz, 10617 GFLOPS; M2 Max 38 cores at
  // 1398 MHz, 13600.
  CHECK(in_teraflops(catalog::m1_max_32c_64gb.peak(dtype::fp32)) == Approx(10.617).epsilon(0.001));
  CHECK(in_teraflops(catalog::m2_max_38c_96gb.peak(dtype::fp16)) == Approx(13.600).epsilon(0.001));
  CHECK(catalog::m1_8c_8gb.peak(dtype::fp16, accumulator::fp16) ==
        catalog::m1_8c_8gb.peak(dtype::fp16, accumulator::fp32));
  CHECK_THROWS_WITH(catalog::m1_8c_8gb.peak(dtype::bf16),
                    "apple_m1 cannot run bf16 with fp32 accumulation (it has no tensor cores)");
  CHECK_THROWS_AS(catalog::m4_max_40c_128gb.peak(dtype::fp8_e4m3), unsupported);
}

TEST_CASE("an Apple GPU's memory is its working set of the Mac's unified memory",
          "[apple][catalog]") {
  // recommendedMaxWorkingSetSize as llama.cpp's Metal backend logs it (macOS 13-14):
  // 10922.67 MiB of 16 GiB, 21845.34 MiB of 32 GiB, 73728 MiB of 96 GiB.
  const auto mib = [](byte_count b) { return b.value() / (1024.0 * 1024.0); };
  CHECK(mib(apple::gpu_working_set(gibibytes(16))) == Approx(10922.67).epsilon(1e-6));
  CHECK(mib(apple::gpu_working_set(gibibytes(32))) == Approx(21845.34).epsilon(1e-6));
  CHECK(mib(apple::gpu_working_set(gibibytes(96))) == Approx(73728.0).epsilon(1e-9));
  for (const gpu_spec* g : catalog::all) {
    INFO(g->id());
    const gpu_facts& f = g->facts();
    const bool apple_gpu = g->arch().vendor == vendor::apple;
    CHECK((f.segment == segment::apple) == apple_gpu);
    CHECK((f.unified_memory.value() > 0) == apple_gpu);
    if (!apple_gpu) continue;
    CHECK(f.memory == apple::gpu_working_set(f.unified_memory));
    CHECK(f.memory < f.unified_memory);
    CHECK(f.host_link.kind == interconnect_kind::none);
    // M1 uses LPDDR4X, M1 Pro to M3 LPDDR5, M4 LPDDR5X.
    const family fam = g->arch().family;
    const bool m1_base = fam == family::apple_m1 && f.bus_width_bits == 128;
    CHECK((f.memory_type == memory_kind::lpddr4x) == m1_base);
    CHECK((f.memory_type == memory_kind::lpddr5x) == (fam == family::apple_m4));
  }
  // The machines the evidence ran: a 7B F16 model (12.55 GiB) fits a 32 GB Mac, not a 16 GB one.
  run_config r = decode_128(stack_id::llama_cpp_metal, weight_format::native);
  CHECK(check_fit(catalog::m1_max_24c_32gb, presets::llama2_7b, r).fits);
  CHECK_FALSE(check_fit(catalog::m3_10c_16gb, presets::llama2_7b, r).fits);
}

TEST_CASE("a Mac's price is the machine's, with its GPU one to a machine", "[apple][prices]") {
  // Mac Studio (2025), M4 Max with a 32-core GPU and 36 GB: $1,999 (Macworld, 2025-03-05).
  const price_point& p = catalog::m4_max_32c_36gb.facts().price;
  CHECK(p.amount.value() == 1999);
  CHECK(p.year == 2025);
  CHECK(p.kind == price_kind::launch_msrp);
  // The 20-core M4 Pro Mac mini is the 16-core one's $1,399 and its $200 option.
  CHECK(catalog::m4_pro_20c_24gb.facts().price.amount ==
        catalog::m4_pro_16c_24gb.facts().price.amount + dollars(200));
  // A built configuration is its machine's base and Apple's options: the M2 Ultra Mac Studio's
  // 76-core GPU (+$1,000) and 192 GB (+$1,600) (theinfiniteloop.co.uk, 2023-06-07).
  CHECK(catalog::m2_ultra_76c_192gb.facts().price.amount ==
        catalog::m2_ultra_60c_64gb.facts().price.amount + dollars(1000 + 1600));
  // TechRadar's M1 Ultra top price less its 8 TB SSD is the base, the 64-core GPU's $1,000 and
  // 128 GB's $800: two sources that agree.
  CHECK(catalog::m1_ultra_64c_128gb.facts().price.amount ==
        catalog::m1_ultra_48c_64gb.facts().price.amount + dollars(1000 + 800));
  // Within a chip, more memory and no fewer GPU cores never cost less (with the same memory, a
  // chip's binned and full versions may sit in different machines: the 7-core M1 MacBook Air at
  // $999, the 8-core Mac mini at $699).
  for (const gpu_spec* a : catalog::all)
    for (const gpu_spec* b : catalog::all) {
      const gpu_facts& x = a->facts();
      const gpu_facts& y = b->facts();
      if (x.segment != segment::apple || y.segment != segment::apple ||
          x.price.kind == price_kind::none || y.price.kind == price_kind::none ||
          x.name.substr(0, x.name.find(" (")) != y.name.substr(0, y.name.find(" (")))
        continue;
      if (x.sms <= y.sms && x.unified_memory < y.unified_memory) {
        INFO(x.id << " against " << y.id);
        CHECK(x.price.amount <= y.price.amount);
      }
    }
  const host_costs host;
  CHECK(host.for_boards(1, form_factor::integrated).value() == 0);
  CHECK_THROWS_WITH(host.for_boards(2, form_factor::integrated),
                    Catch::Contains("one to a machine"));
}

TEST_CASE("llama.cpp on a Mac is its Metal build, which runs nowhere else", "[apple][stack]") {
  CHECK(stacks::build_for(stack_id::llama_cpp, vendor::apple) == stack_id::llama_cpp_metal);
  CHECK(stacks::build_for(stack_id::llama_cpp_rocm, vendor::apple) == stack_id::llama_cpp_metal);
  CHECK(stacks::build_for(stack_id::llama_cpp_metal, vendor::nvidia) == stack_id::llama_cpp);
  CHECK(stacks::build_for(stack_id::llama_cpp_metal, vendor::amd) == stack_id::llama_cpp_rocm);
  // No Metal build of PyTorch is modelled: it stays itself, and check_runs_on refuses it.
  CHECK(stacks::build_for(stack_id::pytorch_eager, vendor::apple) == stack_id::pytorch_eager);
  CHECK_THROWS_WITH(estimate_run(catalog::m2_ultra_76c_192gb, presets::llama2_7b,
                                 decode_128(stack_id::pytorch_eager, weight_format::native)),
                    Catch::Contains("stacks that do: ceiling, llama.cpp-metal"));
  CHECK_THROWS_WITH(estimate_run(catalog::rtx_4090, presets::llama2_7b,
                                 decode_128(stack_id::llama_cpp_metal, weight_format::q4_0)),
                    Catch::Contains("does not run on NVIDIA GPUs"));
}

TEST_CASE("batch-1 decode on an Apple GPU is DRAM-bound, slower than its DRAM time",
          "[apple][properties]") {
  // No matrix unit: a one-row product runs on the ALUs unpadded (estimate/gemm.hpp, skinny_gemm),
  // so its weights' bytes set the time under the hardware model. Under llama.cpp's Metal build
  // each token also pays the host's encoding of its kernels, which does not overlap the GPU.
  for (const gpu_spec* g : catalog::all) {
    if (g->arch().vendor != vendor::apple) continue;
    INFO(g->id());
    const run_config r = decode_128(stack_id::llama_cpp_metal, weight_format::q4_0);
    const stacked_estimate e = estimate_model(*g, presets::llama2_7b, r, stacks::llama_cpp_metal);
    for (const op_estimate& op : e.ceiling.decode)
      if (op.kind == op_kind::gemm && op.weight_gemv) CHECK(op.bound == bound::global);
    const duration weights_read =
        bytes(weight_file_bytes(presets::llama2_7b, weight_format::q4_0, dtype::fp16)) /
        g->memory_bandwidth();
    CHECK(e.ceiling.decode_per_token > weights_read);
    CHECK(e.stack.decode_per_token > e.ceiling.decode_per_token);
    // The host's share: every kernel's encoding, added.
    long long kernels = 0;
    for (const op_estimate& op : e.stack.decode) kernels += op.kernels * op.repeats;
    CHECK(kernels > 0);
    CHECK(e.stack.decode_per_token.value() >
          static_cast<double>(kernels) * stacks::llama_cpp_metal.host_overhead.number());
  }
}

TEST_CASE("a binned Apple chip decodes slower than the full one at the same bandwidth",
          "[apple][stack]") {
  // The 24-core and 32-core M1 Max share 409.6 GB/s; llama.cpp's Metal kernels move at most
  // quantized_gemv_bytes_per_sm_cycle per core per clock, which caps the 24-core chip (as the
  // discussion's rows show: 54.61 against 61.19 tokens/s in Q4_0).
  const run_config r = decode_128(stack_id::llama_cpp_metal, weight_format::q4_0);
  const auto tokens = [&](const gpu_spec& g) {
    return estimate_run(g, presets::llama2_7b, r).tokens_per_second();
  };
  REQUIRE(catalog::m1_max_24c_32gb.memory_bandwidth() ==
          catalog::m1_max_32c_64gb.memory_bandwidth());
  CHECK(tokens(catalog::m1_max_24c_32gb) < tokens(catalog::m1_max_32c_64gb));
  CHECK(tokens(catalog::m1_max_32c_64gb) / tokens(catalog::m1_max_24c_32gb) ==
        Approx(61.19 / 54.61).epsilon(0.10));
}

TEST_CASE("MLX runs on Macs only, inference only, a token its bytes and a fixed time",
          "[apple][stack][mlx]") {
  run_config r = decode_128(stack_id::mlx, weight_format::mlx_4bit);
  CHECK_THROWS_WITH(estimate_run(catalog::rtx_4090, presets::llama3_1_8b, r),
                    Catch::Contains("does not run on NVIDIA GPUs"));
  run_config train = r;
  train.mode = run_mode::train;
  train.prompt = 0;
  train.generate = 0;
  train.seq = 512;
  CHECK_THROWS(estimate_run(catalog::m3_ultra_80c_512gb, presets::llama3_1_8b, train));
  // GURU-MLX's M3 Ultra decodes Llama 3.1 8B after a 1k prompt in 6.09 ms a token in 2-bit and
  // 13.54 ms in 8-bit: the 6 GB between them at about the whole 819 GB/s, and some 3 ms besides,
  // which every token pays whatever its bytes (the GPU's cost per dependent dispatch).
  const auto per_token = [&](weight_format w) {
    run_config x = decode_128(stack_id::mlx, w);
    x.prompt = 1024;
    x.generate = 100;
    return 1.0 / estimate_run(catalog::m3_ultra_80c_512gb, presets::llama3_1_8b, x)
                     .decode_tokens_per_second();
  };
  const double t2 = per_token(weight_format::mlx_2bit);
  const double t8 = per_token(weight_format::mlx_8bit);
  CHECK(t2 == Approx(1 / 164.22).epsilon(0.15));
  CHECK(t8 == Approx(1 / 73.85).epsilon(0.15));
  const double bytes2 =
      weight_file_bytes(presets::llama3_1_8b, weight_format::mlx_2bit, dtype::fp16);
  const double bytes8 =
      weight_file_bytes(presets::llama3_1_8b, weight_format::mlx_8bit, dtype::fp16);
  const double dram = catalog::m3_ultra_80c_512gb.memory_bandwidth().value();
  CHECK((t8 - t2) ==
        Approx((bytes8 - bytes2) / (stacks::mlx.quantized_gemv_dram_share.value * dram))
            .epsilon(0.1));
  CHECK(t2 - bytes2 / dram > 1e-3);
  // The cost per kernel adds: without it every token is faster.
  software_stack no_gap = stacks::mlx;
  no_gap.host_overhead.value = 0;
  for (const gpu_spec* g : catalog::all) {
    if (g->arch().vendor != vendor::apple) continue;
    INFO(g->id());
    const stacked_estimate with = estimate_model(*g, presets::llama3_1_8b, r, stacks::mlx);
    const stacked_estimate without = estimate_model(*g, presets::llama3_1_8b, r, no_gap);
    CHECK(without.stack.decode_per_token < with.stack.decode_per_token);
    CHECK(without.stack.decode_per_token >= without.ceiling.decode_per_token);
  }
  // A longer context reads more of the KV cache per token: decode slows, never speeds up.
  double last = 1e300;
  for (long long prompt : {1024LL, 8192LL, 32768LL, 65536LL}) {
    r.prompt = prompt;
    r.generate = 100;
    const double rate = estimate_run(catalog::m3_ultra_80c_512gb, presets::llama3_1_8b, r)
                            .decode_tokens_per_second();
    CHECK(rate < last);
    last = rate;
  }
}

TEST_CASE("Apple's words for its GPU's parts", "[apple][vocabulary]") {
  using traits = vendor_traits<vendor::apple>;
  CHECK(traits::compute_unit == "GPU core");
  CHECK(traits::simd_group == "SIMD-group");
  CHECK(traits::shared_memory == "threadgroup memory");
  CHECK(catalog::m1_8c_8gb.arch().isa.substr(0, traits::isa_prefix.size()) == traits::isa_prefix);
  CHECK(parse<vendor>("apple") == vendor::apple);
  CHECK(parse<form_factor>("integrated") == form_factor::integrated);
}
