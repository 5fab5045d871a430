// Advice: memory first, then budget, then performance per dollar, each recommendation with its
// reasons (docs/buying.md, "Advice"; Dettmers, Which GPU(s) to Get for Deep Learning, 2020 and
// 2023 editions).
#include <catch2/catch.hpp>

#include <algorithm>
#include <dlperf/buying/advice.hpp>
#include <string>

using namespace dlperf;

namespace {

const recommendation& find(const std::vector<recommendation>& a, std::string_view id) {
  const auto it =
      std::find_if(a.begin(), a.end(), [&](const recommendation& r) { return r.gpu->id() == id; });
  REQUIRE(it != a.end());
  return *it;
}

bool has_reason(const recommendation& r, const std::string& text) {
  return std::any_of(r.reasons.begin(), r.reasons.end(),
                     [&](const std::string& s) { return s.find(text) != std::string::npos; });
}

long long position(const std::vector<recommendation>& a, std::string_view id) {
  return std::find_if(a.begin(), a.end(),
                      [&](const recommendation& r) { return r.gpu->id() == id; }) -
         a.begin();
}

}  // namespace

TEST_CASE("the guide's memory thresholds per use case are the defaults", "[buying][advice]") {
  // 2020 edition: Kaggle >= 8 GB, prototyping and computer vision >= 10 GB, pretrained or small
  // Transformers >= 11 GB, large research/production >= 24 GB; 2023: image generation >= 12 GB,
  // Transformers >= 24 GB.
  CHECK(memory_threshold(use_case::kaggle) == gibibytes(8));
  CHECK(memory_threshold(use_case::prototyping) == gibibytes(10));
  CHECK(memory_threshold(use_case::computer_vision) == gibibytes(10));
  CHECK(memory_threshold(use_case::pretrained_transformers) == gibibytes(11));
  CHECK(memory_threshold(use_case::image_generation) == gibibytes(12));
  CHECK(memory_threshold(use_case::transformers) == gibibytes(24));
  CHECK(parse<use_case>("kaggle") == use_case::kaggle);
  CHECK_THROWS_WITH(parse<use_case>("gaming"), Catch::Contains("unknown use case 'gaming'"));
}

TEST_CASE("advice for a use case: memory first, then cost per task", "[buying][advice]") {
  advice_request q;
  q.use = use_case::transformers;
  q.workload = make_workload(rank_task::train16);
  const std::vector<recommendation> a = advise(q);
  REQUIRE(a.size() == catalog::all.size());
  // A 10 GB RTX 3080 misses the 24 GB Transformers need, a 24 GB RTX 3090 or 4090 meets it.
  CHECK_FALSE(find(a, "rtx_3080").fits);
  CHECK(find(a, "rtx_3090").fits);
  CHECK(find(a, "rtx_4090").fits);
  CHECK(position(a, "rtx_4090") < position(a, "rtx_3080"));
  // Every fitting, ranked GPU comes before every other, the lowest cost per task first.
  bool past = false;
  double last = 0;
  for (const recommendation& r : a) {
    const bool first_group = r.fits && r.ranked && r.priced && r.within_budget;
    if (!first_group) {
      past = true;
      continue;
    }
    CHECK_FALSE(past);
    REQUIRE(r.cost);
    CHECK(r.cost->total().value() >= last);
    last = r.cost->total().value();
    CHECK(r.perf_per_dollar > 0);
    CHECK(r.seconds_per_task > 0);
  }
}

