// Answers that never mislead quietly (docs/models.md, "Does it fit?" and "Three rates"): the
// verdict before any number, figures of a run that cannot run marked as hypothetical in text and
// JSON, and the prompt, generation and request rates apart.
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <optional>
#include <string>

#include "../../tools/dlperf/human_format.hpp"
#include "cli_run.hpp"

using namespace dlperf;
using namespace dlperf_test;

namespace {

// Position of the first line of @p text that holds @p needle, or npos.
std::size_t line_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return at;
  return static_cast<std::size_t>(
      std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

}  // namespace

TEST_CASE("model: a run that does not fit says so before any time", "[cli][verdict]") {
  // Llama 3.3 70B in BF16 needs about 133 GiB: an RTX 3090 holds 24.
  const std::string run =
      "model --preset llama3_3_70b --infer --prompt 512 --generate 128 --gpu rtx_3090";
  const run_result r = run_dlperf(run);
  REQUIRE(r.exit_code == 0);
  const std::size_t verdict = line_of(r.out, "does NOT fit: it needs");
  REQUIRE(verdict != std::string::npos);
  CHECK(verdict == 1);  // the line after the run's header
  CHECK(verdict < line_of(r.out, "time to first token"));
  CHECK(verdict < line_of(r.out, " ms "));
  CHECK(r.out.find("of 24.0 GiB") != std::string::npos);
  // Every summary figure carries the mark.
  for (const char* line :
       {"time to first token", "prompt processing", "output tokens/s", "model FLOPs utilisation"}) {
    const std::size_t at = r.out.find(line);
    REQUIRE(at != std::string::npos);
    const std::string text = r.out.substr(at, r.out.find('\n', at) - at);
    INFO(text);
    CHECK(text.find("[hypothetical]") != std::string::npos);
  }
  CHECK(json_of(run + " --json")["fits"] == false);
  // A run that fits carries no mark.
  const run_result fits =
      run_dlperf("model --preset llama3_8b --infer --weights q4_k_m --gpu rtx_3090");
  REQUIRE(fits.exit_code == 0);
  CHECK(fits.out.find("hypothetical") == std::string::npos);
  CHECK(fits.out.find("does NOT fit") == std::string::npos);
}

TEST_CASE("model: prompt, generation and request rates come apart", "[cli][verdict]") {
  for (const char* shape :
       {"--batch 1 --prompt 512 --generate 128", "--batch 8 --prompt 2048 --generate 256"}) {
    const nlohmann::json j =
        json_of(std::string("model --preset llama3_8b --infer --weights q4_k_m --stack llama.cpp "
                            "--gpu rtx_4090 --json ") +
                shape);
    const double batch = j["batch"].get<double>(), prompt = j["prompt"].get<double>(),
                 generate = j["generate"].get<double>();
    const double pp = j["prompt_tokens_per_s"].get<double>();
    const double tg = j["decode_tokens_per_s"].get<double>();
    const double request = j["tokens_per_s"].get<double>();
    INFO(shape << ": pp " << pp << ", tg " << tg << ", request " << request);
    // Each rate is its own phase's: the prompt's tokens over the prefill, one token per sequence
    // over a decode step, and the request's generated tokens over all of it.
    CHECK(pp == Approx(batch * prompt / j["prefill_s"].get<double>()));
    CHECK(tg == Approx(batch / j["decode_s_per_token"].get<double>()));
    CHECK(1.0 / request ==
          Approx((j["prefill_s"].get<double>() + generate * j["decode_s_per_token"].get<double>()) /
                 (batch * generate)));
    // The first token's wait slows the request below generation alone; reading a prompt
    // (one matrix product over all its tokens) beats generating (one pass a token).
    CHECK(request < tg);
    CHECK(pp > tg);
    CHECK(j["ceiling"]["decode_tokens_per_s"].get<double>() >= tg);
  }
  // Nothing generated: no generation rate, rather than 0 tokens/s.
  const nlohmann::json prefill =
      json_of("model --preset llama3_8b --infer --gpu rtx_4090 --prompt 512 --generate 0 --json");
  CHECK(prefill["decode_tokens_per_s"].is_null());
  CHECK(prefill["prompt_tokens_per_s"].get<double>() > 0);
  // The text says both rates on one line.
  const run_result text = run_dlperf(
      "model --preset llama3_8b --infer --weights q4_k_m --gpu rtx_4090 --prompt 512 "
      "--generate 128");
  CHECK(text.out.find("prompt processing ") != std::string::npos);
  CHECK(text.out.find(" tokens/s, generation ") != std::string::npos);
}

TEST_CASE("speedup marks a ratio for a run that one side cannot hold", "[cli][verdict]") {
  // Issue 33's case: Llama 3.3 70B in BF16 fits neither an RTX 3090 nor an H100.
  const std::string run =
      "speedup --from rtx_3090 --to h100_sxm --preset llama3_3_70b --infer "
      "--prompt 512 --generate 128";
  const nlohmann::json j = json_of(run + " --json");
  CHECK(j["from_fits"] == false);
  CHECK(j["to_fits"] == false);
  const run_result r = run_dlperf(run);
  REQUIRE(r.exit_code == 0);
  CHECK(line_of(r.out, "does NOT fit rtx_3090") < line_of(r.out, "modelled"));
  CHECK(line_of(r.out, "does NOT fit h100_sxm") < line_of(r.out, "modelled"));
  CHECK(r.out.find("modelled (hypothetical") != std::string::npos);
  // In 4-bit weights the 70B fits the H100 (about 40 GiB) but still not the 3090.
  const nlohmann::json q = json_of(
      "speedup --from rtx_3090 --to h100_sxm --preset llama3_3_70b --infer --weights q4_k_m "
      "--prompt 512 --generate 128 --json");
  CHECK(q["from_fits"] == false);
  CHECK(q["to_fits"] == true);
  const nlohmann::json small = json_of(
      "speedup --from rtx_3090 --to h100_sxm --preset llama3_8b --infer --weights q4_k_m "
      "--prompt 512 --generate 128 --json");
  CHECK(small["from_fits"] == true);
  CHECK(small["to_fits"] == true);
  const run_result fine = run_dlperf(
      "speedup --from rtx_3090 --to h100_sxm --preset llama3_8b --infer --weights q4_k_m "
      "--prompt 512 --generate 128");
  CHECK(fine.out.find("hypothetical") == std::string::npos);
}

TEST_CASE("model: a stack's figures come with their held-out error on published runs",
          "[cli][verdict]") {
  const std::string run =
      "model --preset llama3_8b --gpu rtx_4090 --infer --weights q4_k_m --stack llama.cpp "
      "--prompt 512 --generate 128";
  const nlohmann::json j = json_of(run + " --json");
  // Decoder inference: one band for each of its rates.
  for (const estimate_figure f : {estimate_figure::decode, estimate_figure::prompt}) {
    const std::optional<error_band> band =
        error_band_of(stack_id::llama_cpp, run_mode::infer, f, board_class::consumer);
    REQUIRE(band.has_value());
    const nlohmann::json& b = j["error_bands"][std::string(name(f))];
    CHECK(b["rows"] == band->rows);
    CHECK(b["median_abs_error"].get<double>() == band->median);
    CHECK(b["bias"].get<double>() == band->bias);
    CHECK(b["coverage"].get<double>() == error_band::coverage);
    CHECK(b["measured_over_predicted"][0].get<double>() == band->low);
    CHECK(b["measured_over_predicted"][1].get<double>() == band->high);
    CHECK(b["boards"] == "consumer");
    CHECK(b["basis"] == "leave-one-source-out");
  }
  const run_result text = run_dlperf(run);
  CHECK(text.out.find("accuracy, each run held out of the fit by its source: generation ") !=
        std::string::npos);
  // On one GPU each rate comes with the interval its band gives it (80 % of the rows), in the
  // rate's unit, beside the median and the worst error.
  const std::optional<error_band> decode_band = error_band_of(
      stack_id::llama_cpp, run_mode::infer, estimate_figure::decode, board_class::consumer);
  REQUIRE(decode_band.has_value());
  const double decode_rate = j["decode_tokens_per_s"].get<double>();
  CHECK(text.out.find("generation measured " + cli::three_digits(decode_band->low) + "-" +
                      cli::three_digits(decode_band->high) + "x of this model's rate: " +
                      cli::three_digits(decode_band->low * decode_rate) + "-" +
                      cli::three_digits(decode_band->high * decode_rate) + " tokens/s (80 % of " +
                      std::to_string(decode_band->rows) + " published llama.cpp inference runs") !=
        std::string::npos);
  CHECK(text.out.find(", worst " + cli::format_percent(decode_band->worst, 1.0)) !=
        std::string::npos);
  CHECK(text.out.find("runs on GeForce and Radeon boards") != std::string::npos);
  // An HBM board gets the HBM class's bands (docs/evidence.md, "Error bands"), not the GeForce
  // boards': their own rows, error and interval.
  const std::string on_h100 =
      "model --preset llama3_8b --gpu h100_pcie --infer --weights q4_k_m --stack llama.cpp "
      "--prompt 512 --generate 128";
  const nlohmann::json h = json_of(on_h100 + " --json");
  const std::optional<error_band> hbm = error_band_of(stack_id::llama_cpp, run_mode::infer,
                                                      estimate_figure::prompt, board_class::hbm);
  REQUIRE(hbm.has_value());
  CHECK(h["error_bands"]["prompt"]["boards"] == "hbm");
  CHECK(h["error_bands"]["prompt"]["rows"] == hbm->rows);
  CHECK(h["error_bands"]["prompt"]["median_abs_error"].get<double>() == Approx(hbm->median));
  CHECK(h["error_bands"]["prompt"]["bias"].get<double>() == Approx(hbm->bias));
  CHECK(h["error_bands"]["prompt"]["measured_over_predicted"][0].get<double>() == Approx(hbm->low));
  CHECK(h["error_bands"]["prompt"]["measured_over_predicted"][1].get<double>() ==
        Approx(hbm->high));
  CHECK(run_dlperf(on_h100).out.find("runs on boards with HBM memory") != std::string::npos);
  // A run split over several GPUs also gets the band of published runs of its split, an interval
  // of its rates (docs/evidence.md, "Several GPUs"); one GPU, none.
  const std::string split =
      "model --preset llama3_70b --gpu rtx_3090 --infer --weights q4_k_m --dtype fp16 --no-flash "
      "--prompt 512 --generate 128 --gpus 2 --stack llama.cpp";
  const nlohmann::json sj = json_of(split + " --json");
  const std::optional<inference_split_band> layer_decode = inference_split_band_of(
      stack_id::llama_cpp, split_mode::layer, estimate_figure::decode, board_class::consumer);
  REQUIRE(layer_decode.has_value());
  const nlohmann::json& d = sj["split_bands"]["decode"];
  CHECK(d["split"] == "layer");
  CHECK(d["rows"] == layer_decode->rows);
  CHECK(d["tokens_per_s"][0].get<double>() < d["tokens_per_s"][1].get<double>());
  CHECK(d["measured_over_predicted"][0].get<double>() == Approx(layer_decode->low));
  CHECK(sj["split_bands"]["prompt"]["boards"] == "consumer");
  const std::string split_text = run_dlperf(split).out;
  CHECK(split_text.find("(these from runs on one GPU)") != std::string::npos);
  CHECK(split_text.find("on 2 GPUs: generation measured ") != std::string::npos);
  CHECK(json_of(on_h100 + " --json")["split_bands"].is_null());
  CHECK(run_dlperf(on_h100).out.find("split by layers") == std::string::npos);
  // A training step: one band for the step.
  const nlohmann::json train = json_of(
      "model --preset bert_base --gpu a100_sxm4_80gb --batch 32 --seq 128 --stack pytorch-eager "
      "--json");
  CHECK(train["error_bands"]["step"]["rows"].get<int>() >= error_band::least_rows);
  // A stack with too few published runs says so; the ceiling is a bound, not a prediction.
  const nlohmann::json trt = json_of(
      "model --preset llama3_8b --gpu h100_sxm --infer --generate 16 --stack tensorrt-llm --json");
  CHECK(trt["error_bands"]["decode"].is_null());
  CHECK(run_dlperf("model --preset llama3_8b --gpu h100_sxm --infer --stack tensorrt-llm")
            .out.find("no band yet") != std::string::npos);
  CHECK(json_of("model --preset llama3_8b --gpu h100_sxm --infer --json")["error_bands"].is_null());
  CHECK(run_dlperf("model --preset llama3_8b --gpu h100_sxm --infer").out.find("accuracy") ==
        std::string::npos);
}
