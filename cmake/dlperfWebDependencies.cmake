# The header-only dependencies of a web build (DLPERF_BUILD_WEB, docs/web.md): Boost, CLI11,
# nlohmann_json and fmt as the same imported targets find_package gives a native build.
#
# Emscripten's toolchain file confines find_package to its own sysroot, which holds none of them,
# and the host's include folder cannot be put on the include path whole: its C library headers
# would hide Emscripten's. So each library's own folder is linked into one folder of the build
# tree, and that folder is the include path. All four are used header-only (fmt through
# FMT_HEADER_ONLY), so no host library is linked.
set(DLPERF_WEB_HOST_INCLUDE /usr/include
    CACHE PATH "Where the web build takes Boost, CLI11, nlohmann_json and fmt headers from")

set(dlperf_web_include ${PROJECT_BINARY_DIR}/host-include)
file(MAKE_DIRECTORY ${dlperf_web_include})
foreach(entry IN ITEMS "boost:Boost (libboost-dev)" "CLI:CLI11 (libcli11-dev)"
                       "nlohmann:nlohmann_json (nlohmann-json3-dev)" "fmt:fmt (libfmt-dev)")
  string(REPLACE ":" ";" entry "${entry}")
  list(GET entry 0 folder)
  list(GET entry 1 package)
  if(NOT IS_DIRECTORY ${DLPERF_WEB_HOST_INCLUDE}/${folder})
    message(FATAL_ERROR "DLPERF_BUILD_WEB: no ${DLPERF_WEB_HOST_INCLUDE}/${folder}; install "
                        "${package} or set DLPERF_WEB_HOST_INCLUDE")
  endif()
  file(CREATE_LINK ${DLPERF_WEB_HOST_INCLUDE}/${folder} ${dlperf_web_include}/${folder} SYMBOLIC)
endforeach()

foreach(target IN ITEMS Boost::headers CLI11::CLI11 nlohmann_json::nlohmann_json fmt::fmt)
  add_library(${target} INTERFACE IMPORTED)
  # System headers: dlperf's warnings (errors) are for its own code.
  set_target_properties(${target} PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
                                             ${dlperf_web_include}
                                             INTERFACE_INCLUDE_DIRECTORIES ${dlperf_web_include})
endforeach()
set_target_properties(fmt::fmt PROPERTIES INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY)
