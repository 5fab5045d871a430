// The application layer (dlperf/app/): a typed model request and its report, the one JSON the
// tool prints, the run fields a sweep and the tool share, and the sweep itself.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dlperf/app/cluster_report.hpp>
#include <dlperf/app/gemm_report.hpp>
#include <dlperf/app/keyword_reports.hpp>
#include <dlperf/app/keyword_request.hpp>
#include <dlperf/app/model_report.hpp>
#include <dlperf/app/model_shape.hpp>
#include <dlperf/app/rank_report.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/request_error.hpp>
#include <dlperf/app/run_request.hpp>
#include <dlperf/app/serve_report.hpp>
#include <dlperf/app/sweep.hpp>
#include <dlperf/hardware/host_memory.hpp>
#include <dlperf/hardware/links.hpp>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "run_options.hpp"

namespace {

using dlperf::app::sweep_axis;

// The request `dlperf model --preset P --gpu G` with the run flags @p flags gives.
dlperf::app::model_request app_request(
    std::string_view preset, const std::string& gpu,
    const std::vector<std::pair<std::string, std::string>>& flags) {
  dlperf::app::run_options o;
  for (const auto& [keyword, value] : flags) dlperf::app::run_field_of(keyword).set(o, value);
  dlperf::app::model_request q;
  q.model = dlperf::presets::find(preset);
  q.device = dlperf::app::select_device(gpu, "");
  q.run = dlperf::app::make_run(o);
  return q;
}

}  // namespace

TEST_CASE("the tool offers every run field and the run fields name every run flag of the tool") {
  CLI::App app;
  dlperf::cli::run_options o;
  dlperf::cli::add_run_options(&app, o);
  std::set<std::string> flags;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_name() == "--help") continue;
    flags.insert(opt->get_name());
  }
  std::set<std::string> fields;
  for (const dlperf::app::run_field& f : dlperf::app::run_fields()) {
    fields.insert(std::string(f.flag));
    // The keyword is the flag without its dashes, `-` as `_` (Python's spelling).
    std::string keyword(f.flag.substr(2));
    std::replace(keyword.begin(), keyword.end(), '-', '_');
    CHECK(f.keyword == keyword);
    CHECK(&dlperf::app::run_field_of(f.keyword) == &f);
    CHECK(&dlperf::app::run_field_of(f.flag) == &f);
  }
  CHECK(flags == fields);
  CHECK(fields.size() >= 35);
  // A command whose run is its model's on each GPU it compares offers every field but a job's
  // layout, and its keyword requests refuse those by name.
  CLI::App model_run;
  dlperf::cli::run_options m;
  dlperf::cli::add_run_options(&model_run, m, false);
  std::set<std::string> model_flags;
  for (const CLI::Option* opt : model_run.get_options())
    if (opt->get_name() != "--help") model_flags.insert(opt->get_name());
  std::set<std::string> layout;
  for (const std::string_view k : dlperf::app::job_layout_keywords()) {
    layout.insert(std::string(dlperf::app::run_field_of(k).flag));
    CHECK_THROWS_WITH(dlperf::app::apply_model_run_keyword(m, k, "2", "rank"),
                      Catch::Contains("rank: unknown keyword '" + std::string(k) + "'"));
  }
  std::set<std::string> rest;
  std::set_difference(fields.begin(), fields.end(), layout.begin(), layout.end(),
                      std::inserter(rest, rest.end()));
  CHECK(model_flags == rest);
}

TEST_CASE("a run field reads its value as the tool reads its flag and names it when it cannot") {
  dlperf::app::run_options o;
  dlperf::app::run_field_of("batch").set(o, "8Ki");
  dlperf::app::run_field_of("dtype").set(o, "fp8_e4m3");
  dlperf::app::run_field_of("checkpointing").set(o, "true");
  dlperf::app::run_field_of("stack").set(o, "pytorch-eager");
  const dlperf::run_config r = dlperf::app::make_run(o);
  CHECK(r.batch == 8192);
  CHECK(r.type == dlperf::dtype::fp8_e4m3);
  CHECK(r.checkpointing);
  CHECK(r.stack == dlperf::stack_id::pytorch_eager);
  CHECK_THROWS_WITH(dlperf::app::run_field_of("dtype").set(o, "fp7"),
                    Catch::Contains("--dtype") && Catch::Contains("fp7"));
  CHECK_THROWS_WITH(dlperf::app::run_field_of("eager").set(o, "maybe"),
                    Catch::Contains("--eager 'maybe' is a switch"));
  CHECK_THROWS_AS(dlperf::app::run_field_of("batchsize"), dlperf::app::request_error);
  CHECK_THROWS_WITH(dlperf::app::run_field_of("batchsize"),
                    Catch::Contains("unknown run field 'batchsize'") && Catch::Contains("batch"));
  dlperf::app::run_options zero;
  dlperf::app::run_field_of("batch").set(zero, "0");
  CHECK_THROWS_WITH(dlperf::app::make_run(zero), Catch::Contains("--batch '0'"));
}

