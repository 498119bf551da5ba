// Linked as an object file (not from an archive), so its static initializer runs in every
// program that links stepscope::gpu: linking the library is what turns the tracer on for
// sessions with device_tracer_level > 0.
#include "src/gpu/cupti_tracer.h"

namespace stepscope::gpu {
namespace {

const bool kRegistered = [] {
  RegisterCuptiTracer();
  return true;
}();

}  // namespace
}  // namespace stepscope::gpu
