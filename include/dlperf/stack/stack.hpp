/// @file
/// A software stack applied to an operator (docs/stacks.md): `apply_stack` turns one operator's
/// ceiling estimate into the stack's, from the stack's record (stack/software_stack.hpp: which
/// kernel family runs each class of operator and how close it comes to the ceiling). The named
/// stacks are in stack/stacks.hpp (their records in each backend's file, stack/cuda_stacks.hpp
/// and its siblings).
///
/// For an operator whose ceiling time is t (launch included) and which launches k kernels:
///
///     device time = t / efficiency         efficiency by operator class, all in (0, 1]:
///                                          GEMM (compute-bound) gemm_efficiency
///                                                               (x conv_efficiency for CNNs,
///                                                               tf32_conv_efficiency in TF32)
///                                          GEMM (DRAM-bound)    gemv_dram_share
///                                                               (quantised weights:
///                                                               quantized_gemv_dram_share)
///                                          attention            attention_efficiency
///                                                               (x the architecture's
///                                                               warp_mma_share when compute-
///                                                               bound under a stack whose
///                                                               attention issues mma.sync)
///                                          streaming, other     streaming_dram_share
///     device time = max(device time, DRAM bytes / (DRAM bandwidth x GEMV share))
///                                          for a GEMM the ceiling finds bound by anything but
///                                          DRAM, where the context gives the bandwidth
///     time        = max(device time, k x host_overhead_per_kernel)
///                   or, for a stack whose per-kernel cost adds to the GPU's (`host_serial`:
///                   a host that encodes a step's kernels before the GPU runs them, or a GPU
///                   that pays a gap per dependent dispatch), device time + k x
///                   host_overhead_per_kernel
///
/// where a stack whose GEMV kernels were measured to move at most B bytes of weights per SM per
/// SM clock (gemv_bytes_per_sm_cycle; quantized_gemv_bytes_per_sm_cycle for quantised weights)
/// has, on a device of S SMs at clock f,
///
///     GEMV share  = min(the fitted share, B x S x f / DRAM bandwidth)
///
/// The same holds for a stack's own streaming kernels whose rate it measured, by class
/// (`stream_kernel`: dequantisation ahead of a library GEMM, unfused attention's softmax, strided
/// copies): such a kernel of B' bytes per SM cycle takes at least its bytes / (B' x S x f).
///
/// A batch-1 GEMV's warps either wait on DRAM (Little's law: bytes in flight per SM over the
/// latency in SM cycles) or issue the dequantisation's instructions; either way what one SM
/// moves per clock is the kernel's, so a GPU whose DRAM asks more bytes per SM cycle than the
/// kernel moves (an A100 SXM asks 13.4, an H100 SXM 12.8, a GTX 1080 9.2) is held to the
/// kernel's rate, and one that asks fewer (every GDDR6 and GDDR6X board: 2-7.7) streams at the
/// fitted share (docs/stacks.md, "GEMV kernels per SM clock").
///
/// The second line is the roofline at the stack's figures: a GEMM the ceiling finds
/// compute-bound (a batch-1 decode GEMM on a GPU without tensor cores, whose tile does far more
/// arithmetic than the one token needs) slows by the stack's GEMM efficiency, but its weights
/// still cannot stream faster than the stack's GEMV kernels read DRAM.
///
/// The host issues kernels asynchronously, so its per-kernel cost only shows where the GPU
/// finishes a kernel sooner than the host can issue the next one. With every efficiency 1 and no
/// host overhead (the `ceiling` stack) the time is exactly the ceiling's; no stack is faster than
/// the ceiling of the kernels it runs (its `gemm_call` may accumulate in FP16, which on a GeForce
/// board beats the run's own FP32-accumulate ceiling).
#pragma once

#include <algorithm>

#include <dlperf/core/bound.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/stack/software_stack.hpp>