TEST_CASE("every run field writes back what it reads, and lists the names it takes") {
  using dlperf::app::run_field_kind;
  const dlperf::app::run_options defaults;
  std::size_t toggles = 0, choices = 0, layout = 0;
  for (const dlperf::app::run_field& f : dlperf::app::run_fields()) {
    INFO(f.keyword);
    CHECK(!f.help.empty());
    layout += f.job_layout ? 1 : 0;
    // The default's text reads back to the same value (an empty choice is the stack's own and
    // is not a name).
    dlperf::app::run_options o;
    if (const std::string given = f.get(defaults); !given.empty()) {
      f.set(o, given);
      CHECK(f.get(o) == given);
    }
    const std::vector<std::string> names = f.names();
    switch (f.kind) {
      case run_field_kind::toggle:
        ++toggles;
        CHECK(f.get(defaults) == "false");
        f.set(o, "1");
        CHECK(f.get(o) == "true");
        f.set(o, "false");
        CHECK(f.get(o) == "false");
        CHECK(names.empty());
        break;
      case run_field_kind::choice:
        ++choices;
        REQUIRE(names.size() >= 2);
        for (const std::string& n : names) {  // each name it lists, it takes and gives back
          f.set(o, n);
          CHECK(f.get(o) == n);
        }
        CHECK_THROWS_WITH(f.set(o, "no-such-name"),
                          Catch::Contains(std::string(f.flag)) && Catch::Contains("no-such-name"));
        break;
      case run_field_kind::text:
        f.set(o, "17");
        CHECK(f.get(o) == "17");
        break;
    }
  }
  CHECK(toggles == 10);  // train, infer, checkpointing, packing, nchw, no_flash, eager, qlora,
                         // fp32_reduce, async_tp
  CHECK(choices == 10);  // dtype, weights, kv_dtype, optimizer, optimizer_kernels, selective,
                         // attention, ep_dispatch, split, stack
  CHECK(layout == dlperf::app::job_layout_keywords().size());
  CHECK(layout == 16);  // gpus, zero, tp, async_tp, pp, vpp, cp, ep, ep_dispatch, shard_group,
                        // split, gpus_per_node, network, fp32_reduce, gpu_layers, host_memory
  // The text fields that read catalog names list them: every link, every host memory, and the
  // help names the host memory a run takes when none is given.
  CHECK(dlperf::app::run_field_of("network").names().size() == dlperf::links::all.size());
  const dlperf::app::run_field& host = dlperf::app::run_field_of("host_memory");
  CHECK(host.names().size() == dlperf::host_memories::all.size());
  CHECK(host.help.find(dlperf::host_memories::typical.id) != std::string_view::npos);
  CHECK(dlperf::name(dlperf::app::run_field_kind::toggle) == "toggle");
}

TEST_CASE("a model report holds what its JSON gives, and refuses a request without a device") {
  const dlperf::app::model_report report = dlperf::app::estimate(
      app_request("llama3_8b", "h100_sxm",
                  {{"infer", "true"}, {"prompt", "512"}, {"generate", "128"}, {"stack", "vllm"}}));
  CHECK(report.device == "h100_sxm");
  CHECK(report.generation);
  CHECK(report.seq == 512);
  CHECK(report.fit.fits);
  const nlohmann::json j = dlperf::app::to_json(report);
  CHECK(j["gpu"] == "h100_sxm");
  CHECK(j["stack"] == "vllm");
  CHECK(j["step_time_s"].get<double>() == report.estimate.stack.time.value());
  CHECK(j["decode_tokens_per_s"].get<double>() == report.estimate.stack.decode_tokens_per_second());
  // Never above the GPU's peak, and finite.
  CHECK(j["mfu"].get<double>() > 0.0);
  CHECK(j["mfu"].get<double>() <= 1.0);
  dlperf::app::model_request none;
  none.model = dlperf::presets::find("gpt2");
  CHECK_THROWS_WITH(dlperf::app::estimate(none), Catch::Contains("names no device"));
}

TEST_CASE("a cluster report is the multi-GPU model's job, and refuses what it cannot run by name") {
  // Eight H100s over NVLink 4 with a tensor split of 2: the report holds what
  // estimate_cluster_on gives for the same job, and its JSON the same figures.
  dlperf::app::cluster_request q;
  q.model = dlperf::presets::find("llama3_8b");
  q.gpus = {dlperf::app::select_device("h100_sxm", "")};
  q.link = &dlperf::find_link("nvlink4");
  q.run.batch = 1;
  q.run.seq = 4096;
  q.run.gpus = 8;
  q.run.tp = 2;
  q.run.zero = 3;
  q.run.stack = dlperf::stack_id::pytorch_eager;
  const dlperf::app::cluster_report report = dlperf::app::estimate(q);
  const std::vector<const dlperf::gpu_spec*> eight(8, &dlperf::catalog::h100_sxm);
  const dlperf::cluster_estimate direct = dlperf::estimate_cluster_on<dlperf::gpu_spec>(
      std::span<const dlperf::gpu_spec* const>(eight), q.model, q.run, *q.link, q.bucket);
  CHECK(report.job.step_time == direct.step_time);
  CHECK(report.gpu_ids == std::vector<std::string>(8, "h100_sxm"));
  CHECK(report.gpu_names == "NVIDIA H100 SXM5 80 GB");
  CHECK(report.fits());
  // A step's tokens: 4 replicas x 1 sequence x 4096 tokens.
  CHECK(report.tokens_per_s == Approx(4.0 * 4096 / direct.step_time.value()));
  const nlohmann::json j = dlperf::app::to_json(report);
  CHECK(j["step_time_s"].get<double>() == direct.step_time.value());
  CHECK(j["data_parallel"] == 4);
  CHECK(j["link"] == "nvlink4");
  CHECK(j["fits"] == true);
  // Mixed types repeat in order over the ranks.
  dlperf::app::cluster_request mixed = q;
  mixed.gpus = {dlperf::app::select_device("h100_sxm", ""),
                dlperf::app::select_device("a100_sxm4_80gb", "")};
  mixed.run.tp = 1;
  const dlperf::app::cluster_report m = dlperf::app::estimate(mixed);
  CHECK(m.gpu_ids[0] == "h100_sxm");
  CHECK(m.gpu_ids[1] == "a100_sxm4_80gb");
  CHECK(m.gpu_names == "NVIDIA H100 SXM5 80 GB + NVIDIA A100 SXM4 80 GB");
  // Rejections, each naming what is wrong.
  dlperf::app::cluster_request bad = q;
  bad.gpus.clear();
  CHECK_THROWS_WITH(dlperf::app::estimate(bad), Catch::Contains("names no GPU"));
  bad = q;
  bad.link = nullptr;
  CHECK_THROWS_WITH(dlperf::app::estimate(bad), Catch::Contains("names no link"));
  bad = q;
  bad.run.mode = dlperf::run_mode::infer;
  CHECK_THROWS_WITH(dlperf::app::estimate(bad), Catch::Contains("training steps only"));
  bad = mixed;
  bad.run.gpus = 3;
  CHECK_THROWS_WITH(dlperf::app::estimate(bad),
                    Catch::Contains("--gpus: 3 is not a multiple of the 2 GPU ids"));
  bad = q;
  bad.model = dlperf::presets::find("resnet50");
  CHECK_THROWS_WITH(dlperf::app::estimate(bad), Catch::Contains("transformer presets only"));
  bad = q;
  bad.gpus = {dlperf::app::select_device("h100_sxm", ""),
              dlperf::measured_device(dlperf::catalog::h100_sxm)};
  CHECK_THROWS_WITH(dlperf::app::estimate(bad), Catch::Contains("catalog GPUs and device files"));
  bad.gpus = {static_cast<const dlperf::gpu_spec*>(nullptr)};
  CHECK_THROWS_WITH(dlperf::app::estimate(bad), Catch::Contains("names a null GPU"));
  bad.gpus = {dlperf::app::select_device(
      "", std::string(DLPERF_SOURCE_DIR) + "/tests/fuzz/corpus/device_file/host.json")};
  REQUIRE(std::holds_alternative<dlperf::host_device>(bad.gpus.front()));
  CHECK_THROWS_WITH(dlperf::app::estimate(bad), Catch::Contains("a host CPU has no collectives"));
}