TEST_CASE("advice ranks by time per task or the guide's perf per dollar on request",
          "[buying][advice]") {
  advice_request q;
  q.model = &presets::llama3_8b;
  q.run.mode = run_mode::infer;
  q.run.batch = 1;
  q.run.prompt = 512;
  q.run.generate = 128;
  q.workload = make_workload(*q.model, q.run);
  q.workload.precision = precision_choice::sixteen_bit;
  for (advice_order o : enum_values<advice_order>) {
    q.order = o;
    INFO(name(o));
    const std::vector<recommendation> a = advise(q);
    const recommendation* previous = nullptr;
    for (const recommendation& r : a) {
      if (!(r.fits && r.ranked && r.priced && r.within_budget)) break;
      // The task of a generating model's inference is a million generated tokens: 128 per request.
      CHECK(r.seconds_per_task == Approx(1e6 / (r.samples_per_second * 128)).epsilon(1e-12));
      if (previous != nullptr) {
        if (o == advice_order::time) CHECK(previous->seconds_per_task <= r.seconds_per_task);
        if (o == advice_order::cost) CHECK(previous->cost->total() <= r.cost->total());
        if (o == advice_order::perf_per_dollar)
          CHECK(previous->perf_per_dollar >= r.perf_per_dollar);
      }
      previous = &r;
    }
    REQUIRE(previous != nullptr);
  }
  CHECK(task_of(q).name == "1M generated tokens");
}

TEST_CASE("a training task counts the tokens a sample learns from, not its padding",
          "[buying][advice]") {
  advice_request q;
  q.model = &presets::llama3_8b;
  q.run.mode = run_mode::train;
  q.run.batch = 4;
  q.run.seq = 4096;
  q.workload = make_workload(*q.model, q.run);
  CHECK(task_of(q).name == "1M trained tokens");
  CHECK(task_of(q).per_sample == 4096);
  // Documents of 1024 tokens padded to 4096: a sample trains on 1024 of them; packed, on all.
  q.workload.items.front().run.document = 1024;
  CHECK(task_of(q).per_sample == 1024);
  q.workload.items.front().run.packing = true;
  CHECK(task_of(q).per_sample == 4096);
  // A decoder's inference without generated tokens is priced per prompt token.
  q.workload.items.front().run = {.mode = run_mode::infer, .batch = 1, .seq = 2048};
  CHECK(task_of(q).name == "1M tokens");
  CHECK(task_of(q).per_sample == 2048);
}

TEST_CASE("advice times and prices a fine-tuning job on each system", "[buying][advice][job]") {
  advice_request q;
  q.model = &presets::llama2_7b;
  q.run.mode = run_mode::train;
  q.run.batch = 1;
  q.run.seq = 512;
  q.run.lora.rank = 16;
  q.workload = make_workload(*q.model, q.run);
  q.job = training_job{5e7, 2};  // 2 epochs over 50M tokens
  const std::vector<recommendation> a = advise(q);
  int priced = 0;
  for (const recommendation& r : a) {
    if (!r.ranked) continue;
    INFO(r.gpu->id());
    // 1e8 tokens at the system's trained tokens per second, and 100 tasks of 1M at its cost.
    CHECK(r.job_seconds == Approx(1e8 / (r.samples_per_second * 512)));
    CHECK(r.job_seconds == Approx(100 * r.seconds_per_task));
    if (r.cost) {
      REQUIRE(r.job_cost);
      CHECK(r.job_cost->value() == Approx(100 * r.cost->total().value()));
      ++priced;
    }
  }
  CHECK(priced > 10);
  // A job needs a training run of a transformer.
  q.run.mode = run_mode::infer;
  q.run.lora.rank = 0;
  q.workload = make_workload(*q.model, q.run);
  CHECK_THROWS_WITH(advise(q), Catch::Contains("training job: needs a transformer's training run"));
}

TEST_CASE("the first recommendation says why it wins, the others what they give up",
          "[buying][advice]") {
  advice_request q;
  q.use = use_case::transformers;
  q.workload = make_workload(rank_task::infer16);
  q.budget = dollars(8000);
  const std::vector<recommendation> a = advise(q);
  REQUIRE(a.size() > 2);
  CHECK(a[0].verdict.rfind("wins: the lowest cost per 1k samples within budget; next, ", 0) == 0);
  CHECK(a[1].verdict.rfind("gives up against " + std::string(a[0].gpu->id()), 0) == 0);
  // The runner-up costs no less per task, by construction of the order.
  CHECK(a[1].verdict.find("cost per task") != std::string::npos);
  for (const recommendation& r : a)
    if (detail::advice_group(r) != 0) CHECK(r.verdict.empty());
}

