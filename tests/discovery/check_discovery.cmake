cmake_policy(VERSION 3.21)
# Checks that CTest runs every Catch2 test case of an executable exactly once: each CTest entry
# whose command is the executable is re-run with --list-test-names-only to see which cases its
# arguments select, and the union must be every case the executable lists (hidden [.] cases too).
# Catch2 2.13 exits 0 when a test spec matches nothing, and catch_discover_tests splits names at
# ';' (and CMake's list rules group names across unbalanced '[' ']'), so a suite can be green with
# cases that never run; this check is what notices.
#
#   cmake -DBUILD_DIR=<ctest build dir> -DTEST_EXECUTABLE=<path> -DCTEST_COMMAND=<ctest> -P this
#
# Names are kept in an encoded form inside CMake lists: ';', '[' and ']' would break them.
foreach(var BUILD_DIR TEST_EXECUTABLE CTEST_COMMAND)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_discovery: -D${var}=... is required")
  endif()
endforeach()

function(encode out text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<lbracket>" text "${text}")
  string(REPLACE "]" "<rbracket>" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# list_cases(<out> <arguments...>): the encoded names of the cases the arguments select.
function(list_cases out)
  execute_process(COMMAND ${TEST_EXECUTABLE} ${ARGN} --list-test-names-only
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(rc LESS 0 OR rc MATCHES "[^0-9]")
    message(FATAL_ERROR "check_discovery: ${TEST_EXECUTABLE} failed to list its cases: ${rc}")
  endif()
  encode(text "${text}")
  string(REPLACE "\n" ";" names "${text}")
  list(FILTER names EXCLUDE REGEX "^$")
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

list_cases(expected)
list_cases(hidden "[.]")
list(APPEND expected ${hidden})
list(LENGTH expected expected_count)

execute_process(COMMAND ${CTEST_COMMAND} --test-dir ${BUILD_DIR} --show-only=json-v1
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_discovery: ctest --show-only failed in ${BUILD_DIR}")
endif()
file(REAL_PATH "${TEST_EXECUTABLE}" executable)
string(JSON test_count LENGTH "${json}" tests)
set(covered)
set(entries 0)
set(problems)
math(EXPR last "${test_count} - 1")
foreach(i RANGE ${last})
  string(JSON argc ERROR_VARIABLE no_command LENGTH "${json}" tests ${i} command)
  if(no_command OR argc LESS 1)
    continue()
  endif()
  string(JSON program GET "${json}" tests ${i} command 0)
  file(REAL_PATH "${program}" program)
  if(NOT program STREQUAL executable)
    continue()
  endif()
  string(JSON name GET "${json}" tests ${i} name)
  # The first argument is the test spec (quoted: it may hold what CMake would split); the rest
  # are options such as --warn NoTests.
  set(spec "")
  set(options)
  if(argc GREATER 1)
    string(JSON spec GET "${json}" tests ${i} command 1)
    math(EXPR last_arg "${argc} - 1")
    if(last_arg GREATER 1)
      foreach(a RANGE 2 ${last_arg})
        string(JSON option GET "${json}" tests ${i} command ${a})
        list(APPEND options "${option}")
      endforeach()
    endif()
  endif()
  list_cases(selected "${spec}" ${options})
  math(EXPR entries "${entries} + 1")
  if(NOT selected)
    encode(name "${name}")
    list(APPEND problems "CTest entry '${name}' runs no test case (its spec matches nothing)")
  endif()
  list(APPEND covered ${selected})
endforeach()

list(LENGTH covered covered_count)
set(missing ${expected})
if(covered)
  list(REMOVE_ITEM missing ${covered})
endif()
foreach(name IN LISTS missing)
  list(APPEND problems "never run by ctest: ${name}")
endforeach()
set(seen)
foreach(name IN LISTS covered)
  if(name IN_LIST seen)
    list(APPEND problems "run by more than one CTest entry: ${name}")
  endif()
  list(APPEND seen "${name}")
endforeach()

if(problems OR NOT covered_count EQUAL expected_count)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "ctest runs ${covered_count} Catch cases through ${entries} entries; "
                      "${TEST_EXECUTABLE} has ${expected_count}:\n  ${text}")
endif()
message(STATUS "ctest runs all ${expected_count} Catch cases of ${TEST_EXECUTABLE} "
               "(${entries} entries)")