TEST_CASE(
    "a cluster request by keywords is the one the tool's flags give, and names what is wrong") {
  // The typical job's defaults (ResNet-50, batch 64, FP16, SGD), one GPU of each type given.
  const dlperf::app::cluster_request q = dlperf::app::cluster_request_from_keywords(
      {{"gpu", "rtx_3090,rtx_2080_ti"}, {"link", "pcie4_x16"}});
  CHECK(q.model.name == dlperf::typical_cluster_model.name);
  CHECK(q.run.batch == dlperf::typical_cluster_run.batch);
  CHECK(q.run.type == dlperf::typical_cluster_run.type);
  CHECK(q.run.gpus == 2);
  CHECK(q.gpus.size() == 2);
  CHECK(q.bucket == dlperf::mebibytes(25));
  CHECK(q.link->id == "pcie4_x16");
  // Under a power limit: one board's limit, applied to the one GPU type.
  const dlperf::app::cluster_request limited = dlperf::app::cluster_request_from_keywords(
      {{"gpu", "h100_sxm"}, {"gpus", "8"}, {"link", "nvlink4"}, {"power_limit", "500"}});
  REQUIRE(limited.power_limit);
  CHECK(limited.power_limit->limit.value() == 500);
  CHECK(limited.power_limit->clock_fraction < 1.0);
  CHECK(dlperf::app::estimate(limited).power_limit->limit == limited.power_limit->limit);
  const auto refused = [](const dlperf::app::keyword_fields& f) {
    return [f] { (void)dlperf::app::estimate(dlperf::app::cluster_request_from_keywords(f)); };
  };
  CHECK_THROWS_WITH(refused({{"link", "nvlink4"}})(), Catch::Contains("give exactly one of --gpu"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"device", "x.json"}, {"link", "nvlink4"}})(),
                    Catch::Contains("give exactly one of --gpu"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}})(), Catch::Contains("--link is required"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"gpu", "a100_sxm4_80gb"}})(),
                    Catch::Contains("keyword 'gpu' given twice"));
  CHECK_THROWS_WITH(refused({{"gpu", "rtx_9999"}, {"link", "nvlink4"}})(),
                    Catch::Contains("--gpu: "));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"link", "nvlink4"}, {"bucket", "0"}})(),
                    Catch::Contains("--bucket"));
  CHECK_THROWS_WITH(refused({{"gpu", "h100_sxm"}, {"link", "nvlink4"}, {"colour", "red"}})(),
                    Catch::Contains("colour"));
  CHECK_THROWS_WITH(
      refused({{"gpu", "h100_sxm,a100_sxm4_80gb"}, {"link", "nvlink4"}, {"power_limit", "300"}})(),
      Catch::Contains("--power-limit: a limit in watts is one board's; this job "
                      "mixes h100_sxm and a100_sxm4_80gb"));
  CHECK(dlperf::app::cluster_keywords().size() == 7);
}

TEST_CASE("every row of a sweep is the estimate of its request, in itertools.product order") {
  const std::vector<sweep_axis> axes{{"gpu", {"rtx_4090", "h100_sxm"}},
                                     {"preset", {"llama3_8b"}},
                                     {"mode", {"infer"}},
                                     {"batch", {"1", "8"}},
                                     {"prompt", {"512"}},
                                     {"generate", {"128"}}};
  REQUIRE(dlperf::app::sweep_size(axes) == 4);
  const std::vector<dlperf::app::sweep_point> rows = dlperf::app::sweep(axes, 2);
  REQUIRE(rows.size() == 4);
  std::size_t i = 0;
  for (const std::string gpu : {"rtx_4090", "h100_sxm"})
    for (const std::string batch : {"1", "8"}) {
      INFO(gpu << " batch " << batch);
      const dlperf::app::model_report report = dlperf::app::estimate(app_request(
          "llama3_8b", gpu,
          {{"infer", "true"}, {"batch", batch}, {"prompt", "512"}, {"generate", "128"}}));
      const nlohmann::json j = dlperf::app::to_json(report);
      const dlperf::app::sweep_point& p = rows[i++];
      CHECK(p.error.empty());
      CHECK(p.fits == j["fits"].get<bool>());
      CHECK(*p.step_time_s == j["step_time_s"].get<double>());
      CHECK(*p.tokens_per_s == j["tokens_per_s"].get<double>());
      CHECK(*p.tflops == j["tflops"].get<double>());
      CHECK(*p.mfu == j["mfu"].get<double>());
      CHECK(*p.prefill_s == j["prefill_s"].get<double>());
      CHECK(*p.decode_tokens_per_s == j["decode_tokens_per_s"].get<double>());
      CHECK(*p.memory_bytes == j["memory"]["total_bytes"].get<double>());
      CHECK(*p.max_batch == j["max_batch"].get<long long>());
    }
}