TEST_CASE("the first recommendation names a better system the budget rules out",
          "[buying][advice]") {
  advice_request q;
  q.use = use_case::transformers;
  q.workload = make_workload(rank_task::train16);
  q.prices.basis = price_basis::market;
  q.budget = dollars(2000);
  const std::vector<recommendation> a = advise(q);
  REQUIRE(detail::advice_group(a[0]) == 0);
  const auto over = std::find_if(
      a.begin(), a.end(), [](const recommendation& r) { return detail::advice_group(r) == 1; });
  REQUIRE(over != a.end());
  // The cheapest per task over budget costs less per task than the first within it here (a used
  // RX 7900 XTX or RTX 3090 in a $1,500 desktop, against a Tesla P40 within $2,000).
  REQUIRE(over->cost->total() < a[0].cost->total());
  const std::string named = "; over budget, " + std::string(over->gpu->id()) + " at $";
  CHECK(a[0].verdict.find(named) != std::string::npos);
  // Without a budget nothing is over it, and the verdict says so by not naming one.
  q.budget.reset();
  CHECK(advise(q)[0].verdict.find("over budget") == std::string::npos);
}

TEST_CASE("market prices: a used RTX 3090 at its dated resale price", "[buying][advice][prices]") {
  advice_request q;
  q.use = use_case::transformers;
  q.workload = make_workload(rank_task::train16);
  const recommendation launch = find(advise(q), "rtx_3090");
  REQUIRE(launch.price);
  CHECK(launch.price->kind == price_kind::launch_msrp);
  CHECK(launch.system_cost == dollars(1499 + 1500));
  q.prices.basis = price_basis::market;
  const recommendation market = find(advise(q), "rtx_3090");
  REQUIRE(market.price);
  CHECK(market.price->kind == price_kind::used);
  CHECK(market.price->year == 2026);
  CHECK(market.system_cost == dollars(990 + 1500));
  // Same speed, a cheaper system: a lower cost per task.
  CHECK(market.seconds_per_task == launch.seconds_per_task);
  CHECK(market.cost->total() < launch.cost->total());
  // A price set in the table wins over both, and has no catalog date.
  q.prices.set_gpu("rtx_3090", dollars(700));
  const recommendation given = find(advise(q), "rtx_3090");
  CHECK_FALSE(given.price);
  CHECK(given.system_cost == dollars(700 + 1500));
  // A board without a market price keeps its launch price under the market basis.
  CHECK(q.prices.catalog_price(catalog::rtx_2080_ti)->kind == price_kind::launch_msrp);
}

TEST_CASE("a module board is priced in the server built for it", "[buying][advice]") {
  advice_request q;
  q.use = use_case::transformers;
  q.workload = make_workload(rank_task::train16);
  const std::vector<recommendation> a = advise(q);
  // One H100 SXM needs an HGX server: the 8-GPU host ($6,000), not a $1,500 desktop.
  const recommendation& sxm = find(a, "h100_sxm");
  CHECK(sxm.host_cost == dollars(6000));
  CHECK(has_reason(sxm, "host: a module board needs a server"));
  const recommendation& pcie = find(a, "h100_pcie");
  CHECK(pcie.host_cost == dollars(1500));
  CHECK_FALSE(has_reason(pcie, "host: a module board"));
}

TEST_CASE("advice rejects ownership terms out of their domain", "[buying][advice]") {
  advice_request q;
  q.use = use_case::kaggle;
  q.workload = make_workload(rank_task::train16);
  q.ownership.years = -1;
  CHECK_THROWS_WITH(advise(q), Catch::Contains("ownership: years"));
  q.ownership = {};
  q.ownership.utilization = 2;
  CHECK_THROWS_WITH(advise(q), Catch::Contains("utilization must be in (0, 1]"));
}

