// Splits of a system (docs/buying.md, "Splits of a system"), the ranking's reference when the
// H100 cannot run a workload, and advice over splits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <dlperf/buying/advice.hpp>
#include <dlperf/buying/split.hpp>
#include <string>

using namespace dlperf;

namespace {

run_config chat_int4() {
  run_config r;
  r.mode = run_mode::infer;
  r.batch = 1;
  r.prompt = 512;
  r.generate = 256;
  r.weights = weight_format::int4_weights;
  return r;
}

}  // namespace

TEST_CASE("Llama-2-70B in 4-bit on two RTX 3090s: tp 2 fits, dp 2 does not", "[buying][split]") {
  // 70 B x (0.5 + 2/128) bytes = 36 GB of weights: more than one 24 GB card, half of it fits.
  const split_choice c = best_split(catalog::rtx_3090, presets::llama2_70b, chat_int4(), 2);
  REQUIRE(c.tried.size() == 2);
  CHECK_FALSE(c.tried[0].fit.fits);  // dp 2: every GPU holds the whole model
  CHECK(c.tried[1].fit.fits);
  REQUIRE(c.chosen);
  CHECK(c.chosen->split.tp == 2);
  CHECK(c.link == "pcie4_x16");
  CHECK(explain(c).find("2 GPUs, dp 2: does not fit") != std::string::npos);
}

TEST_CASE("the chosen split is the fastest that fits, its rate finite and positive",
          "[buying][split]") {
  run_config r;
  r.batch = 8;
  r.seq = 512;
  for (const gpu_spec* g : std::initializer_list<const gpu_spec*>{
           &catalog::rtx_4090, &catalog::a100_sxm4_80gb, &catalog::h100_sxm})
    for (long long n : host_gpu_counts) {
      const split_choice c = best_split(*g, presets::llama2_7b, r, n);
      for (const split_outcome& o : c.tried) {
        if (!o.runs) continue;
        CHECK(std::isfinite(o.samples_per_second));
        CHECK(o.samples_per_second > 0);
        if (o.usable()) {
          REQUIRE(c.chosen);
          CHECK(o.samples_per_second <= c.chosen->samples_per_second);
        }
      }
    }
}

TEST_CASE("the count search stops at the first count with a split that fits", "[buying][split]") {
  run_config r;  // Llama-2-7B training, batch 1 at 4096 tokens: 118 GB on one GPU
  const split_choice c = smallest_fitting_split(catalog::rtx_4090, presets::llama2_7b, r);
  REQUIRE(c.chosen);
  for (const split_outcome& o : c.tried)
    if (o.split.gpus < c.chosen->split.gpus) CHECK_FALSE(o.usable());
  CHECK(c.chosen->split.gpus > 1);
  // One H100 does not hold it either; two do, split.
  const split_choice h = smallest_fitting_split(catalog::h100_sxm, presets::llama2_7b, r);
  REQUIRE(h.chosen);
  CHECK(h.chosen->split.gpus == 2);
}

TEST_CASE("tensor parallelism at inference costs all-reduces, a CNN is never cut",
          "[buying][split]") {
  const run_config r = chat_int4();
  const split_outcome tp2 = evaluate_split(catalog::rtx_3090, presets::llama2_70b, r, {2, 2});
  run_config x = r;
  x.gpus = 2;
  x.tp = 2;
  const duration compute = estimate_model(catalog::rtx_3090, presets::llama2_70b, x).time;
  CHECK(tp2.step > compute);
  CHECK(splits_of(presets::resnet50, 8).size() == 1);
  CHECK(splits_of(presets::llama2_7b, 8).size() == 4);
}

