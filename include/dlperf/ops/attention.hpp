/// @file
/// Scaled dot-product attention, unfused (QK^T, softmax and PV as three kernels, S and P through
/// DRAM) or fused flash-style (one kernel; score tiles stay in shared memory and registers).
///
/// For batch b, heads h, query length Sq, key length Skv, head dimension d, element size e:
///
///     tensor FLOP  = 4 b h Sq Skv d x visible, visible = 1 - Sq / (2 Skv) when causal (a
///                    half when Sq = Skv, all of it for one query at the end of Skv keys)
///     unfused DRAM = QK^T GEMM + softmax (S read, P written: 2 b h Sq Skv e) + PV GEMM
///     fused DRAM   = Q + O + K + V = 2 b h Sq d e + 2 b h_kv Skv d e_kv (e_kv: a quantised KV
///                    cache's bytes per element, else e); h_kv key/value heads (grouped-query
///                    attention, g = h / h_kv query heads per group) hold the distinct K, V
///     fused L2     = Q + O + K and V once per tile of 128 query rows that reads them:
///                    2 b h_kv Skv d e_kv x visible x tiles,
///                    tiles = ceil(g Sq / 128)    when g Sq <= 128 (the g query heads of a group
///                                                x Sq tokens packed into one tile: decode)
///                    tiles = g ceil(Sq / 128)    otherwise (every query head its own tiles:
///                                                prefill, FlashAttention-2)
///                    and from DRAM once per tile of one reader (a group when packed, else a
///                    query head: the g heads of a group share them in L2) when the K and V of
///                    the readers in flight, about SMs / tiles of them, do not fit in half of L2
///     fused time   = max(compute, DRAM time, L2 time) + launch,
///     compute      = max(tensor FLOP / (peak x GEMM efficiency), exponentials / SFU rate)
///     tile floor   = compute / tile share + launch (op_estimate::tile_floor)
///     tile share   = v / (v + 1.5 + 0.5 causal), v = visible key blocks of 128 a query tile
///                    iterates over: ceil(Skv / 128) x visible (forward), and query blocks
///                    ceil(Sq / 128) x visible a key tile iterates over (backward)
///
/// The tile floor is the time of a kernel tiled as FlashAttention's CUDA kernels are: a stack
/// that runs one (software_stack::flash_tiles) takes the longer of it and the fused time. The
/// tile share is the loop's fixed cost. Every tile of query rows loads Q, sets up its
/// running maximum and sum, and at the end rescales and writes O and the log-sum-exp: about 1.5
/// key blocks' worth of time whatever the sequence. Under a causal mask it also computes the
/// diagonal block whole and masks half of it, half a block more. So the kernel's rate grows
/// with the sequence towards its large-problem rate: FlashAttention-2's forward and backward on
/// A100 80 GB, head dimension 128, reach 99, 133, 155, 173, 182 and 189 TFLOP/s causal from 512
/// to 16k tokens and 187, 196, 201 and 203 without the mask from 2k to 16k (Dao 2023, arXiv
/// 2307.08691, Fig. 4 (b) and (d), the image assets/flash2_a100_fwd_bwd_benchmark.png of
/// github.com/Dao-AILab/flash-attention): 0.52-0.96 and 0.92-0.99 of the 16k rate, where the
/// model gives 0.51-0.97 and 0.92-0.99. The 1.5 blocks are fitted on those ten bars; the same
/// paper's H100 bars (Fig. 7), held out, give 0.50-0.94 causal (the model 0.50-0.97) and
/// 0.73-0.99 without the mask (0.72-0.99): docs/stacks.md, "Attention kernels".
///
/// Decode kernels load each K/V head once for all the query heads of its group: FlashAttention-2
/// transposes a one-token query (b, 1, h_kv g, d) into g query rows of h_kv heads
/// (csrc/flash_attn/flash_api.cpp, mha_fwd and mha_fwd_kvcache, `seqlenq_ngroups_swapped`,
/// github.com/Dao-AILab/flash-attention, read 2026-11), TensorRT-LLM's XQA kernel is its
/// "optimization for MQA/GQA in the generation phase" (nvidia.github.io/TensorRT-LLM/advanced/
/// gpt-attention.html, "XQA Optimization", read 2026-11), FlashInfer fuses the head group into
/// the rows of its tensor-core tiles ("head-query fusion", Ye et al. 2025, arXiv 2501.01005;
/// github.com/flashinfer-ai/flashinfer README). Prefill keeps one query head per tile, as
/// FlashAttention-2's forward kernel does (its GQA maps each query head to its K/V head).
///
/// The fused backward pass (FlashAttention-2, Dao 2023, algorithm 2) recomputes the scores and
/// runs five matrix products where the forward runs two (2.5 x the tensor FLOP, the same
/// exponentials), reads Q, K, V, O and dO and writes dQ, dK and dV once from DRAM, and re-reads
/// the query-side tensors (Q, O, dO and the FP32 dQ accumulator) from L2 once per block of 128
/// key rows.
///
/// The exponentials run on the special-function units: 16 per clock per SM on every compute
/// capability from 5.0 to 12.0 (CUDA C++ Programming Guide, "Arithmetic Instructions"
/// throughput table), e.g. 4.2 T/s on H100 SXM, the limit FlashAttention-3 (Shah et al., 2024)
/// works around.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include <dlperf/core/datatype.hpp>
#include <dlperf/core/error.hpp>
#include <dlperf/core/library_support.hpp>
#include <dlperf/core/memory_tier.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/estimate/estimate.hpp>
#include <dlperf/estimate/gemm.hpp>
#include <dlperf/estimate/tile_search.hpp>
#include <dlperf/hardware/device.hpp>
#include <dlperf/ops/elementwise.hpp>

