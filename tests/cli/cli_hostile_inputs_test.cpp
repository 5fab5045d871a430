// Every value flag of every computing command, given values a user mistypes or an attacker
// chooses (docs/buying.md, "Plausible inputs"): the tool either rejects it, with exit code 2 and
// one line naming the flag, or answers with figures that are all finite and readable. The flags
// come from the tool's own parsers, so a flag added later is swept without a word here.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "command_table.hpp"

namespace {

struct hostile_outcome {
  int exit_code;
  std::string out;
  std::string err;
};

std::string text_of(std::FILE* f) {
  std::string s;
  std::rewind(f);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) s.append(buffer, n);
  std::fclose(f);
  return s;
}

// Runs the tool in this process (dlperf::cli::run_tool, what main() calls) with its stdout and
// stderr caught in files: a few thousand command lines cost seconds, not a process each.
hostile_outcome run_caught(const std::vector<std::string>& args) {
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  REQUIRE(out != nullptr);
  REQUIRE(err != nullptr);
  const int saved_out = dup(1);
  const int saved_err = dup(2);
  dup2(fileno(out), 1);
  dup2(fileno(err), 2);
  const int code = dlperf::cli::run_tool(args);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  return {code, text_of(out), text_of(err)};
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : line) {
    if (c == ' ') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

// The value flags of command @p name (long names with their dashes), from the tool's parser. Files
// are left out (they have tests of their own: device files are fuzzed), as are flags.
std::vector<std::string> value_flags_of(const std::string& name) {
  CLI::App app;
  dlperf::cli::add_commands(app);
  const CLI::App* cmd = app.get_subcommand(name);
  static const std::set<std::string> files{"--device", "--config",      "--prices",
                                           "--out",    "--from-device", "--to-device"};
  std::vector<std::string> flags;
  for (const CLI::Option* o : cmd->get_options()) {
    if (o->get_expected_max() == 0 || o->get_lnames().empty()) continue;  // a flag
    const std::string flag = "--" + o->get_lnames().front();
    if (files.count(flag) == 0) flags.push_back(flag);
  }
  return flags;
}

// What a user mistypes and what a hostile caller tries: zero, negatives, just above zero, far
// above anything real, not-a-number, infinities, a count past 2^63, a number past a double, words
// and suffixes the tool does not know, an empty value and a fraction where a count belongs.
const std::vector<std::string> hostile_values{
    "0",     "-1",  "1e-308", "1e308", "nan", "inf",  "-inf", "9223372036854775808",
    "1e400", "abc", "",       "0.5",   "7x",  "1e15", "-0"};

// A figure the tool prints that nobody could act on: NaN, infinity, or a power of ten past 99
// either way (a time of 1e305 s, a share of 1e-300).
bool absurd(const std::string& text) {
  static const std::regex bad(
      R"((^|[^A-Za-z_])-?(nan|inf|NaN|Inf|INF|NAN)($|[^A-Za-z_])|[0-9]e[-+]?[0-9]{3})");
  return std::regex_search(text, bad);
}

struct sweep_tally {
  int runs = 0;
  int rejected = 0;
  int accepted = 0;
  std::vector<std::string> failures;  // each: the command line, what is wrong, what it printed
};

// Sweeps every value flag of command @p name over hostile_values, each added to (or put in place
// of the same flag in) the command line @p base, the run that flag needs to mean something. Flags
// in @p bases map to a base of their own (a shape flag needs shape flags, not a preset).
sweep_tally sweep_command(const std::string& name, const std::string& base,
                          const std::map<std::string, std::string>& bases = {}) {
  sweep_tally tally;
  for (const std::string& flag : value_flags_of(name)) {
    const auto own = bases.find(flag);
    const std::vector<std::string> base_words = words_of(own == bases.end() ? base : own->second);
    for (const std::string& value : hostile_values) {
      std::vector<std::string> args{name};
      bool replaced = false;
      for (std::size_t i = 0; i < base_words.size(); ++i) {
        args.push_back(base_words[i]);
        if (base_words[i] == flag && i + 1 < base_words.size()) {
          args.push_back(value);
          ++i;
          replaced = true;
        }
      }
      if (!replaced) {
        args.push_back(flag);
        args.push_back(value);
      }
      std::string line = "dlperf";
      for (const std::string& a : args) line += " " + (a.empty() ? std::string("''") : a);
      const hostile_outcome r = run_caught(args);
      ++tally.runs;
      std::string why;
      if (r.exit_code == 2) {
        ++tally.rejected;
        if (!r.out.empty())
          why = "printed to stdout as well";
        else if (std::count(r.err.begin(), r.err.end(), '\n') != 1)
          why = "not one line";
        else if (r.err.find(flag) == std::string::npos)
          why = "does not name " + flag;
      } else {
        ++tally.accepted;
        if (r.exit_code != 0)
          why = "exit code " + std::to_string(r.exit_code);
        else if (absurd(r.out))
          why = "an absurd figure";
        else if (!r.err.empty())
          why = "wrote to stderr";
      }
      if (!why.empty())
        tally.failures.push_back(line + "\n    " + why + ": " +
                                 (r.exit_code == 0 ? r.out.substr(0, 600) : r.err));
    }
  }
  WARN(name << ": " << tally.runs << " command lines, " << tally.rejected << " rejected, "
            << tally.accepted << " answered");
  std::string shown;
  for (std::size_t i = 0; i < std::min<std::size_t>(tally.failures.size(), 40); ++i)
    shown += tally.failures[i] + "\n";
  INFO(tally.failures.size() << " failures:\n" << shown);
  CHECK(tally.failures.empty());
  return tally;
}

}  // namespace

