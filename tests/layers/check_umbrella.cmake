# Checks that the umbrella header dlperf/dlperf.hpp includes, directly or through the headers it
# includes, every public header of the tree, so that a new header cannot be forgotten. The
# optional headers the umbrella documents as left out are exempt: dlperf/io/ (needs
# nlohmann_json) and dlperf/calibrate/ (measurement and the CUDA/HIP backends).
#
#   cmake -DINCLUDE_DIR=<dir holding dlperf/> -P check_umbrella.cmake
#
# Exits non-zero listing every header the umbrella does not reach.
cmake_minimum_required(VERSION 3.21)
if(NOT INCLUDE_DIR)
  message(FATAL_ERROR "check_umbrella: pass -DINCLUDE_DIR=<dir holding dlperf/>")
endif()
get_filename_component(INCLUDE_DIR ${INCLUDE_DIR} ABSOLUTE)
include(${CMAKE_CURRENT_LIST_DIR}/headers.cmake)
set(umbrella dlperf/dlperf.hpp)
set(optional "^dlperf/(io|calibrate)/")

# Transitive closure of the <dlperf/...> includes, starting from the umbrella.
set(reached ${umbrella})
set(queue ${umbrella})
while(queue)
  list(POP_FRONT queue header)
  if(NOT EXISTS ${INCLUDE_DIR}/${header})
    continue()
  endif()
  dlperf_includes_of(${header} includes)
  foreach(included IN LISTS includes)
    if(NOT included IN_LIST reached)
      list(APPEND reached ${included})
      list(APPEND queue ${included})
    endif()
  endforeach()
endwhile()

dlperf_headers(headers check_umbrella)
set(missing "")
foreach(header IN LISTS headers)
  if(header MATCHES "${optional}")
    continue()
  endif()
  if(NOT header IN_LIST reached)
    string(APPEND missing "\n  ${header}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "check_umbrella: ${umbrella} does not include:${missing}\n"
                      "Include them there, or document them as optional (docs/layers.md).")
endif()
list(LENGTH reached count)
message(STATUS "check_umbrella: ${umbrella} reaches all ${count} public headers")
