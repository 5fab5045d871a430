// docs/questions.md, the practitioner's page, is run here: every ```console block there starts
// with "$ dlperf ARGS" and shows the tool's output, and each must still exit 0 and print exactly
// that (a line "..." stands for any number of lines). The page cannot drift from the tool.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace {

struct console_block {
  std::string args;                 // what follows "$ dlperf "
  std::vector<std::string> output;  // the lines shown after it
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<console_block> console_blocks(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<console_block> blocks;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!inside && line == "```console") {
      inside = true;
      blocks.emplace_back();
    } else if (inside && line == "```") {
      inside = false;
    } else if (inside && blocks.back().args.empty()) {
      const std::string prompt = "$ dlperf ";
      REQUIRE(line.rfind(prompt, 0) == 0);  // a block opens with the command
      blocks.back().args = line.substr(prompt.size());
    } else if (inside) {
      blocks.back().output.push_back(line);
    }
  }
  REQUIRE_FALSE(inside);
  return blocks;
}

// Whether @p actual matches @p expected, where an expected "..." line matches any run of lines.
bool matches(const std::vector<std::string>& expected, std::size_t e,
             const std::vector<std::string>& actual, std::size_t a) {
  if (e == expected.size()) return a == actual.size();
  if (expected[e] == "...") {
    for (std::size_t skip = a; skip <= actual.size(); ++skip)
      if (matches(expected, e + 1, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && actual[a] == expected[e] && matches(expected, e + 1, actual, a + 1);
}

}  // namespace

TEST_CASE("docs/questions.md: every command on the page runs and prints what the page shows",
          "[cli][questions]") {
  const std::vector<console_block> blocks =
      console_blocks(std::string(DLPERF_SOURCE_DIR) + "/docs/questions.md");
  // The page's commands run from the repository root (it names files such as tests/data/...).
  REQUIRE(chdir(DLPERF_SOURCE_DIR) == 0);
  CHECK(blocks.size() >= 15);  // the page answers the 15 questions people ask most
  for (const console_block& block : blocks) {
    const dlperf_test::run_result r = dlperf_test::run_dlperf(block.args);
    INFO("$ dlperf " << block.args << "\nstdout:\n" << r.out << "stderr:\n" << r.err);
    CHECK(r.exit_code == 0);
    CHECK(matches(block.output, 0, lines_of(r.out), 0));
  }
}