namespace dlperf {

/// Shape of one attention call.
struct attention_problem {
  long long batch{};         ///< sequences
  long long heads{};         ///< attention heads
  long long seq_q{};         ///< query positions
  long long seq_kv{};        ///< key/value positions
  long long head_dim{};      ///< dimension per head
  dtype type = dtype::fp16;  ///< type of Q, K, V, O
  bool causal = false;       ///< causal mask (the fused kernel skips masked blocks)
  long long kv_heads = 0;    ///< key/value heads (grouped-query attention); 0 = heads
  double kv_bytes = 0;       ///< bytes per K and V element read (a quantised KV cache); 0 = as
                             ///< `type`

  /// Key/value heads: heads when not grouped.
  [[nodiscard]] constexpr long long kv_head_count() const {
    return kv_heads > 0 ? kv_heads : heads;
  }
  /// Fraction of the Sq x Skv scores a causal mask leaves: the queries are the last Sq of the
  /// Skv positions, 1 - Sq / (2 Skv) (a half for Sq = Skv); 1 without a mask.
  [[nodiscard]] constexpr double visible_fraction() const {
    if (!causal) return 1.0;
    const double f = 1.0 - static_cast<double>(seq_q) / (2.0 * static_cast<double>(seq_kv));
    return f > 0.5 ? f : 0.5;
  }
  /// Throws invalid_argument naming the first non-positive extent, or key/value heads that do
  /// not divide the heads.
  constexpr void validate() const {
    detail::require_positive("attention", {{"batch", batch},
                                           {"heads", heads},
                                           {"seq_q", seq_q},
                                           {"seq_kv", seq_kv},
                                           {"head_dim", head_dim}});
    if (kv_heads < 0 || heads % kv_head_count() != 0)
      detail::throw_invalid_argument("attention: kv_heads (" + std::to_string(kv_heads) +
                                     ") must divide heads (" + std::to_string(heads) + ")");
  }
};

/// Special-function-unit results (exp2, rcp, ...) per clock per SM (CUDA C++ Programming Guide).
inline constexpr double sfu_results_per_clock = 16;

/// Query rows per block of a flash-style kernel (FlashAttention-2 uses 64 or 128).
inline constexpr long long flash_block_rows = 128;

/// Blocks of flash_block_rows that @p positions query or key positions fill, the last one
/// partly.
constexpr long long flash_blocks(long long positions) {
  return (positions + flash_block_rows - 1) / flash_block_rows;
}

/// A tile's fixed cost in blocks of flash_block_rows keys: loading Q, the running maximum and
/// sum, and rescaling and writing O and the log-sum-exp at the end (see the file comment; fitted
/// on FlashAttention-2's A100 bars, arXiv 2307.08691 Fig. 4 (b), (d)).
inline constexpr double flash_tile_fixed_blocks = 1.5;

/// The share of a fused kernel's compute time spent in its loop over blocks, for a tile that
/// iterates over @p blocks blocks of flash_block_rows (fractional: the visible part of a causal
/// mask): blocks / (blocks + flash_tile_fixed_blocks + 0.5 when @p causal, the masked half of
/// the diagonal block computed whole). In (0, 1); throws invalid_argument for blocks <= 0.
constexpr double flash_tile_share(double blocks, bool causal) {
  if (!(blocks > 0.0))
    detail::throw_invalid_argument("attention: a tile must iterate over at least part of a block");
  return blocks / (blocks + flash_tile_fixed_blocks + (causal ? 0.5 : 0.0));
}

/// How a fused kernel's tiles of flash_block_rows query rows cover an attention problem (see the
/// file comment): `readers` units that each read the K and V of one key/value head, in `tiles`
/// tiles each, every tile reading them through L2 once.
struct attention_tiling {
  long long readers = 0;  ///< a key/value head per sequence (decode) or a query head per sequence
  long long tiles = 0;    ///< tiles per reader
};

/// The tiling of @p p: when the g query heads of a group times the Sq query tokens fit in one
/// tile (decode), a reader per key/value head with ceil(g Sq / 128) tiles; otherwise (prefill) a
/// reader per query head with ceil(Sq / 128) tiles. Throws invalid_argument as
/// attention_problem::validate does.
constexpr attention_tiling attention_tiling_of(const attention_problem& p) {
  p.validate();
  const long long rows = p.heads / p.kv_head_count() * p.seq_q;
  if (rows <= flash_block_rows) return {p.batch * p.kv_head_count(), flash_blocks(rows)};
  return {p.batch * p.heads, flash_blocks(p.seq_q)};
}

/// Unfused attention: QK^T, softmax and PV as three kernels.
template <gemm_device D>
DLPERF_CONSTEXPR_VECTOR op_sequence estimate_attention_unfused(const D& d,
                                                               const attention_problem& p) {
  p.validate();
  const long long bh = p.batch * p.heads;
  const accumulator acc = default_accumulator(p.type);
  op_sequence ops;
  ops.add(best_gemm_op(d, "attention QK^T",
                       gemm_problem{p.seq_q, p.seq_kv, p.head_dim, bh, p.type, acc}));
  ops.add(estimate_row_reduction(d, "attention softmax", bh * p.seq_q, p.seq_kv, p.type, 5.0,
                                 p.seq_kv));
  ops.add(best_gemm_op(d, "attention PV",
                       gemm_problem{p.seq_q, p.head_dim, p.seq_kv, bh, p.type, acc}));
  return ops;
}

namespace detail {

// The time of a fused attention kernel doing @p tensor_flop on tensor cores and @p exps
// exponentials, moving @p dram and @p l2_traffic bytes: the longest of the four, plus a launch;
// and its compute time over @p tile_share plus the launch, the floor of a kernel tiled as
// FlashAttention's are (op_estimate::tile_floor).
template <gemm_device D>
constexpr op_estimate fused_attention_op(const D& d, std::string_view name, dtype t,
                                         double tensor_flop, double exps, double tile_share,
                                         double dram, double l2_traffic) {
  const accumulator acc = default_accumulator(t);
  const double t_tensor =
      tensor_flop / (d.peak(t, acc, sparsity::dense).value() * d.gemm_efficiency(t));
  const double t_exp = exps / (sfu_results_per_clock * d.sm_count() * d.sm_clock().value());
  const double t_dram = dram / d.memory(tier::global).throughput.value();
  const double t_l2 = l2_traffic / d.memory(tier::l2).throughput.value();
  op_estimate op;
  op.name = name;
  op.kind = op_kind::attention;
  op.work = flops(tensor_flop);
  op.dram = bytes(dram);
  op.bound = dlperf::bound::compute;
  double longest = std::max(t_tensor, t_exp);
  if (t_dram > longest) {
    longest = t_dram;
    op.bound = dlperf::bound::global;
  }
  if (t_l2 > longest) {
    longest = t_l2;
    op.bound = dlperf::bound::l2;
  }
  op.time = seconds(longest) + d.launch_overhead();
  op.tile_floor = seconds(std::max(t_tensor, t_exp) / tile_share) + d.launch_overhead();
  return op;
}

// The extents of @p p as doubles (validated), shared by the forward and backward estimates.
struct attention_extents {
  double e = 0;         // bytes per element
  double bh = 0;        // batch x heads
  double sq = 0;        // query positions
  double skv = 0;       // key/value positions
  double hd = 0;        // head dimension
  double visible = 0;   // fraction of the scores the mask leaves
  double kv_share = 0;  // key/value heads per query head
  double e_kv = 0;      // bytes per K and V element
};
constexpr attention_extents extents_of(const attention_problem& p) {
  p.validate();
  return {traits(p.type).storage().value(),
          static_cast<double>(p.batch * p.heads),
          static_cast<double>(p.seq_q),
          static_cast<double>(p.seq_kv),
          static_cast<double>(p.head_dim),
          p.visible_fraction(),
          static_cast<double>(p.kv_head_count()) / static_cast<double>(p.heads),
          p.kv_bytes > 0 ? p.kv_bytes : traits(p.type).storage().value()};
}

}  // namespace detail

/// Fused, flash-style attention: one kernel.
template <gemm_device D>
constexpr op_estimate estimate_attention_fused(const D& d, const attention_problem& p) {
  const auto [e, bh, sq, skv, hd, mask, kv_share, e_kv] = detail::extents_of(p);
  const double tensor_flop = 4.0 * bh * sq * skv * hd * mask;
  const double exps = bh * sq * skv * mask;
  const double q_o = 2.0 * bh * sq * hd * e;
  // The distinct K and V bytes (one copy per key/value head), and those of one head.
  const double k_v_distinct = 2.0 * bh * kv_share * skv * hd * e_kv;
  const double k_v_head = 2.0 * skv * hd * e_kv;
  // Every tile reads the K and V of its head's group through L2.
  const attention_tiling tiling = attention_tiling_of(p);
  const auto readers = static_cast<double>(tiling.readers);
  const auto tiles = static_cast<double>(tiling.tiles);
  const double l2_traffic = q_o + readers * tiles * k_v_head * mask;
  // The tiles of one reader are scheduled together, so about SMs / tiles readers are in flight.
  const double in_flight =
      std::min(readers, std::max(1.0, static_cast<double>(d.sm_count()) / tiles));
  const double l2_usable = usable_l2_fraction * d.memory(tier::l2).capacity.value();
  const double dram = in_flight * k_v_head <= l2_usable
                          ? q_o + k_v_distinct
                          : q_o + k_v_distinct * std::max(1.0, tiles * mask);
  const double key_blocks = static_cast<double>(flash_blocks(p.seq_kv)) * mask;
  return detail::fused_attention_op(d, "attention (fused)", p.type, tensor_flop, exps,
                                    flash_tile_share(key_blocks, p.causal), dram, l2_traffic);
}

/// The backward pass of fused, flash-style attention (FlashAttention-2): one kernel computing
/// dQ, dK and dV from Q, K, V, O and dO.
template <gemm_device D>
constexpr op_estimate estimate_attention_fused_backward(const D& d, const attention_problem& p) {
  const auto [e, bh, sq, skv, hd, mask, kv_share, e_kv] = detail::extents_of(p);
  (void)e_kv;  // training reads K and V as computed, in `type`
  const double tensor_flop = 10.0 * bh * sq * skv * hd * mask;
  const double exps = bh * sq * skv * mask;
  const double q_side = bh * sq * hd * e;               // one of Q, O, dO, dQ
  const double kv_side = bh * skv * hd * e * kv_share;  // one of K, V, dK, dV
  const double kv_blocks = static_cast<double>(flash_blocks(p.seq_kv));
  const double dram = 4.0 * q_side + 4.0 * kv_side;
  // Q, O and dO read and the FP32 dQ accumulator read and written once per key block.
  const double l2_traffic = 4.0 * kv_side + q_side * (3.0 + 2.0 * 4.0 / e) * kv_blocks * mask;
  // Each tile of key rows iterates over the visible blocks of queries.
  const double query_blocks = static_cast<double>(flash_blocks(p.seq_q)) * mask;
  return detail::fused_attention_op(d, "attention backward (fused)", p.type, tensor_flop, exps,
                                    flash_tile_share(query_blocks, p.causal), dram, l2_traffic);
}

}  // namespace dlperf
