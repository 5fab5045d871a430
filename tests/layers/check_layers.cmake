# Checks the include rule of docs/layers.md over a header tree: a header may include headers of
# its own layer or of a lower one, never of a higher one; a vendor folder never includes another
# vendor's; the vendor-neutral hardware headers include no vendor folder, except the two
# aggregators that list every vendor's architectures and GPUs.
#
#   cmake -DINCLUDE_DIR=<dir holding dlperf/> -P check_layers.cmake
#
# Exits non-zero listing every violation.
cmake_minimum_required(VERSION 3.21)
if(NOT INCLUDE_DIR)
  message(FATAL_ERROR "check_layers: pass -DINCLUDE_DIR=<dir holding dlperf/>")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/headers.cmake)

# Layers, lowest first. The umbrella header and version.hpp sit above every layer.
set(layers core hardware estimate ops stack model buying io calibrate app)
set(vendors nvidia amd)
set(aggregators dlperf/hardware/architectures.hpp dlperf/hardware/catalog.hpp)

function(layer_of path out)
  set(rank -1)
  if(path MATCHES "^dlperf/([a-z_]+)/")
    list(FIND layers "${CMAKE_MATCH_1}" rank)
  elseif(path MATCHES "^dlperf/[a-z_]+\\.hpp$")
    set(rank 99)  # top-level: the umbrella header and version.hpp
  endif()
  set(${out} ${rank} PARENT_SCOPE)
endfunction()

function(vendor_of path out)
  set(v "")
  if(path MATCHES "^dlperf/hardware/([a-z_]+)/")
    set(v ${CMAKE_MATCH_1})
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

dlperf_headers(headers check_layers)
set(violations "")
foreach(header IN LISTS headers)
  layer_of(${header} own)
  if(own EQUAL -1)
    string(APPEND violations "\n  ${header}: not in any layer folder (${layers})")
    continue()
  endif()
  vendor_of(${header} own_vendor)
  dlperf_includes_of(${header} includes)
  foreach(included IN LISTS includes)
    layer_of(${included} theirs)
    if(theirs GREATER own)
      list(GET layers ${own} own_name)
      string(APPEND violations "\n  ${header} (layer ${own_name}) includes the higher ${included}")
    endif()
    vendor_of(${included} their_vendor)
    if(their_vendor AND NOT their_vendor STREQUAL own_vendor)
      if(own_vendor)
        string(APPEND violations "\n  ${header} (vendor ${own_vendor}) includes ${included}")
      elseif(header MATCHES "^dlperf/hardware/" AND NOT header IN_LIST aggregators)
        string(APPEND violations
               "\n  ${header} is vendor-neutral but includes the vendor header ${included}")
      elseif(NOT header MATCHES "^dlperf/hardware/" AND NOT own EQUAL 99)
        string(APPEND violations "\n  ${header} reaches into a vendor folder: ${included}")
      endif()
    endif()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "dlperf layering violated:${violations}")
endif()
list(LENGTH headers n)
message(STATUS "dlperf layering: ${n} headers follow the include rule")
