# Checks that no public header is longer than MAX_LINES lines (issue 32: "no file in include/ over
# 600 lines"): one concept per header, so a header that grows past it holds more than one and is
# split by concept (docs/layers.md, "One concept per header").
#
#   cmake -DINCLUDE_DIR=<dir holding dlperf/> [-DMAX_LINES=600] -P check_header_size.cmake
#
# Exits non-zero naming every header over the limit with its length.
cmake_minimum_required(VERSION 3.21)
if(NOT INCLUDE_DIR)
  message(FATAL_ERROR "check_header_size: pass -DINCLUDE_DIR=<dir holding dlperf/>")
endif()
if(NOT MAX_LINES)
  set(MAX_LINES 600)
endif()
get_filename_component(INCLUDE_DIR ${INCLUDE_DIR} ABSOLUTE)
include(${CMAKE_CURRENT_LIST_DIR}/headers.cmake)
dlperf_headers(headers check_header_size)

set(over "")
foreach(header IN LISTS headers)
  # Every line, blank ones included (file(STRINGS) would drop them).
  file(READ ${INCLUDE_DIR}/${header} text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines lines)
  if(lines GREATER MAX_LINES)
    list(APPEND over "${header} (${lines} lines)")
  endif()
endforeach()
if(over)
  list(JOIN over "\n  " listed)
  message(FATAL_ERROR "headers over ${MAX_LINES} lines, each to be split by concept:\n  ${listed}")
endif()
list(LENGTH headers count)
message(STATUS "${count} headers, none over ${MAX_LINES} lines")
