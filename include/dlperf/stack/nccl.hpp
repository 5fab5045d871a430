/// @file
/// NCCL's own cost model of its ring collectives, as data (docs/parallel.md, "Collectives"): per
/// protocol a fixed latency, a latency per ring step over NVLink, PCI Express or the network,
/// and the share of the link's bandwidth the protocol carries. NCCL picks, per call, the
/// protocol its model says is fastest; so does `nccl_time`.
///
/// The figures are NCCL's tuning tables, NVIDIA/nccl v2.21.5-1 `src/graph/tuning.cc`
/// (https://github.com/NVIDIA/nccl/blob/ab2b89c4c339bd7f816fbc114a4b05d386b66290/src/graph/tuning.cc):
///
///     Ring          baseLat (us)   hwLat NVLink / PCI / NET (us per step)   bandwidth
///     LL            6.6            0.6 / 1.0 / 2.7                          busBw x 0.5
///     LL128         14.0           1.9 / 2.5 / 4.0                          busBw x 0.92
///     Simple        8.4            3.4 / 5.7 / 14.0                         busBw
///
/// LL128 is enabled only where every GPU is on NVLink (`typeIntra <= PATH_NVB`). Intra-node
/// trees, NVLS (NVLink SHARP) and CollNet are left out: a ring over one kind of link is what
/// every estimate here runs, and NCCL's tree only wins across nodes.
///
/// GeForce cards without peer-to-peer (hardware/links.hpp, pcie_peer_to_peer) stage every step
/// through host memory: each step crosses the bus twice, so it costs two steps' latency and
/// half the bandwidth.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/collective.hpp>
#include <dlperf/hardware/interconnect.hpp>
#include <dlperf/hardware/links.hpp>

namespace dlperf {

/// NCCL's protocols.
enum class nccl_protocol : std::uint8_t {
  ll,     ///< low latency: 8-byte stores of 4 data bytes and a flag
  ll128,  ///< 128-byte lines of 120 data bytes and a flag (NVLink only)
  simple  ///< bulk copies with a fence per step
};

/// NCCL's protocols and their stable names (NCCL_PROTO's spellings).
template <>
struct enum_list<nccl_protocol> {
  static constexpr std::string_view kind = "NCCL protocol";  ///< what the enum names
  /// Every protocol.
  static constexpr std::array values{enumerator{nccl_protocol::ll, "LL", "low latency"},
                                     enumerator{nccl_protocol::ll128, "LL128", "128-byte lines"},
                                     enumerator{nccl_protocol::simple, "Simple", "bulk copies"}};
};

/// One protocol of NCCL's ring: its latencies over each class of link and its bandwidth share.
struct nccl_ring_protocol {
  nccl_protocol id = nccl_protocol::simple;  ///< which protocol
  duration base{};                           ///< baseLat, per call
  duration nvlink_step{};                    ///< hwLat over NVLink (and Infinity Fabric)
  duration pcie_step{};                      ///< hwLat over PCI Express
  duration network_step{};                   ///< hwLat over the network
  double bandwidth_share = 1;                ///< of the link's bus bandwidth
  bool nvlink_only = false;                  ///< enabled only when every GPU is on NVLink
};

namespace nccl {

/// Where the figures come from.
inline constexpr std::string_view source =
    "NVIDIA/nccl v2.21.5-1 src/graph/tuning.cc: baseLat, hwLat (Ring), the LL and LL128 "
    "bandwidth factors";

/// NCCL's ring protocols (see the file comment).
inline constexpr std::array<nccl_ring_protocol, 3> ring{{
    {nccl_protocol::ll, seconds(6.6e-6), seconds(0.6e-6), seconds(1.0e-6), seconds(2.7e-6), 0.5,
     false},
    {nccl_protocol::ll128, seconds(14.0e-6), seconds(1.9e-6), seconds(2.5e-6), seconds(4.0e-6),
     0.92, true},
    // Simple's per-step latencies are the links' own (hardware/links.hpp cites the same table).
    {nccl_protocol::simple, seconds(8.4e-6), links::nvlink_step_latency, links::pcie_step_latency,
     links::network_step_latency, 1.0, false},
}};
static_assert(ring.size() == enum_count<nccl_protocol>, "dlperf: one ring entry per protocol");

}  // namespace nccl

/// What protocol @p p costs over link @p link, staged through host memory when @p staged
/// (GeForce PCIe without peer-to-peer: two bus crossings a step, half the bandwidth).
constexpr collective_cost nccl_cost(const nccl_ring_protocol& p, const link_spec& link,
                                    bool staged) {
  duration step = p.pcie_step;
  switch (link.link.kind) {
    case interconnect_kind::nvlink:
    case interconnect_kind::infinity_fabric:
      step = p.nvlink_step;
      break;
    case interconnect_kind::ib:
    case interconnect_kind::ethernet:
      step = p.network_step;
      break;
    case interconnect_kind::none:
    case interconnect_kind::pcie:
      break;
  }
  const double crossings = staged ? 2.0 : 1.0;
  return {p.base, crossings * step, p.bandwidth_share / crossings};
}

/// A collective as NCCL runs it.
struct nccl_collective {
  duration time{};                                 ///< of the call
  nccl_protocol protocol = nccl_protocol::simple;  ///< the protocol NCCL's model picks
};

/// Collective @p c of @p data bytes over @p n GPUs on @p link as NCCL's ring runs it: the
/// fastest of its protocols by its own model (LL128 only over NVLink). @p staged: GeForce PCIe
/// without peer-to-peer. Zero for one GPU.
constexpr nccl_collective nccl_time(collective c, byte_count data, long long n,
                                    const link_spec& link, bool staged = false) {
  const bool nvlink = link.link.kind == interconnect_kind::nvlink;
  nccl_collective best{};
  bool first = true;
  for (const nccl_ring_protocol& p : nccl::ring) {
    if (p.nvlink_only && !nvlink) continue;
    const duration t =
        collective_time(c, data, n, link.per_direction(), nccl_cost(p, link, staged));
    if (first || t < best.time) best = {t, p.id};
    first = false;
  }
  return best;
}

}  // namespace dlperf
