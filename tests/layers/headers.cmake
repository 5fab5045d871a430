# Shared by check_layers.cmake and check_umbrella.cmake: the headers of a tree and the dlperf
# headers one of them includes. INCLUDE_DIR is the directory that holds dlperf/.

# Sets @p out to every dlperf/**/*.hpp under INCLUDE_DIR, relative to it; stops naming @p who
# when there is none.
function(dlperf_headers out who)
  file(GLOB_RECURSE headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/dlperf/*.hpp)
  if(NOT headers)
    message(FATAL_ERROR "${who}: no headers under ${INCLUDE_DIR}/dlperf")
  endif()
  set(${out} ${headers} PARENT_SCOPE)
endfunction()

# Sets @p out to the <dlperf/...> paths that @p header (relative to INCLUDE_DIR) includes.
function(dlperf_includes_of header out)
  file(STRINGS ${INCLUDE_DIR}/${header} lines REGEX "^[ \t]*#[ \t]*include[ \t]*<dlperf/")
  set(included "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*<([^>]+)>.*" "\\1" path "${line}")
    list(APPEND included ${path})
  endforeach()
  set(${out} ${included} PARENT_SCOPE)
endfunction()
