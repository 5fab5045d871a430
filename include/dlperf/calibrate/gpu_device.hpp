/// @file
/// What the GPU calibration backends share that needs no device compiler: the device a runtime
/// reports (`device_info`), the calibration log, `gpu_error`, the checks a device query makes,
/// the mapping of a runtime's device name to a catalog id (NVIDIA and AMD), and the random
/// pointer cycle the latency probes chase (built on the host). Plain C++, so the tests check all
/// of it without a GPU; the kernels and probes that use it are in dlperf/calibrate/gpu_probes.hpp.
/// See docs/calibration.md.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <dlperf/calibrate/measurement.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf::calibrate {

/// A GPU runtime or library call failed, or there is no GPU: the message names the call and the
/// runtime's error. The CUDA and HIP backends throw their own subclasses.
class gpu_error : public ::dlperf::error {
 public:
  using ::dlperf::error::error;
};

/// What a GPU runtime says about a device.
struct device_info {
  int index = 0;                ///< the runtime's device index
  std::string name;             ///< marketing name ("NVIDIA H100 80GB HBM3", "AMD Instinct MI250X")
  std::string isa;              ///< ISA target: "sm_90", or AMD's gcnArchName ("gfx90a:sramecc+")
  int cc_major = 0;             ///< compute capability (AMD: the runtime's major.minor)
  int cc_minor = 0;             ///< compute capability
  int sms = 0;                  ///< multiprocessors (AMD: compute units)
  double l2_bytes = 0;          ///< L2 size
  double memory_bytes = 0;      ///< global memory
  double clock_mhz = 0;         ///< nominal SM clock
  int bus_width_bits = 0;       ///< memory bus width
  double memory_clock_mhz = 0;  ///< memory clock
};

/// Progress and skipped probes: kept in order, and passed to `on_line` the moment each is
/// added, so that a caller can show progress while the probes run (a calibration takes minutes).
struct calibration_log {
  std::vector<std::string> lines;  ///< one per probe: what was measured or why it was skipped
  std::function<void(const std::string&)> on_line;  ///< called with each new line, if set

  /// Records @p line and hands it to on_line.
  void add(std::string line) {
    if (on_line) on_line(line);
    lines.push_back(std::move(line));
  }
};

/// Throws @p Error unless the runtime @p runtime ("CUDA", "HIP") found a device @p index among
/// the @p count its @p count_call reported: "no CUDA GPU found (cudaGetDeviceCount: ...)" when
/// @p none (the runtime's no-device status, whose text is @p status) or none counted, "no CUDA
/// device 3 (2 present)" for an index out of range.
template <class Error>
void require_device(std::string_view runtime, std::string_view count_call, int index, int count,
                    bool none, std::string_view status) {
  if (none || count == 0)
    throw Error("no " + std::string(runtime) + " GPU found (" + std::string(count_call) + ": " +
                std::string(status.empty() ? "0 devices" : status) + ")");
  if (index < 0 || index >= count)
    throw Error("no " + std::string(runtime) + " device " + std::to_string(index) + " (" +
                std::to_string(count) + " present)");
}

/// The fields CUDA's cudaDeviceProp and HIP's hipDeviceProp_t share (name, compute capability,
/// multiprocessors, L2 and global memory) of device @p index; the backend adds the rest.
template <class Properties>
device_info shared_properties(int index, const Properties& p) {
  device_info d;
  d.index = index;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sms = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.memory_bytes = static_cast<double>(p.totalGlobalMem);
  return d;
}

