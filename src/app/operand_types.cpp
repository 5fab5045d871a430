// A kernel's operand types from keywords (dlperf/app/operand_types.hpp).
#include <dlperf/app/operand_types.hpp>

#include <array>
#include <dlperf/app/amounts.hpp>

namespace dlperf::app {
std::span<const std::string_view> operand_keywords() { return operand_keyword_names; }

bool apply_operand_keyword(operand_types& o, std::string_view keyword, const std::string& value) {
  if (keyword == "dtype")
    o.type = parse_named<dtype>("--dtype", value);
  else if (keyword == "accumulator")
    o.acc = parse_named<accumulator>("--accumulator", value);
  else if (keyword == "sparse")
    o.sparse = parse_switch("--sparse", value);
  else
    return false;
  return true;
}

}  // namespace dlperf::app
