/// @file
/// Named links between GPUs and between machines, for the multi-GPU model (docs/buying.md,
/// Multi-GPU): each an `interconnect` (kind, generation, bandwidth of both directions together,
/// as hardware/interconnect.hpp defines it) with the latency of one step of a ring collective
/// and its source. Data only: PCI Express bandwidths are derived by `pcie_link(gen, lanes)`;
/// NVLink and Infinity Fabric carry the datasheets' per-GPU totals; InfiniBand and Ethernet
/// their per-direction data rate, doubled to the two-way convention.
///
/// Latencies are NCCL's own per-step figures for its ring algorithm with the "Simple" protocol
/// (the one large gradient all-reduces use): NVIDIA/nccl `src/graph/tuning.cc`, table `hwLat`,
/// Ring/Simple column: NVLink 3.4 us, PCI 5.7 us, network 14 us
/// (https://github.com/NVIDIA/nccl/blob/master/src/graph/tuning.cc).
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include <dlperf/core/error.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/interconnect.hpp>

namespace dlperf {

/// What one link of a fully connected mesh carries: a platform whose GPUs are joined pair by
/// pair (AMD's Infinity Fabric, xGMI) rather than through a switch. A collective among n of its
/// GPUs runs over the n - 1 links each has to the others, never the links to GPUs outside it.
struct mesh_link {
  bandwidth usable{};         ///< one link's measured rate one way; zero: not a mesh
  std::string_view source{};  ///< the measurement

  /// Whether the link is a mesh's.
  [[nodiscard]] constexpr bool exists() const { return usable > bandwidth{}; }
};

/// The bus bandwidth NCCL's all-reduce reaches on large messages among n GPUs of one server whose
/// links meet in a switch, as nccl-tests reports it (busbw = algbw x 2 (n - 1) / n), measured at
/// n = 2 to 8. A ring reaches a share of the link's rate whatever n; from `nvls_from` GPUs NCCL
/// picks NVLink SHARP (NVLS), where the switch itself reduces and the reported figure grows with
/// n past the link's own rate. A count between measured ones takes the nearest measured count
/// below it (the ring's rate is flat in n), else the nearest above; more than 8 GPUs take the
/// 8-GPU figure. The formula's latencies (stack/nccl.hpp) stay NCCL's own. NVLS reduces only an
/// all-reduce: every other collective, and an all-reduce NCCL runs as a ring, moves at the ring's
/// rate (`ring_at`), 370 GB/s on the H100's NVLink as NCCL's maintainers put it, "except for the
/// Allreduce operation where we can get a 30% improvement using NVLink SHARP" (NVIDIA/nccl issue
/// 1442, 2025-01).
struct switch_bus_rate {
  std::array<bandwidth, 7> by_gpus{};  ///< busbw among 2, 3, ..., 8 GPUs; zero: not measured
  long long nvls_from = 0;             ///< the GPU count from which NCCL picks NVLS; 0: never
  std::string_view source{};           ///< the measurement

