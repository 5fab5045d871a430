/// @file
/// The C++20 standard-library feature dlperf's lower layers use that an older library lacks,
/// chosen by the library's own feature-test macro (never by a version number): `constexpr
/// std::vector`. libstdc++ 12 (g++ 12 and clang++ on Debian) has it; the fallback serves libc++
/// 13, the library of Debian's emscripten 3.1.6, which builds the WebAssembly page
/// (docs/web.md). The floating-point text conversions with their fallbacks are in
/// model/number_text.hpp, the lowest layer that writes numbers, so that the kernel layers
/// (kernel.hpp) parse neither `<charconv>` nor `<system_error>` (docs/layers.md, "Compile cost").
#pragma once

#include <vector>
#include <version>

/// `constexpr` where `std::vector` is usable in constant expressions
/// (`__cpp_lib_constexpr_vector`), else `inline`: the functions that build an `op_sequence` or a
/// `model_estimate` run at compile time only with such a library, and at run time everywhere.
#if defined(__cpp_lib_constexpr_vector) && __cpp_lib_constexpr_vector >= 201907L
#define DLPERF_CONSTEXPR_VECTOR constexpr
#else
#define DLPERF_CONSTEXPR_VECTOR inline
#endif
