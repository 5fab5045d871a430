/// @file
/// How far a stack's estimates are from published measurements: per software stack, mode and
/// figure (a step, or decoder inference's decode and prompt rates),
/// the median and worst |error| of the evidence rows (tests/data/evidence/rows.csv) predicted
/// with every figure fitted on the evidence refitted without the row's own source (leave one
/// source out; docs/evidence.md, "Cross-validation of the fitted figures"). The tool prints the
/// band beside an estimate, so a figure is never shown without what it is worth.
///
/// The rows fall in two classes of board, and each class has its own bands: a stack's kernels
/// behave differently on consumer boards (GeForce, Radeon: GDDR memory, consumer tensor rates)
/// than on professional ones (TITAN, workstation and data-centre boards: full-rate tensor math,
/// HBM on most), and a median over both would hide the misses of the smaller class
/// (docs/evidence.md, "Error bands").
///
/// The table is data, not a fit: the test "every stack's error band is its held-out error on the
/// evidence" (tests/evidence/evidence_stack_test.cpp) recomputes every entry from the evidence and
/// fails when one drifts, and a group of fewer than `least_rows` rows has no band.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include <dlperf/core/enumeration.hpp>
#include <dlperf/hardware/gpu.hpp>
#include <dlperf/hardware/vendor.hpp>
#include <dlperf/model/run.hpp>
#include <dlperf/stack/stack.hpp>

namespace dlperf {

/// Which figure of an estimate a band measures: a training step or an inference batch as a whole,
/// or one of decoder inference's two rates (docs/models.md, "Three rates").
enum class estimate_figure : std::uint8_t {
  step,    ///< samples (or tokens) per second of a step or batch
  decode,  ///< generation: tokens per second of the decode steps (llama-bench's tg)
  prompt,  ///< prompt processing: prompt tokens per second (llama-bench's pp)
};

/// The estimate figures and their stable names.
template <>
struct enum_list<estimate_figure> {
  static constexpr std::string_view kind = "estimate figure";  ///< what the enum names
  /// Every figure, with its stable name.
  static constexpr std::array values{enumerator{estimate_figure::step, "step"},
                                     enumerator{estimate_figure::decode, "decode"},
                                     enumerator{estimate_figure::prompt, "prompt"}};
};

/// The class of board an estimate runs on, as the bands split the evidence: by market and, among
/// the boards that are not GeForce or Radeon cards, by memory. A stack's kernels miss differently
/// on each (docs/evidence.md, "Error bands"): llama.cpp's batch-1 decode is 13 % slow on GDDR
/// workstation boards and 13 % fast on the HBM ones, whose memory asks more bytes in flight of
/// its GEMV kernels than the measured rate per SM clock gives back.
enum class board_class : std::uint8_t {
  consumer,      ///< GeForce and Radeon boards (and Apple silicon Macs)
  professional,  ///< TITAN, workstation and data-centre boards with GDDR memory
  hbm            ///< boards with HBM memory (data-centre accelerators, TITAN V, Radeon VII)
};

/// The board classes and their stable names.
template <>
struct enum_list<board_class> {
  static constexpr std::string_view kind = "board class";  ///< what the enum names
  /// Every class, with its stable name and what it holds.
  static constexpr std::array values{
      enumerator{board_class::consumer, "consumer", "GeForce and Radeon boards"},
      enumerator{board_class::professional, "professional",
                 "TITAN, workstation and data-centre boards with GDDR memory"},
      enumerator{board_class::hbm, "hbm", "boards with HBM memory", "HBM"}};
};

/// Whether memory technology @p m is high-bandwidth memory stacked beside the GPU.
constexpr bool is_hbm(memory_kind m) {
  return m == memory_kind::hbm2 || m == memory_kind::hbm2e || m == memory_kind::hbm3 ||
         m == memory_kind::hbm3e;
}

/// The class of a board of market segment @p s with memory @p m: HBM whatever its market, else
/// consumer for GeForce and Radeon boards and professional for the rest.
constexpr board_class board_class_of(segment s, memory_kind m) {
  if (is_hbm(m)) return board_class::hbm;
  return consumer_segment(s) ? board_class::consumer : board_class::professional;
}

/// The class of device @p d from its board's facts; a device without them (a bare architecture)
/// is taken for a data-centre part, as segment_of takes it, of unknown memory: professional.
template <class D>
requires requires(const D& x) { x.arch(); }
constexpr board_class board_class_of(const D& d) {
  if constexpr (requires { d.facts(); })
    return board_class_of(d.facts().segment, d.facts().memory_type);
  else
    return board_class::professional;
}

/// The held-out error of one stack, mode and figure over its evidence rows on one class of
/// board, and the interval it gives an estimate:
///
///     estimate x [low, high]  holds the measured rate of the middle 80 % of the rows
///
/// each row predicted with every fitted figure refitted without the row's own source, as the
/// multi-GPU bands below give theirs.
struct error_band {
  /// Rows below which a median says little: no band.
  static constexpr int least_rows = 5;
  /// Share of the rows the interval holds: the 10th to the 90th percentile.
  static constexpr double coverage = 0.8;

