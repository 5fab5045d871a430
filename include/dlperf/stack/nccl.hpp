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
/// trees and CollNet are left out: NCCL's tree only wins across nodes. Through an NVSwitch the
/// ring's bandwidth term is what nccl-tests measured of the ring at the GPU count
/// (link_spec::ring_rate, hardware/links.hpp).
///
/// From 5 GPUs on NVLink 4 (6 on NVLink 5) an all-reduce may instead take NVLink SHARP (NVLS),
/// the switch reducing (`nvls_all_reduce_time`): one latency, the bus bandwidth nccl-tests
/// measured of it, and the fill of its three-stage pipeline, whose chunks NCCL shrinks for
/// smaller messages. NCCL's model picks it only where it is fastest; so does `nccl_time`.
///
/// A ring through host memory over PCIe (`staged`: GeForce cards, which have no peer-to-peer, and
/// NCCL between any cards on the CPU's root ports, nccl_through_host) crosses the bus twice a
/// step, so each step costs two steps' latency and half the bandwidth; and an all-reduce takes at
/// least what published nccl-tests runs through host memory measured (stack/nccl_staged.hpp),
/// 1.2 to 3.7 times that at 16-256 KiB.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/collective.hpp>
#include <dlperf/hardware/interconnect.hpp>
#include <dlperf/hardware/links.hpp>
#include <dlperf/hardware/vendor.hpp>
#include <dlperf/stack/nccl_staged.hpp>

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

/// The most bus bandwidth NCCL's model lets its LL ring carry in one server, by GPU generation
/// (v2.21.5-1 `src/graph/tuning.cc`, llMaxBws, "N1" column: Volta 39.0, Ampere 87.7, Hopper
/// 141.0 GB/s; Blackwell 2 x 141.0 from v2.27.7-1), named here by the NVLink generation each
/// generation's servers carry (2 to 5). The LL ring's bandwidth is the smaller of this and half
/// the ring's. Zero (no ceiling) for any other link: over PCI Express half the link is below
/// every entry, and RCCL's tuning is its own.
constexpr bandwidth ll_ceiling(const link_spec& link) {
  if (link.link.kind != interconnect_kind::nvlink) return {};
  switch (link.link.generation) {
    case 2:
      return gigabytes_per_second(39.0);
    case 3:
      return gigabytes_per_second(87.7);
    case 4:
      return gigabytes_per_second(141.0);
    case 5:
      return gigabytes_per_second(2 * 141.0);
    default:
      return {};
  }
}

/// NCCL's NVLS all-reduce in one server, as its code runs it:
/// - `latency`: its model's latency in one server, hwLat NVLINK NVLS/Simple, 25 us (v2.21.5-1
///   `src/graph/tuning.cc`; 23 in 2.18-2.20);
/// - `chunk`: the largest chunk each head moves per channel, NCCL_NVLS_CHUNKSIZE's default
///   128 KiB, which `calcCollChunking` (`src/enqueue.cc`, unchanged 2.18-2.27) halves to 64 KiB
///   below 64 loops of it, to 32 KiB below 8 and to 16 KiB below 2, a loop being the channels x
///   heads (one per GPU in a server) x chunk bytes that the GPUs move at once;
/// - `stages`: its pipeline's, one warp group each (`src/device/all_reduce.h`, NVLS/Simple):
///   scatter into the switch's buffers, reduce and broadcast through the switch, gather out.
///   A message takes its loops plus stages - 1 to fill and drain, one loop when it is smaller
///   than one.
/// The channels are per GPU generation, `nvls_channels`.
struct nvls_all_reduce {
  duration latency{};     ///< per call
  byte_count chunk{};     ///< the largest chunk per head and channel
  long long stages = 3;   ///< of its pipeline
  long long hopper = 16;  ///< channels on Hopper (NVLS_NCHANNELS_SM90)
  /// Channels on Blackwell in one NVLink domain (NVLS_NCHANNELS_SM100_NVL).
  long long blackwell = 24;
};

