/// @file
/// How a software stack runs the optimizer's update (docs/stacks.md, "The optimizer"): the
/// optimizer, the kernel family that applies it, the element-wise passes an unfused update makes
/// over the parameters, and how many kernels each family launches.
///
/// For P parameters in T tensors, an update of n element-wise passes (pass i moving b_i bytes
/// per FP32 parameter through DRAM) and a fused kernel moving b_f bytes per parameter:
///
///     family             DRAM bytes      kernels             host calls
///     fused              P b_f           L(P, T, d_f)        1 + T
///     per-tensor-fused   P b_f           T                   T
///     multi-tensor       P (b_1+...+b_n) L(P, T, d_1)+...    n + T
///     per-tensor         P (b_1+...+b_n) n T                 n T
///
///     L(P, T, d) = max(ceil(T / max_tensors(d)), ceil(P / (chunk x max_blocks)))
///
/// where d is the number of tensor lists a multi-tensor kernel walks (its depth): PyTorch's
/// multi_tensor_apply fills a launch until it holds max_tensors(d) tensors or max_blocks chunks
/// of `chunk` elements. The passes are PyTorch's own foreach and for-loop updates, in FP32: under
/// autocast the parameters, their gradients and the optimizer states are FP32.
///
/// The host makes one framework call per op of a per-tensor loop. A multi-tensor or fused op is
/// one call whose launches C++ issues, after the optimizer has gathered each parameter's
/// gradient and states into lists in Python (`_init_group`), which costs about a call per tensor.
/// So a big model's foreach pass, whose chunks make it launch more kernels than a loop would
/// (a 7B model: ~322 per pass against 291 tensors), still costs the host far less.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <dlperf/core/enumeration.hpp>

namespace dlperf {

/// The optimizer of a training step.
enum class optimizer_kind : std::uint8_t {
  sgd,      ///< SGD with momentum: one state per parameter
  adam,     ///< Adam / AdamW: two FP32 moments per parameter
  adam8bit  ///< 8-bit Adam (Dettmers et al. 2021): two 1-byte moments per parameter
};

/// The optimizers and their stable names.
template <>
struct enum_list<optimizer_kind> {
  static constexpr std::string_view kind = "optimizer";  ///< what the enum names
  /// Every optimizer.
  static constexpr std::array values{
      enumerator{optimizer_kind::sgd, "sgd", "SGD with momentum"},
      enumerator{optimizer_kind::adam, "adam", "Adam/AdamW, FP32 moments"},
      enumerator{optimizer_kind::adam8bit, "adam8bit", "Adam with 8-bit moments"}};
};

/// Which kernels apply the optimizer's update (see the file comment).
enum class optimizer_kernel : std::uint8_t {
  as_stack,          ///< a run's default: the family its software stack runs
  per_tensor,        ///< one kernel per element-wise op and tensor (PyTorch's for-loop)
  multi_tensor,      ///< one multi-tensor kernel per element-wise op (PyTorch's foreach)
  fused,             ///< the whole update in one multi-tensor pass (fused=True, Apex, TE)
  per_tensor_fused,  ///< the whole update in one kernel per tensor (TensorFlow, bitsandbytes)
};

/// The optimizer kernel families and their stable names (`--optimizer-kernels`).
template <>
struct enum_list<optimizer_kernel> {
  static constexpr std::string_view kind = "optimizer kernels";  ///< what the enum names
  /// Every family.
  static constexpr std::array values{
      enumerator{optimizer_kernel::as_stack, "as-stack", "the software stack's default"},
      enumerator{optimizer_kernel::per_tensor, "per-tensor",
                 "a kernel per op and tensor (PyTorch for-loop)"},
      enumerator{optimizer_kernel::multi_tensor, "multi-tensor",
                 "a multi-tensor kernel per op (PyTorch foreach)"},
      enumerator{optimizer_kernel::fused, "fused", "one fused pass (fused=True, Apex, TE)"},
      enumerator{optimizer_kernel::per_tensor_fused, "per-tensor-fused",
                 "one fused kernel per tensor (TensorFlow, bitsandbytes)"}};
};

/// One element-wise pass of an unfused update: the op, how many tensor lists its multi-tensor
/// kernel walks, and the bytes it moves per FP32 parameter (4 per tensor read or written).
struct optimizer_pass {
  std::string_view op;  ///< PyTorch's op
  int tensor_lists;     ///< lists the foreach kernel walks (its multi_tensor_apply depth)
  double bytes;         ///< DRAM bytes per parameter
};

/// AdamW as torch/optim/adam.py and adamw.py run it unfused (PyTorch 2.x `_multi_tensor_adamw`
/// and `_single_tensor_adamw`, not capturable, no AMSGrad): decoupled weight decay, the two
/// moments, the denominator in three ops, the step. The step counters are CPU tensors.
inline constexpr std::array<optimizer_pass, 8> adamw_passes{{
    {"mul_ (params, 1 - lr wd)", 1, 8.0},
    {"lerp_ (exp_avg, grad)", 2, 12.0},
    {"mul_ (exp_avg_sq, beta2)", 1, 8.0},
    {"addcmul_ (exp_avg_sq, grad, grad)", 2, 12.0},
    {"sqrt (exp_avg_sq)", 2, 8.0},
    {"div_ (denom, bias_correction2_sqrt)", 1, 8.0},
    {"add_ (denom, eps)", 1, 8.0},
    {"addcdiv_ (params, exp_avg, denom)", 3, 16.0},
}};

/// SGD with momentum and weight decay as torch/optim/sgd.py runs it unfused (`_multi_tensor_sgd`,
/// `_single_tensor_sgd`, after the first step): the decay into the gradient, the momentum buffer
/// in two ops, the step.
inline constexpr std::array<optimizer_pass, 4> sgd_momentum_passes{{
    {"add (grad, params, wd)", 3, 12.0},
    {"mul_ (momentum_buffer, momentum)", 1, 8.0},
    {"add_ (momentum_buffer, grad)", 2, 12.0},
    {"add_ (params, momentum_buffer, -lr)", 2, 12.0},
}};

/// How PyTorch's multi_tensor_apply packs tensors into launches
/// (aten/src/ATen/native/cuda/MultiTensorApply.cuh): at most max_tensors[d - 1] tensors of d
/// lists and max_blocks chunks of `chunk` elements per launch.
struct multi_tensor_launch_limits {
  std::array<int, 5> max_tensors{110, 64, 48, 36, 30};  ///< by depth 1 to 5
  int max_blocks = 320;                                 ///< chunks per launch
  double chunk = 65536;                                 ///< elements per chunk
  /// Where the limits come from.
  std::string_view source =
      "pytorch/pytorch aten/src/ATen/native/cuda/MultiTensorApply.cuh: depth_to_max_tensors "
      "{110, 64, 48, 36, 30}, depth_to_max_blocks 320, kChunkSize 65536";