TEST_CASE("advice for a model: its memory need decides the fit, with the margin",
          "[buying][advice]") {
  advice_request q;
  q.model = &presets::llama2_7b;
  q.run.mode = run_mode::infer;
  q.run.batch = 1;
  q.run.seq = 1024;
  q.workload = make_workload(*q.model, q.run);
  q.workload.precision = precision_choice::sixteen_bit;
  const std::vector<recommendation> a = advise(q);
  // 6.74 B parameters x 2 bytes = 13.5 GB of weights: more than a 12 GB card, within 24 GB.
  const recommendation& r4090 = find(a, "rtx_4090");
  CHECK(r4090.fits);
  CHECK(r4090.need > bytes(6.738e9 * 2));
  CHECK(r4090.margin == gibibytes(24) - r4090.need);
  CHECK(has_reason(r4090, "fits: llama2_7b needs"));
  const recommendation& r4070 = find(a, "rtx_4070_ti");
  CHECK_FALSE(r4070.fits);
  CHECK(r4070.margin.value() < 0);
  CHECK(has_reason(r4070, "does not fit"));
  CHECK(position(a, "rtx_4090") < position(a, "rtx_4070_ti"));
}

TEST_CASE("a budget puts the systems it cannot buy after those it can", "[buying][advice]") {
  advice_request q;
  q.use = use_case::transformers;
  q.workload = make_workload(rank_task::infer16);
  q.budget = dollars(4000);
  const std::vector<recommendation> a = advise(q);
  // An H100 SXM ($27,500 per card at launch-era street prices) plus its host is over $4,000;
  // an RTX 4090 ($1,599 launch) plus the $1,500 host is within it.
  const recommendation& h100 = find(a, "h100_sxm");
  const recommendation& r4090 = find(a, "rtx_4090");
  CHECK_FALSE(h100.within_budget);
  CHECK(r4090.within_budget);
  CHECK(r4090.system_cost == dollars(1599 + 1500));
  CHECK(has_reason(h100, "over budget"));
  CHECK(position(a, "rtx_4090") < position(a, "h100_sxm"));
}

TEST_CASE("four RTX 3090s: PSU, cooling, peer-to-peer and half-rate reasons", "[buying][advice]") {
  advice_request q;
  q.model = &presets::bert_large;
  q.run.batch = 8;
  q.run.seq = 512;
  q.gpus = 4;
  q.workload = make_workload(*q.model, q.run);
  q.workload.precision = precision_choice::sixteen_bit;
  const std::vector<recommendation> a = advise(q);
  const recommendation& r = find(a, "rtx_3090");
  // 4 x 350 W + 250 W = 1650 W: beyond a 1600 W desktop PSU (docs/buying.md, "Power").
  CHECK(r.power.gpus == watts(1400));
  CHECK(has_reason(r, "more than a 1600 W desktop PSU"));
  CHECK(has_reason(r, "cooling: open-air"));
  CHECK(has_reason(r, "no PCIe peer-to-peer"));
  CHECK(has_reason(r, "half rate"));
  // Four GPUs over PCIe 4.0 x16 train faster than one, not four times as fast.
  CHECK(r.scaling > 3.0);
  CHECK(r.scaling < 4.0);
  CHECK(has_reason(r, "4 GPUs, dp 4 over pcie4_x16 run"));
}

TEST_CASE("a card without tensor cores is flagged", "[buying][advice]") {
  advice_request q;
  q.use = use_case::kaggle;
  q.workload = make_workload(rank_task::train16);
  const std::vector<recommendation> a = advise(q);
  CHECK(has_reason(find(a, "gtx_1080"), "no tensor cores"));
  CHECK(has_reason(find(a, "gtx_1650_super"), "no tensor cores"));
  CHECK_FALSE(has_reason(find(a, "rtx_2060"), "no tensor cores"));
  CHECK(has_reason(find(a, "h100_sxm"), "passively cooled"));
}

TEST_CASE("advice rejects a GPU count without a host price and a negative budget",
          "[buying][advice][errors]") {
  advice_request q;
  q.workload = make_workload(rank_task::train16);
  q.gpus = 3;
  CHECK_THROWS_WITH(advise(q), Catch::Contains("gpus: hosts are priced for 1, 2, 4 or 8 GPUs"));
  q.gpus = 1;
  q.budget = dollars(-1);
  CHECK_THROWS_WITH(advise(q), Catch::Contains("budget: must be >= 0"));
}
