# Installs dlperf from DLPERF_BINARY_DIR into a scratch prefix, configures the consumer project
# against it with find_package(dlperf), builds it and runs it.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

run_step(${CMAKE_COMMAND} --install ${DLPERF_BINARY_DIR} --prefix ${prefix})
if(NOT EXISTS ${prefix}/share/cmake/dlperf/dlperfConfig.cmake)
  message(FATAL_ERROR "dlperfConfig.cmake was not installed under share/cmake/dlperf")
endif()
build_and_run_consumer(find_package ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${prefix})
