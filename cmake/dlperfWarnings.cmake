# Warning flags for dlperf's own targets (tests, examples); consumers of the INTERFACE target are
# never forced to use them.
function(dlperf_set_warnings target)
  set(flags -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor)
  if(DLPERF_WARNINGS_AS_ERRORS)
    list(APPEND flags -Werror)
  endif()
  # C++ sources only: CUDA sources of the same target get nvcc's own flags.
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${flags}>")
endfunction()
