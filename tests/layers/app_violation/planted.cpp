// A planted violation for layers.app_check_catches_a_violation: the application layer reaching up
// into the tool.
#include <dlperf/app/model_report.hpp>

#include "cli_support.hpp"