namespace dlperf {

/// What the stack needs to know about an operator beyond its estimate.
struct stack_op_context {
  bool convolution = false;        ///< GEMMs are convolutions (a CNN)
  bool quantized_weights = false;  ///< weight GEMMs read weight-only quantised weights (the
                                   ///< quantised share applies to the ops that say so)
  bool tf32 = false;               ///< GEMMs run in TF32
  /// The device's DRAM bandwidth: a GEMM is then never faster than its DRAM traffic at the
  /// stack's GEMV share (see the file comment). Zero leaves that bound out.
  bandwidth dram_bandwidth{};
  /// The share of the tensor peak warp-level `mma.sync` reaches on the device's architecture
  /// (architecture_spec::warp_mma_share): a stack whose fused attention issues it
  /// (`warp_mma_attention`) runs its compute-bound attention at it.
  double warp_mma_share = 1.0;
  /// The device's SM count times its SM clock: with `dram_bandwidth`, how many bytes per SM
  /// cycle a GEMV must move to stream at the full DRAM rate (the GEMV share's cap, see the file
  /// comment). Zero leaves the cap out.
  frequency sm_cycles{};
  /// The device's SMs and what each holds at once (architecture_spec::sm): how many warps of
  /// a GEMV kernel a product's rows keep in flight (stack/gemv_occupancy.hpp). Zero SMs leaves
  /// the kernel's occupancy out.
  double sms = 0.0;
  int max_blocks_per_sm = 0;  ///< resident blocks per SM
  int max_warps_per_sm = 0;   ///< resident warps per SM
  /// The device's memory: the decode batches a stack replays as graphs may depend on it
  /// (decode_graph_limit). Zero: the smallest tier's.
  byte_count memory{};
};

/// The GEMV share @p s was fitted or measured at, over 16-bit weights or, where @p quantized,
/// weight-only quantised ones: on any device, before the cap of its kernels' rate per SM clock.
constexpr double fitted_gemv_share(const software_stack& s, bool quantized) {
  return quantized ? s.quantized_gemv_dram_share.value : s.gemv_dram_share.value;
}

namespace detail {
/// @p share held to what a kernel moving @p per_cycle bytes per SM clock streams on the device
/// @p c describes, as a share of its DRAM rate; @p share itself where either is unknown
/// (@p per_cycle 0: not measured).
constexpr double held_to_sm_rate(double share, double per_cycle, const stack_op_context& c) {
  if (per_cycle <= 0.0 || c.sm_cycles <= frequency{} || c.dram_bandwidth <= bandwidth{})
    return share;
  const double kernel_rate = per_cycle * c.sm_cycles.value();  // bytes per second
  return std::min(share, kernel_rate / c.dram_bandwidth.value());
}
}  // namespace detail

/// The share of DRAM bandwidth @p s's GEMV kernels reach over 16-bit weights, or over
/// weight-only quantised ones where @p quantized: the stack's fitted share, held to what its
/// kernels move per SM clock on the device @p c describes where both are known (see the file
/// comment).
constexpr double gemv_share(const software_stack& s, bool quantized, const stack_op_context& c) {
  const double per_cycle =
      quantized ? s.quantized_gemv_bytes_per_sm_cycle.value : s.gemv_bytes_per_sm_cycle.value;
  return detail::held_to_sm_rate(fitted_gemv_share(s, quantized), per_cycle, c);
}

/// The share of DRAM bandwidth @p s reaches when GEMM @p op streams its operands: the
/// quantised-GEMV share where @p op dequantises weight-only quantised weights, else the GEMV
/// share; for a weight GEMV (`op_estimate::weight_gemv`) held to what the stack's GEMV kernels
/// move per SM clock on the device @p c describes, and for a 16-bit one of a stack whose
/// kernel's occupancy is modelled, to what its rows keep in flight (stack/gemv_occupancy.hpp).
constexpr double gemv_share(const software_stack& s, const op_estimate& op,
                            const stack_op_context& c = {}) {
  const bool quantized = c.quantized_weights && op.quantized_weights;
  if (!op.weight_gemv) return fitted_gemv_share(s, quantized);
  const double share = gemv_share(s, quantized, c);
  const gemv_occupancy& k = s.gemv_kernel;
  if (quantized || !k.modelled() || op.gemv_rows <= 0.0 || c.sms <= 0.0) return share;
  return detail::held_to_sm_rate(
      share, k.bytes_per_sm_cycle(op.gemv_rows, c.sms, c.max_blocks_per_sm, c.max_warps_per_sm), c);
}

/// The most bytes @p s's own streaming kernel of class @p k moves per SM per SM clock (0: not
/// measured).
constexpr double stream_bytes_per_sm_cycle(const software_stack& s, stream_kernel k) {
  switch (k) {
    case stream_kernel::dequantize:
      return s.dequantize_bytes_per_sm_cycle.value;
    case stream_kernel::softmax:
      return s.softmax_bytes_per_sm_cycle.value;
    case stream_kernel::strided_copy:
      return s.strided_copy_bytes_per_sm_cycle.value;
    case stream_kernel::generic:
      break;
  }
  return 0.0;
}

/// The least time streaming operator @p op takes as @p s's own kernel of its class on the device
/// @p c describes: its bytes at what that kernel moves per SM clock (see the file comment);
/// zero where the stack has not measured the class or @p c gives no SM cycles.
constexpr duration stream_kernel_floor(const software_stack& s, const op_estimate& op,
                                       const stack_op_context& c) {
  const double per_cycle = stream_bytes_per_sm_cycle(s, op.stream);
  if (per_cycle <= 0.0 || c.sm_cycles <= frequency{}) return duration{};
  return seconds(op.dram.value() / (per_cycle * c.sm_cycles.value()));
}

/// The context of a device @p d for `apply_stack`: its DRAM bandwidth, its architecture's
/// warp-level MMA share and its SM cycles a second (the run's own fields left at their defaults,
/// which the model's `apply_stack` sets).
template <class D>
constexpr stack_op_context device_context(const D& d) {
  stack_op_context c;
  c.dram_bandwidth = d.memory(tier::global).throughput;
  c.warp_mma_share = d.arch().warp_mma_share;
  c.sm_cycles = static_cast<double>(d.sm_count()) * d.sm_clock();
  c.sms = static_cast<double>(d.sm_count());
  c.max_blocks_per_sm = d.arch().sm.max_blocks_per_sm;
  c.max_warps_per_sm = d.arch().sm.max_warps_per_sm;
  c.memory = d.memory(tier::global).capacity;
  return c;
}

/// The efficiency @p s reaches on operator @p op (see the file comment), in (0, 1].
constexpr double stack_efficiency(const software_stack& s, const op_estimate& op,
                                  const stack_op_context& c = {}) {
  switch (op.kind) {
    case op_kind::gemm:
      if (op.bound == bound::global) return gemv_share(s, op, c);
      if (!c.convolution) return s.gemm_efficiency.value;
      return s.gemm_efficiency.value *
             (c.tf32 ? s.tf32_conv_efficiency.value : s.conv_efficiency.value);
    case op_kind::attention:
      return s.attention_efficiency.value *
             (s.warp_mma_attention && op.bound == bound::compute ? c.warp_mma_share : 1.0);
    case op_kind::communication:
      // A link's time is the collective library's (stack/nccl.hpp), not a kernel's share.
      return 1.0;
    case op_kind::streaming:
    case op_kind::other:
      break;
  }
  return s.streaming_dram_share.value;
}

/// Operator @p op as stack @p s runs it: the ceiling time (for fused attention under a stack
/// with `flash_tiles`, no less than its tile floor) over the stack's efficiency for its class;
/// for a GEMM not bound by DRAM, never less than its DRAM traffic at the stack's GEMV
/// share (when @p c gives the bandwidth); and never less than the host's time to issue its
/// kernels, or with that time added where the stack's host does not overlap its GPU
/// (`host_serial`).
constexpr op_estimate apply_stack(const software_stack& s, op_estimate op,
                                  const stack_op_context& c = {}) {
  if (op.kind == op_kind::attention && s.flash_tiles && op.tile_floor > op.time) {
    op.time = op.tile_floor;
    op.bound = bound::compute;
  }
  duration device = op.time / stack_efficiency(s, op, c);
  if (op.kind == op_kind::gemm && op.bound != bound::global && c.dram_bandwidth > bandwidth{}) {
    const duration stream = op.dram / (c.dram_bandwidth * gemv_share(s, op, c));
    if (stream > device) {
      device = stream;
      op.bound = bound::global;
    }
  }
  if (op.kind == op_kind::streaming) {
    const duration own = stream_kernel_floor(s, op, c);
    if (own > device) {
      device = own;
      op.bound = bound::global;
    }
  }
  const duration host = static_cast<double>(op.kernels) * s.host_overhead.value;
  if (s.host_serial) {
    op.time = device + host;
    if (host > device) op.bound = bound::latency;
  } else if (host > device) {
    op.time = host;
    op.bound = bound::latency;
  } else {
    op.time = device;
  }
  return op;
}

/// Every operator of @p ops as stack @p s runs it.
DLPERF_CONSTEXPR_VECTOR op_sequence apply_stack(const software_stack& s, const op_sequence& ops,
                                                const stack_op_context& c = {}) {
  op_sequence out;
  out.reserve(ops.size());
  for (const op_estimate& op : ops) out.add(apply_stack(s, op, c));
  return out;
}

}  // namespace dlperf
