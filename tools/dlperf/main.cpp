// dlperf: analytical GPU performance models for deep learning, from the command line.
//
// Exit codes: 0 success, 2 bad input (one line on stderr naming the problem), 1 anything else.
#include <string>
#include <vector>

#include "cli_support.hpp"

int main(int argc, char** argv) {
  // The program name is the tool's own; run_tool reads the words after it.
  return dlperf::cli::run_tool(std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + argc));
}
