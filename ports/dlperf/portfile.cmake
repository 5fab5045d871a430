# vcpkg overlay port for dlperf, kept in dlperf's own tree: the source is this checkout
# (vcpkg install dlperf --overlay-ports=<checkout>/ports). Header-only, so release only.
set(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../..")
set(VCPKG_BUILD_TYPE release)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    -DDLPERF_BUILD_TESTS=OFF
    -DDLPERF_BUILD_EXAMPLES=OFF
    -DDLPERF_BUILD_TOOL=OFF
    -DDLPERF_BUILD_DOCS=OFF
    -DDLPERF_INSTALL_CMAKEDIR=share/dlperf)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH share/dlperf)

# Header-only: no libraries, and the licence goes where vcpkg expects it.
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug" "${CURRENT_PACKAGES_DIR}/lib"
     "${CURRENT_PACKAGES_DIR}/share/doc")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
