// SVG charts for `dlperf plot`: a log-log line chart (rooflines) and a horizontal bar chart
// (performance per dollar). Plain SVG 1.1 text, no scripts or external resources, so any viewer
// or renderer (browsers, rsvg-convert, Inkscape) draws it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace dlperf::cli::svg {

/// A line through (x, y) points, both axes logarithmic, so every coordinate must be positive.
struct line_series {
  std::string label;                              ///< legend text
  std::vector<std::pair<double, double>> points;  ///< (x, y), x increasing
};

/// How a point is drawn.
enum class marker_shape { circle, square };

/// A point on a line (a ridge point, a workload); the legend says what each shape means.
struct point_marker {
  double x = 0;                               ///< position on the x axis (positive)
  double y = 0;                               ///< position on the y axis (positive)
  int series = -1;                            ///< index of the line whose colour it takes
  marker_shape shape = marker_shape::circle;  ///< how it is drawn
};

/// A legend entry for a marker shape.
struct marker_legend {
  marker_shape shape;  ///< the shape
  std::string text;    ///< what it marks
};

/// A log-log chart of @p lines and @p markers: decade ticks and grid on both axes, a legend.
/// Throws std::invalid_argument when there is nothing to draw or a coordinate is not positive
/// and finite (the caller checks its inputs first; this guards the drawing).
std::string log_log_chart(const std::string& title, const std::string& x_label,
                          const std::string& y_label, const std::vector<line_series>& lines,
                          const std::vector<point_marker>& markers,
                          const std::vector<marker_legend>& legend = {});

/// A bar of a bar chart.
struct bar {
  std::string label;  ///< category (a GPU)
  double value = 0;   ///< length, non-negative
  std::string note;   ///< text after the bar (the value as people read it)
};

/// Horizontal bars, in the order given, on a linear axis from 0 to the largest value; the canvas
/// is as tall as the bars and wide enough for the longest name, note and title. Throws
/// std::invalid_argument when there are no bars or a value is negative or not finite.
std::string bar_chart(const std::string& title, const std::string& value_label,
                      const std::vector<bar>& bars);

/// @p text with XML's special characters escaped.
std::string escape(const std::string& text);

}  // namespace dlperf::cli::svg
