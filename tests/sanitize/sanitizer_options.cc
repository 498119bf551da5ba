// Default runtime options of the sanitizer build (-DSTEPSCOPE_SANITIZE=ON), compiled into
// every test binary so that any report fails the test, whether ctest, gtest discovery or a
// person runs it. ASAN_OPTIONS / UBSAN_OPTIONS in the environment still override them.
//  - halt_on_error: the first report ends the process with a non-zero exit.
//  - detect_leaks: LeakSanitizer works in the containers this builds in (it ptraces the
//    process's own threads; checked with a planted leak); a leak is a report like any other.
//  - detect_stack_use_after_return: a pointer to a dead parser frame is an error too.
//  - print_stacktrace: UBSan's report names the calling frames, not just the line.

extern "C" {

const char* __asan_default_options() {
  return "halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1";
}

const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

}  // extern "C"
