// `dlperf plot`: the SVG it writes is well formed, draws in a real renderer, and holds what the
// chart promises (a line and a ridge point per GPU, the workload's point).
#include <catch2/catch.hpp>

#ifdef DLPERF_CLI_PATH
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string scratch_path(const std::string& suffix) {
  char name[] = "/tmp/dlperf_plot_test_XXXXXX";
  const int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  close(fd);
  std::remove(name);
  return std::string(name) + suffix;
}

}  // namespace

TEST_CASE("dlperf plot roofline draws a line and a ridge point per GPU and the workload's point",
          "[cli][plot]") {
  const std::string svg_path = scratch_path(".svg");
  const dlperf_test::run_result r = dlperf_test::run_dlperf(
      "plot roofline --gpu a100_sxm4_40gb --gpu h100_sxm --gpu rtx_4090 --dtype bf16 --flops 2T "
      "--bytes 10G --out " +
      svg_path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string svg = read_file(svg_path);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(count(svg, "<polyline class=\"series\"") == 3);
  CHECK(count(svg, "<circle class=\"marker\"") == 3 + 1);  // a ridge per GPU, one in the legend
  CHECK(count(svg, "<rect class=\"marker\"") == 3 + 1);    // the workload per GPU, the legend
  // Ridge points are the catalog's derived peaks over DRAM bandwidth (docs/catalog.md): A100
  // 311.9 TFLOP/s / 1555 GB/s = 201, H100 SXM 989.4 / 3352 = 295, RTX 4090 165.2 / 1008 = 164.
  CHECK(svg.find("a100_sxm4_40gb (ridge 201)") != std::string::npos);
  CHECK(svg.find("h100_sxm (ridge 295)") != std::string::npos);
  CHECK(svg.find("rtx_4090 (ridge 164)") != std::string::npos);
  CHECK(svg.find("workload: 200 FLOP/B") != std::string::npos);

#ifdef DLPERF_RSVG_CONVERT
  // librsvg draws it: a PNG of the SVG's own size (IHDR: width and height, big-endian, at 16).
  const std::string png_path = scratch_path(".png");
  REQUIRE(std::system(
              (std::string(DLPERF_RSVG_CONVERT) + " " + svg_path + " -o " + png_path).c_str()) ==
          0);
  const std::string png = read_file(png_path);
  REQUIRE(png.size() > 24);
  CHECK(png.substr(1, 3) == "PNG");
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(png[at])) << 24U) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 1])) << 16U) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 2])) << 8U) |
           static_cast<unsigned>(static_cast<unsigned char>(png[at + 3]));
  };
  CHECK(svg.find("width=\"" + std::to_string(be32(16)) + "\"") != std::string::npos);
  CHECK(svg.find("height=\"" + std::to_string(be32(20)) + "\"") != std::string::npos);
  std::remove(png_path.c_str());
#endif
  std::remove(svg_path.c_str());
}