  /// Whether any count is measured.
  [[nodiscard]] constexpr bool exists() const {
    return std::any_of(by_gpus.begin(), by_gpus.end(), [](bandwidth b) { return b > bandwidth{}; });
  }
  /// Whether NCCL picks NVLS among @p gpus GPUs (the ring otherwise).
  [[nodiscard]] constexpr bool nvls(long long gpus) const {
    return nvls_from > 0 && gpus >= nvls_from;
  }
  /// The bus bandwidth among @p gpus GPUs (>= 2); zero when nothing is measured.
  [[nodiscard]] constexpr bandwidth at(long long gpus) const {
    const long long i = std::clamp(gpus, 2LL, 8LL) - 2;
    for (long long k = i; k >= 0; --k)
      if (by_gpus[static_cast<std::size_t>(k)] > bandwidth{})
        return by_gpus[static_cast<std::size_t>(k)];
    for (long long k = i + 1; k < 7; ++k)
      if (by_gpus[static_cast<std::size_t>(k)] > bandwidth{})
        return by_gpus[static_cast<std::size_t>(k)];
    return {};
  }
  /// The bus bandwidth of NCCL's ring among @p gpus GPUs (>= 2): at(gpus) where NCCL picks the
  /// ring there, else the ring's figure at the largest count below `nvls_from` (the ring's rate
  /// is flat in n).
  [[nodiscard]] constexpr bandwidth ring_at(long long gpus) const {
    return at(nvls_from > 0 ? std::min(gpus, nvls_from - 1) : gpus);
  }
};

/// A named link: what it is, its bandwidth and the latency of one ring step over it.
struct link_spec {
  std::string_view id;         ///< stable id, e.g. "nvlink3", "pcie4_x16", "ib_edr"
  interconnect link;           ///< kind, generation, bytes per second (both directions together)
  duration latency{};          ///< latency of one step of a ring collective over the link
  std::string_view source;     ///< where bandwidth and latency come from
  mesh_link mesh{};            ///< a fully connected mesh's link (none: a switch or one link)
  switch_bus_rate measured{};  ///< the all-reduce's measured bus bandwidth through a switch

  /// Bytes per second in one direction.
  [[nodiscard]] constexpr bandwidth per_direction() const { return link.per_direction(); }

