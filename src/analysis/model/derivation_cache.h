// The slot a ProfileModel keeps its derivations in (derivations.h: what more than one tool
// reads, computed lazily and at most once per model).
//
// A model is const once built; its derivations are computed on first use, by whichever
// thread asks first (the server runs tools on one cached model from several threads), and
// kept with the model. Copying a model copies none of them: a copy may be changed before
// it is analysed (combine_hosts, step models), so it derives afresh. Moving moves them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace stepscope::analysis {

class ModelDerivations;  // derivations.cc

class DerivationCache {
 public:
  DerivationCache();
  ~DerivationCache();
  DerivationCache(const DerivationCache&);             // an empty cache
  DerivationCache& operator=(const DerivationCache&);  // empties this one
  DerivationCache(DerivationCache&& other) noexcept;
  DerivationCache& operator=(DerivationCache&& other) noexcept;

  // Never null. Its slots are filled under their own once-flags (derivations.cc).
  ModelDerivations& slots() const { return *slots_; }

  // Bytes held by the derivations computed so far (ModelMemoryBytes counts them).
  size_t MemoryBytes() const;
  // How many derivations were computed for this model so far: each at most once, so this
  // never exceeds the number of derivations (tests check it).
  int64_t computations() const;

 private:
  std::unique_ptr<ModelDerivations> slots_;
};

}  // namespace stepscope::analysis
