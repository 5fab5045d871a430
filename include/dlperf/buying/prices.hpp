/// @file
/// What a GPU system costs (docs/buying.md, "Prices and host costs"): the price of each GPU
/// (the catalog's launch price unless overridden), the cost of the host that carries 1, 2, 4 or
/// 8 of them, and cloud prices per GPU-hour. All three can be overridden, in code or from a
/// price file (io/price_json.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <dlperf/buying/cloud_prices.hpp>
#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/catalog.hpp>
#include <dlperf/hardware/gpu.hpp>

namespace dlperf {

/// Cost of everything in a deep-learning machine but its GPUs (CPU, board, RAM, disk, power
/// supply, case or chassis), for hosts of 1, 2, 4 and 8 GPUs. Defaults follow Dettmers, Which
/// GPU(s) to Get for Deep Learning
/// (https://timdettmers.com/2023/01/30/which-gpu-for-deep-learning/): the 2018 edition prices a
/// 4-GPU machine as "4 GPUs + $1500 of other hardware", a PCIe desktop build; the same $1,500 is
/// used for the 1- and 2-GPU desktops (a smaller build saves little: the CPU, RAM and disk are the
/// same). The 8-GPU host is a Supermicro 8-GPU barebone (the guide's choice for 8 GPUs) with CPUs
/// and RAM, taken as $6,000: an assumption, not a figure read from the guide (docs/buying.md says
/// so); override it with a price file's "host".
struct host_costs {
  money one = dollars(1500);    ///< host of a 1-GPU desktop
  money two = dollars(1500);    ///< host of a 2-GPU desktop (PCIe build)
  money four = dollars(1500);   ///< host of a 4-GPU desktop (2018 edition: $1,500)
  money eight = dollars(6000);  ///< 8-GPU server: barebone, CPUs and RAM (assumed)

  /// The host for @p gpus GPUs. Throws invalid_argument unless gpus is 1, 2, 4 or 8.
  [[nodiscard]] money for_gpus(long long gpus) const {
    switch (gpus) {
      case 1:
        return one;
      case 2:
        return two;
      case 4:
        return four;
      case 8:
        return eight;
      default:
        detail::throw_invalid_argument("gpus: hosts are priced for 1, 2, 4 or 8 GPUs, got " +
                                       std::to_string(gpus));
    }
  }
  /// The host for @p gpus boards of form @p f: a module (SXM, OAM) needs a server built around
  /// its vendor's baseboard, which holds 4 or 8 of them, so it is priced as the 8-GPU server
  /// whatever the count; a card as for_gpus; an integrated GPU's price is its machine's, so
  /// nothing is added, and a machine holds one. Throws as for_gpus, or for integrated GPUs other
  /// than one.
  [[nodiscard]] money for_boards(long long gpus, form_factor f) const {
    if (f == form_factor::integrated) {
      if (gpus != 1)
        detail::throw_invalid_argument(
            "gpus: an integrated GPU comes one to a machine, and its price is the machine's; "
            "got " +
            std::to_string(gpus));
      return dollars(0);
    }
    const money desktop_or_server = for_gpus(gpus);
    return f == form_factor::mezzanine ? eight : desktop_or_server;
  }
};

/// Which of a catalog GPU's prices a buyer's sums use (docs/catalog.md, "Prices").
enum class price_basis : std::uint8_t {
  launch,  ///< the launch price: what the guide's comparisons use
  market   ///< the latest dated market price (new or resale) where one is sourced, else launch
};

/// The price bases and their stable names.
template <>
struct enum_list<price_basis> {
  static constexpr std::string_view kind = "price basis";  ///< what the enum names
  /// Every basis.
  static constexpr std::array values{
      enumerator{price_basis::launch, "launch", "launch prices"},
      enumerator{price_basis::market, "market",
                 "the latest dated market price (new or resale), else launch"}};
};

/// Prices a buyer compares with: per GPU id a price (the catalog's launch price unless set
/// here), cloud prices per GPU-hour (the built-in reference offer, buying/cloud_prices.hpp,
/// unless set here) and the host costs.
class price_table {
 public:
  // Plain parameters, checked where they are read (price files) and used (for_gpus):
  // NOLINTNEXTLINE(cppcoreguidelines-non-private-member-variables-in-classes)
  host_costs host;  ///< host cost by GPU count
  // NOLINTNEXTLINE(cppcoreguidelines-non-private-member-variables-in-classes)
  price_basis basis = price_basis::launch;  ///< which catalog price gpu() falls back to