  stack_id stack = stack_id::ceiling;              ///< the stack the rows ran under
  run_mode mode = run_mode::train;                 ///< training steps or inference
  estimate_figure figure = estimate_figure::step;  ///< what the rows measured
  board_class boards = board_class::consumer;      ///< the boards the rows ran on
  int rows = 0;                                    ///< evidence rows, outside calibration
  double median = 0;                               ///< median |error|, held out by source
  double worst = 0;                                ///< largest |error|, held out by source
  double bias = 0;  ///< median of predicted / measured - 1, held out (> 0: optimistic)
  double low = 0;   ///< 10th percentile of measured / predicted, held out by source
  double high = 0;  ///< 90th percentile of measured / predicted, held out by source
};

/// The bands of every stack, mode and board class with at least `error_band::least_rows` evidence
/// rows.
inline constexpr std::array error_bands{
    error_band{stack_id::pytorch_eager, run_mode::train, estimate_figure::step,
               board_class::consumer, 12, 0.1038, 0.3669, -0.0935, 0.9326, 1.4469},
    error_band{stack_id::pytorch_eager, run_mode::train, estimate_figure::step,
               board_class::professional, 12, 0.0498, 0.2592, -0.0306, 0.9508, 1.2955},
    error_band{stack_id::pytorch_eager, run_mode::train, estimate_figure::step, board_class::hbm,
               40, 0.1202, 0.4963, 0.0366, 0.8516, 1.4775},
    error_band{stack_id::pytorch_eager, run_mode::infer, estimate_figure::step,
               board_class::professional, 11, 0.0994, 0.4535, -0.0975, 0.9488, 1.4248},
    error_band{stack_id::pytorch_eager, run_mode::infer, estimate_figure::step, board_class::hbm,
               17, 0.1925, 0.5698, -0.0116, 0.6689, 1.4587},
    error_band{stack_id::lmdeploy, run_mode::infer, estimate_figure::decode, board_class::hbm, 5,
               0.2436, 0.5764, 0.2436, 0.6986, 0.8344},
    error_band{stack_id::llama_cpp, run_mode::infer, estimate_figure::decode, board_class::consumer,
               23, 0.1076, 0.2501, -0.0952, 1.0088, 1.2620},
    error_band{stack_id::llama_cpp, run_mode::infer, estimate_figure::decode,
               board_class::professional, 33, 0.1206, 0.2283, -0.0823, 0.9251, 1.2483},
    error_band{stack_id::llama_cpp, run_mode::infer, estimate_figure::decode, board_class::hbm, 18,
               0.1171, 0.1401, 0.1171, 0.8776, 1.0093},
    error_band{stack_id::llama_cpp, run_mode::infer, estimate_figure::prompt, board_class::consumer,
               22, 0.1124, 0.2705, -0.0646, 0.8580, 1.2754},
    error_band{stack_id::llama_cpp, run_mode::infer, estimate_figure::prompt,
               board_class::professional, 31, 0.0682, 0.9814, -0.0133, 0.7289, 1.1719},
    error_band{stack_id::llama_cpp, run_mode::infer, estimate_figure::prompt, board_class::hbm, 16,
               0.0780, 0.2509, 0.0780, 0.8373, 1.0101},
    error_band{stack_id::exllamav2, run_mode::infer, estimate_figure::decode, board_class::consumer,
               20, 0.2657, 0.6443, -0.2657, 1.0353, 2.4111},
    error_band{stack_id::llama_cpp_metal, run_mode::infer, estimate_figure::decode,
               board_class::consumer, 101, 0.1371, 0.7024, -0.1202, 0.9047, 1.3751},
    error_band{stack_id::llama_cpp_metal, run_mode::infer, estimate_figure::prompt,
               board_class::consumer, 101, 0.0403, 0.5144, -0.0033, 0.8763, 1.0852},
    error_band{stack_id::mlx, run_mode::infer, estimate_figure::decode, board_class::consumer, 165,
               0.1178, 0.5845, 0.1006, 0.7596, 1.0671},
    error_band{stack_id::mlx, run_mode::infer, estimate_figure::prompt, board_class::consumer, 163,
               0.0694, 0.1893, -0.0517, 0.9585, 1.1096},
};

/// The sequences of a training job, as the multi-GPU training bands split the evidence.
enum class sequence_class : std::uint8_t {
  short_sequences,  ///< fewer than `long_sequence_tokens` tokens a sequence
  long_sequences    ///< `long_sequence_tokens` or more
};

/// The sequence classes and their stable names.
template <>
struct enum_list<sequence_class> {
  static constexpr std::string_view kind = "sequence class";  ///< what the enum names
  /// Every class, with its stable name and what it holds.
  static constexpr std::array values{
      enumerator{sequence_class::short_sequences, "short", "under 8,192 tokens a sequence"},
      enumerator{sequence_class::long_sequences, "long", "8,192 tokens a sequence or more"}};
};

/// The shortest sequence of the long class: the evidence's lengths are powers of two, and from
/// 8,192 tokens on attention takes a third or more of a small model's step (MPT-125M to 1B;
/// docs/evidence.md, "Where the dense rows' error sits").
inline constexpr long long long_sequence_tokens = 8192;

/// The class of a job of @p seq tokens a sequence.
constexpr sequence_class sequence_class_of(long long seq) {
  return seq >= long_sequence_tokens ? sequence_class::long_sequences
                                     : sequence_class::short_sequences;
}

/// Where published training runs on several GPUs fall against the multi-GPU model
/// (buying/cluster.hpp), per stack: tests/data/evidence/training_multi_gpu*.csv, every row
/// predicted with its own settings (docs/evidence.md, "Training on many GPUs"). The model fits
/// nothing on these rows, so each row is held out of every fit whatever is left out (source,
/// GPU generation, scale), and one band serves all three cross-validations.
///
///     estimate x [low, high]  holds the measured rate of the middle 80 % of the rows
///
/// The tool prints that interval beside a multi-GPU training estimate. Tested like
/// error_bands: "every stack's multi-GPU training band is its error on the evidence"
/// (tests/evidence/evidence_training_test.cpp) recomputes each entry.
///
/// Each band is of one class of board (board_class): every published multi-GPU training run so far
/// ran on HBM boards over NVLink, Infinity Fabric and InfiniBand, so a job on GeForce or
/// workstation cards has no band, rather than the data centre's.
///
/// Short and long sequences have bands of their own: the rows' errors differ with the length.
/// Split into the time the model gives attention and the rest, MosaicML's 8-GPU rows measure
/// 1.20-1.24x the model's time outside attention and 0.81-0.92x inside it (without recompute),
/// on A100 40 GB, A100 80 GB and H100 alike (docs/evidence.md, "Where the dense rows' error sits"),
/// so a job of short sequences, whose time is nearly all outside attention, comes out faster than
/// its runs, and a job of long ones near them. One band over both would be too wide for either and
/// centred on neither.
struct training_scaling_band {
  /// Share of the rows the interval holds: the 10th to the 90th percentile.
  static constexpr double coverage = 0.8;

