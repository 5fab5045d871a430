"""Conan 2 recipe for dlperf: a header-only library whose CMake package is the project's own.

The recipe installs dlperf with its own CMakeLists.txt, so consumers get exactly the
``dlperfConfig.cmake`` that ``find_package(dlperf)`` finds in any install tree (it finds Boost
itself); Conan is told not to generate a second one (``cmake_find_mode`` is ``none``).
"""
import os
import re

from conan import ConanFile
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import load

required_conan_version = ">=2.0"


class DlperfConan(ConanFile):
    name = "dlperf"
    description = "Header-only C++20 analytical performance models for deep learning on GPUs"
    license = "MIT"
    url = "https://github.com/dlperf/dlperf"
    homepage = "https://github.com/dlperf/dlperf"
    topics = ("gpu", "performance-model", "roofline", "deep-learning", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    exports_sources = "CMakeLists.txt", "LICENSE", "cmake/*", "include/*"
    no_copy_source = True

    def set_version(self):
        # One version: the one in project(VERSION ...).
        cmakelists = load(self, os.path.join(self.recipe_folder, "CMakeLists.txt"))
        match = re.search(r"project\(\s*dlperf\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", cmakelists)
        if not match:
            raise ValueError("conanfile.py: no 'project(dlperf VERSION x.y.z' in CMakeLists.txt")
        self.version = match.group(1)

    def requirements(self):
        # Boost.Units, header-only; Debian bookworm ships 1.74.
        self.requires("boost/[>=1.74 <2]", transitive_headers=True)

    def validate(self):
        from conan.tools.build import check_min_cppstd

        check_min_cppstd(self, 20)

    def layout(self):
        cmake_layout(self)

    def generate(self):
        toolchain = CMakeToolchain(self)
        toolchain.cache_variables["DLPERF_BUILD_TESTS"] = False
        toolchain.cache_variables["DLPERF_BUILD_EXAMPLES"] = False
        toolchain.cache_variables["DLPERF_BUILD_TOOL"] = False
        toolchain.cache_variables["DLPERF_BUILD_DOCS"] = False
        toolchain.generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()

    def package(self):
        cmake = CMake(self)
        cmake.install()

    def package_id(self):
        self.info.clear()

    def package_info(self):
        # Consumers use the installed share/cmake/dlperf/dlperfConfig.cmake (target dlperf::dlperf).
        self.cpp_info.set_property("cmake_find_mode", "none")
        self.cpp_info.builddirs.append(os.path.join("share", "cmake", "dlperf"))
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
