// libstepscope.so is made of the collect and remote layers (linked whole, see
// CMakeLists.txt); this file only gives the shared library target a source of its own.
namespace stepscope::internal {
extern const char kLibraryName[];
const char kLibraryName[] = "libstepscope";
}  // namespace stepscope::internal
