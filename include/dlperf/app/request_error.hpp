/// @file
/// The error a front end's request is refused with: a flag, a keyword or a field that is wrong,
/// named in the message. The tool exits with code 2 and prints it as one line, Python raises
/// dlperf.Error with it, a sweep's row carries it as its reason (docs/layers.md, "The
/// application layer").
#pragma once

#include <stdexcept>

namespace dlperf::app {

/// A request that cannot run as given. The message names what is wrong: the flag or keyword
/// ("--batch '0' must be a positive whole number") or the combination ("give one of --train and
/// --infer").
class request_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dlperf::app