TEST_CASE("a sweep gives the same rows on one thread as on many") {
  const std::vector<sweep_axis> axes{{"gpu", {"rtx_3090", "a100_sxm4_80gb", "mi300x"}},
                                     {"preset", {"gpt2", "llama2_7b"}},
                                     {"batch", {"1", "4", "16"}},
                                     {"seq", {"512", "2048"}}};
  const auto one = dlperf::app::sweep(axes, 1);
  const auto many = dlperf::app::sweep(axes, 5);
  REQUIRE(one.size() == 36);
  REQUIRE(many.size() == one.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].error == many[i].error);
    CHECK(one[i].step_time_s == many[i].step_time_s);
    CHECK(one[i].memory_bytes == many[i].memory_bytes);
    // Property: finite, positive times wherever a point ran.
    if (one[i].error.empty()) {
      CHECK(std::isfinite(*one[i].step_time_s));
      CHECK(*one[i].step_time_s > 0.0);
    }
  }
}

TEST_CASE("a sweep's point that cannot run is a row with its reason, not an error for the grid") {
  const std::vector<sweep_axis> axes{{"gpu", {"h100_sxm", "no_such_gpu"}},
                                     {"preset", {"llama3_8b"}},
                                     {"mode", {"infer", "sideways"}},
                                     {"batch", {"0", "2"}},
                                     {"stack", {"ceiling", "llama.cpp-rocm"}}};
  const auto rows = dlperf::app::sweep(axes);
  REQUIRE(rows.size() == 16);
  // h100_sxm, infer, batch 0: --batch named.
  CHECK_THAT(rows[0].error, Catch::Contains("--batch '0'"));
  // h100_sxm, infer, batch 2, ceiling: runs.
  CHECK(rows[2].error.empty());
  CHECK(rows[2].step_time_s.has_value());
  // h100_sxm, infer, batch 2, llama.cpp-rocm: a stack of the other vendor, named.
  CHECK_THAT(rows[3].error, Catch::Contains("llama.cpp-rocm"));
  CHECK_FALSE(rows[3].step_time_s.has_value());
  // A mode that is neither.
  CHECK_THAT(rows[6].error, Catch::Contains("mode: expected 'train' or 'infer', got 'sideways'"));
  // An unknown GPU: every row of it says so.
  for (std::size_t i = 8; i < 16; ++i) CHECK_THAT(rows[i].error, Catch::Contains("no_such_gpu"));
}

TEST_CASE("a sweep gives the same rows whether it parses runs once or at each point") {
  // Runs parsed before the points (the grid has 16 combinations of run-axis values), or at
  // each point (a limit of 0 and of 3 combinations): every row alike, errors included.
  const std::vector<sweep_axis> axes{{"gpu", {"h100_sxm", "mi300x", "no_such_gpu"}},
                                     {"preset", {"llama3_8b"}},
                                     {"mode", {"infer", "train"}},
                                     {"batch", {"0", "2"}},
                                     {"stack", {"ceiling", "vllm", "pytorch-eager", "sideways"}}};
  const auto once = dlperf::app::sweep(axes, 2);
  REQUIRE(once.size() == 48);
  for (const std::size_t limit : {std::size_t{0}, std::size_t{3}}) {
    const auto each = dlperf::app::detail::sweep(axes, 2, limit);
    REQUIRE(each.size() == once.size());
    for (std::size_t i = 0; i < once.size(); ++i) {
      INFO("row " << i << " limit " << limit);
      CHECK(each[i].error == once[i].error);
      CHECK(each[i].fits == once[i].fits);
      CHECK(each[i].step_time_s == once[i].step_time_s);
      CHECK(each[i].tokens_per_s == once[i].tokens_per_s);
      CHECK(each[i].memory_bytes == once[i].memory_bytes);
      CHECK(each[i].max_batch == once[i].max_batch);
    }
  }
  // The rows are of every kind: run, and refused for the batch, the stack, the vendor, the GPU.
  CHECK_THAT(once[0].error, Catch::Contains("--batch '0'"));  // h100_sxm, infer, batch 0
  CHECK(once[4].error.empty());                               // h100_sxm, infer, batch 2, ceiling
  CHECK(once[4].step_time_s.has_value());
  CHECK_THAT(once[7].error, Catch::Contains("sideways"));    // an unknown stack
  CHECK_THAT(once[21].error, Catch::Contains("vllm-rocm"));  // mi300x, vllm: the ROCm build
  CHECK_THAT(once[47].error, Catch::Contains("no_such_gpu"));
}

