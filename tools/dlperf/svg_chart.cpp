// SVG charts for `dlperf plot` (svg_chart.hpp).
#include "svg_chart.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace dlperf::cli::svg {
namespace {

// Canvas and plot area, in SVG user units (pixels at 100 %).
constexpr double width = 900;
constexpr double height = 560;
constexpr double left = 90;
constexpr double right = 270;  // room for the legend
constexpr double top = 50;
constexpr double bottom = 70;
constexpr double plot_w = width - left - right;
constexpr double plot_h = height - top - bottom;

// Colour-blind-safe palette (Okabe and Ito, "Color Universal Design", 2008).
constexpr std::array<const char*, 8> palette{"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                             "#E69F00", "#56B4E9", "#F0E442", "#000000"};

const char* colour(int i) {
  return i < 0 ? "#000000" : palette.at(static_cast<std::size_t>(i) % palette.size());
}

std::string header(const std::string& title, double w = width, double h = height) {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"13\">\n"
      "<title>{2}</title>\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{3}\" y=\"28\" font-size=\"16\" font-weight=\"bold\">{2}</text>\n",
      w, h, escape(title), left);
}

// A power of ten as people write it on an axis: 0.01, 0.1, 1, 10, ..., 1e+06.
std::string decade_label(int e) {
  if (e >= -2 && e <= 4) return fmt::format("{:g}", std::pow(10.0, e));
  return fmt::format("1e{}", e);
}

// The step of a linear axis from 0 to @p v_max: 1, 2 or 5 times a power of ten, the least that
// cuts the axis into at most 5 parts.
double tick_step(double v_max) {
  const double raw = v_max / 5;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * decade >= raw * (1 - 1e-12)) return m * decade;
  return 10 * decade;
}

// A marker centred on (x, y).
std::string shape(marker_shape s, double x, double y, const char* fill) {
  if (s == marker_shape::square)
    return fmt::format(
        "<rect class=\"marker\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"9\" height=\"9\" "
        "fill=\"{}\"/>\n",
        x - 4.5, y - 4.5, fill);
  return fmt::format(
      "<circle class=\"marker\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" fill=\"{}\"/>\n", x, y, fill);
}

void require_positive(double v, const char* what) {
  if (!(v > 0) || !std::isfinite(v))
    throw std::invalid_argument(std::string("svg chart: ") + what +
                                " must be positive and finite on a log axis");
}

// Whole decades around the data, and where a value falls in the plot on each axis.
struct log_frame {
  int x_lo, x_hi, y_lo, y_hi;

  [[nodiscard]] double px(double x) const {
    return left + (std::log10(x) - x_lo) / (x_hi - x_lo) * plot_w;
  }
  [[nodiscard]] double py(double y) const {
    return top + plot_h - (std::log10(y) - y_lo) / (y_hi - y_lo) * plot_h;
  }
};

log_frame frame_around(double x_min, double x_max, double y_min, double y_max) {
  const int x_lo = static_cast<int>(std::floor(std::log10(x_min)));
  const int x_hi = std::max(x_lo + 1, static_cast<int>(std::ceil(std::log10(x_max))));
  const int y_lo = static_cast<int>(std::floor(std::log10(y_min)));
  const int y_hi = std::max(y_lo + 1, static_cast<int>(std::ceil(std::log10(y_max))));
  return {x_lo, x_hi, y_lo, y_hi};
}

