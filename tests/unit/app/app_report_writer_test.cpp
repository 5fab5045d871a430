// The sink reports are written to (dlperf/app/report_writer.hpp): the JSON it builds, a JSON value
// replayed through it, and what every report written member by member must obey for Python's
// writer (python/module.cpp), which sorts each object's keys and takes each key once.
#include <catch2/catch.hpp>
#include <cmath>
#include <dlperf/app/keyword_reports.hpp>
#include <dlperf/app/report_json.hpp>
#include <dlperf/app/report_writer.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using dlperf::app::keyword_fields;
using dlperf::app::report_writer;

// A writer that checks the order of what it is given and counts it: keys only inside objects
// and each once there, a value after each key, no array or object closed that is not open, and
// one value in all. Numbers must be finite (JSON has no NaN; nlohmann would write null).
class checking_writer final : public report_writer {
 public:
  std::vector<std::string> faults;
  int values = 0;
  int keys = 0;

  void null() override { value(); }
  void boolean(bool) override { value(); }
  void integer(std::int64_t) override { value(); }
  void number(double x) override {
    if (!std::isfinite(x)) faults.push_back("a number that is not finite at " + where());
    value();
  }
  void string(std::string_view) override { value(); }
  void key(std::string_view k) override {
    ++keys;
    if (open_.empty() || open_.back().array)
      faults.push_back("key '" + std::string(k) + "' outside an object");
    else if (pending_)
      faults.push_back("key '" + std::string(k) + "' after a key with no value");
    else if (!open_.back().keys.insert(std::string(k)).second)
      faults.push_back("key '" + std::string(k) + "' twice in one object");
    pending_ = true;
    last_ = std::string(k);
  }
  void begin_object() override { begin(false); }
  void begin_array() override { begin(true); }
  void end_object() override { end(false); }
  void end_array() override { end(true); }
  bool complete() const { return open_.empty() && !pending_ && values == 1; }

 private:
  struct level {
    bool array;
    std::set<std::string> keys;
  };
  std::string where() const { return "'" + last_ + "'"; }
  void value() {
    if (open_.empty()) {
      ++values;
      return;
    }
    if (!open_.back().array && !pending_) faults.push_back("a value with no key after " + where());
    pending_ = false;
  }
  void begin(bool array) {
    // The object or array is the value of the key before it: that key is taken now.
    if (!open_.empty() && !open_.back().array && !pending_)
      faults.push_back("an object or array with no key after " + where());
    pending_ = false;
    open_.push_back({array, {}});
  }
  void end(bool array) {
    if (open_.empty() || open_.back().array != array) {
      faults.push_back(std::string("a close with no ") + (array ? "array" : "object") + " open");
      return;
    }
    if (pending_) faults.push_back("a key with no value: " + where());
    pending_ = false;
    open_.pop_back();
    if (open_.empty()) ++values;
  }
  std::vector<level> open_;
  bool pending_ = false;
  std::string last_;
};

// Requests of each command the layer runs from keywords, over what their reports write apart:
// training on one GPU and a sharded job, decoding with a split and an offload, a CNN, LoRA, a
// power limit, the ceiling, a transformer by its shape and no token generated.
const std::vector<std::pair<std::string, keyword_fields>>& requests() {
  static const std::vector<std::pair<std::string, keyword_fields>> all{
      {"model", {{"preset", "llama2_7b"}, {"gpu", "a100_sxm4_80gb"}, {"mode", "infer"}}},
      {"model",
       {{"preset", "llama3_8b"},
        {"gpu", "h100_sxm"},
        {"mode", "train"},
        {"batch", "2"},
        {"seq", "4096"},
        {"gpus", "8"},
        {"zero", "3"},
        {"stack", "megatron"}}},
      {"model",
       {{"preset", "llama3_70b"},
        {"gpu", "h100_sxm"},
        {"mode", "infer"},
        {"gpus", "4"},
        {"tp", "4"},
        {"stack", "vllm"}}},
      {"model",
       {{"preset", "llama3_70b"},
        {"gpu", "rtx_4090"},
        {"mode", "infer"},
        {"weights", "q4_k_m"},
        {"stack", "llama.cpp"}}},
      {"model", {{"preset", "resnet50"}, {"gpu", "a100_sxm4_80gb"}, {"mode", "train"}}},
      {"model", {{"preset", "gpt2"}, {"gpu", "rtx_4090"}, {"mode", "train"}, {"lora", "16"}}},
      {"model",
       {{"preset", "llama3_8b"}, {"gpu", "h100_sxm"}, {"mode", "train"}, {"power_limit", "500"}}},
      {"model", {{"preset", "llama3_8b"}, {"gpu", "h100_sxm"}, {"stack", "ceiling"}}},
      {"model",
       {{"layers", "24"},
        {"hidden", "2048"},
        {"heads", "16"},
        {"vocab", "32000"},
        {"max_seq", "4096"},
        {"gpu", "rtx_3090"},
        {"mode", "infer"},
        {"generate", "0"}}},
      {"serve",
       {{"preset", "llama3_1_8b"},
        {"gpu", "h100_sxm"},
        {"prompt", "1000"},
        {"generate", "128"},
        {"rate", "3"}}},
      {"cluster",
       {{"preset", "llama3_8b"}, {"gpu", "h100_sxm"}, {"gpus", "8"}, {"link", "nvlink4"}}},
      {"gemm", {{"gpu", "h100_sxm"}, {"m", "4096"}, {"n", "4096"}, {"k", "4096"}}},
      {"rank", {{"task", "llama3_8b"}, {"mode", "infer"}}},
  };
  return all;
}