  /// Bytes per second one way that a collective among @p gpus GPUs of one platform moves through
  /// each GPU: on a mesh the n - 1 links to the others at their measured rate (never above the
  /// link's); through a switch whose all-reduce is measured, that bus bandwidth at n GPUs;
  /// otherwise the link's own rate.
  [[nodiscard]] constexpr bandwidth collective_rate(long long gpus) const {
    if (gpus < 2) return per_direction();
    if (mesh.exists())
      return std::min(per_direction(), static_cast<double>(gpus - 1) * mesh.usable);
    if (measured.exists()) return measured.at(gpus);
    return per_direction();
  }
  /// Bytes per second one way that NCCL's ring moves through each GPU among @p gpus GPUs: what
  /// every collective but an all-reduce runs at, and an all-reduce NCCL runs as a ring.
  /// collective_rate, except through a switch where NCCL picks NVLS among @p gpus: there the
  /// ring's measured rate (switch_bus_rate::ring_at).
  [[nodiscard]] constexpr bandwidth ring_rate(long long gpus) const {
    if (gpus >= 2 && measured.exists()) return measured.ring_at(gpus);
    return collective_rate(gpus);
  }
};

namespace links {

/// NCCL's per-step ring latency over PCI Express (tuning.cc, hwLat PCI Ring/Simple).
inline constexpr duration pcie_step_latency = seconds(5.7e-6);
/// NCCL's per-step ring latency over NVLink (tuning.cc, hwLat NVLINK Ring/Simple); taken for
/// AMD's Infinity Fabric too, the same kind of point-to-point GPU fabric (no RCCL figure cited).
inline constexpr duration nvlink_step_latency = seconds(3.4e-6);
/// NCCL's per-step ring latency over the network (tuning.cc, hwLat NET Ring/Simple; InfiniBand
/// verbs with GPUDirect RDMA).
inline constexpr duration network_step_latency = seconds(14e-6);
/// Ethernet without RDMA goes through NCCL's socket transport and the kernel's TCP stack: a
/// typical figure of tens of microseconds per step (NCCL's network step plus a kernel TCP
/// round trip of some 10-20 us on 10-100 GbE). An order of magnitude, not a measurement; the
/// multi-GPU results over Ethernet are bandwidth-bound by three orders of magnitude.
inline constexpr duration tcp_step_latency = seconds(30e-6);

/// Source of the PCI Express entries.
inline constexpr std::string_view pcie_source =
    "PCI-SIG base specifications 3.0/4.0/5.0 (8/16/32 GT/s per lane, 128b/130b); latency: "
    "NVIDIA/nccl src/graph/tuning.cc hwLat PCI Ring/Simple";

/// PCIe 3.0 x4.
inline constexpr link_spec pcie3_x4{"pcie3_x4", pcie_link(3, 4), pcie_step_latency, pcie_source};
/// PCIe 3.0 x8.
inline constexpr link_spec pcie3_x8{"pcie3_x8", pcie_link(3, 8), pcie_step_latency, pcie_source};
/// PCIe 3.0 x16.
inline constexpr link_spec pcie3_x16{"pcie3_x16", pcie_link(3, 16), pcie_step_latency, pcie_source};
/// PCIe 4.0 x4.
inline constexpr link_spec pcie4_x4{"pcie4_x4", pcie_link(4, 4), pcie_step_latency, pcie_source};
/// PCIe 4.0 x8.
inline constexpr link_spec pcie4_x8{"pcie4_x8", pcie_link(4, 8), pcie_step_latency, pcie_source};
/// PCIe 4.0 x16.
inline constexpr link_spec pcie4_x16{"pcie4_x16", pcie_link(4, 16), pcie_step_latency, pcie_source};
/// PCIe 5.0 x4.
inline constexpr link_spec pcie5_x4{"pcie5_x4", pcie_link(5, 4), pcie_step_latency, pcie_source};
/// PCIe 5.0 x8.
inline constexpr link_spec pcie5_x8{"pcie5_x8", pcie_link(5, 8), pcie_step_latency, pcie_source};
/// PCIe 5.0 x16.
inline constexpr link_spec pcie5_x16{"pcie5_x16", pcie_link(5, 16), pcie_step_latency, pcie_source};

/// NVLink 2 (V100 SXM2): 300 GB/s per GPU, both directions. NVIDIA V100 datasheet,
/// https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf
inline constexpr link_spec nvlink2{"nvlink2",
                                   {interconnect_kind::nvlink, 2, gigabytes_per_second(300)},
                                   nvlink_step_latency,
                                   "NVIDIA V100 datasheet (NVLink 300 GB/s); NCCL tuning.cc"};
/// NVLink 3 (A100 SXM4): 600 GB/s per GPU. NVIDIA A100 datasheet,
/// https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf
///
/// Measured through the second-generation NVSwitch of an 8-GPU A100 server: nccl-tests all-reduce
/// of 8 GiB at 234.6 GB/s bus bandwidth (ring; the A100 has no NVLS), stas00/ml-engineering
/// network/README.md (2023-12), 0.78 of the 300 GB/s each way, as NCCL's maintainers put it
/// ("limits it to ~230GB/s", NVIDIA/nccl-tests issue 149). No count below 8 is measured: the
/// ring's share is taken as flat in n, as it is measured on the H100.
inline constexpr link_spec nvlink3{
    "nvlink3",
    {interconnect_kind::nvlink, 3, gigabytes_per_second(600)},
    nvlink_step_latency,
    "NVIDIA A100 datasheet (NVLink 600 GB/s); NCCL tuning.cc",
    {},
    {{bandwidth{}, bandwidth{}, bandwidth{}, bandwidth{}, bandwidth{}, bandwidth{},
      gigabytes_per_second(234.6)},
     0,
     "stas00/ml-engineering network/README.md: nccl-tests all-reduce of 8 GiB on 8 A100 at "
     "234.61 GB/s busbw (ring)"}};
/// NVLink 3 at 400 GB/s per GPU: the A800's, the A100's fabric cut for export to China (China
/// Telecom Cloud's A800 table: "NVLink 400GB/s"; HGX A800 8-GPU with NVSwitch).
inline constexpr link_spec nvlink3_400{
    "nvlink3_400",
    {interconnect_kind::nvlink, 3, gigabytes_per_second(400)},
    nvlink_step_latency,
    "China Telecom Cloud A800 table (NVLink 400 GB/s); NCCL tuning.cc"};
/// NVLink 4 (H100 SXM5): 900 GB/s per GPU. NVIDIA H100 datasheet,
/// https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet
///
/// Measured through the third-generation NVSwitch of an 8-GPU H200 server (the H100's fabric):
/// nccl-tests all-reduce of 8 GiB, NCCL 2.27.7, at 363.3 GB/s bus bandwidth among 4 GPUs (ring,
/// NVLS not picked) and 414.2, 435.6, 460.0 and 473.1 among 5, 6, 7 and 8 (NVLS; 364-366 with
/// NCCL_NVLS_ENABLE=0), stas00/ml-engineering network/README.md (2026-08). The ring's 0.81 of
/// the 450 GB/s each way holds from 2 to 8 H100s (365-370 GB/s, NVIDIA/nccl issue 1455).
inline constexpr link_spec nvlink4{
    "nvlink4",
    {interconnect_kind::nvlink, 4, gigabytes_per_second(900)},
    nvlink_step_latency,
    "NVIDIA H100 datasheet (NVLink 900 GB/s); NCCL tuning.cc",
    {},
    {{bandwidth{}, bandwidth{}, gigabytes_per_second(363.3), gigabytes_per_second(414.2),
      gigabytes_per_second(435.6), gigabytes_per_second(460.0), gigabytes_per_second(473.1)},
     5,
     "stas00/ml-engineering network/README.md: nccl-tests all-reduce of 8 GiB on 4-8 H200 "
     "(NCCL 2.27.7): 363.3 (ring), 414.2, 435.6, 460.0, 473.1 GB/s busbw (NVLS)"}};
/// NVLink 4 at 400 GB/s per GPU: the H800's, the H100's fabric cut for export to China (H800
/// launch reports, 2023).
inline constexpr link_spec nvlink4_400{"nvlink4_400",
                                       {interconnect_kind::nvlink, 4, gigabytes_per_second(400)},
                                       nvlink_step_latency,
                                       "H800 launch reports (NVLink 400 GB/s); NCCL tuning.cc"};
/// NVLink 5 (B200): 1.8 TB/s per GPU. NVIDIA DGX B200 / HGX B200 datasheet,
/// https://www.nvidia.com/en-us/data-center/dgx-b200/
///
/// Measured through the fifth-generation NVSwitch of an 8-GPU B200 server: nccl-tests all-reduce
/// of 8 GiB, NCCL 2.27.7, at 673.2 and 677.8 GB/s bus bandwidth among 4 and 5 GPUs (ring, 0.75 of
/// the 900 GB/s each way) and 778.2, 811.2 and 838.0 among 6, 7 and 8 (NVLS; 678-682 with
/// NCCL_NVLS_ENABLE=0), stas00/ml-engineering network/README.md (2026-08). Taken for the GB200's
/// NVLink 5 domain too (none measured there).
inline constexpr link_spec nvlink5{
    "nvlink5",
    {interconnect_kind::nvlink, 5, gigabytes_per_second(1800)},
    nvlink_step_latency,
    "NVIDIA DGX B200 datasheet (NVLink 1.8 TB/s); NCCL tuning.cc",
    {},
    {{bandwidth{}, bandwidth{}, gigabytes_per_second(673.2), gigabytes_per_second(677.8),
      gigabytes_per_second(778.2), gigabytes_per_second(811.2), gigabytes_per_second(838.0)},
     6,
     "stas00/ml-engineering network/README.md: nccl-tests all-reduce of 8 GiB on 4-8 B200 "
     "(NCCL 2.27.7): 673.2, 677.8 (ring), 778.2, 811.2, 838.0 GB/s busbw (NVLS)"}};
/// AMD Infinity Fabric (xGMI) of the MI300X: 7 links x 128 GB/s = 896 GB/s peak aggregate per
/// GPU. AMD Instinct MI300X data sheet,
/// https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf
///
/// The eight GPUs are joined pair by pair, one link of 64 GB/s each way between each pair, so a
/// collective among n of them runs over n - 1 links. Measured: an all-reduce of 4 GiB over eight
/// MI300X at 312.9 GB/s bus bandwidth and over two at 47.7 (stas00/ml-engineering,
/// network/README.md, torch.distributed over RCCL): 44.7 GB/s a link over seven links, 47.7 over
/// one; AMD gives about 48 usable of the link's 64 (ROCm blog "Understanding RCCL Bandwidth and
/// xGMI Performance on AMD Instinct MI300X", 2025-03). The eight-GPU figure is the one kept.
inline constexpr link_spec infinity_fabric{
    "infinity_fabric",
    {interconnect_kind::infinity_fabric, 4, gigabytes_per_second(896)},
    nvlink_step_latency,
    "AMD Instinct MI300X data sheet (896 GB/s Infinity Fabric); latency as NVLink's",
    {gigabytes_per_second(312.9 / 7.0),
     "stas00/ml-engineering network/README.md: 8 x MI300X all-reduce of 4 GiB at 312.9 GB/s "
     "bus bandwidth (RCCL), over 7 links a GPU"}};
/// AMD Infinity Fabric of the MI250X: 8 links x 100 GB/s = 800 GB/s peak per GPU. AMD Instinct
/// MI200 series data sheet,
/// https://www.amd.com/system/files/documents/amd-instinct-mi200-datasheet.pdf
inline constexpr link_spec infinity_fabric3{
    "infinity_fabric3",
    {interconnect_kind::infinity_fabric, 3, gigabytes_per_second(800)},
    nvlink_step_latency,
    "AMD Instinct MI200 data sheet (800 GB/s Infinity Fabric); latency as NVLink's"};

/// AMD Infinity Fabric of the MI355X and MI350X: 7 links x 153.6 GB/s = 1075.2 GB/s peak per
/// GPU. AMD Instinct MI355X datasheet,
/// https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html (June 2025).
/// A mesh like the MI300X's; no all-reduce on it is measured in public, so each link is
/// assumed to carry the MI300X's measured share of its rate (44.7 of 64 GB/s: 0.698 of 76.8).
inline constexpr link_spec infinity_fabric4_1075{
    "infinity_fabric4_1075",
    {interconnect_kind::infinity_fabric, 4, gigabytes_per_second(1075.2)},
    nvlink_step_latency,
    "AMD Instinct MI355X datasheet (7 x 153.6 GB/s Infinity Fabric); latency as NVLink's",
    {gigabytes_per_second(76.8 * (312.9 / 7.0) / 64.0),
     "assumed: the MI300X's measured share of its link rate (44.7 of 64 GB/s), no MI355X "
     "all-reduce measured"}};

/// Gigabits per second each way as the two-way bandwidth of the interconnect convention.
constexpr bandwidth network_rate(double gbit_per_direction) {
  return gigabytes_per_second(2.0 * gbit_per_direction / 8.0);
}

/// Source of the InfiniBand entries: 4x EDR, HDR and NDR (the standard's 5th, 6th and 7th
/// generations after SDR, DDR, QDR, FDR) carry 100, 200 and 400 Gbit/s of data per port and
/// direction. InfiniBand Trade Association roadmap,
/// https://www.infinibandta.org/infiniband-roadmap/
inline constexpr std::string_view ib_source =
    "InfiniBand Trade Association roadmap (4x EDR 100, HDR 200, NDR 400 Gbit/s); NCCL tuning.cc";
/// InfiniBand 4x EDR: 100 Gbit/s each way.
inline constexpr link_spec ib_edr{
    "ib_edr", {interconnect_kind::ib, 5, network_rate(100)}, network_step_latency, ib_source};
/// InfiniBand 4x HDR: 200 Gbit/s each way.
inline constexpr link_spec ib_hdr{
    "ib_hdr", {interconnect_kind::ib, 6, network_rate(200)}, network_step_latency, ib_source};
/// InfiniBand 4x NDR: 400 Gbit/s each way.
inline constexpr link_spec ib_ndr{
    "ib_ndr", {interconnect_kind::ib, 7, network_rate(400)}, network_step_latency, ib_source};

/// Source of the Ethernet entries: 10GBASE, 25GBASE and 100GBASE carry 10, 25 and 100 Gbit/s
/// per direction (IEEE 802.3ae, 802.3by, 802.3ba); NCCL runs over TCP sockets on them. Their
/// generation is 0 (Ethernet speeds are not numbered generations).
inline constexpr std::string_view ethernet_source =
    "IEEE 802.3ae/802.3by/802.3ba (10/25/100 Gbit/s); latency: typical TCP figure";
/// 10 Gigabit Ethernet over TCP.
inline constexpr link_spec eth_10g{"eth_10g",
                                   {interconnect_kind::ethernet, 0, network_rate(10)},
                                   tcp_step_latency,
                                   ethernet_source};
/// 25 Gigabit Ethernet over TCP.
inline constexpr link_spec eth_25g{"eth_25g",
                                   {interconnect_kind::ethernet, 0, network_rate(25)},
                                   tcp_step_latency,
                                   ethernet_source};
/// 100 Gigabit Ethernet over TCP.
inline constexpr link_spec eth_100g{"eth_100g",
                                    {interconnect_kind::ethernet, 0, network_rate(100)},
                                    tcp_step_latency,
                                    ethernet_source};

/// Source of the RoCE entries: RDMA over Converged Ethernet (RoCE v2) at 200 and 400 Gbit/s per
/// port and direction (IEEE 802.3cd/802.3bs), as cloud GPU clusters wire one NIC per GPU
/// (MosaicML's A100 clusters: "1600 Gbps node-node interconnect (RoCE)", eight 200 Gbit/s
/// ports). NCCL's InfiniBand-verbs transport runs over it, so a step costs the network's
/// latency, not TCP's.
inline constexpr std::string_view roce_source =
    "IEEE 802.3cd/802.3bs (200/400 Gbit/s Ethernet), RDMA (RoCE v2); latency: NCCL tuning.cc "
    "hwLat NET";
/// 200 Gbit/s Ethernet with RDMA (RoCE v2).
inline constexpr link_spec roce_200g{"roce_200g",
                                     {interconnect_kind::ethernet, 0, network_rate(200)},
                                     network_step_latency,
                                     roce_source};
/// 400 Gbit/s Ethernet with RDMA (RoCE v2).
inline constexpr link_spec roce_400g{"roce_400g",
                                     {interconnect_kind::ethernet, 0, network_rate(400)},
                                     network_step_latency,
                                     roce_source};

/// Every link: PCI Express, the GPU fabrics, InfiniBand, Ethernet.
inline constexpr std::array all{
    pcie3_x4,    pcie3_x8, pcie3_x16, pcie4_x4,         pcie4_x8,        pcie4_x16,
    pcie5_x4,    pcie5_x8, pcie5_x16, nvlink2,          nvlink3_400,     nvlink3,
    nvlink4_400, nvlink4,  nvlink5,   infinity_fabric3, infinity_fabric, infinity_fabric4_1075,
    ib_edr,      ib_hdr,   ib_ndr,    eth_10g,          eth_25g,         eth_100g,
    roce_200g,   roce_400g};

}  // namespace links

/// The link named @p id. Throws not_found listing the valid ids.
constexpr const link_spec& find_link(std::string_view id) {
  for (const link_spec& l : links::all)
    if (l.id == id) return l;
  detail::throw_unknown("link", id, links::all, [](const link_spec& l) { return l.id; });
}

/// Whether GPUs of segment @p s exchange data peer to peer over PCI Express. NVIDIA's stock
/// driver does not enable PCIe peer-to-peer on consumer GeForce boards: `p2pBandwidthLatencyTest`
/// reports "CANNOT Access Peer" between RTX 3090s (https://github.com/NVIDIA/nccl/issues/1127),
/// and RTX 4090s need tinygrad's patched kernel module to get it
/// (https://github.com/tinygrad/open-gpu-kernel-modules). Their collectives are staged through
/// host memory, so every byte crosses the PCIe bus twice.
constexpr bool pcie_peer_to_peer(segment s) { return s != segment::geforce; }

/// Whether traffic between GPUs of segment @p s over @p link is staged through host memory:
/// PCI Express between boards without peer-to-peer (pcie_peer_to_peer).
constexpr bool staged_through_host(segment s, const link_spec& link) {
  return link.link.kind == interconnect_kind::pcie && !pcie_peer_to_peer(s);
}

/// The link between the cards of one system of device @p d (any type with a board's facts: a
/// gpu_spec, a measured_device): NVLink where a data-centre module has it (an SXM baseboard
/// connects every GPU), the entry of its generation and the board's own bandwidth where one is
/// listed (the A800's and H800's 400 GB/s); Infinity Fabric where an AMD data-centre module has
/// it, the same way (MI250X 800 GB/s, MI300X and MI325X 896, MI355X 1075); else each card's own
/// PCIe link at x16 (the buying guide's PCIe builds; PCIe 3.0 for older boards). A PCIe card's
/// NVLink bridge joins two cards, not a system of them (NVIDIA's A100 PCIe and H100 PCIe
/// datasheets: "NVLink Bridge for 2 GPUs"; the H200 NVL's joins two or four), and whether one is
/// fitted is the buyer's choice: a bridged pair is `run_config::link` (`--link nvlink3`).
template <class D>
constexpr const link_spec& system_link(const D& d) {
  const interconnect& peer = d.facts().peer_link;
  if (d.facts().segment == segment::datacenter && d.facts().form == form_factor::mezzanine &&
      peer.kind == interconnect_kind::nvlink && peer.generation >= 2 && peer.generation <= 5) {
    for (const link_spec& l : links::all)
      if (l.link.kind == interconnect_kind::nvlink && l.link.generation == peer.generation &&
          l.link.throughput == peer.throughput)
        return l;
    return find_link("nvlink" + std::to_string(peer.generation));
  }
  // AMD's OAM boards: the eight GPUs of a platform joined by Infinity Fabric (xGMI) links.
  if (d.facts().segment == segment::datacenter && peer.kind == interconnect_kind::infinity_fabric &&
      peer.generation >= 3) {
    for (const link_spec& l : links::all)
      if (l.link.kind == interconnect_kind::infinity_fabric &&
          l.link.generation == peer.generation && l.link.throughput == peer.throughput)
        return l;
    return peer.generation == 3 ? links::infinity_fabric3 : links::infinity_fabric;
  }
  const int gen = std::clamp(d.facts().host_link.generation, 3, 5);
  return find_link("pcie" + std::to_string(gen) + "_x16");
}

/// The network port each GPU of a server of device @p d has to the other servers, when a job
/// spans several: one InfiniBand port per GPU at the rate its PCI Express generation carries, as
/// NVIDIA's reference servers wire them: DGX-1/DGX-2 (PCIe 3.0) EDR 100 Gbit/s, DGX A100 (PCIe
/// 4.0) eight ConnectX-6 HDR 200 Gbit/s, DGX H100 (PCIe 5.0) eight ConnectX-7 NDR 400 Gbit/s
/// (NVIDIA DGX A100 and DGX H100 user guides, "Hardware overview"). A x16 slot of one
/// generation carries the port of the same row (PCIe 4.0 x16: 252 Gbit/s each way, enough for
/// 200 and not for 400). `run_config::network` names another.
template <class D>
constexpr const link_spec& default_network(const D& d) {
  const int gen = d.facts().host_link.generation;
  if (gen >= 5) return links::ib_ndr;
  if (gen == 4) return links::ib_hdr;
  return links::ib_edr;
}

}  // namespace dlperf
