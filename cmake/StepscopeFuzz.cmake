# STEPSCOPE_BUILD_FUZZERS: instrument every target for libFuzzer (coverage) with ASan and
# UBSan, UB being fatal so the fuzzer stops on it. Needs clang:
#   CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DSTEPSCOPE_BUILD_FUZZERS=ON \
#     -DSTEPSCOPE_BUILD_TESTS=OFF -DSTEPSCOPE_BUILD_BENCHMARKS=OFF -DSTEPSCOPE_BUILD_EXAMPLES=OFF
# Fuzz binaries then link -fsanitize=fuzzer themselves (tests/fuzz/CMakeLists.txt).
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "STEPSCOPE_BUILD_FUZZERS needs clang (CC=clang CXX=clang++), not ${CMAKE_CXX_COMPILER_ID}")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
