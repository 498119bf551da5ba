// Golden-file comparison for tool outputs (Perfetto diff-test style): a test renders a
// tool's JSON for a known input and compares it with tests/golden/<tool>/<case>.json.
//
// The comparison is structural: same keys, same array lengths, equal strings/bools/nulls,
// and numbers equal within a relative 1e-9 (sums of doubles may differ in the last bit
// between compilers; anything larger is a real change). The first difference is reported
// with its JSON path, e.g. `$.top_device_ops[2].self_time_ms: expected 1.5, got 1.25`.
//
// Regenerate after an intended change with STEPSCOPE_UPDATE_GOLDEN=1 (the files in the
// source tree are rewritten and the test passes); then read the diff before committing:
// a golden file that pins a wrong number is worse than none.
#pragma once

#include <string>
#include <string_view>

namespace stepscope::golden {

// Empty when `expected_json` and `actual_json` agree, else a description of the first
// difference (or of a parse error).
std::string CompareJson(std::string_view expected_json, std::string_view actual_json);

// Compares `actual_json` with <source>/tests/golden/<relative_path>. Returns an empty
// string on success (or after rewriting the file when STEPSCOPE_UPDATE_GOLDEN=1), else
// the failure text for the test to print.
std::string CheckGolden(const std::string& relative_path, const std::string& actual_json);

}  // namespace stepscope::golden
