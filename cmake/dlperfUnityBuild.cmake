# Unity batches sized to the machine (DLPERF_UNITY_BUILD; docs/layers.md, "Unity build"). Most of
# a source's compile is not its own code but the model, buying and JSON templates it instantiates
# and optimises, and a batch does that once. So a target's sources go into as many batches as the
# build has cores (DLPERF_UNITY_BATCHES): each core compiles one batch, and the shared templates
# are optimised once per core instead of once per few sources.
cmake_host_system_information(RESULT dlperf_cores QUERY NUMBER_OF_LOGICAL_CORES)
if(dlperf_cores LESS 1)
  set(dlperf_cores 1)
endif()
set(DLPERF_UNITY_BATCHES ${dlperf_cores}
    CACHE STRING "Unity batches per target (DLPERF_UNITY_BUILD); by default this machine's cores")
if(NOT DLPERF_UNITY_BATCHES MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "DLPERF_UNITY_BATCHES must be a positive whole number, not '${DLPERF_UNITY_BATCHES}'")
endif()

# dlperf_unity_build(<target>): batches <target>'s C++ sources, once they are all added, into
# DLPERF_UNITY_BATCHES batches of equal size (the last may be smaller). A source that must compile
# alone sets SKIP_UNITY_BUILD_INCLUSION (or has flags of its own) and is not counted here.
function(dlperf_unity_build target)
  if(NOT DLPERF_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  set(count 0)
  foreach(source IN LISTS sources)
    get_source_file_property(alone ${source} SKIP_UNITY_BUILD_INCLUSION)
    get_source_file_property(options ${source} COMPILE_OPTIONS)
    if(source MATCHES "\\.(cpp|cxx|cc)$" AND NOT alone AND NOT options)
      math(EXPR count "${count} + 1")
    endif()
  endforeach()
  math(EXPR size "(${count} + ${DLPERF_UNITY_BATCHES} - 1) / ${DLPERF_UNITY_BATCHES}")
  if(size LESS 1)
    set(size 1)
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${size})
endfunction()
