// The application layer's one-kernel requests and reports (dlperf/app/gemm_report.hpp,
// dlperf/app/roofline_report.hpp): each report is the library's estimate for its request, its
// JSON carries the same figures, a request by keywords is the one the tool's flags give, and
// every refusal names what is wrong.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/app/gemm_report.hpp>
#include <dlperf/app/keyword_reports.hpp>
#include <dlperf/app/operand_types.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/roofline_report.hpp>
#include <dlperf/dlperf.hpp>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace {

using dlperf::app::keyword_fields;

const std::string host_device_file =
    std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json";

}  // namespace

TEST_CASE("a GEMM report is the tile search's best estimate, and its JSON the same figures") {
  // The 70B TP8 QKV shard at 256 tokens on an MI300X in FP8 (docs/gemm.md).
  dlperf::app::gemm_options o;
  o.gpu = "mi300x";
  o.m = "256";
  o.n = "1280";
  o.k = "8Ki";
  o.operands.type = dlperf::dtype::fp8_e4m3_fnuz;
  const dlperf::app::gemm_report r = dlperf::app::estimate(dlperf::app::make_gemm_request(o));
  dlperf::gemm_problem p{256, 1280, 8192, 1, dlperf::dtype::fp8_e4m3_fnuz};
  p.acc = dlperf::accumulator::fp32;
  const dlperf::gemm_estimate direct = dlperf::best_gemm(dlperf::catalog::mi300x, p);
  CHECK(r.estimate.time == direct.time);
  CHECK(r.estimate.tile.block_m == direct.tile.block_m);
  CHECK(r.estimate.tile.split_k == direct.tile.split_k);
  CHECK(r.peak == dlperf::catalog::mi300x.peak(p.input, p.acc, dlperf::sparsity::dense));
  CHECK(r.gpu == "mi300x");
  CHECK(r.gpu_name == "AMD Instinct MI300X");
  CHECK(r.arch == "cdna3");
  // Never above the peak, and the JSON holds the report's figures in SI units.
  CHECK(r.estimate.throughput <= r.peak);
  const nlohmann::json j = dlperf::app::to_json(r);
  CHECK(j["time_s"].get<double>() == direct.time.value());
  CHECK(j["tflops"].get<double>() == dlperf::in_teraflops(direct.throughput));
  CHECK(j["k"] == 8192);
  CHECK(j["dtype"] == "fp8_e4m3_fnuz");
  CHECK(j["accumulator"] == "fp32");
  CHECK(j["device_file"].is_null());
  CHECK(j["tile"]["split_k"] == direct.tile.split_k);
  // The same request by keywords.
  const dlperf::app::gemm_report k = dlperf::app::estimate(dlperf::app::gemm_request_from_keywords(
      {{"gpu", "mi300x"}, {"m", "256"}, {"n", "1280"}, {"k", "8Ki"}, {"dtype", "fp8_e4m3_fnuz"}}));
  CHECK(dlperf::app::to_json(k) == j);
  CHECK(dlperf::app::gemm_keywords().size() == 9);
}

TEST_CASE("a GEMM request names what is wrong with it") {
  const auto refused = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::gemm_request_from_keywords(f)); };
  };
  const keyword_fields shape{{"m", "64"}, {"n", "64"}, {"k", "64"}};
  const auto with = [&](keyword_fields extra) {
    keyword_fields f = shape;
    f.insert(f.end(), extra.begin(), extra.end());
    return f;
  };
  CHECK_THROWS_WITH(refused(shape)(), Catch::Contains("give exactly one of --gpu"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "h100_sxm"}, {"device", "x.json"}}))(),
                    Catch::Contains("give exactly one of --gpu"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"n", "64"}, {"k", "64"}})(),
                    Catch::Contains("--m"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"m", "0"}, {"n", "64"}, {"k", "64"}})(),
                    Catch::Contains("--m '0'"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "h100_sxm"}, {"batch", "2.5"}}))(),
                    Catch::Contains("--batch"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "h100_sxm"}, {"dtype", "fp7"}}))(),
                    Catch::Contains("--dtype: "));
  CHECK_THROWS_WITH(refused(with({{"gpu", "h100_sxm"}, {"accumulator", "fp7"}}))(),
                    Catch::Contains("--accumulator: "));
  CHECK_THROWS_WITH(refused(with({{"gpu", "h100_sxm"}, {"sparse", "maybe"}}))(),
                    Catch::Contains("--sparse 'maybe' is a switch"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "h100_sxm"}, {"colour", "red"}}))(),
                    Catch::Contains("gemm: unknown keyword 'colour'"));
  CHECK_THROWS_WITH(refused(with({{"gpu", "h100_sxm"}, {"m", "8"}}))(),
                    Catch::Contains("keyword 'm' given twice"));
  CHECK_THROWS_WITH(refused(with({{"device", host_device_file}}))(),
                    Catch::Contains("gemm needs a GPU") && Catch::Contains("host CPU"));
  // A datatype the GPU has no path for is the library's error, naming both.
  CHECK_THROWS_AS(refused(with({{"gpu", "gtx_1080_ti"}, {"dtype", "fp8_e4m3"}}))(),
                  dlperf::unsupported);
  dlperf::app::gemm_request null_gpu{static_cast<const dlperf::gpu_spec*>(nullptr), "", {1, 1, 1}};
  CHECK_THROWS_WITH(dlperf::app::estimate(null_gpu), Catch::Contains("names a null GPU"));
}