TEST_CASE("a sweep refuses a grid it cannot run, naming why") {
  using axes_t = std::vector<sweep_axis>;
  const sweep_axis gpu{"gpu", {"h100_sxm"}}, preset{"preset", {"gpt2"}};
  CHECK_THROWS_WITH(dlperf::app::sweep(axes_t{gpu}), Catch::Contains("give a model"));
  CHECK_THROWS_WITH(dlperf::app::sweep(axes_t{preset}), Catch::Contains("give a device"));
  CHECK_THROWS_WITH(dlperf::app::sweep(axes_t{gpu, preset, {"config", {"x.json"}}}),
                    Catch::Contains("give one of preset and config"));
  CHECK_THROWS_WITH(dlperf::app::sweep(axes_t{gpu, preset, {"batchsize", {"1"}}}),
                    Catch::Contains("unknown run field 'batchsize'"));
  CHECK_THROWS_WITH(dlperf::app::sweep(axes_t{gpu, preset, {"batch", {"1"}}, {"batch", {"2"}}}),
                    Catch::Contains("'batch' given twice"));
  CHECK_THROWS_WITH(dlperf::app::sweep(axes_t{gpu, preset, {"batch", {}}}),
                    Catch::Contains("'batch' has no values"));
  const std::vector<std::string> thousand(1000, "1");
  CHECK_THROWS_WITH(dlperf::app::sweep(axes_t{
                        gpu, preset, {"batch", thousand}, {"seq", thousand}, {"prompt", thousand}}),
                    Catch::Contains("more than 10000000 points"));
  CHECK_THROWS_AS(dlperf::app::sweep(axes_t{gpu}), dlperf::app::request_error);
}

TEST_CASE("a request by keywords is the request the tool builds from the same flags") {
  dlperf::io::string_store strings;
  const dlperf::app::model_request q = dlperf::app::request_from_keywords({{"preset", "llama3_8b"},
                                                                           {"gpu", "h100_sxm"},
                                                                           {"mode", "infer"},
                                                                           {"prompt", "512"},
                                                                           {"generate", "128"},
                                                                           {"stack", "vllm"},
                                                                           {"power_limit", "500"}},
                                                                          strings);
  CHECK(q.power_limit.has_value());
  CHECK(q.run.stack == dlperf::stack_id::vllm);
  const nlohmann::json by_keywords = dlperf::app::to_json(dlperf::app::estimate(q));
  dlperf::app::model_request flags =
      app_request("llama3_8b", "h100_sxm",
                  {{"infer", "true"}, {"prompt", "512"}, {"generate", "128"}, {"stack", "vllm"}});
  flags.device = dlperf::app::with_power_limit(flags.device, "500", &flags.power_limit);
  CHECK(by_keywords == dlperf::app::to_json(dlperf::app::estimate(flags)));
}

TEST_CASE("a request by keywords names what is missing, doubled or unknown") {
  dlperf::io::string_store strings;
  const auto refused = [&](const dlperf::app::keyword_fields& f) {
    return [&strings, f] { (void)dlperf::app::request_from_keywords(f, strings); };
  };
  CHECK_THROWS_WITH(refused({{"gpu", "t4"}})(), Catch::Contains("give a model"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}})(), Catch::Contains("give a device"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}, {"config", "x.json"}, {"gpu", "t4"}})(),
                    Catch::Contains("give one of preset and config"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}, {"gpu", "t4"}, {"device", "d.json"}})(),
                    Catch::Contains("give one of gpu and device"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}, {"gpu", "t4"}, {"batch", "1"}, {"batch", "2"}})(),
                    Catch::Contains("'batch' given twice"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}, {"gpu", "t4"}, {"mode", "both"}})(),
                    Catch::Contains("mode: expected 'train' or 'infer', got 'both'"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}, {"gpu", "t4"}, {"power_limit", "5"}})(),
                    Catch::Contains("--power-limit '5' must be in"));
  CHECK_THROWS_AS(refused({{"preset", "gpt5"}, {"gpu", "t4"}})(), dlperf::not_found);
  dlperf::app::run_options o;
  dlperf::app::run_extras extras;
  CHECK_THROWS_WITH(dlperf::app::apply_run_keyword(o, extras, "gpu", "t4"),
                    Catch::Contains("'gpu' selects the model or device"));
  CHECK(dlperf::app::is_request_keyword("power_limit"));
  CHECK(dlperf::app::is_request_keyword("grad_accum"));
  CHECK_FALSE(dlperf::app::is_request_keyword("layers"));
}

TEST_CASE("a serve report is model/serve.hpp's serving under its stack and the ceiling") {
  dlperf::io::string_store strings;
  // No mode given: serving is inference, as --serve makes the tool's run.
  const dlperf::app::serve_request q =
      dlperf::app::serve_request_from_keywords({{"preset", "llama3_1_8b"},
                                                {"gpu", "h100_sxm"},
                                                {"prompt", "1000"},
                                                {"generate", "1000"},
                                                {"stack", "vllm"},
                                                {"rate", "3"},
                                                {"max_seqs", "64"}},
                                               strings);
  CHECK_FALSE(q.model.run.training());
  REQUIRE(q.rate.has_value());
  CHECK(*q.rate == 3.0);
  const dlperf::app::serve_report r = dlperf::app::estimate(q);
  const auto& d = dlperf::catalog::h100_sxm;
  const dlperf::model_spec& m = dlperf::presets::find("llama3_1_8b");
  const dlperf::software_stack& vllm = dlperf::stacks::of(dlperf::stack_id::vllm);
  const dlperf::serve_config c = q.config.under(vllm, d);
  const dlperf::serve_estimate e = dlperf::estimate_serving(d, m, q.model.run, vllm, c);
  CHECK(r.at_stack.saturation.decode_step == e.decode_step);
  CHECK(r.at_stack.saturation.concurrency == 64);  // the cap given, below what the KV cache holds
  CHECK(r.at_stack.saturation.kv_limited > 64);
  CHECK(r.max_sequences_given());
  CHECK_FALSE(r.step_tokens_given());
  const dlperf::serve_estimate ceiling =
      dlperf::estimate_serving(d, m, q.model.run, dlperf::stacks::ceiling, c);
  CHECK(r.ceiling.saturation.decode_step == ceiling.decode_step);
  // The ceiling is never slower than the engine it brackets.
  CHECK(r.ceiling.saturation.decode_step <= r.at_stack.saturation.decode_step);
  REQUIRE(r.at_stack.load.has_value());
  CHECK(r.at_stack.load->ttft == dlperf::serve_at_rate(d, m, q.model.run, vllm, e, 3.0).ttft);
  // No vLLM serving run on one NVIDIA data-centre board is in the evidence: no band, and the
  // report says so rather than borrowing another engine's.
  CHECK_FALSE(r.band.has_value());
  CHECK(r.band.has_value() == dlperf::serving_band_of(dlperf::stack_id::vllm,
                                                      dlperf::vendor::nvidia,
                                                      dlperf::board_class::hbm, false)
                                  .has_value());
  const nlohmann::json j = dlperf::app::to_json(r);
  CHECK(j["gpu"] == "h100_sxm");
  CHECK(j["stack"] == "vllm");
  CHECK(j["stack_measured"].is_null());
  CHECK(j["max_sequences"] == 64);
  CHECK(j["decode_step_s"].get<double>() == e.decode_step.value());
  CHECK(j["at_rate"]["requests_per_second"].get<double>() == 3.0);
  CHECK(j["ceiling"]["decode_step_s"].get<double>() == ceiling.decode_step.value());
}

