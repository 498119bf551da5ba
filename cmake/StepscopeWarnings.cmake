# Warnings every stepscope target compiles with. Kept in one place so layers agree.
add_library(stepscope_warnings INTERFACE)
target_compile_options(stepscope_warnings INTERFACE
  -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