/// NCCL's NVLS all-reduce (see nvls_all_reduce).
inline constexpr nvls_all_reduce nvls{seconds(25e-6), kibibytes(128), 3, 16, 24};

/// Where the NVLS figures come from.
inline constexpr std::string_view nvls_source =
    "NVIDIA/nccl v2.21.5-1 src/graph/tuning.cc (hwLat NVLINK NVLS 25 us), src/enqueue.cc "
    "calcCollChunking (NVLS chunks 128/64/32/16 KiB), src/device/all_reduce.h (scatter, "
    "reduce-broadcast, gather); v2.27.7-1 src/transport/nvls.cc (16 channels on Hopper, 24 on "
    "Blackwell in one server)";

/// The channels NCCL's NVLS runs over NVLink generation @p generation: 16 (Hopper, NVLink 4),
/// 24 (Blackwell, NVLink 5, one server).
constexpr long long nvls_channels(int generation) {
  return generation >= 5 ? nvls.blackwell : nvls.hopper;
}

/// The chunk NCCL's NVLS moves per head and channel for a message of @p data bytes when
/// @p concurrent heads x channels move at once (calcCollChunking, see nvls_all_reduce).
constexpr byte_count nvls_chunk(byte_count data, double concurrent) {
  double chunk = nvls.chunk.value();
  const double n = data.value();
  if (n < 64.0 * concurrent * chunk && chunk > 65536.0) chunk = 65536.0;
  if (n < 8.0 * concurrent * chunk && chunk > 32768.0) chunk = 32768.0;
  if (n < 2.0 * concurrent * chunk && chunk > 16384.0) chunk = 16384.0;
  return bytes(chunk);
}

}  // namespace nccl

/// Whether the collective library of @p maker's GPUs runs its rings over @p link through host
/// memory (NCCL's SHM transport) whatever the cards. For NCCL over PCI Express, yes: GeForce
/// boards have no peer-to-peer at all (hardware/links.hpp, pcie_peer_to_peer), and between any
/// other cards NCCL takes peer-to-peer only as far as a PCIe switch: `ncclTopoCheckP2p`
/// (src/graph/paths.cc, v2.18-2.27), "By default don't use P2P across CPU Host Bridges and
/// further apart", p2pLevel = PATH_PXB. A system's cards sit on the CPU's own root ports: on
/// AWS's G5 instances "all the GPUs are directly connected to the socket's root complex"
/// (github.com/aws/aws-ofi-nccl/issues/466, 2025-03), and nccl-tests on four A100 PCIe cards,
/// every pair `SYS`, takes the time of four RTX 4090s through host memory up to 32 KiB (23 against
/// 20 us at 8 bytes; stack/nccl_staged.hpp).
/// Not modelled, each making the estimate pessimistic (docs/parallel.md, "Through host memory"):
/// cards that share a PCIe switch, and two GPUs on an AMD CPU, which NCCL lets through
/// (p2pLevel = PATH_SYS). RCCL's rule is not established here: AMD's PCIe rings stay peer to
/// peer. A copy between two cards outside the library (a layer split's hand-off, an engine's own
/// all-reduce) stays peer to peer wherever CUDA allows it (staged_through_host).
constexpr bool nccl_through_host(vendor maker, const link_spec& link) {
  return maker == vendor::nvidia && link.link.kind == interconnect_kind::pcie;
}

/// What protocol @p p costs over link @p link, staged through host memory when @p staged (two
/// bus crossings a step, half the bandwidth: see the file comment).
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
  bool nvls = false;  ///< NVLink SHARP (an all-reduce through a switch), else the ring
  /// The channels it runs over, each one thread block on an SM of its own while it runs
  /// (nccl::channels_source); 0 where no log of NCCL on such links is published.
  long long channels = 0;
};

