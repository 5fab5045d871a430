# The README's FetchContent block, run as it stands: a consumer project whose CMakeLists.txt is
# add_executable(app ...) followed by the block verbatim. CI has no network, so
# FETCHCONTENT_SOURCE_DIR_DLPERF (FetchContent's own override; the block is untouched) points at a
# copy of what a release holds (CMakeLists.txt, cmake/, include/, LICENSE). The block's GIT_TAG
# must be a commit of this repository, so that the pin a reader copies exists.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(READ ${DLPERF_SOURCE_DIR}/README.md readme)
string(REGEX MATCH "```cmake\n(include\\(FetchContent\\)[^`]*)```" block "${readme}")
set(block "${CMAKE_MATCH_1}")
if(block STREQUAL "")
  message(FATAL_ERROR "README.md has no ```cmake block starting with include(FetchContent)")
endif()
if(NOT block MATCHES "GIT_TAG ([0-9a-f]+)")
  message(FATAL_ERROR "the README's FetchContent block pins no GIT_TAG commit:\n${block}")
endif()
set(pin "${CMAKE_MATCH_1}")
string(LENGTH "${pin}" pin_length)
if(NOT pin_length EQUAL 40)
  message(FATAL_ERROR "the README's GIT_TAG '${pin}' is not a full 40-digit commit hash")
endif()
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${DLPERF_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${DLPERF_SOURCE_DIR} cat-file -e "${pin}^{commit}"
                  RESULT_VARIABLE missing OUTPUT_QUIET ERROR_QUIET)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${DLPERF_SOURCE_DIR} rev-parse
                          --is-shallow-repository OUTPUT_VARIABLE shallow
                          OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(missing AND NOT shallow STREQUAL "true")
    message(FATAL_ERROR "the README's GIT_TAG ${pin} is not a commit of this repository")
  elseif(missing)
    message(STATUS "shallow clone: GIT_TAG ${pin} not checked")
  endif()
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/release ${WORK_DIR}/app)
foreach(item CMakeLists.txt cmake include LICENSE)
  file(COPY ${DLPERF_SOURCE_DIR}/${item} DESTINATION ${WORK_DIR}/release)
endforeach()
file(COPY ${CONSUMER_SOURCE_DIR}/main.cpp DESTINATION ${WORK_DIR}/app)
file(WRITE ${WORK_DIR}/app/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.21)\nproject(readme_fetchcontent LANGUAGES CXX)\n"
     "add_executable(app main.cpp)\n${block}")
run_step(${CMAKE_COMMAND} -S ${WORK_DIR}/app -B ${WORK_DIR}/build
         -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DFETCHCONTENT_SOURCE_DIR_DLPERF=${WORK_DIR}/release)
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step(${WORK_DIR}/build/app)
