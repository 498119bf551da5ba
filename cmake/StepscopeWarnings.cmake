# Warnings every stepscope target compiles with. Kept in one place so layers agree.
add_library(stepscope_warnings INTERFACE)
target_compile_options(stepscope_warnings INTERFACE
  -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
# GCC 12 reports `"literal" + std::string` as a -Wrestrict memcpy overlap of ~2^63 bytes
# inside libstdc++'s inlined string code at -O2 and above: a known false positive of that
# release (a dozen places here, none of them wrong), silenced for it rather than worked
# around at each call site.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(stepscope_warnings INTERFACE -Wno-restrict)
endif()
