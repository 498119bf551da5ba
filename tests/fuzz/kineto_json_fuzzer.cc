// libFuzzer target for the kineto_json importer: any bytes in, never a crash, and when the
// import succeeds the result keeps the importers' promises (every element accounted for,
// every line sorted and properly nested). The first byte picks the tokenizer window and
// the truncation mode, so small inputs still cross window boundaries.
#include <cstdint>
#include <string_view>

#include "src/importers/testing/import_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return stepscope::importers::FuzzOneTraceImport("kineto_json", data, size);
}
