/// @file
/// A tensor split's collectives (docs/parallel.md, "Tensor parallelism"): the activations'
/// all-reduces of each pass, and what of them the GEMMs that take or make them hide: the GEMMs
/// each collective pairs with, by operator name, and the closed forms of an asynchronous split
/// ("Asynchronous tensor parallelism") and of a backward pass that overlaps by default ("What
/// Megatron overlaps without it").
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <utility>

#include <dlperf/buying/step_collective.hpp>
#include <dlperf/core/units.hpp>
#include <dlperf/model/step.hpp>
#include <dlperf/stack/stacks.hpp>

namespace dlperf::detail {

// The GEMMs each half of a tensor-parallel all-reduce pipelines with under an asynchronous
// tensor split (run_config::async_tp), by operator name, in one pass: the sequence-parallel
// all-gather into the attention's input projection, the reduce-scatter out of its output
// projection, the all-gather into the FFN's first GEMM and the reduce-scatter out of its down
// projection; backward, the same collectives of the gradients with the dgrad GEMMs. A mixture of
// experts' layer reduces its experts' (and shared experts') outputs only without expert
// parallelism. Operators not named here (MLA's projections, cross-attention) pair with none.
struct tensor_overlap_pairs {
  using names = std::array<std::string_view, 2>;  // empty: none
  names attention_in, attention_out, ffn_in, ffn_out, expert_in, expert_out;
};
inline constexpr tensor_overlap_pairs forward_overlap_pairs{
    {"QKV projection", {}},
    {"output projection", {}},
    {"FFN gate+up", "FFN up"},
    {"FFN down", {}},
    {"expert FFN up", "shared expert gate+up"},
    {"expert FFN down", "shared expert down"}};
inline constexpr tensor_overlap_pairs backward_overlap_pairs{
    {"QKV dgrad", {}},
    {"output dgrad", {}},
    {"FFN gate+up dgrad", "FFN up dgrad"},
    {"FFN down dgrad", {}},
    {"expert up dgrad", "shared expert gate+up dgrad"},
    {"expert down dgrad", "shared expert down dgrad"}};

// The weight-gradient GEMMs of the column-parallel linears, beside which a stack whose backward
// overlaps its split by default (multi_gpu_kernels::tp_backward) reduce-scatters their input
// gradients.
inline constexpr tensor_overlap_pairs backward_wgrad_pairs{
    {"QKV wgrad", {}},
    {},
    {"FFN gate+up wgrad", "FFN up wgrad"},
    {},
    {"expert up wgrad", "shared expert gate+up wgrad"},
    {}};

// Time per run x runs of the operators of @p ops that @p names names.
constexpr duration named_time(const op_sequence& ops, const tensor_overlap_pairs::names& names) {
  duration t{};
  for (const op_estimate& op : ops)
    if (!op.name.empty() && (op.name == names[0] || op.name == names[1]))
      t += static_cast<double>(op.repeats) * op.time;
  return t;
}

// Time x runs of the FFN's GEMMs of @p n in @p ops (ffn_in or the like): a dense FFN's, and a
// mixture of experts' layer's experts' and shared experts' where their outputs are reduced over
// the tensor split (without expert parallelism).
constexpr duration ffn_gemm_time(const op_sequence& ops, const tensor_overlap_pairs::names& ffn,
                                 const tensor_overlap_pairs::names& experts, bool expert_parallel) {
  return named_time(ops, ffn) + (expert_parallel ? duration{} : named_time(ops, experts));
}

// What an asynchronous tensor split leaves exposed of one pass's tensor-parallel collectives, a
// micro-batch through one stage (docs/parallel.md, "Asynchronous tensor parallelism"). Each
// all-reduce of time @p each is an all-gather and a reduce-scatter of each / 2; each runs as tp
// chunks, one a GPU, pipelined with its GEMM cut the same way: chunk i's GEMM runs while chunk
// i + 1 moves (the GPU's own chunk needs no move), so a half of C beside a GEMM of G takes
// G / tp + (tp - 1) max(C / (tp - 1), G / tp), which leaves
//
//     exposed = max(0, C - G (tp - 1) / tp)
//
// beyond the GEMM. @p ops is the pass's operators over every layer of the stage run (1/pp of
// them a stage), @p layers and @p ffn_layers the stage's layers reducing their attention and
// their FFN; the pairs' GEMMs are summed over the stage, which equals the layer-by-layer sum
// where a stage's layers are alike.
template <class = void>
duration async_tp_exposed(const op_sequence& ops, const tensor_overlap_pairs& n, duration each,
                          double layers, double ffn_layers, double pp, long long tp,
                          bool expert_parallel) {
  const double cut = static_cast<double>(tp - 1) / static_cast<double>(tp);
  const auto left = [&](double count, duration gemm) {
    return std::max(duration{}, count * each / 2.0 - cut * gemm / pp);
  };
  return left(layers, named_time(ops, n.attention_in)) +
         left(layers, named_time(ops, n.attention_out)) +
         left(ffn_layers, ffn_gemm_time(ops, n.ffn_in, n.expert_in, expert_parallel)) +
         left(ffn_layers, ffn_gemm_time(ops, n.ffn_out, n.expert_out, expert_parallel));
}

// A backward pass's tensor-parallel collectives where the stack overlaps them by default
// (multi_gpu_kernels::tp_backward, Megatron's and Transformer Engine's linears under sequence
// parallelism), a micro-batch through one stage: the output gradients' all-gathers into the
// output projection's and the down projection's dgrad wait whole; each column-parallel linear
// (QKV, the FFN's first) gathers its sequence-split input again beside its dgrad GEMM (@p gather
// of time each), and reduce-scatters its input gradient (half an all-reduce of @p each) beside
// its wgrad GEMM, leaving max(0, C - G) of each. MLA's down projections are not split, so its
// attention (@p gathered_attention false) gathers nothing again. Returns what the all-reduces
// leave and what the gathers leave.
template <class = void>
std::pair<duration, duration> overlapped_backward(const op_sequence& ops, duration each,
                                                  duration gather, double layers, double ffn_layers,
                                                  double pp, bool expert_parallel,
                                                  bool gathered_attention) {
  const auto left = [&](double count, duration c, duration gemm) {
    return std::max(duration{}, count * c - gemm / pp);
  };
  const auto ffn = [&](const tensor_overlap_pairs& n) {
    return ffn_gemm_time(ops, n.ffn_in, n.expert_in, expert_parallel);
  };
  const duration half = each / 2.0;
  const duration reduced = (layers + ffn_layers) * half +
                           left(layers, half, named_time(ops, backward_wgrad_pairs.attention_in)) +
                           left(ffn_layers, half, ffn(backward_wgrad_pairs));
  const duration attention =
      gathered_attention
          ? left(layers, gather, named_time(ops, backward_overlap_pairs.attention_in))
          : duration{};
  return {reduced, attention + left(ffn_layers, gather, ffn(backward_overlap_pairs))};
}

// The tensor split's collectives (docs/parallel.md, "Tensor parallelism"), Megatron-style: two
// all-reduces per layer forward (attention and MLP outputs), two backward (their inputs'
// gradients), two again in a recomputed forward, none overlapped unless --async-tp or the
// stack's own backward overlap; inside one server, as NCCL runs them (its ring, or NVLS through a
// switch). Under expert parallelism a mixture of experts' layer takes its tokens as the tensor
// split left them and reduces only its attention's. @p e is the stage run's estimate.
template <class = void>
void add_tensor_parallel(cluster_part& p, const model_spec& m, const run_config& r,
                         const cluster_topology& net, const model_estimate& e) {
  const double pp = static_cast<double>(r.pp);
  const double k = static_cast<double>(r.grad_accumulation);
  const double all = static_cast<double>(m.transformer.total_layers());
  const double whole_ffn = r.ep > 1 ? all - static_cast<double>(m.transformer.moe_layers()) : all;
  // A stage's layers reducing their attention's outputs, and those reducing their FFN's.
  const double layers = std::ceil(all / pp), ffn_layers = std::ceil(whole_ffn / pp);
  const auto per_pass = static_cast<long long>(layers + ffn_layers);
  const byte_count data = tp_activation_bytes(m, r);
  const duration each = nccl_time(collective::all_reduce, data, r.tp, net.intra, net.staged).time;
  const long long calls = per_pass * r.grad_accumulation;
  const duration pass = static_cast<double>(calls) * each;
  p.tensor_parallel = 2.0 * pass;
  // Under --async-tp, what the stack cuts (its forward's collectives, and its backward's where
  // it says so) leaves only what its GEMMs cannot cover.
  const auto exposed = [&](const op_sequence& ops, const tensor_overlap_pairs& names, bool cut) {
    return cut ? k * async_tp_exposed(ops, names, each, layers, ffn_layers, pp, r.tp, r.ep > 1)
               : pass;
  };
  const multi_gpu_kernels& stack = stacks::of(r.stack).multi_gpu;
  const bool backward = r.async_tp && stack.async_tp.backward;
  p.collectives.push_back({"tp all-reduce (forward)", collective::all_reduce, data, calls, pass,
                           exposed(e.forward, forward_overlap_pairs, r.async_tp), true, true});
  if (!backward && stack.tp_backward.exists()) {
    // The stack's own backward overlap: the input gradients' reduce-scatters beside the wgrad
    // GEMMs, and the inputs gathered again beside the dgrad GEMMs (an entry of their own).
    const duration gather =
        nccl_time(collective::all_gather, data, r.tp, net.intra, net.staged).time;
    const bool gathered_attention = !m.transformer.mla();
    const auto [reduced, gathered] = overlapped_backward(
        e.backward, each, gather, layers, ffn_layers, pp, r.ep > 1, gathered_attention);
    p.collectives.push_back({"tp all-reduce (backward)", collective::all_reduce, data, calls, pass,
                             std::min(pass, k * reduced), true, false});
    const long long gathers =
        static_cast<long long>((gathered_attention ? layers : 0.0) + ffn_layers) *
        r.grad_accumulation;
    const duration all_gathers = static_cast<double>(gathers) * gather;
    p.tensor_parallel += all_gathers;
    p.collectives.push_back({"tp input all-gather (backward)", collective::all_gather, data,
                             gathers, all_gathers, std::min(all_gathers, k * gathered), true,
                             false});
  } else {
    p.collectives.push_back({"tp all-reduce (backward)", collective::all_reduce, data, calls, pass,
                             exposed(e.backward, backward_overlap_pairs, backward), true, false});
  }
  // A recomputed forward runs its layers' collectives again, in the backward pass: under
  // --async-tp beside its own GEMMs where the stack cuts the backward's.
  const double again = recomputed_layer_share(r);
  if (again > 0) {
    const auto rerun = static_cast<long long>(std::ceil(again * static_cast<double>(per_pass)));
    const duration redo = static_cast<double>(rerun * r.grad_accumulation) * each;
    const duration left =
        backward ? k * async_tp_exposed(e.recompute, forward_overlap_pairs, each, again * layers,
                                        again * ffn_layers, pp, r.tp, r.ep > 1)
                 : redo;
    p.tensor_parallel += redo;
    p.collectives.push_back({"tp all-reduce (recompute)", collective::all_reduce, data,
                             rerun * r.grad_accumulation, redo, std::min(left, redo), true, false});
  }
}

}  // namespace dlperf::detail