namespace nccl {

/// The channels NCCL's ring runs over on one kind of link, as its logs print them
/// ("Channel 23/24", "16 coll channels"). NCCL picks them from the topology when a communicator
/// is made; each channel is one thread block of its kernel, and its blocks do not share an SM
/// with compute kernels (its maintainers, NVIDIA/nccl issue 689: "NCCL CTAs won't share an SM
/// with compute kernels"), so while a collective runs its channels' SMs are taken from any
/// computation it overlaps.
struct ring_channels {
  std::string_view link;    ///< link_spec::id inside a server
  long long channels = 0;   ///< channels of the ring, one SM each
  std::string_view source;  ///< the log they are read from
};

/// The channels of NCCL's ring inside a server, by link. The A800's has no log: it is taken as
/// the H800's, whose 8 NVLinks of 50 GB/s it shares (the published servers run two channels a
/// link up to the A100's 12). NVLink 2 (DGX-1's cube mesh), NVLink 5 and Infinity Fabric (RCCL)
/// have no published log here: 0, nothing taken.
inline constexpr std::array<ring_channels, 4> server_rings{{
    {"nvlink3", 24,
     "NVIDIA/nccl-tests issue 100: nccl-tests on an HGX A100 (NVSwitch), 'Channel 23/24'"},
    {"nvlink3_400", 16, "as nvlink4_400: 8 NVLinks of 50 GB/s, two channels a link"},
    {"nvlink4", 24,
     "vllm-project/vllm issue 10453: NCCL on H100 SXM (NVSwitch), channels 00 to 23"},
    {"nvlink4_400", 16, "NVIDIA/nccl issue 892: 8 H800 (NVLink 400 GB/s), '16 coll channels'"},
}};

/// The channels of NCCL's ring over PCI Express: 2 (NCCL's maintainers, NVIDIA/nccl issue 689:
/// a PCI system "should just launch 2 SMs"; NVIDIA/nccl-tests issue 228, 8 GPUs through host
/// memory, channels 00 and 01).
inline constexpr long long pcie_ring_channels = 2;

/// The channels of NCCL's ring across servers, per network port of a server: 2 (NVIDIA/nccl
/// issue 689: "DGX with 8 NICs ... it would use 16 SMs"; issue 1538, 16 GPUs of two servers,
/// 'Channel 01/16').
inline constexpr long long channels_per_port = 2;

/// Where the channel counts come from.
inline constexpr std::string_view channels_source =
    "NVIDIA/nccl issue 689 (one SM a channel, not shared; 2 on PCIe, 16 with 8 NICs), "
    "nccl-tests issue 100 (24 on HGX A100), vllm issue 10453 (24 on H100), nccl issue 892 (16 "
    "on H800), nccl issue 1538 (16 across two servers of 8)";

/// The channels NCCL's ring runs over inside a server on @p link: server_rings, the PCIe
/// figure for any PCI Express link, 0 where none is published.
constexpr long long ring_channels_on(const link_spec& link) {
  if (link.link.kind == interconnect_kind::pcie) return pcie_ring_channels;
  for (const ring_channels& r : server_rings)
    if (r.link == link.id) return r.channels;
  return 0;
}

}  // namespace nccl

/// Whether an all-reduce among @p n GPUs of one server on @p link may take NVLS: through an
/// NVSwitch whose measured table says NCCL picks it at that count.
constexpr bool nvls_runs(const link_spec& link, long long n) {
  return link.link.kind == interconnect_kind::nvlink && link.measured.nvls(n);
}

/// An all-reduce of @p data bytes over the @p n GPUs of one server on @p link as NCCL's NVLS runs
/// it (nccl::nvls_all_reduce): with b the bus bandwidth nccl-tests measured of NVLS among n GPUs
/// (link_spec::collective_rate) and a loop = channels x n x chunk bytes,
///
///     time = latency + 2 (n-1)/n x (data + (stages - 1) x min(loop, data)) / b
///
/// Throws invalid_argument as collective_time does, and for a link whose switch does not run
/// NVLS among @p n GPUs.
constexpr duration nvls_all_reduce_time(byte_count data, long long n, const link_spec& link) {
  if (!nvls_runs(link, n))
    detail::throw_invalid_argument("collective: NVLS needs an NVSwitch that runs it among " +
                                   std::to_string(n) + " GPUs (" + std::string(link.id) + ")");
  const bandwidth b = link.collective_rate(n);
  detail::check_collective(n, data, b);
  const double concurrent = static_cast<double>(nccl::nvls_channels(link.link.generation) * n);
  const byte_count loop = concurrent * nccl::nvls_chunk(data, concurrent);
  const byte_count fill = static_cast<double>(nccl::nvls.stages - 1) * std::min(loop, data);
  return nccl::nvls.latency + bus_factor(collective::all_reduce, n) * (data + fill) / b;
}