// The grid (one line per decade), its tick labels, the plot's frame and the axes' labels.
std::string log_axes(const log_frame& f, const std::string& x_label, const std::string& y_label) {
  std::string out;
  for (int e = f.x_lo; e <= f.x_hi; ++e) {
    const double x = f.px(std::pow(10.0, e));
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#dddddd\"/>\n"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        x, top, top + plot_h, top + plot_h + 18, decade_label(e));
  }
  for (int e = f.y_lo; e <= f.y_hi; ++e) {
    const double y = f.py(std::pow(10.0, e));
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#dddddd\"/>\n"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        left, y, left + plot_w, left - 6, y + 4, decade_label(e));
  }
  out += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n", left,
      top, plot_w, plot_h);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     left + plot_w / 2, height - 25, escape(x_label));
  out += fmt::format(
      "<text x=\"20\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 20 "
      "{0})\">{1}</text>\n",
      top + plot_h / 2, escape(y_label));
  return out;
}

}  // namespace

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string log_log_chart(const std::string& title, const std::string& x_label,
                          const std::string& y_label, const std::vector<line_series>& lines,
                          const std::vector<point_marker>& markers,
                          const std::vector<marker_legend>& legend) {
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  auto extend = [&](double x, double y) {
    require_positive(x, "x");
    require_positive(y, "y");
    x_min = std::min(x_min, x);
    x_max = std::max(x_max, x);
    y_min = std::min(y_min, y);
    y_max = std::max(y_max, y);
  };
  for (const line_series& s : lines)
    for (const auto& [x, y] : s.points) extend(x, y);
  for (const point_marker& m : markers) extend(m.x, m.y);
  if (!std::isfinite(x_min)) throw std::invalid_argument("svg chart: nothing to draw");

  const log_frame f = frame_around(x_min, x_max, y_min, y_max);
  std::string out = header(title) + log_axes(f, x_label, y_label);

  // Lines and the legend.
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int c = static_cast<int>(i);
    std::string points;
    for (const auto& [x, y] : lines[i].points)
      points += fmt::format("{:.1f},{:.1f} ", f.px(x), f.py(y));
    out += fmt::format(
        "<polyline class=\"series\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
        "points=\"{}\"/>\n",
        colour(c), points);
    const double ly = top + 10 + 20.0 * static_cast<double>(i);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"3\"/>\n"
        "<text x=\"{4}\" y=\"{5}\">{6}</text>\n",
        left + plot_w + 15, ly, left + plot_w + 40, colour(c), left + plot_w + 46, ly + 4,
        escape(lines[i].label));
  }
  for (const point_marker& m : markers)
    out += shape(m.shape, f.px(m.x), f.py(m.y), colour(m.series));
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const double ly = top + 10 + 20.0 * static_cast<double>(lines.size() + 1 + i);
    out += shape(legend[i].shape, left + plot_w + 27, ly, "#000000");
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", left + plot_w + 46, ly + 4,
                       escape(legend[i].text));
  }
  out += "</svg>\n";
  return out;
}

std::string bar_chart(const std::string& title, const std::string& value_label,
                      const std::vector<bar>& bars) {
  if (bars.empty()) throw std::invalid_argument("svg chart: no bars to draw");
  double v_max = 0;
  std::size_t label_chars = 0, note_chars = 0;
  for (const bar& b : bars) {
    if (!(b.value >= 0) || !std::isfinite(b.value))
      throw std::invalid_argument("svg chart: a bar's value must be non-negative and finite");
    v_max = std::max(v_max, b.value);
    label_chars = std::max(label_chars, b.label.size());
    note_chars = std::max(note_chars, b.note.size());
  }
  if (v_max == 0) v_max = 1;
  // The canvas grows to its content: a row per bar, the category names left of the bars, the
  // longest note right of the longest bar, the title across. Widths from average glyph widths
  // (about 0.6 em of sans-serif at 13 px for names, 0.55 em at 11 px for notes, 0.61 em at 16 px
  // bold for the title).
  constexpr double row = 28;
  constexpr double bars_w = 480;
  const double x0 = 20 + 8.0 * static_cast<double>(label_chars);
  const double note_w = 6.0 * static_cast<double>(note_chars);
  const double w = std::max(
      {x0 + bars_w + 5 + note_w + 20, left + 9.8 * static_cast<double>(title.size()) + 20, width});
  constexpr double tick_room = 16;  // the tick labels under the axis
  const double h = top + row * static_cast<double>(bars.size()) + bottom + tick_room;

  std::string out = header(title, w, h);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double y = top + row * static_cast<double>(i);
    const double bw = bars[i].value / v_max * bars_w;
    out += fmt::format(
        "<text x=\"{0}\" y=\"{1:.1f}\" text-anchor=\"end\">{2}</text>\n"
        "<rect class=\"bar\" x=\"{3}\" y=\"{4:.1f}\" width=\"{5:.1f}\" height=\"{6:.1f}\" "
        "fill=\"{7}\"/>\n"
        "<text x=\"{8:.1f}\" y=\"{1:.1f}\" font-size=\"11\">{9}</text>\n",
        x0 - 6, y + row * 0.65, escape(bars[i].label), x0, y + row * 0.1, bw, row * 0.8, palette[0],
        x0 + bw + 5, escape(bars[i].note));
  }
  const double axis_y = top + row * static_cast<double>(bars.size()) + 4;
  out += fmt::format(
      "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"black\"/>\n"
      "<text x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"middle\">{5}</text>\n",
      x0, axis_y, x0 + bars_w, x0 + bars_w / 2, axis_y + 22 + tick_room, escape(value_label));
  // Ticks at round values, with as many decimals as the step needs.
  const double step = tick_step(v_max);
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step))));
  for (int k = 0; k * step <= v_max * (1 + 1e-9); ++k) {
    const double x = x0 + k * step / v_max * bars_w;
    out += fmt::format(
        "<line class=\"tick\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" "
        "stroke=\"black\"/>\n"
        "<text class=\"tick\" x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\" "
        "font-size=\"11\">{4:.{5}f}</text>\n",
        x, axis_y, axis_y + 5, axis_y + 18, k * step, decimals);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace dlperf::cli::svg