TEST_CASE("under llama.cpp two RTX 3090s hold a 70B by layers, no faster than one card",
          "[buying][split]") {
  run_config r = chat_int4();
  r.stack = stack_id::llama_cpp;
  r.flash_attention = false;
  CHECK(split_of_run(r) == split_mode::layer);
  const split_choice c = best_split(catalog::rtx_3090, presets::llama2_70b, r, 2);
  REQUIRE(c.tried.size() == 2);
  CHECK(c.tried[0].split == parallel_split{2, 1, 1});
  CHECK_FALSE(c.tried[0].fit.fits);
  REQUIRE(c.chosen);
  CHECK(c.chosen->split == parallel_split{2, 1, 2});
  CHECK(describe(c.chosen->split) == "2 GPUs, pp 2");
  CHECK(describe(parallel_split{8, 2, 2}) == "8 GPUs, tp 2 x pp 2 x dp 2");
  // The cards take turns: the system's rate is below one card's, if one card held the model.
  const double one = 1.0 / estimate_run(catalog::rtx_3090, presets::llama2_70b, r).time.value();
  CHECK(c.chosen->samples_per_second < one);
  // Training and tensor-split stacks try tensor splits.
  r.stack = stack_id::vllm;
  CHECK(split_of_run(r) == split_mode::tensor);
  CHECK(split_of_run(run_config{}) == split_mode::tensor);
  CHECK(splits_of(presets::llama2_7b, 8, split_mode::layer).back() == parallel_split{8, 1, 8});
}

TEST_CASE("a workload the H100 cannot fit is ranked against the fastest GPU that can",
          "[buying][split][rank]") {
  const rank_workload w = make_workload(presets::llama2_7b, run_config{});  // training
  const auto v = rank_gpus(w, price_table{});
  REQUIRE(!v.empty());
  const gpu_spec* ref = v.front().reference;
  REQUIRE(ref != nullptr);
  CHECK(ref != &catalog::h100_sxm);
  for (const rank_entry& e : v) {
    CHECK(e.reference == ref);
    CHECK(e.relative_performance <= 1.0 + 1e-12);  // the reference is the fastest
    CHECK(e.splits.size() == 1);
  }
  // Searching 1, 2, 4, 8 GPUs, two H100s hold it, and the H100 is the reference again.
  const auto s = rank_gpus(w, price_table{}, {.search_gpus = true});
  REQUIRE(!s.empty());
  CHECK(s.front().reference == &catalog::h100_sxm);
}

TEST_CASE("advice: a GPU without a price is never within a budget", "[buying][split][advice]") {
  advice_request q;
  q.use = use_case::kaggle;
  q.workload = make_workload(rank_task::train16);
  q.budget = dollars(1e6);
  const auto a = advise(q);
  bool seen = false;
  for (const recommendation& r : a)
    if (!r.priced) {
      seen = true;
      CHECK_FALSE(r.within_budget);
    }
  CHECK(seen);
}

TEST_CASE("advice over splits: two RTX 3090s run Llama-2-70B in 4-bit with tp 2",
          "[buying][split][advice]") {
  advice_request q;
  q.model = &presets::llama2_70b;
  q.run = chat_int4();
  q.workload = make_workload(*q.model, q.run);
  q.workload.precision = precision_choice::sixteen_bit;
  q.gpus = 2;
  const auto a = advise(q);
  const auto it = std::find_if(a.begin(), a.end(),
                               [](const recommendation& r) { return r.gpu == &catalog::rtx_3090; });
  REQUIRE(it != a.end());
  CHECK(it->fits);
  REQUIRE(it->split);
  REQUIRE(it->split->chosen);
  CHECK(it->split->chosen->split.tp == 2);
  CHECK(it->ranked);
  CHECK(it->scaling > 1.0);
  CHECK(it->scaling <= 2.0);
  CHECK(it->host_cost == dollars(1500));
  CHECK(it->system_cost == 2.0 * catalog::rtx_3090.facts().price.amount + dollars(1500));
  // Without a count, each GPU gets the fewest that fit: one H100 holds it, two 3090s are needed.
  q.search_gpus = true;
  const auto b = advise(q);
  for (const recommendation& r : b) {
    if (r.gpu == &catalog::h100_sxm) CHECK(r.gpus == 1);
    if (r.gpu == &catalog::rtx_3090) CHECK(r.gpus == 2);
  }
}
