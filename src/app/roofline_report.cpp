// `dlperf roofline` as a typed request and report (dlperf/app/roofline_report.hpp).
#include <dlperf/app/roofline_report.hpp>

#include <array>
#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>

namespace dlperf::app {
namespace {

// The keywords whose values the options keep as text; then the operands' (kernel_keywords).
constexpr std::array<text_keyword<roofline_options>, 4> roofline_text_keywords{
    {{"gpu", &roofline_options::gpu},
     {"device", &roofline_options::device},
     {"flops", &roofline_options::flops},
     {"bytes", &roofline_options::bytes}}};
constexpr auto roofline_keyword_list = kernel_keywords(roofline_text_keywords);

}  // namespace

roofline_request make_roofline_request(const roofline_options& o) {
  roofline_request q{select_device(o.gpu, o.device), o.device, o.operands, {}, {}};
  q.work = flops(parse_plausible("--flops", o.flops));
  q.traffic = bytes(parse_plausible("--bytes", o.bytes));
  return q;
}

std::span<const std::string_view> roofline_keywords() { return roofline_keyword_list; }

roofline_request roofline_request_from_keywords(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  return make_roofline_request(
      kernel_options_from_keywords(fields, roofline_text_keywords, "roofline"));
}

roofline_report estimate(const roofline_request& q) {
  refuse_null_gpu(q.gpu, "roofline");
  if (q.work.value() == 0.0 && q.traffic.value() == 0.0)
    throw request_error("--flops and --bytes are both 0: there is nothing to estimate");
  const operand_types& t = q.operands;
  // roofline() throws dlperf::unsupported, naming architecture and datatype, when the device has
  // no path for the operand types.
  const workload w = workload{}
                         .compute(t.type, q.work, t.accumulation(), t.density())
                         .move(tier::global, q.traffic);
  roofline_report r;
  r.gpu = device_label(q.gpu);
  r.gpu_name = visit_device(q.gpu, [](const auto& d) { return std::string(d.name()); });
  r.device_file = q.device_file;
  r.type = t.type;
  r.acc = t.accumulation();
  r.sparse = t.sparse;
  r.work = q.work;
  r.traffic = q.traffic;
  r.result = visit_device(q.gpu, [&](const auto& d) { return roofline(d, w); });
  return r;
}

}  // namespace dlperf::app
