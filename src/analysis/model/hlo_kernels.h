// Device kernels -> HLO instructions: accumulates kernel time by the `hlo_module`,
// `program_id` and `hlo_op` stats the kernels carry (device_analysis.cc feeds it), and
// resolves the result against the profile's HLO programs (build_profile_model.cc, and
// combine_hosts.cc after merging hosts).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis::internal {

class HloKernelAccumulator {
 public:
  // One kernel launch; `hlo_op` empty when the kernel carries none (counted, not joined).
  void Add(std::string_view hlo_module, int64_t program_id, std::string_view hlo_op, std::string_view kernel_name,
           int64_t duration_ps);
  // The ops (unresolved: module / instruction -1) and the counts so far.
  void Finish(std::vector<HloOpTime>* ops, HloKernelJoin* join);

 private:
  struct Entry {
    HloOpTime op;
    std::map<std::string, int64_t, std::less<>> launches_by_kernel;
  };
  // (module, program id, op) -> index in entries_, looked up by views. The comparator
  // compares as views on both sides: the standard library's mixed-type tuple comparison
  // (tuple<string...> < tuple<string_view...>) builds with GCC but not with clang, which
  // the fuzz build uses.
  using IndexKey = std::tuple<std::string, int64_t, std::string>;
  using IndexView = std::tuple<std::string_view, int64_t, std::string_view>;
  struct IndexLess {
    using is_transparent = void;
    static IndexView View(const IndexKey& k) { return {std::get<0>(k), std::get<1>(k), std::get<2>(k)}; }
    static const IndexView& View(const IndexView& v) { return v; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const { return View(a) < View(b); }
  };
  std::map<IndexKey, size_t, IndexLess> index_;
  std::vector<Entry> entries_;
  HloKernelJoin join_;
};

// Sets module / instruction of every op from `programs` (null: none resolve), counts
// join.kernels_joined, and sorts the ops (ProfileModel::hlo_ops order).
void ResolveHloOps(const hlo::HloPrograms* programs, std::vector<HloOpTime>* ops, HloKernelJoin* join);

// Adds `from` into `into` (same module, program id and op name: one row), for combining
// hosts; ResolveHloOps afterwards.
void MergeHloOps(const std::vector<HloOpTime>& from, std::vector<HloOpTime>* into);

}  // namespace stepscope::analysis::internal