TEST_CASE("a serve report runs a device file's GPU on the figures it measured for the stack") {
  const std::string file = "dlperf_app_serve_device.json";
  std::ofstream(file) << R"({"schema": "dlperf-device", "version": 2, "kind": "gpu",
      "base": "h100_sxm", "stacks": {"vllm": {"attention_efficiency":
      {"value": 0.3, "method": "a test's figure"}}}})";
  dlperf::io::string_store strings;
  const auto served = [&](const std::string& device) {
    return dlperf::app::estimate(dlperf::app::serve_request_from_keywords(
        {{"preset", "llama3_1_8b"},
         {device.empty() ? "gpu" : "device", device.empty() ? "h100_sxm" : device},
         {"prompt", "1000"},
         {"generate", "1000"},
         {"stack", "vllm"}},
        strings));
  };
  const dlperf::app::serve_report measured = served(file);
  const dlperf::app::serve_report catalog = served("");
  REQUIRE(measured.measured != nullptr);
  CHECK(measured.stack.attention_efficiency.value == 0.3);
  // A lower attention share than the record's makes every decode step slower.
  CHECK(measured.at_stack.saturation.decode_step > catalog.at_stack.saturation.decode_step);
  const nlohmann::json j = dlperf::app::to_json(measured);
  CHECK(j["stack_measured"]["attention_efficiency"]["value"].get<double>() == 0.3);
  std::remove(file.c_str());
}

TEST_CASE("a serve request names what is wrong with it") {
  dlperf::io::string_store strings;
  const auto refused = [&](dlperf::app::keyword_fields f) {
    f.insert(f.begin(), {{"preset", "llama3_1_8b"}, {"gpu", "h100_sxm"}});
    return [&strings, f] { (void)dlperf::app::serve_request_from_keywords(f, strings); };
  };
  CHECK_THROWS_WITH(refused({{"train", "true"}, {"generate", "8"}})(),
                    Catch::Contains("--serve is inference"));
  CHECK_THROWS_WITH(refused({{"generate", "8"}, {"batch", "4"}})(),
                    Catch::Contains("--batch: under --serve the KV memory sets the batch"));
  CHECK_THROWS_WITH(refused({{"prompt", "8"}})(), Catch::Contains("--serve needs --generate"));
  CHECK_THROWS_WITH(refused({{"generate", "8"}, {"gpu_layers", "4"}})(),
                    Catch::Contains("--gpu-layers: --serve keeps every layer on the GPU"));
  CHECK_THROWS_WITH(refused({{"generate", "8"}, {"block_size", "0"}})(),
                    Catch::Contains("--block-size"));
  CHECK_THROWS_WITH(refused({{"generate", "8"}, {"kv_fraction", "1.5"}})(),
                    Catch::Contains("--kv-fraction '1.5' must be in"));
  CHECK_THROWS_WITH(refused({{"generate", "8"}, {"rate", "x"}})(), Catch::Contains("--rate"));
  CHECK_THROWS_WITH(refused({{"generate", "8"}, {"rate", "1"}, {"rate", "2"}})(),
                    Catch::Contains("'rate' given twice"));
  CHECK_THROWS_WITH(refused({{"generate", "8"}, {"queue", "1"}})(), Catch::Contains("queue"));
  // A rate at or above saturation has no steady state: the library says so.
  CHECK_THROWS_AS(
      dlperf::app::estimate(dlperf::app::serve_request_from_keywords(
          {{"preset", "llama3_1_8b"}, {"gpu", "h100_sxm"}, {"generate", "8"}, {"rate", "1e6"}},
          strings)),
      dlperf::invalid_argument);
  dlperf::app::serve_request none;
  none.model.model = dlperf::presets::find("gpt2");
  CHECK_THROWS_WITH(dlperf::app::estimate(none),
                    Catch::Contains("serve: the request names a null GPU"));
}