  stack_id stack = stack_id::ceiling;  ///< the stack the rows ran under
  /// Mixture-of-experts jobs with their experts spread over GPUs (run_config::ep > 1): a band
  /// of their own, apart from the dense and tensor-split jobs'.
  bool expert_parallel = false;
  /// Jobs of sequences of at least `long_sequence_tokens`, or of shorter ones.
  sequence_class sequences = sequence_class::short_sequences;
  board_class boards = board_class::hbm;  ///< the class of board the rows ran on
  int rows = 0;                           ///< evidence rows on more than one GPU
  double median = 0;                      ///< median |predicted / measured - 1|
  double bias = 0;                        ///< median of predicted / measured - 1 (> 0: optimistic)
  double low = 0;                         ///< 10th percentile of measured / predicted
  double high = 0;                        ///< 90th percentile of measured / predicted
};

/// The multi-GPU training bands of every stack with at least `error_band::least_rows` rows.
inline constexpr std::array training_scaling_bands{
    training_scaling_band{stack_id::megatron, false, sequence_class::long_sequences,
                          board_class::hbm, 22, 0.039, 0.020, 0.767, 1.041},
    training_scaling_band{stack_id::megatron, true, sequence_class::short_sequences,
                          board_class::hbm, 75, 0.410, 0.391, 0.478, 1.006},
    training_scaling_band{stack_id::pytorch_eager, false, sequence_class::short_sequences,
                          board_class::hbm, 154, 0.1092, 0.1092, 0.8154, 0.9889},
    training_scaling_band{stack_id::pytorch_eager, false, sequence_class::long_sequences,
                          board_class::hbm, 72, 0.0844, -0.0556, 0.8588, 1.2192},
    training_scaling_band{stack_id::torch_compile, false, sequence_class::long_sequences,
                          board_class::hbm, 21, 0.180, 0.180, 0.703, 0.936},
};

/// The multi-GPU training band of @p stack for jobs with (@p expert_parallel) or without experts
/// spread over GPUs, of sequences of class @p sequences, on boards of class @p boards, or none
/// where the evidence holds too few rows.
constexpr std::optional<training_scaling_band> training_scaling_band_of(stack_id stack,
                                                                        bool expert_parallel,
                                                                        sequence_class sequences,
                                                                        board_class boards) {
  for (const training_scaling_band& b : training_scaling_bands)
    if (b.stack == stack && b.expert_parallel == expert_parallel && b.sequences == sequences &&
        b.boards == boards)
      return b;
  return std::nullopt;
}

/// The multi-GPU training band of a job run as @p run (its stack and expert split) over
/// sequences of @p seq tokens (as the model runs them: run_config::seq resolved) on boards of
/// class @p boards, or none (also where the job's GPUs are of several classes: no @p boards).
constexpr std::optional<training_scaling_band> training_scaling_band_of(
    const run_config& run, long long seq, std::optional<board_class> boards) {
  if (!boards) return std::nullopt;
  return training_scaling_band_of(run.stack, run.ep > 1, sequence_class_of(seq), *boards);
}

/// The band of the same stack, expert split and sequences on another class of board than
/// @p boards, with the most rows, or none: what the tool names when a job's own class has none.
constexpr std::optional<training_scaling_band> training_scaling_band_elsewhere(
    const run_config& run, long long seq, std::optional<board_class> boards) {
  std::optional<training_scaling_band> most;
  for (const training_scaling_band& b : training_scaling_bands)
    if (b.stack == run.stack && b.expert_parallel == (run.ep > 1) &&
        b.sequences == sequence_class_of(seq) && (!boards || b.boards != *boards) &&
        (!most || b.rows > most->rows))
      most = b;
  return most;
}

/// Where published inference runs of one model over several GPUs fall against the model, per
/// stack, split, figure and class of board: the multi-GPU rows of tests/data/evidence/rows.csv,
/// each predicted with its own split (docs/evidence.md, "Several GPUs"). As for the training
/// bands, no figure is fitted on these rows (the single-GPU figures their stacks share are fitted
/// on single-GPU rows), so each row is held out of every fit and one band serves the three
/// cross-validations.
///
///     estimate x [low, high]  holds the measured rate of the middle 80 % of the rows
///
/// The tool prints that interval beside a split run's rates. Tested like error_bands: "every
/// stack's multi-GPU inference band is its error on the evidence"
/// (tests/evidence/evidence_multi_gpu_test.cpp) recomputes each entry.
struct inference_split_band {
  /// Share of the rows the interval holds: the 10th to the 90th percentile.
  static constexpr double coverage = 0.8;