TEST_CASE("a roofline report is the roofline of its workload, and its JSON the same figures") {
  const dlperf::app::roofline_request q = dlperf::app::roofline_request_from_keywords(
      {{"gpu", "h100_sxm"}, {"flops", "2T"}, {"bytes", "4Gi"}, {"dtype", "fp8_e4m3"}});
  CHECK(q.operands.accumulation() == dlperf::accumulator::fp32);
  const dlperf::app::roofline_report r = dlperf::app::estimate(q);
  const dlperf::workload w =
      dlperf::workload{}
          .compute(dlperf::dtype::fp8_e4m3, dlperf::flops(2e12), dlperf::accumulator::fp32)
          .move(dlperf::tier::global, dlperf::bytes(4.0 * (1LL << 30)));
  const dlperf::roofline_result direct = dlperf::roofline(dlperf::catalog::h100_sxm, w);
  CHECK(r.result.time == direct.time);
  CHECK(r.result.bound == direct.bound);
  CHECK(r.result.attainable <= r.result.peak);
  CHECK(r.gpu_name == "NVIDIA H100 SXM5 80 GB");
  const nlohmann::json j = dlperf::app::to_json(r);
  CHECK(j["time_s"].get<double>() == direct.time.value());
  CHECK(j["bound"] == "global");  // DRAM-bound: the global tier sets the time
  CHECK(j["arithmetic_intensity"].get<double>() == direct.arithmetic_intensity.value());
  // No DRAM traffic: the intensity is unbounded, and JSON says null, not infinity.
  const dlperf::app::roofline_report no_bytes =
      dlperf::app::estimate(dlperf::app::roofline_request_from_keywords(
          {{"gpu", "h100_sxm"}, {"flops", "1e12"}, {"bytes", "0"}}));
  CHECK(std::isinf(no_bytes.result.arithmetic_intensity.value()));
  CHECK(dlperf::app::to_json(no_bytes)["arithmetic_intensity"].is_null());
  // A device file's host CPU has a roofline too.
  const dlperf::app::roofline_report host =
      dlperf::app::estimate(dlperf::app::roofline_request_from_keywords(
          {{"device", host_device_file}, {"flops", "1e12"}, {"bytes", "1e9"}, {"dtype", "fp32"}}));
  CHECK(std::holds_alternative<dlperf::host_device>(
      dlperf::app::select_device("", host_device_file)));
  CHECK(host.device_file == host_device_file);
  CHECK(dlperf::app::to_json(host)["device_file"] == host_device_file);
  CHECK(dlperf::app::roofline_keywords().size() == 7);
}

TEST_CASE("a roofline request names what is wrong with it") {
  const auto refused = [](const keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::roofline_request_from_keywords(f)); };
  };
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"flops", "0"}, {"bytes", "0"}})(),
                    Catch::Contains("--flops and --bytes are both 0"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"flops", "-1"}, {"bytes", "1"}})(),
                    Catch::Contains("--flops '-1'"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"flops", "nan"}, {"bytes", "1"}})(),
                    Catch::Contains("--flops 'nan'"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"flops", "1"}})(), Catch::Contains("--bytes"));
  CHECK_THROWS_WITH(refused({{"flops", "1"}, {"bytes", "1"}})(),
                    Catch::Contains("give exactly one of --gpu"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"flops", "1"}, {"bytes", "1"}, {"m", "8"}})(),
                    Catch::Contains("roofline: unknown keyword 'm'"));
  CHECK_THROWS_AS(
      refused({{"gpu", "gtx_1080_ti"}, {"flops", "1"}, {"bytes", "1"}, {"dtype", "bf16"}})(),
      dlperf::unsupported);
  dlperf::app::roofline_request null_gpu{
      static_cast<const dlperf::gpu_spec*>(nullptr), "", {}, dlperf::flops(1), dlperf::bytes(1)};
  CHECK_THROWS_WITH(dlperf::app::estimate(null_gpu), Catch::Contains("names a null GPU"));
}
