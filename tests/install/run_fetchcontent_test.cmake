# A consumer that gets dlperf with FetchContent from a source archive, as from a release: the
# archive holds what a release tarball holds (CMakeLists.txt, cmake/, include/, LICENSE).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/src/dlperf)
foreach(item CMakeLists.txt cmake include LICENSE)
  file(COPY ${DLPERF_SOURCE_DIR}/${item} DESTINATION ${WORK_DIR}/src/dlperf)
endforeach()
set(archive ${WORK_DIR}/dlperf-src.tar.gz)
execute_process(COMMAND ${CMAKE_COMMAND} -E tar czf ${archive} dlperf
                WORKING_DIRECTORY ${WORK_DIR}/src RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "could not make the source archive ${archive}")
endif()
build_and_run_consumer(fetchcontent ${WORK_DIR}/build -DDLPERF_ARCHIVE=${archive})