  stack_id stack = stack_id::ceiling;                ///< the stack the rows ran under
  split_mode split = split_mode::layer;              ///< how the rows split the model
  estimate_figure figure = estimate_figure::decode;  ///< what the rows measured
  board_class boards = board_class::consumer;        ///< the boards the rows ran on
  int rows = 0;                                      ///< evidence rows
  double median = 0;                                 ///< median |predicted / measured - 1|
  double bias = 0;  ///< median of predicted / measured - 1 (> 0: optimistic)
  double low = 0;   ///< 10th percentile of measured / predicted
  double high = 0;  ///< 90th percentile of measured / predicted
};

/// The multi-GPU inference bands of every stack, split, figure and class of board with at least
/// `error_band::least_rows` rows.
inline constexpr std::array inference_split_bands{
    inference_split_band{stack_id::torch_compile, split_mode::tensor, estimate_figure::decode,
                         board_class::hbm, 27, 0.1105, -0.0930, 0.8674, 1.2159},
    inference_split_band{stack_id::vllm_eager, split_mode::tensor, estimate_figure::decode,
                         board_class::hbm, 6, 0.2141, 0.2141, 0.6944, 0.9577},
    inference_split_band{stack_id::llama_cpp, split_mode::layer, estimate_figure::decode,
                         board_class::consumer, 40, 0.0438, -0.0291, 0.9558, 1.1361},
    inference_split_band{stack_id::llama_cpp, split_mode::layer, estimate_figure::decode,
                         board_class::professional, 44, 0.0409, 0.0122, 0.9053, 1.0578},
    inference_split_band{stack_id::llama_cpp, split_mode::layer, estimate_figure::decode,
                         board_class::hbm, 24, 0.1308, 0.1308, 0.7674, 0.9887},
    inference_split_band{stack_id::llama_cpp, split_mode::layer, estimate_figure::prompt,
                         board_class::consumer, 40, 0.1812, 0.1812, 0.5553, 1.1033},
    inference_split_band{stack_id::llama_cpp, split_mode::layer, estimate_figure::prompt,
                         board_class::professional, 40, 0.1953, 0.1722, 0.4131, 1.1103},
    inference_split_band{stack_id::llama_cpp, split_mode::layer, estimate_figure::prompt,
                         board_class::hbm, 22, 0.2715, 0.2715, 0.5246, 0.9885},
    inference_split_band{stack_id::mlc_llm, split_mode::tensor, estimate_figure::decode,
                         board_class::professional, 9, 0.1628, 0.1628, 0.7684, 1.0200},
    inference_split_band{stack_id::mlc_llm, split_mode::tensor, estimate_figure::decode,
                         board_class::hbm, 6, 0.3425, 0.3425, 0.6940, 0.9120},
};

/// How a run of inference splits one model over its GPUs: by layers where it has pipeline stages
/// (each perhaps a tensor-parallel group), else by tensors.
constexpr split_mode inference_split_of(const run_config& r) {
  return r.pp > 1 ? split_mode::layer : split_mode::tensor;
}

/// The multi-GPU inference band of figure @p f of @p stack under split @p split on boards of
/// class @p boards, or none where the evidence holds too few rows of it.
constexpr std::optional<inference_split_band> inference_split_band_of(stack_id stack,
                                                                      split_mode split,
                                                                      estimate_figure f,
                                                                      board_class boards) {
  for (const inference_split_band& b : inference_split_bands)
    if (b.stack == stack && b.split == split && b.figure == f && b.boards == boards) return b;
  return std::nullopt;
}

/// Where published serving runs fall against the serving model (model/serve.hpp), per stack,
/// vendor and class of board: an engine's output tokens per second under maximum load with
/// continuous batching, the serving rows of tests/data/evidence/rows.csv, each predicted with the
/// engine's defaults (docs/evidence.md, "Serving"). No figure is fitted on these rows, so each is
/// held out of every fit and one band serves the three cross-validations.
///
///     estimate x [low, high]  holds the measured rate of the middle 80 % of the rows
///
/// Unlike the other tables this one lists every group that has a row. A group of fewer than
/// `error_band::least_rows` rows is no band (`banded()` is false), but what its rows measured
/// still says something a user should hear: vLLM's three ROCm rows ran at a third of the model's
/// rate or less. Runs of one model copy over several GPUs
/// (tests/data/evidence/serving_multi_gpu.csv) are groups of their own (`several_gpus`). The vendor
/// is part of the group because an engine's kernels are per vendor (vLLM's ROCm build runs other
/// attention and MoE kernels than its CUDA build). Tested like error_bands: "every serving band is
/// its error on the evidence" (tests/unit/model/serve_test.cpp) recomputes each entry.
struct serving_band {
  /// Share of the rows the interval holds: the 10th to the 90th percentile.
  static constexpr double coverage = 0.8;