namespace detail {

// Whether @p c is a letter or a digit (ASCII; device names are ASCII).
constexpr bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Whether @p name holds the model @p needle as whole words: not inside a longer model number
// ("L4" is not "L40", "A10" not "A100" or "A10G") and not followed by a word that names a
// different board of the same number ("RTX 4080 SUPER", "RTX 3080 Ti", "RTX 4090 D",
// "H100 NVL", "RTX 4090 Laptop GPU").
constexpr bool names_model(std::string_view name, std::string_view needle) {
  constexpr std::array<std::string_view, 7> variants{"Ti",  "SUPER",  "Super", "D",
                                                     "NVL", "Laptop", "Max-Q"};
  for (std::size_t at = name.find(needle); at != std::string_view::npos;
       at = name.find(needle, at + 1)) {
    const std::size_t after = at + needle.size();
    if (at > 0 && is_alnum(name[at - 1])) continue;
    if (after < name.size() && is_alnum(name[after])) continue;
    std::string_view rest = name.substr(after);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '-')) rest.remove_prefix(1);
    bool variant = false;
    for (std::string_view v : variants)
      if (rest.substr(0, v.size()) == v && (rest.size() == v.size() || !is_alnum(rest[v.size()])))
        variant = true;
    if (!variant) return true;
  }
  return false;
}

}  // namespace detail

/// The catalog id of an NVIDIA device from the name its runtime reports ("NVIDIA H100 80GB HBM3"
/// -> "h100_sxm"), or an empty view when no catalog entry matches. Model numbers match as whole
/// words, and a variant word after them (SUPER, Ti, D, NVL, Laptop, Max-Q) names another board:
/// "NVIDIA L40" and "NVIDIA GeForce RTX 4090 D" match nothing, "RTX 4080 SUPER" its own entry.
constexpr std::string_view nvidia_catalog_id(std::string_view device_name) {
  struct rule {
    std::string_view needle;
    std::string_view id;
  };
  // Longest, most specific names first.
  // The RTX 3060 and RTX 4060 Ti come with two memory sizes under one name: no rule for them.
  constexpr auto rules =
      std::to_array<rule>({{"RTX PRO 6000 Blackwell Workstation Edition", "rtx_pro_6000"},
                           {"RTX 6000 Ada", "rtx_6000_ada"},
                           {"RTX 5000 Ada", "rtx_5000_ada"},
                           {"RTX A6000", "rtx_a6000"},
                           {"RTX A5000", "rtx_a5000"},
                           {"RTX A4000", "rtx_a4000"},
                           {"H100 PCIe", "h100_pcie"},
                           {"H100 NVL", "h100_nvl"},
                           {"H100", "h100_sxm"},
                           {"H200 NVL", "h200_nvl"},
                           {"H200", "h200_sxm"},
                           {"H20", "h20"},
                           {"B200", "b200"},
                           {"A100-SXM4-80GB", "a100_sxm4_80gb"},
                           {"A800-SXM4-80GB", "a800_sxm4_80gb"},
                           {"A100 80GB PCIe", "a100_pcie_80gb"},
                           {"A100 80GB", "a100_sxm4_80gb"},
                           {"A100", "a100_sxm4_40gb"},
                           {"L40S", "l40s"},
                           {"L20", "l20"},
                           {"L4", "l4"},
                           {"A40", "a40"},
                           {"A10", "a10"},
                           {"T4", "t4"},
                           {"V100", "v100_sxm2"},
                           {"TITAN RTX", "titan_rtx"},
                           {"TITAN V", "titan_v"},
                           {"TITAN Xp", "titan_xp"},
                           {"P100", "p100_sxm2"},
                           {"P40", "tesla_p40"},
                           {"RTX 5090", "rtx_5090"},
                           {"RTX 5080", "rtx_5080"},
                           {"RTX 5070 Ti", "rtx_5070_ti"},
                           {"RTX 5070", "rtx_5070"},
                           {"RTX 4090", "rtx_4090"},
                           {"RTX 4080 SUPER", "rtx_4080_super"},
                           {"RTX 4080", "rtx_4080"},
                           {"RTX 4070 Ti SUPER", "rtx_4070_ti_super"},
                           {"RTX 4070 Ti", "rtx_4070_ti"},
                           {"RTX 4070 SUPER", "rtx_4070_super"},
                           {"RTX 4070", "rtx_4070"},
                           {"RTX 4060", "rtx_4060"},
                           {"RTX 3090 Ti", "rtx_3090_ti"},
                           {"RTX 3090", "rtx_3090"},
                           {"RTX 3080 Ti", "rtx_3080_ti"},
                           {"RTX 3080", "rtx_3080"},
                           {"RTX 3070 Ti", "rtx_3070_ti"},
                           {"RTX 3070", "rtx_3070"},
                           {"RTX 3060 Ti", "rtx_3060_ti"},
                           {"RTX 2080 Ti", "rtx_2080_ti"},
                           {"RTX 2080", "rtx_2080"},
                           {"RTX 2070", "rtx_2070"},
                           {"RTX 2060", "rtx_2060"},
                           {"GTX 1650 SUPER", "gtx_1650_super"},
                           {"GTX 1080 Ti", "gtx_1080_ti"},
                           {"GTX 1080", "gtx_1080"},
                           {"GTX 1070", "gtx_1070"}});
  for (const rule& r : rules)
    if (detail::names_model(device_name, r.needle)) return r.id;
  return {};
}

