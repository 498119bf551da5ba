# STEPSCOPE_SANITIZE: compile and link every target with ASan + UBSan (gcc or clang), every
# report fatal. The fuzzers found signed overflow and out-of-bounds reads, which a plain
# corpus replay runs through silently; `./dev test` replays the corpora in such a build
# (build/sanitize, with STEPSCOPE_BUILD_FUZZ_REPLAY). -fno-sanitize-recover=all: UBSan
# aborts at its first report instead of printing and going on. float-cast-overflow: clang's
# -fsanitize=undefined (what the fuzzers run) has it, gcc's does not.
if(STEPSCOPE_BUILD_FUZZERS)
  message(FATAL_ERROR "STEPSCOPE_SANITIZE and STEPSCOPE_BUILD_FUZZERS: the fuzz build is sanitized already")
endif()
add_compile_options(-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined,float-cast-overflow)

# Linked into every test binary (cmake/StepscopeTest.cmake): the runtime options that make
# a report fail the test however it is started (ctest, gtest discovery, by hand).
add_library(stepscope_sanitizer_options OBJECT ${PROJECT_SOURCE_DIR}/tests/sanitize/sanitizer_options.cc)
