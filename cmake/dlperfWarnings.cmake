# Warning flags for dlperf's own targets (tests, examples); consumers of the INTERFACE target are
# never forced to use them. `cmake -P cmake/dlperfWarnings.cmake` prints them on one line, for the
# checks that compile outside CMake (.ci/libcxx).
set(DLPERF_WARNING_FLAGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
                         -Wnon-virtual-dtor)

function(dlperf_set_warnings target)
  set(flags ${DLPERF_WARNING_FLAGS})
  if(DLPERF_WARNINGS_AS_ERRORS)
    list(APPEND flags -Werror)
  endif()
  # C++ sources only: CUDA sources of the same target get nvcc's own flags.
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${flags}>")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  list(JOIN DLPERF_WARNING_FLAGS " " line)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${line}")
endif()