namespace detail {

// Collective @p c as NCCL's own tuning model prices it (nccl_time without the measured table).
constexpr nccl_collective nccl_model_time(collective c, byte_count data, long long n,
                                          const link_spec& link, bool staged) {
  const bool nvlink = link.link.kind == interconnect_kind::nvlink;
  nccl_collective best{};
  bool first = true;
  const bandwidth rate = link.ring_rate(n);
  const bandwidth ll_most = nccl::ll_ceiling(link);
  for (const nccl_ring_protocol& p : nccl::ring) {
    if (p.nvlink_only && !nvlink) continue;
    collective_cost cost = nccl_cost(p, link, staged);
    if (p.id == nccl_protocol::ll && ll_most > bandwidth{} && rate * cost.bandwidth_share > ll_most)
      cost.bandwidth_share = (ll_most / rate).value();
    const duration t = collective_time(c, data, n, rate, cost);
    if (first || t < best.time) best = {t, p.id, false, nccl::ring_channels_on(link)};
    first = false;
  }
  if (c == collective::all_reduce && !staged && nvls_runs(link, n)) {
    const duration t = nvls_all_reduce_time(data, n, link);
    if (t < best.time)
      best = {t, nccl_protocol::simple, true, nccl::nvls_channels(link.link.generation)};
  }
  return best;
}

// Whether an all-reduce over @p n GPUs on @p link takes the measured table of
// stack/nccl_staged.hpp: through host memory over PCI Express.
constexpr bool staged_table_applies(collective c, long long n, const link_spec& link, bool staged) {
  return c == collective::all_reduce && staged && n >= 2 &&
         link.link.kind == interconnect_kind::pcie;
}

// NCCL's model's time @p model of an all-reduce of @p data bytes over @p n GPUs through host
// memory, raised to the measured time: up to 256 KiB the table's, above it the table's 256 KiB
// time plus what the model adds from its own time there, @p model_top.
constexpr duration at_least_staged_measured(duration model, duration model_top, byte_count data,
                                            long long n) {
  duration measured = nccl::staged_all_reduce_measured(data, n);
  if (data > nccl::staged_measured_up_to) measured += model - model_top;
  return std::max(model, measured);
}

}  // namespace detail

/// Collective @p c of @p data bytes over @p n GPUs on @p link as NCCL runs it: the fastest of its
/// ring's protocols by its own model (LL128 only over NVLink; LL at most nccl::ll_ceiling), at
/// the ring's rate, and for an all-reduce through a switch that runs NVLS among @p n GPUs, NVLS
/// (nvls_all_reduce_time).
/// @p staged: PCIe without peer-to-peer, through host memory. There an all-reduce takes at least
/// what published runs measured (stack/nccl_staged.hpp): up to 256 KiB the measured time, above
/// it the 256 KiB time plus what NCCL's model adds from there. Zero for one GPU.
constexpr nccl_collective nccl_time(collective c, byte_count data, long long n,
                                    const link_spec& link, bool staged = false) {
  nccl_collective best = detail::nccl_model_time(c, data, n, link, staged);
  if (detail::staged_table_applies(c, n, link, staged))
    best.time = detail::at_least_staged_measured(
        best.time, detail::nccl_model_time(c, nccl::staged_measured_up_to, n, link, staged).time,
        data, n);
  return best;
}

