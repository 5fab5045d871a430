# Conan profile for CI on Debian bookworm: the system's g++ 12 in C++20, and Boost from the
# system (libboost-dev 1.74) declared as a platform requirement, so nothing is downloaded.
[settings]
os=Linux
arch=x86_64
compiler=gcc
compiler.version=12
compiler.libcxx=libstdc++11
compiler.cppstd=20
build_type=Release

[platform_requires]
boost/1.74.0

[conf]
tools.cmake.cmaketoolchain:generator=Unix Makefiles
