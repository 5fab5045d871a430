// A price file as a request names it (dlperf/app/price_file.hpp).
#include <dlperf/app/price_file.hpp>

#include <dlperf/app/amounts.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/io/price_json.hpp>
#include <fstream>
#include <sstream>

namespace dlperf::app {

price_table read_price_file(const std::string& file, const std::string& host_cost) {
  price_table p;
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) throw request_error("--prices: cannot read '" + file + "'");
    std::stringstream text;
    text << in.rdbuf();
    try {
      p = io::prices_from_text(text.str());
    } catch (const error& e) {
      throw request_error("--prices: " + file + ": " + e.what());
    }
  }
  if (!host_cost.empty()) {
    const money host = dollars(parse_plausible("--host-cost", host_cost));
    p.host = {host, host, host, host};
  }
  return p;
}

}  // namespace dlperf::app