/// The network steps of NCCL's ring for collective @p c over @p nodes servers: the ring crosses
/// each server boundary once per pass, twice for an all-reduce (its reduce-scatter and
/// all-gather passes), a send/recv at most once; NVIDIA/nccl v2.21.5-1 src/graph/tuning.cc,
/// `nInterSteps`.
constexpr double network_steps(collective c, long long nodes) {
  if (nodes <= 1) return 0.0;
  if (c == collective::send_recv) return 1.0;  // one hand-off, to the next server at most
  const double crossings = static_cast<double>(nodes - 1);
  return c == collective::all_reduce ? 2.0 * crossings : crossings;
}

/// The one-way bus bandwidth of collective @p c over @p n GPUs in servers of @p gpus_per_node,
/// linked inside a server by @p intra (@p staged: through host memory, each byte crossing the bus
/// twice) and to the other servers by one @p network port per GPU: the intra-server link's, or,
/// across servers, at most what the ports of the emptiest server (the last one of a job that does
/// not fill it) carry together (nccl_time below). Inside a server an all-reduce runs at the
/// link's collective rate (NVLS where the switch runs it: NCCL's NVLS tree across servers
/// reduces in the switch first), any other collective at its ring's.
constexpr bandwidth ring_bandwidth(collective c, const link_spec& intra, bool staged,
                                   const link_spec& network, long long n, long long gpus_per_node) {
  const long long inner = std::min(n, gpus_per_node);
  const bandwidth inside =
      (c == collective::all_reduce ? intra.collective_rate(inner) : intra.ring_rate(inner)) /
      (staged ? 2.0 : 1.0);
  if (n <= gpus_per_node) return inside;
  const long long nodes = (n + gpus_per_node - 1) / gpus_per_node;
  const long long ports = n - (nodes - 1) * gpus_per_node;
  return std::min(inside, static_cast<double>(ports) * network.per_direction());
}

/// An exchange as NCCL runs an all-to-all across servers (point-to-point sends, nccl-tests'
/// alltoall: a grouped ncclSend/ncclRecv, not a ring): each GPU sends @p across bytes through its
/// own @p network port while the @p group GPUs of its server run an all-to-all of
/// @p server_buffer bytes each over @p intra (@p staged: through host memory; nccl_time), and the
/// call lasts as long as the slower; in a PCIe server both shares also cross the GPU's one PCIe
/// link. Every GPU's port carries its own traffic, so unlike a ring's boundary the network's
/// share does not shrink with the servers' other ports.
constexpr nccl_collective nccl_exchange(byte_count across, byte_count server_buffer,
                                        long long group, const link_spec& intra, bool staged,
                                        const link_spec& network) {
  nccl_collective out{};
  const auto slower = [&out](const nccl_collective& c) {
    if (c.time > out.time) out = c;
  };
  if (across > byte_count{}) slower(nccl_time(collective::send_recv, across, 2, network));
  if (group > 1 && server_buffer > byte_count{})
    slower(nccl_time(collective::all_to_all, server_buffer, group, intra, staged));
  // A PCIe server's GPU reaches its network port through the same PCIe link it reaches its
  // neighbours by (GPUDirect RDMA through the PCIe switch): both shares cross it.
  if (intra.link.kind == interconnect_kind::pcie && across > byte_count{}) {
    const double to_neighbours =
        group > 1 ? static_cast<double>(group - 1) / static_cast<double>(group) : 0.0;
    slower(
        nccl_time(collective::send_recv, across + to_neighbours * server_buffer, 2, intra, staged));
  }
  return out;
}

/// An all-to-all of @p data bytes (each GPU's buffer, 1/n of it for each GPU) over @p n GPUs
/// spanning servers of @p gpus_per_node, as NCCL runs it (nccl_exchange): g = min(n,
/// gpus_per_node) GPUs of a server exchange the g/n of their buffers meant for one another, and
/// every share for another server leaves through the sender's port; the GPUs of the emptiest
/// server (g_last of them) send the most out,
///
///     time = max(send of data x (n - g_last) / n on a port, all-to-all of data x g / n among g)
///
/// Throws invalid_argument as nccl_time does.
constexpr nccl_collective nccl_all_to_all(byte_count data, long long n, const link_spec& intra,
                                          bool staged, const link_spec& network,
                                          long long gpus_per_node) {
  const long long g = std::min(n, gpus_per_node);
  const long long nodes = (n + gpus_per_node - 1) / gpus_per_node;
  const long long last = n - (nodes - 1) * gpus_per_node;
  const double all = static_cast<double>(n);
  return nccl_exchange(data * (static_cast<double>(n - last) / all),
                       data * (static_cast<double>(g) / all), g, intra, staged, network);
}

