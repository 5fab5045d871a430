# A consumer that vendors dlperf's source tree and adds it with add_subdirectory: dlperf's own
# tests, examples and docs stay off (it is not the top-level project) and dlperf::dlperf works.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
build_and_run_consumer(subdirectory ${WORK_DIR}/build -DDLPERF_SOURCE_DIR=${DLPERF_SOURCE_DIR})
foreach(target dlperf_tests dlperf_cli docs)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build --target help
                  OUTPUT_VARIABLE targets)
  if(targets MATCHES "\\.\\.\\. ${target}\n")
    message(FATAL_ERROR "add_subdirectory(dlperf) defined dlperf's own target '${target}'")
  endif()
endforeach()