TEST_CASE("dlperf plot rank draws one bar per ranked GPU, longest first", "[cli][plot]") {
  const std::string svg_path = scratch_path(".svg");
  const dlperf_test::run_result r =
      dlperf_test::run_dlperf("plot rank --task infer8 --top 5 --out " + svg_path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string svg = read_file(svg_path);
  CHECK(count(svg, "<rect class=\"bar\"") == 5);
  // Bars in ranking order: widths never grow down the chart.
  double last = 1e300;
  for (std::size_t at = svg.find("<rect class=\"bar\""); at != std::string::npos;
       at = svg.find("<rect class=\"bar\"", at + 1)) {
    const std::size_t w = svg.find("width=\"", at) + 7;
    const double width = std::stod(svg.substr(w, svg.find('"', w) - w));
    CHECK(width <= last);
    last = width;
  }
  // A linear axis under the bars: ticks at round values from 0, each where its value falls on
  // the bars' scale, none beyond the longest bar (the first).
  std::vector<std::pair<double, double>> ticks;  // (x, value)
  for (std::size_t at = svg.find("<text class=\"tick\""); at != std::string::npos;
       at = svg.find("<text class=\"tick\"", at + 1)) {
    const std::size_t x = svg.find("x=\"", at) + 3;
    const std::size_t v = svg.find('>', at) + 1;
    ticks.emplace_back(std::stod(svg.substr(x, svg.find('"', x) - x)),
                       std::stod(svg.substr(v, svg.find('<', v) - v)));
  }
  REQUIRE(ticks.size() >= 3);
  CHECK(ticks.size() <= 6);
  CHECK(ticks[0].second == 0);
  const std::size_t first_bar = svg.find("<rect class=\"bar\"");
  const auto attribute = [&](const char* name) {
    const std::size_t a = svg.find(name, first_bar) + std::string(name).size();
    return std::stod(svg.substr(a, svg.find('"', a) - a));
  };
  const double x0 = attribute(" x=\""), longest = attribute("width=\"");
  CHECK(ticks[0].first == Approx(x0).margin(0.05));
  const double per_unit = (ticks[1].first - x0) / ticks[1].second;
  for (std::size_t k = 1; k < ticks.size(); ++k) {
    INFO("tick " << k << " at " << ticks[k].first << ": " << ticks[k].second);
    CHECK(ticks[k].second > ticks[k - 1].second);
    CHECK(ticks[k].first - x0 == Approx(per_unit * ticks[k].second).margin(0.1));
    CHECK(ticks[k].first <= x0 + longest + 0.1);
  }
  // The same order as dlperf rank prints.
  const dlperf_test::run_result table = dlperf_test::run_dlperf("rank --task infer8 --json");
  REQUIRE(table.exit_code == 0);
  const std::string first = "\"id\": \"";
  const std::size_t id_at = table.out.find(first) + first.size();
  const std::string best = table.out.substr(id_at, table.out.find('"', id_at) - id_at);
  CHECK(svg.find(">" + best + "</text>") < svg.find("<rect class=\"bar\""));
#ifdef DLPERF_RSVG_CONVERT
  const std::string png_path = scratch_path(".png");
  CHECK(std::system(
            (std::string(DLPERF_RSVG_CONVERT) + " " + svg_path + " -o " + png_path).c_str()) == 0);
  CHECK(read_file(png_path).substr(1, 3) == "PNG");
  std::remove(png_path.c_str());
#endif
  std::remove(svg_path.c_str());
}

TEST_CASE("dlperf plot rejects bad input with one line naming it", "[cli][plot]") {
  using dlperf_test::require_usage_error;
  require_usage_error("plot", "A subcommand is required");
  require_usage_error("plot roofline --out /tmp/dlperf_plot_none.svg", "at least one --gpu");
  require_usage_error("plot roofline --gpu h100_sxm", "--out is required");
  require_usage_error("plot roofline --gpu no_such_gpu --out /tmp/dlperf_plot_x.svg",
                      "no_such_gpu");
  require_usage_error("plot roofline --gpu h100_sxm --flops 1T --out /tmp/dlperf_plot_x.svg",
                      "both --flops and --bytes");
  require_usage_error(
      "plot roofline --gpu h100_sxm --flops 1T --bytes 0 --out /tmp/dlperf_plot_x.svg",
      "must both be positive");
  require_usage_error("plot roofline --gpu gtx_1080 --dtype bf16 --out /tmp/dlperf_plot_x.svg",
                      "bf16");
  require_usage_error("plot roofline --gpu h100_sxm --out /nonexistent-dir/x.svg",
                      "cannot write --out");
  require_usage_error("plot rank --out /tmp/dlperf_plot_x.svg", "--task is required");
  require_usage_error("plot rank --task train99 --out /tmp/dlperf_plot_x.svg", "train99");
  require_usage_error("plot rank --task infer8 --gpus 3 --out /tmp/dlperf_plot_x.svg",
                      "priced for 1, 2, 4 or 8 GPUs");
}
#endif