namespace detail {

// The ring across servers as NCCL's own tuning model prices it (nccl_time below, without the
// measured table); @p n > @p gpus_per_node >= 1, not an all-to-all.
constexpr nccl_collective nccl_model_time(collective c, byte_count data, long long n,
                                          const link_spec& intra, bool staged,
                                          const link_spec& network, long long gpus_per_node) {
  const long long nodes = (n + gpus_per_node - 1) / gpus_per_node;
  const bandwidth bw = ring_bandwidth(c, intra, staged, network, n, gpus_per_node);
  const bool nvlink = intra.link.kind == interconnect_kind::nvlink;
  const double inter = network_steps(c, nodes);
  nccl_collective best{};
  bool first = true;
  for (const nccl_ring_protocol& p : nccl::ring) {
    if (p.nvlink_only && !nvlink) continue;
    const collective_cost within = nccl_cost(p, intra, staged);
    const duration extra = std::max(duration{}, p.network_step - within.step_latency);
    const duration t = collective_time(
        c, data, n, bw, {p.base + inter * extra, within.step_latency, p.bandwidth_share});
    if (first || t < best.time) best = {t, p.id, false, nccl::channels_per_port * gpus_per_node};
    first = false;
  }
  return best;
}

}  // namespace detail

/// Collective @p c of @p data bytes over @p n GPUs in servers of @p gpus_per_node, linked
/// inside a server by @p intra (@p staged: through host memory) and to the other servers by one
/// @p network port per GPU, as NCCL's ring runs it (docs/parallel.md, "Across servers"). Within
/// one server it is nccl_time over @p intra. Across servers NCCL splits the buffer over one ring
/// per port (its channels), so a server's ports together carry the ring's boundary traffic:
///
///     bus bandwidth = min(intra one way (halved when staged), ports of the emptiest server x
///                         port one way)
///     latency       = base + (steps - network steps) x intra step + network steps x network step
///
/// with network_steps() of NCCL's own tuning model. LL128 runs where the servers' GPUs are on
/// NVLink. Through host memory, an all-reduce's steps inside the servers each take what the
/// measured table adds per step to a server's own ring (stack/nccl_staged.hpp). Throws
/// invalid_argument as collective_time does, and for a server of fewer than one GPU.
constexpr nccl_collective nccl_time(collective c, byte_count data, long long n,
                                    const link_spec& intra, bool staged, const link_spec& network,
                                    long long gpus_per_node) {
  if (gpus_per_node < 1)
    detail::throw_invalid_argument("collective: gpus per node must be >= 1, got " +
                                   std::to_string(gpus_per_node));
  if (n <= gpus_per_node) return nccl_time(c, data, n, intra, staged);
  if (c == collective::all_to_all)
    return nccl_all_to_all(data, n, intra, staged, network, gpus_per_node);
  nccl_collective best = detail::nccl_model_time(c, data, n, intra, staged, network, gpus_per_node);
  // Through host memory, each step inside a server costs what the measured table adds per step
  // of a server's own ring over NCCL's model; the network's steps cost the model's.
  const long long inner = std::min(n, gpus_per_node);
  if (inner >= 2 && detail::staged_table_applies(c, inner, intra, staged)) {
    const duration added = nccl_time(c, data, inner, intra, staged).time -
                           detail::nccl_model_time(c, data, inner, intra, staged).time;
    const long long nodes = (n + gpus_per_node - 1) / gpus_per_node;
    const double in_server = collective_steps(c, n) - network_steps(c, nodes);
    best.time += in_server / collective_steps(c, inner) * added;
  }
  return best;
}

}  // namespace dlperf