  /// Sets the price of catalog GPU @p id. Throws not_found for an unknown id and invalid_argument
  /// for a negative or non-finite price.
  void set_gpu(std::string_view id, money price) {
    gpus_[checked_index(id, price.value(), "gpus")] = price;
  }
  /// Sets the cloud price of catalog GPU @p id per GPU-hour. Same checks as set_gpu.
  void set_cloud_hourly(std::string_view id, const hourly_price& price) {
    cloud_[checked_index(id, price.value(), "cloud_hourly")] = price;
  }

  /// Price of GPU @p g: the one set, else its catalog price on this table's basis; none for a
  /// GPU with neither.
  [[nodiscard]] std::optional<money> gpu(const gpu_spec& g) const {
    if (const std::optional<std::size_t> i = catalog::index_of(g.id()); i && gpus_[*i])
      return gpus_[*i];
    if (const std::optional<price_point> p = facts_price(g.facts())) return p->amount;
    return std::nullopt;
  }
  /// The catalog price gpu() gives for @p g, with its date and kind: its market price under
  /// price_basis::market where it has one, else its launch price; none where a price was set
  /// here (a price file's figure has its own source) or the catalog has none.
  [[nodiscard]] std::optional<price_point> catalog_price(const gpu_spec& g) const {
    if (const std::optional<std::size_t> i = catalog::index_of(g.id()); i && gpus_[*i])
      return std::nullopt;
    return facts_price(g.facts());
  }
  /// Cloud price of GPU @p id per GPU-hour: the one set, else its built-in reference offer's
  /// (`reference_cloud_offer`); none for a GPU with neither.
  [[nodiscard]] std::optional<hourly_price> cloud_hourly(std::string_view id) const {
    if (const std::optional<std::size_t> i = catalog::index_of(id); i && cloud_[*i])
      return cloud_[*i];
    if (const std::optional<cloud_offer> o = built_in_cloud_offer(id)) return o->per_gpu();
    return std::nullopt;
  }
  /// The built-in offer `cloud_hourly(id)` prices at: none where a price was set here (a price
  /// file's figure has its own source) or no offer lists the GPU.
  [[nodiscard]] std::optional<cloud_offer> built_in_cloud_offer(std::string_view id) const {
    if (const std::optional<std::size_t> i = catalog::index_of(id); i && cloud_[*i])
      return std::nullopt;
    return reference_cloud_offer(id);
  }

 private:
  // Board @p f's own price on this table's basis (market: its later market price where it has
  // one), none where it has no price.
  [[nodiscard]] std::optional<price_point> facts_price(const gpu_facts& f) const {
    if (basis == price_basis::market && f.street_price.kind != price_kind::none)
      return f.street_price;
    if (f.price.kind == price_kind::none) return std::nullopt;
    return f.price;
  }
  // Position of catalog GPU @p id, after checking @p value as a price.
  static std::size_t checked_index(std::string_view id, double value, std::string_view what) {
    const std::optional<std::size_t> i = catalog::index_of(id);
    if (!i) (void)catalog::find(id);  // throws not_found listing the ids
    if (!(value >= 0) || !detail::is_finite(value))
      detail::throw_invalid_argument(std::string(what) + "." + std::string(id) +
                                     ": a price must be >= 0 and finite");
    return *i;
  }
  // Indexed by catalog position (catalog::all): prices are only ever set for catalog GPUs, and an
  // array costs nothing to compile, where the std::map it replaces cost every translation unit
  // that includes the buying layer about 0.15 s (docs/layers.md, compile cost).
  std::array<std::optional<money>, catalog::all.size()> gpus_{};
  std::array<std::optional<hourly_price>, catalog::all.size()> cloud_{};
};

}  // namespace dlperf