TEST_CASE("the commands run from keywords are one table, each giving its report's JSON") {
  std::set<std::string_view> names;
  for (const dlperf::app::keyword_command& c : dlperf::app::keyword_commands()) {
    CHECK(names.insert(c.name).second);  // one entry per name: Python binds `<name>_json`
    CHECK(c.estimate != nullptr);
    CHECK_FALSE(c.command_line.empty());
  }
  for (const char* name : {"model", "serve", "cluster", "gemm", "roofline", "power", "debias",
                           "tco", "rank", "speedup", "advise", "rent"})
    CHECK(names.count(name) == 1);
  // Each entry is its request's reader, estimate and to_json, as the tool runs them.
  const dlperf::app::keyword_fields gemm{
      {"gpu", "h100_sxm"}, {"m", "4096"}, {"n", "4096"}, {"k", "4096"}};
  CHECK(dlperf::app::report_json("gemm", gemm) ==
        dlperf::app::to_json(dlperf::app::estimate(dlperf::app::gemm_request_from_keywords(gemm))));
  const dlperf::app::keyword_fields rank{{"task", "llama3_8b"}, {"mode", "infer"}};
  CHECK(dlperf::app::report_json("rank", rank) ==
        dlperf::app::to_json(dlperf::app::estimate(dlperf::app::rank_request_from_keywords(rank))));
  const dlperf::app::keyword_fields serve{
      {"preset", "llama3_1_8b"}, {"gpu", "h100_sxm"}, {"generate", "128"}};
  dlperf::io::string_store strings;
  CHECK(dlperf::app::report_json("serve", serve) ==
        dlperf::app::to_json(
            dlperf::app::estimate(dlperf::app::serve_request_from_keywords(serve, strings))));
  CHECK_THROWS_WITH(dlperf::app::report_json("plot", {}),
                    Catch::Contains("unknown command 'plot' (valid: model, serve,"));
  CHECK_THROWS_WITH(dlperf::app::report_json("gemm", {{"gpu", "h100_sxm"}}),
                    Catch::Contains("--m"));
}

TEST_CASE("a model by its shape keywords is the transformer the tool's shape flags describe") {
  // Llama 2 7B by its shape (Meta's config.json: 32 layers of 4096, 32 heads, SwiGLU of 11008,
  // RMSNorm, no biases, a separate LM head): the preset's 6.74 B parameters, and its estimate.
  dlperf::io::string_store strings;
  const dlperf::app::keyword_fields shape{
      {"layers", "32"},           {"hidden", "4096"},  {"heads", "32"},
      {"ffn", "11008"},           {"vocab", "32000"},  {"max_seq", "4096"},
      {"ffn_kind", "swiglu"},     {"norm", "rmsnorm"}, {"no_biases", "true"},
      {"untied_embeddings", "1"}, {"gpu", "h100_sxm"}, {"mode", "infer"},
      {"generate", "128"}};
  const dlperf::app::model_request q = dlperf::app::request_from_keywords(shape, strings);
  const dlperf::model_spec& llama = dlperf::presets::find("llama2_7b");
  CHECK(q.model.parameters() == llama.parameters());
  CHECK(std::abs(q.model.parameters() / 6.74e9 - 1) < 0.005);  // Touvron et al. 2023
  dlperf::app::model_request preset = q;
  preset.model = llama;
  CHECK(dlperf::app::estimate(q).estimate.stack.time ==
        dlperf::app::estimate(preset).estimate.stack.time);
  // Every shape keyword is a flag's, and sets what the flag sets.
  CHECK(dlperf::app::shape_keywords().size() ==
        5 + 3 + dlperf::app::shape_sizes.size() + dlperf::app::shape_switches.size());
  dlperf::app::shape_options o;
  CHECK(dlperf::app::set_shape_keyword(o, "kv_lora_rank", "512"));
  CHECK(o.sizes[10] == "512");
  CHECK(o.first_given == "--kv-lora-rank");
  CHECK(dlperf::app::set_shape_keyword(o, "qk_norm", "true"));
  CHECK(o.switches[3]);
  CHECK(o.first_given == "--kv-lora-rank");  // the first one given stays
  CHECK_FALSE(dlperf::app::set_shape_keyword(o, "batch", "8"));
}

TEST_CASE("a model by its shape names what is missing, doubled or misplaced") {
  dlperf::io::string_store strings;
  const auto refused = [&](dlperf::app::keyword_fields f) {
    f.emplace_back("gpu", "h100_sxm");
    return [&strings, f] { (void)dlperf::app::request_from_keywords(f, strings); };
  };
  CHECK_THROWS_WITH(
      refused({{"layers", "2"}, {"heads", "2"}, {"vocab", "100"}, {"max_seq", "64"}})(),
      Catch::Contains("--hidden is required with --layers"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}, {"hidden", "1024"}})(),
                    Catch::Contains("--hidden describes a model by its shape"));
  CHECK_THROWS_WITH(refused({{"preset", "gpt2"}, {"layers", "2"}})(),
                    Catch::Contains("give exactly one of --preset NAME, --config FILE"));
  CHECK_THROWS_WITH(refused({{"hidden", "64"}})(), Catch::Contains("give a model"));
  CHECK_THROWS_WITH(refused({{"layers", "2"}, {"norm", "batchnorm"}})(), Catch::Contains("--norm"));
  CHECK_THROWS_WITH(refused({{"layers", "2"}, {"no_biases", "maybe"}})(),
                    Catch::Contains("--no-biases"));
  CHECK_THROWS_WITH(refused({{"layers", "2"},
                             {"hidden", "0"},
                             {"heads", "2"},
                             {"vocab", "100"},
                             {"max_seq", "64"}})(),
                    Catch::Contains("--hidden"));
  // A grid's model is a preset or model file axis, or a shape: not both, and a shape with layers.
  CHECK_THROWS_WITH(dlperf::app::sweep({{"preset", {"gpt2"}}, {"gpu", {"t4"}}, {"hidden", {"64"}}}),
                    Catch::Contains("sweep: give a model by preset or by its shape (hidden, ...)"));
  CHECK_THROWS_WITH(dlperf::app::sweep({{"hidden", {"64"}}, {"gpu", {"t4"}}}),
                    Catch::Contains("sweep: a model by its shape needs layers"));
}