/// The dlperf architecture of an NVIDIA device with no catalog entry, from its compute capability
/// and, where one capability spans chips with and without tensor cores, its name; an empty view
/// when neither tells. Compute capability 7.5 is Turing TU10x (tensor cores: GeForce/Quadro/TITAN
/// RTX, Tesla T4) or TU11x (none: GeForce GTX 16xx, MX, Quadro T400-T2000): "turing_tu10x" only
/// for an RTX or T4 name, "turing_tu11x" for a GTX or MX name or a Quadro T-number, otherwise
/// empty.
constexpr std::string_view nvidia_architecture(const device_info& d) {
  switch (d.cc_major * 10 + d.cc_minor) {
    case 60:
      return "pascal_gp100";
    case 61:
      return "pascal_gp10x";
    case 70:
      return "volta_gv100";
    case 75: {
      const std::string_view name = d.name;
      if (detail::names_model(name, "RTX") || detail::names_model(name, "T4"))
        return "turing_tu10x";
      if (name.find("GTX") != std::string_view::npos || name.find(" MX") != std::string_view::npos)
        return "turing_tu11x";
      for (std::string_view t : {"T400", "T500", "T550", "T600", "T1000", "T1200", "T2000"})
        if (detail::names_model(name, t)) return "turing_tu11x";
      return {};
    }
    case 80:
      return "ampere_ga100";
    case 86:
      return "ampere_ga10x";
    case 89:
      return "ada_ad10x";
    case 90:
      return "hopper_gh100";
    case 100:
      return "blackwell_gb100";
    case 120:
      return "blackwell_gb20x";
    default:
      return {};
  }
}

/// The catalog id of an AMD device from what HIP reports, or an empty view when no catalog entry
/// matches. The ISA (gcnArchName, target features after ':' ignored) decides; the name and the
/// memory size separate the cards that share one:
///  - gfx90a: "mi210" for the one-GCD MI210 (by name or 104 compute units), else "mi250x" (the
///    MI250X and MI250 report one name);
///  - gfx942: "mi300a" for the APU (by name or 228 compute units), else "mi325x" above 224 GiB of
///    memory (256 GB HBM3E) and "mi300x" (192 GB) below;
///  - gfx1100: "rx_7900_xt" for 84 compute units; with 96, "radeon_pro_w7900" from 32 GiB up (the
///    W7900 has 48 GB) and "rx_7900_xtx" below (24 GB), a name saying which deciding first.
inline std::string_view amd_catalog_id(const device_info& d) {
  const std::string_view isa = std::string_view(d.isa).substr(0, d.isa.find(':'));
  const auto named = [&](std::string_view s) { return d.name.find(s) != std::string::npos; };
  const double gib = d.memory_bytes / (1024.0 * 1024 * 1024);
  if (isa == "gfx90a") return (named("MI210") || d.sms == 104) ? "mi210" : "mi250x";
  if (isa == "gfx942") {
    if (named("MI300A") || d.sms == 228) return "mi300a";
    return gib > 224 ? "mi325x" : "mi300x";
  }
  if (isa == "gfx1100") {
    if (named("W7900")) return "radeon_pro_w7900";
    if (named("7900 XTX")) return "rx_7900_xtx";
    if (d.sms == 84) return "rx_7900_xt";
    if (d.sms == 96) return gib < 32 ? "rx_7900_xtx" : "radeon_pro_w7900";
  }
  return {};
}