  stack_id stack = stack_id::ceiling;              ///< the engine the rows ran under
  dlperf::vendor vendor = dlperf::vendor::nvidia;  ///< who designs the rows' GPUs
  board_class boards = board_class::consumer;      ///< the boards the rows ran on
  bool several_gpus = false;  ///< the rows ran one model copy on several GPUs (a tensor split)
  int rows = 0;               ///< evidence rows
  double median = 0;          ///< median |predicted / measured - 1|
  double bias = 0;            ///< median of predicted / measured - 1 (> 0: optimistic)
  double low = 0;             ///< 10th percentile of measured / predicted
  double high = 0;            ///< 90th percentile of measured / predicted

  /// Whether the group has rows enough to be a band.
  [[nodiscard]] constexpr bool banded() const { return rows >= error_band::least_rows; }
};

/// The serving groups of every stack, vendor and board class with an evidence row.
inline constexpr std::array serving_bands{
    serving_band{stack_id::tensorrt_llm, vendor::nvidia, board_class::hbm, false, 25, 0.0915,
                 -0.0624, 0.9412, 1.1705},
    serving_band{stack_id::vllm_rocm, vendor::amd, board_class::hbm, false, 3, 1.7994, 1.7994,
                 0.2677, 0.3928},
    serving_band{stack_id::tensorrt_llm, vendor::nvidia, board_class::hbm, true, 171, 0.1591,
                 0.1591, 0.7148, 1.0352},
    serving_band{stack_id::vllm_rocm, vendor::amd, board_class::hbm, true, 48, 0.3191, 0.3191,
                 0.6813, 0.9070},
    serving_band{stack_id::sglang, vendor::nvidia, board_class::hbm, true, 5, 0.3410, 0.3410,
                 0.6567, 0.7749},
};

/// Where published closed-loop serving runs fall against the model: a fixed number of requests
/// in flight, each client sending its next when its last finishes (`vllm bench serve
/// --max-concurrency`, AIPerf's `--concurrency`), predicted by serve_at_concurrency
/// (model/serve.hpp) from the rows of tests/data/evidence/serving_concurrency.csv
/// (docs/evidence.md, "Serving at a concurrency"). Grouped, listed and read as serving_bands are;
/// nothing is fitted on these rows either. Tested by "every closed-loop serving band is its error
/// on the evidence" (tests/evidence/serving_concurrency_evidence_test.cpp).
inline constexpr std::array closed_loop_bands{
    serving_band{stack_id::vllm, vendor::nvidia, board_class::hbm, false, 1, 0.1809, -0.1809,
                 1.2209, 1.2209},
    serving_band{stack_id::vllm_rocm, vendor::amd, board_class::hbm, false, 4, 0.2767, 0.2767,
                 0.7170, 0.8147},
    serving_band{stack_id::sglang, vendor::nvidia, board_class::hbm, false, 3, 0.0365, 0.0365,
                 0.9318, 1.0045},
    serving_band{stack_id::tensorrt_llm, vendor::nvidia, board_class::hbm, true, 9, 0.0961, -0.0961,
                 1.0572, 1.1127},
    serving_band{stack_id::vllm, vendor::nvidia, board_class::hbm, true, 1, 0.0844, 0.0844, 0.9222,
                 0.9222},
};

namespace detail {
// The group of @p table for @p stack on @p v's boards of class @p boards, one model copy on one
// GPU or (@p several_gpus) on several, or none.
template <std::size_t N>
constexpr std::optional<serving_band> serving_group(const std::array<serving_band, N>& table,
                                                    stack_id stack, vendor v, board_class boards,
                                                    bool several_gpus) {
  for (const serving_band& b : table)
    if (b.stack == stack && b.vendor == v && b.boards == boards && b.several_gpus == several_gpus)
      return b;
  return std::nullopt;
}
}  // namespace detail

/// The serving group of @p stack on @p v's boards of class @p boards, one model copy on one GPU
/// or (@p several_gpus) on several, or none where the evidence holds no row of it.
constexpr std::optional<serving_band> serving_band_of(stack_id stack, vendor v, board_class boards,
                                                      bool several_gpus) {
  return detail::serving_group(serving_bands, stack, v, boards, several_gpus);
}

/// The closed-loop group of @p stack on @p v's boards of class @p boards (closed_loop_bands), or
/// none where the evidence holds no row of it.
constexpr std::optional<serving_band> closed_loop_band_of(stack_id stack, vendor v,
                                                          board_class boards, bool several_gpus) {
  return detail::serving_group(closed_loop_bands, stack, v, boards, several_gpus);
}

/// The band of figure @p f of @p stack in @p mode on boards of class @p boards, or none where the
/// evidence holds too few rows of it.
constexpr std::optional<error_band> error_band_of(stack_id stack, run_mode mode, estimate_figure f,
                                                  board_class boards) {
  for (const error_band& b : error_bands)
    if (b.stack == stack && b.mode == mode && b.figure == f && b.boards == boards) return b;
  return std::nullopt;
}

}  // namespace dlperf