TEST_CASE("a sweep over shapes gives at each point the model request of the same keywords") {
  using dlperf::app::sweep_axis;
  const std::vector<sweep_axis> axes{{"layers", {"12", "24"}}, {"hidden", {"768", "2048"}},
                                     {"heads", {"16"}},        {"kv_heads", {"4", "16"}},
                                     {"vocab", {"32000"}},     {"max_seq", {"4096"}},
                                     {"ffn_kind", {"swiglu"}}, {"gpu", {"rtx_4090"}},
                                     {"mode", {"infer"}},      {"generate", {"64"}}};
  const std::vector<dlperf::app::sweep_point> rows = dlperf::app::sweep(axes, 2);
  REQUIRE(rows.size() == 8);
  std::size_t i = 0;
  for (const std::string& layers : axes[0].values)
    for (const std::string& hidden : axes[1].values)
      for (const std::string& kv_heads : axes[3].values) {
        INFO(layers << " x " << hidden << ", " << kv_heads << " KV heads");
        const dlperf::app::keyword_fields fields{
            {"layers", layers}, {"hidden", hidden},  {"heads", "16"},        {"kv_heads", kv_heads},
            {"vocab", "32000"}, {"max_seq", "4096"}, {"ffn_kind", "swiglu"}, {"gpu", "rtx_4090"},
            {"mode", "infer"},  {"generate", "64"}};
        const nlohmann::json one = dlperf::app::report_json("model", fields);
        const dlperf::app::sweep_point& row = rows[i++];
        CHECK(row.error.empty());
        CHECK(row.decode_tokens_per_s == one["decode_tokens_per_s"].get<double>());
        CHECK(row.memory_bytes == one["memory"]["total_bytes"].get<double>());
      }
  // Bigger shapes decode slower on the same GPU.
  CHECK(*rows[7].decode_tokens_per_s < *rows[0].decode_tokens_per_s);
  // A shape the model refuses is a row with its reason, naming the flag.
  const std::vector<dlperf::app::sweep_point> bad = dlperf::app::sweep({{"layers", {"2"}},
                                                                        {"hidden", {"64", "0"}},
                                                                        {"heads", {"2"}},
                                                                        {"vocab", {"100"}},
                                                                        {"max_seq", {"64"}},
                                                                        {"gpu", {"rtx_4090"}}});
  REQUIRE(bad.size() == 2);
  CHECK(bad[0].error == "");
  CHECK_THAT(bad[1].error, Catch::Contains("--hidden"));
}

TEST_CASE("a sweep's max_seq beside a preset is its context, as the model request's") {
  // Llama 3.1 8B at its released 128K and extended to 256K, each sequence over 8 GPUs (cp 8).
  const dlperf::app::keyword_fields run{{"gpu", "h100_sxm"}, {"mode", "train"}, {"gpus", "8"},
                                        {"cp", "8"},         {"seq", "262144"}, {"zero", "3"}};
  std::vector<dlperf::app::sweep_axis> axes{{"preset", {"llama3_1_8b", "resnet50"}},
                                            {"max_seq", {"131072", "262144"}}};
  for (const auto& [k, v] : run) axes.push_back({k, {v}});
  const std::vector<dlperf::app::sweep_point> rows = dlperf::app::sweep(axes, 1);
  REQUIRE(rows.size() == 4);
  CHECK_THAT(rows[0].error, Catch::Contains("exceeds the model's context (131072)"));
  REQUIRE(rows[1].error.empty());
  dlperf::app::keyword_fields fields{{"preset", "llama3_1_8b"}, {"max_seq", "262144"}};
  fields.insert(fields.end(), run.begin(), run.end());
  const nlohmann::json one = dlperf::app::report_json("model", fields);
  CHECK(one["cp"] == 8);
  CHECK(rows[1].tokens_per_s == one["tokens_per_s"].get<double>());
  CHECK(rows[1].communication_s == one["communication_s"].get<double>());
  // A CNN has no context to extend: its rows give the reason.
  CHECK_THAT(rows[2].error, Catch::Contains("--max-seq extends a transformer's context"));
  CHECK_THAT(rows[3].error, Catch::Contains("resnet50 is a CNN"));
  // max_seq alone is not a model; beside another shape keyword it is the shape's.
  CHECK_THROWS_WITH(dlperf::app::sweep({{"max_seq", {"64"}}, {"gpu", {"t4"}}}),
                    Catch::Contains("sweep: a model by its shape needs layers"));
}

TEST_CASE(
    "every field of the page's form is a run field, a serving keyword, or the model, the GPUs or "
    "the mode") {
  // The page lays out its form from the module's run fields (web/dlperf_page.js, fieldElement):
  // a field of index.html's own is the run field whose flag it is named after, so a name that is
  // not one would be a field the page never sends. Its serving box holds the switch `serve` and
  // serving keywords (app::serve_keywords), which its serving request sends by name.
  std::ifstream in(std::string(DLPERF_SOURCE_DIR) + "/web/index.html");
  REQUIRE(in);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string form = page.substr(0, page.find("</form>"));
  std::size_t fields = 0, serving = 0;
  for (const std::string tag : {"<input ", "<select "})
    for (std::size_t at = form.find(tag); at != std::string::npos; at = form.find(tag, at + 1)) {
      const std::size_t id = form.find("id=\"", at);
      REQUIRE(id < form.find('>', at));
      const std::string name = form.substr(id + 4, form.find('"', id + 4) - id - 4);
      INFO(name);
      if (name == "preset" || name == "gpu" || name == "mode" || name.starts_with("source-"))
        continue;
      if (name == "serve") {
        ++serving;
        continue;
      }
      const auto serve = dlperf::app::serve_keywords();
      if (std::find(serve.begin(), serve.end(), name) != serve.end()) {
        ++serving;
        continue;
      }
      CHECK(dlperf::app::run_field_of("--" + name).flag == "--" + name);
      ++fields;
    }
  CHECK(fields == 11);  // gpus, split, batch, seq, generate, dtype, weights, stack, doc-tokens,
                        // packing, nchw
  CHECK(serving == 5);  // serve, concurrency, rate, prompt_min, generate_min
}