  /// Launches of one multi-tensor op of depth @p depth over @p params parameters in @p tensors
  /// tensors.
  [[nodiscard]] constexpr double launches(double params, double tensors, int depth) const {
    const int d = depth < 1 ? 1 : (depth > 5 ? 5 : depth);
    const double by_tensors = tensors / max_tensors[static_cast<std::size_t>(d - 1)];
    const double by_chunks = params / (chunk * max_blocks);
    const double most = by_tensors > by_chunks ? by_tensors : by_chunks;
    const double whole = static_cast<double>(static_cast<long long>(most));
    return whole < most ? whole + 1.0 : (whole < 1.0 ? 1.0 : whole);
  }
};

/// What an optimizer's update costs under a kernel family: DRAM bytes per parameter and the
/// kernels launched.
struct optimizer_update {
  double bytes_per_parameter = 0;  ///< DRAM bytes per parameter
  double kernels = 0;              ///< kernel launches
  int passes = 0;                  ///< passes over the parameters
  double host_calls = 0;           ///< framework calls the host makes (see the file comment)
};

/// The update of @p o over @p params parameters in @p tensors tensors under family @p k
/// (as_stack taken as fused), whose fused kernel moves @p fused_bytes bytes per parameter (the
/// model's: it knows the weights' and states' types). 8-bit Adam only exists fused per tensor
/// (bitsandbytes), whatever @p k says.
constexpr optimizer_update optimizer_update_of(optimizer_kind o, optimizer_kernel k, double params,
                                               double tensors, double fused_bytes,
                                               const multi_tensor_launch_limits& l = {}) {
  if (o == optimizer_kind::adam8bit) k = optimizer_kernel::per_tensor_fused;
  // Fused kernels walk gradients, parameters and the states: SGD 3 lists, Adam 4.
  const int fused_depth = o == optimizer_kind::sgd ? 3 : 4;
  switch (k) {
    case optimizer_kernel::as_stack:
    case optimizer_kernel::fused:
      return {fused_bytes, l.launches(params, tensors, fused_depth), 1, 1.0 + tensors};
    case optimizer_kernel::per_tensor_fused:
      return {fused_bytes, tensors, 1, tensors};
    case optimizer_kernel::multi_tensor:
    case optimizer_kernel::per_tensor:
      break;
  }
  const bool loop = k == optimizer_kernel::per_tensor;
  const auto sum = [&](const auto& passes) {
    optimizer_update u;
    for (const optimizer_pass& p : passes) {
      u.bytes_per_parameter += p.bytes;
      u.kernels += loop ? tensors : l.launches(params, tensors, p.tensor_lists);
      ++u.passes;
    }
    u.host_calls = loop ? u.kernels : static_cast<double>(u.passes) + tensors;
    return u;
  };
  return o == optimizer_kind::sgd ? sum(sgd_momentum_passes) : sum(adamw_passes);
}

}  // namespace dlperf
