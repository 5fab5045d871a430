// `dlperf gemm` as a typed request and report (dlperf/app/gemm_report.hpp).
#include <dlperf/app/gemm_report.hpp>

#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <type_traits>

namespace dlperf::app {
namespace {

// The keywords whose values the options keep as text; then the operands' (kernel_keywords).
constexpr std::array<text_keyword<gemm_options>, 6> gemm_text_keywords{
    {{"gpu", &gemm_options::gpu},
     {"device", &gemm_options::device},
     {"m", &gemm_options::m},
     {"n", &gemm_options::n},
     {"k", &gemm_options::k},
     {"batch", &gemm_options::batch}}};
constexpr auto gemm_keyword_list = kernel_keywords(gemm_text_keywords);

}  // namespace

gemm_request make_gemm_request(const gemm_options& o) {
  gemm_request q{select_device(o.gpu, o.device), o.device, {}};
  gemm_problem& p = q.problem;
  p = gemm_problem{parse_plausible_count("--m", o.m), parse_plausible_count("--n", o.n),
                   parse_plausible_count("--k", o.k), parse_plausible_count("--batch", o.batch),
                   o.operands.type};
  p.acc = o.operands.accumulation();
  p.sparse_a = o.operands.sparse;
  return q;
}

std::span<const std::string_view> gemm_keywords() { return gemm_keyword_list; }

gemm_request gemm_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  return make_gemm_request(kernel_options_from_keywords(fields, gemm_text_keywords, "gemm"));
}

gemm_report estimate(const gemm_request& q) {
  refuse_null_gpu(q.gpu, "gemm");
  const gemm_problem& p = q.problem;
  return visit_device(q.gpu, [&](const auto& d) -> gemm_report {
    if constexpr (gemm_device<std::decay_t<decltype(d)>>) {
      return {device_label(q.gpu),
              std::string(d.name()),
              std::string(d.arch().name),
              q.device_file,
              p,
              best_gemm(d, p),
              d.peak(p.input, p.acc, p.sparse_a ? sparsity::sparse_2_4 : sparsity::dense)};
    } else {
      throw request_error("gemm needs a GPU: device file '" + q.device_file +
                          "' describes a host CPU");
    }
  });
}

}  // namespace dlperf::app
