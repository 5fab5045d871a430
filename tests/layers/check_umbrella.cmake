# Checks that an umbrella header includes, directly or through the headers it includes, every
# public header of the layers it stands for, so that a new header cannot be forgotten, and none of
# a layer it must leave out (a kernel engineer's header must not drag in the buying layer). By
# default the umbrella is dlperf/dlperf.hpp and stands for every layer; the optional headers it
# documents as left out are exempt: dlperf/io/ (needs nlohmann_json), dlperf/calibrate/
# (measurement and the CUDA/HIP backends) and dlperf/app/ (a compiled library over them).
#
#   cmake -DINCLUDE_DIR=<dir holding dlperf/> [-DUMBRELLA=dlperf/kernel.hpp
#         -DCOVERS=core,hardware,estimate,ops -DEXCLUDES=model,buying] -P check_umbrella.cmake
#
# (Comma-separated: a ';' cannot pass through a CTest command line into -D intact.) The top-level
# headers (the umbrellas themselves, version.hpp) are required of dlperf/dlperf.hpp only.
#
# Exits non-zero listing every header the umbrella does not reach, or reaches and must not.
cmake_minimum_required(VERSION 3.21)
if(NOT INCLUDE_DIR)
  message(FATAL_ERROR "check_umbrella: pass -DINCLUDE_DIR=<dir holding dlperf/>")
endif()
get_filename_component(INCLUDE_DIR ${INCLUDE_DIR} ABSOLUTE)
include(${CMAKE_CURRENT_LIST_DIR}/headers.cmake)
if(UMBRELLA)
  set(umbrella ${UMBRELLA})
else()
  set(umbrella dlperf/dlperf.hpp)
endif()
string(REPLACE "," ";" COVERS "${COVERS}")
string(REPLACE "," ";" EXCLUDES "${EXCLUDES}")
set(optional "^dlperf/(io|calibrate|app)/")

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
set(extra "")
foreach(header IN LISTS headers)
  set(layer "")
  if(header MATCHES "^dlperf/([a-z_]+)/")
    set(layer ${CMAKE_MATCH_1})
  endif()
  if(EXCLUDES AND layer IN_LIST EXCLUDES)
    if(header IN_LIST reached)
      string(APPEND extra "\n  ${header}")
    endif()
    continue()
  endif()
  if(header MATCHES "${optional}" OR (COVERS AND NOT layer IN_LIST COVERS))
    continue()
  endif()
  if(layer STREQUAL "" AND NOT umbrella STREQUAL "dlperf/dlperf.hpp")
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
if(extra)
  message(FATAL_ERROR "check_umbrella: ${umbrella} reaches headers of a layer it leaves out:"
                      "${extra}")
endif()
list(LENGTH reached count)
message(STATUS "check_umbrella: ${umbrella} reaches all ${count} public headers")