dlperf::app::pending_report pending(const std::string& command, const keyword_fields& pairs) {
  for (const dlperf::app::keyword_command& c : dlperf::app::keyword_commands())
    if (c.name == command) return c.estimate(pairs);
  FAIL("no command " << command);
  return {};
}

}  // namespace

TEST_CASE("the JSON writer builds what it is given, and a JSON value replays through it as it is") {
  const nlohmann::json built = dlperf::app::json_of([](report_writer& w) {
    w.begin_object();
    dlperf::app::write_field(w, "b", 1.0);  // a double stays a double: "1.0", not "1"
    dlperf::app::write_field(w, "a", 2);
    dlperf::app::write_field(w, "c", {0.5, 1.5});
    w.key("d");
    w.begin_array();
    w.begin_object();
    dlperf::app::write_field(w, "x", nullptr);
    dlperf::app::write_field(w, "y", std::optional<int>());
    dlperf::app::write_field(w, "z", "text");
    w.end_object();
    w.boolean(false);
    w.end_array();
    w.end_object();
  });
  CHECK(built.dump() ==
        R"({"a":2,"b":1.0,"c":[0.5,1.5],"d":[{"x":null,"y":null,"z":"text"},false]})");
  // Every command's report: its JSON replayed through the writer is its JSON, byte for byte.
  for (const auto& [command, pairs] : requests()) {
    INFO(command);
    const nlohmann::json j = dlperf::app::report_json(command, pairs);
    CHECK(dlperf::app::json_of([&](report_writer& w) { dlperf::app::write_value(w, j); }).dump() ==
          j.dump());
  }
}

TEST_CASE("every report is written well formed: keys in objects, each once, all closed, finite") {
  checking_writer bad;  // the check itself: a key twice is a fault, an open object incomplete
  bad.begin_object();
  dlperf::app::write_field(bad, "a", 1);
  dlperf::app::write_field(bad, "a", 2);
  CHECK(bad.faults == std::vector<std::string>{"key 'a' twice in one object"});
  CHECK_FALSE(bad.complete());
  for (const auto& [command, pairs] : requests()) {
    INFO(command << " " << pairs.front().second);
    checking_writer w;
    pending(command, pairs)(w);
    CHECK(w.faults == std::vector<std::string>{});
    CHECK(w.complete());
    CHECK(w.keys > 5);
  }
}

TEST_CASE("a pending report keeps what it needs: written later, copied, and from a model file") {
  dlperf::app::pending_report later;
  std::string expected;
  {
    const keyword_fields model_file{{"config", DLPERF_SOURCE_DIR "/tests/data/hf/llama3_2_1b.json"},
                                    {"gpu", "rtx_4090"},
                                    {"mode", "infer"}};
    later = pending("model", model_file);
    expected = dlperf::app::report_json("model", model_file).dump();
  }
  const dlperf::app::pending_report copy = later;
  later = nullptr;
  const nlohmann::json written = dlperf::app::json_of(copy);
  CHECK(written.dump() == expected);
  CHECK(written["model"] == "llama3_2_1b");  // a name the model file's store holds
}
