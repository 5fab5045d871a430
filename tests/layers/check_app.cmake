# Checks that the application layer stays under its front ends (docs/layers.md, "The application
# layer"): its sources (src/app/*.cpp) and headers (include/dlperf/app/*.hpp) include the library
# (<dlperf/...>), the standard library, fmt and nlohmann_json, never the tool's headers (a quoted
# include, "cli_support.hpp"), CLI11, nanobind or Emscripten, which belong to the tool, Python and
# the page above it.
#
#   cmake -DAPP_DIRS=<dir>[,<dir>...] -P check_app.cmake
#
# Exits non-zero listing every violation.
cmake_minimum_required(VERSION 3.21)
if(NOT APP_DIRS)
  message(FATAL_ERROR "check_app: pass -DAPP_DIRS=<dir>[,<dir>...]")
endif()
string(REPLACE "," ";" APP_DIRS "${APP_DIRS}")
set(files "")
foreach(dir IN LISTS APP_DIRS)
  file(GLOB found ${dir}/*.cpp ${dir}/*.hpp)
  list(APPEND files ${found})
endforeach()
if(NOT files)
  message(FATAL_ERROR "check_app: no sources under ${APP_DIRS}")
endif()
set(violations "")
foreach(f IN LISTS files)
  file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS lines)
    if(line MATCHES "#[ \t]*include[ \t]*\"" OR line MATCHES "<(CLI|nanobind|emscripten)[/.]")
      string(APPEND violations "\n  ${f}: ${line}")
    endif()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "the application layer includes a front end's header:${violations}")
endif()
list(LENGTH files n)
message(STATUS "dlperf application layer: ${n} files include no front end")