namespace detail {

/// A random cycle (fixed seed) through every `stride`-th of n slots: next[s] is the slot after s,
/// and the slots between are never visited. A stride of one 128-byte line makes each load of a
/// chase touch a line no earlier load of it touched, until the cycle wraps. Plain C++, so the
/// tests check it without a GPU.
inline std::vector<unsigned> random_cycle(std::size_t n, std::size_t stride = 1) {
  const std::size_t visited = n / stride;
  std::vector<unsigned> order(visited), next(n, 0U);
  for (std::size_t i = 0; i < visited; ++i) order[i] = static_cast<unsigned>(i * stride);
  // A fixed seed: every calibration chases the same cycle.
  std::mt19937 rng(20261122);  // NOLINT(cert-msc51-cpp)
  std::shuffle(order.begin() + 1, order.end(), rng);
  for (std::size_t i = 0; i < visited; ++i) next[order[i]] = order[(i + 1) % visited];
  return next;
}

}  // namespace detail

namespace detail {

// @p x with one decimal ("79.6").
inline std::string one_decimal(double x) {
  const long tenths = std::lround(x * 10);
  return std::to_string(tenths / 10) + "." + std::to_string(std::abs(tenths % 10));
}

}  // namespace detail

/// Where the runtime's description @p d of a device disagrees with the catalog entry @p g a
/// calibration starts from: the SM (compute unit) count, the L2 size (by more than 1 %) or the
/// memory (by more than 10 %: a runtime reports the usable memory, a few percent under the
/// board's). One line each, naming the figure, both values and what the calibration keeps;
/// empty when they agree. A calibration keeps the entry's board facts and replaces only what it
/// measures, so a mismatch is said rather than kept quietly: an H200 reports 60 MiB of L2, where
/// the catalog had the H100's 50 (docs/calibration.md).
inline std::vector<std::string> catalog_mismatches(const device_info& d, const gpu_spec& g) {
  std::vector<std::string> out;
  const gpu_facts& f = g.facts();
  const std::string entry = "the catalog's " + std::string(f.id) + " has ";
  const std::string keeps =
      "; the device file keeps the catalog's (pass --gpu ID for another entry)";
  constexpr double mib = 1024.0 * 1024, gib = mib * 1024;
  if (d.sms > 0 && d.sms != f.sms)
    out.push_back("the runtime reports " + std::to_string(d.sms) + " multiprocessors, " + entry +
                  std::to_string(f.sms) + keeps);
  if (d.l2_bytes > 0 && std::abs(d.l2_bytes / f.l2.value() - 1) > 0.01)
    out.push_back("the runtime reports " + detail::one_decimal(d.l2_bytes / mib) + " MiB of L2, " +
                  entry + detail::one_decimal(f.l2.value() / mib) + " MiB" + keeps);
  if (d.memory_bytes > 0 && std::abs(d.memory_bytes / f.memory.value() - 1) > 0.10)
    out.push_back("the runtime reports " + detail::one_decimal(d.memory_bytes / gib) +
                  " GiB of memory, " + entry + detail::one_decimal(f.memory.value() / gib) +
                  " GiB" + keeps);
  return out;
}

}  // namespace dlperf::calibrate
