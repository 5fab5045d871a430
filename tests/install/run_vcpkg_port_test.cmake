# What can be checked of the vcpkg overlay port without vcpkg (which CI cannot download): the
# install layout its options produce. Configure dlperf with the -D options written in
# ports/dlperf/portfile.cmake, install to a staging prefix, and check that the CMake package is
# under share/dlperf (where vcpkg_cmake_config_fixup expects it), that nothing lands in lib/ or
# debug/, that no installed CMake file holds an absolute path, and that find_package consumes it
# after the prefix is moved elsewhere.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})

file(READ ${DLPERF_SOURCE_DIR}/ports/dlperf/portfile.cmake portfile)
string(REGEX MATCHALL "-DDLPERF_[A-Z_]+=[^ \t\r\n)]+" options "${portfile}")
if(NOT options MATCHES "DLPERF_INSTALL_CMAKEDIR=share/dlperf")
  message(FATAL_ERROR "portfile.cmake does not install the package to share/dlperf: ${options}")
endif()

set(staging ${WORK_DIR}/staging)
run_step(${CMAKE_COMMAND} -S ${DLPERF_SOURCE_DIR} -B ${WORK_DIR}/port-build ${options}
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=${staging}
         -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
run_step(${CMAKE_COMMAND} --install ${WORK_DIR}/port-build)

foreach(file dlperfConfig.cmake dlperfConfigVersion.cmake dlperfTargets.cmake)
  if(NOT EXISTS ${staging}/share/dlperf/${file})
    message(FATAL_ERROR "the port layout lacks share/dlperf/${file}")
  endif()
endforeach()
foreach(dir lib debug share/cmake)
  if(EXISTS ${staging}/${dir})
    message(FATAL_ERROR "the port layout has ${dir}/, which a header-only vcpkg port must not")
  endif()
endforeach()
if(NOT EXISTS ${staging}/include/dlperf/dlperf.hpp)
  message(FATAL_ERROR "the port layout lacks include/dlperf/dlperf.hpp")
endif()

file(GLOB cmake_files ${staging}/share/dlperf/*.cmake)
foreach(file ${cmake_files})
  file(READ ${file} text)
  foreach(path ${staging} ${DLPERF_SOURCE_DIR} ${WORK_DIR})
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} holds the absolute path ${path}: the package is not relocatable")
    endif()
  endforeach()
endforeach()

file(RENAME ${staging} ${WORK_DIR}/relocated)
build_and_run_consumer(find_package ${WORK_DIR}/consumer -DCMAKE_PREFIX_PATH=${WORK_DIR}/relocated)