TEST_CASE("roofline, gemm and cycles reject every hostile value naming its flag, or answer sanely",
          "[cli][hostile]") {
  const sweep_tally r =
      sweep_command("roofline", "--gpu h100_sxm --dtype bf16 --flops 1e12 --bytes 1e9");
  const sweep_tally g = sweep_command("gemm", "--gpu h100_sxm --m 4096 --n 4096 --k 4096");
  const sweep_tally c = sweep_command("cycles", "");
  CHECK(r.rejected > r.runs / 2);
  CHECK(g.rejected > g.runs / 2);
  CHECK(c.runs == static_cast<int>(value_flags_of("cycles").size() * hostile_values.size()));
}

TEST_CASE("model rejects every hostile value naming its flag, or answers sanely",
          "[cli][hostile]") {
  const std::string shapes =
      "--layers 4 --hidden 512 --heads 8 --vocab 32000 --max-seq 2048 --gpu rtx_4090 ";
  std::map<std::string, std::string> bases;
  for (const char* f : {"--layers", "--hidden", "--heads", "--vocab", "--max-seq", "--kv-heads",
                        "--head-dim", "--ffn", "--token-types", "--experts", "--experts-per-token",
                        "--expert-ffn", "--shared-expert-ffn", "--dense-layers", "--q-lora-rank",
                        "--kv-lora-rank", "--rope-head-dim", "--v-head-dim"})
    bases[f] = shapes;
  for (const char* f : {"--rate", "--block-size", "--kv-fraction", "--step-tokens", "--max-seqs",
                        "--concurrency", "--prompt-min", "--generate-min"})
    bases[f] = "--preset llama2_7b --gpu h100_sxm --infer --serve --generate 128 --rate 1";
  for (const char* f : {"--prompt", "--generate", "--split", "--kv-dtype", "--weights"})
    bases[f] = "--preset llama2_7b --gpu rtx_4090 --infer --stack llama.cpp";
  for (const char* f : {"--image"}) bases[f] = "--preset resnet50 --gpu rtx_4090";
  bases["--lora-targets"] = "--preset llama2_7b --gpu rtx_4090 --lora 16";
  bases["--gpu-layers"] = "--preset llama2_7b --gpu rtx_4090 --infer --stack llama.cpp";
  bases["--host-memory"] =
      "--preset llama2_7b --gpu rtx_4090 --infer --stack llama.cpp --gpu-layers 10";
  bases["--vpp"] = "--preset llama2_7b --gpu h100_sxm --gpus 8 --pp 4";
  const sweep_tally m = sweep_command("model", "--preset gpt2 --gpu rtx_4090", bases);
  CHECK(m.rejected > m.runs / 2);
}

TEST_CASE("the buying commands reject every hostile value naming its flag, or answer sanely",
          "[cli][hostile]") {
  const sweep_tally a = sweep_command("advise", "--preset gpt2 --budget 3000");
  const sweep_tally k = sweep_command("rank", "--task infer8");
  const sweep_tally s = sweep_command("speedup", "--from rtx_3090 --to h100_sxm --preset gpt2");
  CHECK(a.rejected > a.runs / 2);
  CHECK(k.rejected > k.runs / 2);
  CHECK(s.rejected > s.runs / 2);
}

TEST_CASE(
    "cluster, power, tco and debias reject every hostile value naming its flag, or answer "
    "sanely",
    "[cli][hostile]") {
  const sweep_tally c =
      sweep_command("cluster", "--gpu rtx_3090 --gpus 4 --link pcie4_x16 --preset gpt2");
  const sweep_tally p = sweep_command("power", "--gpu rtx_4090 --count 2");
  const sweep_tally t = sweep_command("tco", "--gpu rtx_4090 --kwh-price 0.15 --utilization 0.5");
  const sweep_tally d = sweep_command("debias", "--ratio 2");
  CHECK(c.rejected > c.runs / 2);
  CHECK(p.rejected > p.runs / 2);
  CHECK(t.rejected > t.runs / 2);
  CHECK(d.rejected > d.runs / 2);
}
