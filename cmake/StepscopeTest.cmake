# stepscope_add_test(<name> [SERIAL] SOURCES ... LIBS ...)
# One gtest binary per layer; each TEST becomes its own ctest entry. SERIAL: ctest runs
# these alone (timing-sensitive tests that compare against a program's own clock). Tests find the
# shared read-only test data through STEPSCOPE_SHARED_DIR (../shared beside the clone).
set(STEPSCOPE_SHARED_DIR "${PROJECT_SOURCE_DIR}/../shared" CACHE PATH "shared/ directory with testdata")
function(stepscope_add_test name)
  if(NOT STEPSCOPE_BUILD_TESTS)
    return()
  endif()
  stepscope_add_gtest(${name} ${ARGN})
endfunction()

# stepscope_add_gtest(<name> [SERIAL] [TEST_PREFIX p] SOURCES ... LIBS ...): stepscope_add_test
# without the STEPSCOPE_BUILD_TESTS check, for the corpus replays that the replay-only build
# (STEPSCOPE_BUILD_FUZZ_REPLAY) registers alone. TEST_PREFIX: prepended to each ctest name,
# for binaries that share their TEST names (one fuzz_replay_test.cc per corpus).
function(stepscope_add_gtest name)
  cmake_parse_arguments(ARG "SERIAL" "TEST_PREFIX" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock stepscope_warnings)
  if(TARGET stepscope_sanitizer_options)
    target_link_libraries(${name} PRIVATE stepscope_sanitizer_options)  # reports fail the test
  endif()
  target_compile_definitions(${name} PRIVATE
    STEPSCOPE_SHARED_DIR="${STEPSCOPE_SHARED_DIR}"
    STEPSCOPE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    STEPSCOPE_BINARY_DIR="${CMAKE_BINARY_DIR}")
  set(serial FALSE)
  if(ARG_SERIAL)
    set(serial TRUE)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 TEST_PREFIX "${ARG_TEST_PREFIX}"
    PROPERTIES TIMEOUT 600 RUN_SERIAL ${serial})
endfunction()

# stepscope_add_unavailable_test(<name> <reason>): for a test this configuration cannot
# build or run (a tool or target not found). Registers <name> anyway, as a test that
# prints "stepscope: skipped <name>: <reason>" and exits with ctest's skip code, so ctest's
# summary lists it under "did not run (Skipped)" instead of it silently not existing;
# `./dev test` prints the reason lines after the summary.
set(STEPSCOPE_SKIP_RETURN_CODE 77)
function(stepscope_add_unavailable_test name reason)
  if(NOT STEPSCOPE_BUILD_TESTS)
    return()
  endif()
  add_test(NAME ${name}
    COMMAND sh -c "printf 'stepscope: skipped %s: %s\\n' \"$1\" \"$2\"; exit ${STEPSCOPE_SKIP_RETURN_CODE}"
            sh ${name} "${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE ${STEPSCOPE_SKIP_RETURN_CODE} LABELS unavailable)
  message(STATUS "test ${name} unavailable: ${reason}")
endfunction()
