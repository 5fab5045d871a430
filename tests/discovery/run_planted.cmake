cmake_policy(VERSION 3.21)
# Builds the planted suite (planted/) and runs check_discovery.cmake on it: the check must fail
# and name the cases that ctest would skip, so the count check is known to catch the real bug.
#   cmake -DPLANT_SOURCE_DIR=... -DWORK_DIR=... -DCXX_COMPILER=... -DCTEST_COMMAND=... -P this
file(REMOVE_RECURSE ${WORK_DIR})
foreach(step "configure;${CMAKE_COMMAND};-S;${PLANT_SOURCE_DIR};-B;${WORK_DIR};-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
             "build;${CMAKE_COMMAND};--build;${WORK_DIR}")
  list(POP_FRONT step what)
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "planted suite: ${what} failed (${rc})\n${out}\n${err}")
  endif()
endforeach()
execute_process(
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${WORK_DIR} -DTEST_EXECUTABLE=${WORK_DIR}/planted
          -DCTEST_COMMAND=${CTEST_COMMAND} -P ${CMAKE_CURRENT_LIST_DIR}/check_discovery.cmake
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the count check passed a suite whose names ctest splits:\n${out}${err}")
endif()
foreach(expect "never run by ctest: one<semicolon> two"
               "never run by ctest: an interval <lbracket>0, 1) left open"
               "never run by ctest: a name after the bracket")
  string(FIND "${err}" "${expect}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the count check failed without naming '${expect}':\n${err}")
  endif()
endforeach()
message(STATUS "the count check caught the planted suite:\n${err}")
