#include "src/load/summary_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "src/analysis/model/host_summary.h"
#include "src/base/file_io.h"
#include "src/base/status_macros.h"
#include "src/base/gzip.h"
#include "src/load/plane_scan.h"
#include "src/xspace/logdir.h"
#include "src/xspace/read_rules.h"
#include "src/xspace/schema.h"

namespace stepscope::load {
namespace {

namespace fs = std::filesystem;

// The file's own layout (header, gzip) has a version of its own beside the codec's: the
// last byte of the magic.
constexpr std::string_view kFileMagic = "SSHSFIL\x02";
constexpr std::string_view kFileMagicStem = "SSHSFIL";
// Size and mtime catch a rewrite; the edges catch a same-size file put in place with its
// mtime kept (a copy with -p): a page of each is enough for that.
constexpr size_t kHashedEdgeBytes = 4 << 10;
// XLA programs: a profile's /host:metadata plane; larger than any module set seen, and the
// summary would not be small.
constexpr uint64_t kMaxXlaPlaneBytes = uint64_t{1} << 30;
constexpr std::string_view kSuffix = ".stepscope-summary";

// What identifies the file's contents, cheaply.
struct FileKey {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t edge_hash = 0;  // FNV-1a of the first and last kHashedEdgeBytes
  bool operator==(const FileKey&) const = default;
};

uint64_t Fnv1a(std::string_view bytes, uint64_t hash = 1469598103934665603ull) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string ReadAt(int fd, uint64_t offset, size_t size) {
  std::string bytes(size, '\0');
  const ssize_t got = pread(fd, bytes.data(), size, static_cast<off_t>(offset));
  bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
  return bytes;
}

StatusOr<FileKey> KeyOf(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NotFoundError(path + ": cannot open");
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return NotFoundError(path + ": cannot stat");
  }
  FileKey key{.size = static_cast<uint64_t>(st.st_size),
              .mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
  key.edge_hash = Fnv1a(ReadAt(fd, 0, kHashedEdgeBytes));
  if (key.size > kHashedEdgeBytes) key.edge_hash = Fnv1a(ReadAt(fd, key.size - kHashedEdgeBytes, kHashedEdgeBytes), key.edge_hash);
  close(fd);
  return key;
}

std::string Header(const FileKey& key) {
  std::string header(kFileMagic);
  for (uint64_t value : {key.size, static_cast<uint64_t>(key.mtime_ns), key.edge_hash}) {
    for (int i = 0; i < 8; ++i) header.push_back(static_cast<char>(value >> (8 * i)));
  }
  return header;
}

constexpr size_t kHeaderBytes = kFileMagic.size() + 24;

std::string BesidePath(const HostProfileFile& file) {
  const fs::path path(file.path);
  return (path.parent_path() / ("." + path.filename().string() + std::string(kSuffix))).string();
}

std::string CachePath(const HostProfileFile& file, const SummaryOptions& options) {
  std::error_code ec;
  const std::string absolute = fs::absolute(file.path, ec).lexically_normal().string();
  char hash[17];
  std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(Fnv1a(absolute)));
  return (fs::path(SummaryCacheDir(options)) / "summaries" /
          (std::string(hash) + "-" + fs::path(file.path).filename().string() + std::string(kSuffix)))
      .string();
}

// A directory without any write bit is treated as read-only even for root (a shared,
// read-only data set mounted writable must not be written into).
bool DirectoryLooksWritable(const std::string& dir) {
  struct stat st;
  return stat(dir.c_str(), &st) == 0 && (st.st_mode & 0222) != 0 && access(dir.c_str(), W_OK) == 0;
}

// The summary at `path` for `key`: the model, or why it cannot be used.
struct Lookup {
  std::optional<analysis::ProfileModel> model;
  SummaryFound found = SummaryFound::kNone;
  std::string note;
  int64_t bytes = 0;
};

Lookup ReadSummary(const std::string& path, const FileKey& key) {
  Lookup lookup;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return lookup;
  // A summary is far smaller than its file; one larger than the file is not ours.
  StatusOr<std::string> bytes = base::ReadFile(path, key.size + (uint64_t{64} << 20));
  if (!bytes.ok()) {
    lookup.found = SummaryFound::kCorrupt;
    lookup.note = "corrupt: " + bytes.status().message();
    return lookup;
  }
  lookup.bytes = static_cast<int64_t>(bytes->size());
  if (bytes->size() < kHeaderBytes || !bytes->starts_with(kFileMagicStem)) {
    lookup.found = SummaryFound::kCorrupt;
    lookup.note = "corrupt: not a stepscope summary";
    return lookup;
  }
  if (!bytes->starts_with(kFileMagic)) {
    lookup.found = SummaryFound::kStale;
    lookup.note = "stale: a summary file of another format version";
    return lookup;
  }
  if (bytes->compare(0, kHeaderBytes, Header(key)) != 0) {
    lookup.found = SummaryFound::kStale;
    lookup.note = "stale: the file changed since it was summarised";
    return lookup;
  }
  // Gzip'ed: kernel and op names repeat (a kernel's name is its op's, its ops' are their
  // kernels'), and compressed summaries are 5-10x smaller.
  StatusOr<std::string> inflated =
      base::GunzipWithLimit(std::string_view(*bytes).substr(kHeaderBytes), xspace::InflateLimitsForBudget());
  StatusOr<analysis::ProfileModel> model =
      inflated.ok() ? analysis::DecodeHostSummary(*inflated) : StatusOr<analysis::ProfileModel>(inflated.status());
  if (!model.ok()) {
    const bool stale = model.status().code() == StatusCode::kFailedPrecondition;
    lookup.found = stale ? SummaryFound::kStale : SummaryFound::kCorrupt;
    lookup.note = std::string(stale ? "stale: " : "corrupt: ") + model.status().message();
    return lookup;
  }
  lookup.model = std::move(*model);
  lookup.found = SummaryFound::kCurrent;
  return lookup;
}

// The /host:metadata plane of an XSpace file, gzip'ed or not: what a summary keeps of the
// XLA programs.
std::string XlaProgramsOf(const HostProfileFile& file) {
  if (file.format != ProfileFormat::kXSpace) return "";
  if (std::optional<std::string> plane = FindPlaneInFile(file.path, xspace::kMetadataPlaneName, kMaxXlaPlaneBytes)) {
    return *plane;
  }
  StatusOr<std::string> compressed = base::ReadFile(file.path, xspace::kMaxProfileFileBytes);
  if (!compressed.ok() || !base::IsGzip(*compressed)) return "";
  StatusOr<std::string> inflated = base::GunzipWithLimit(*compressed, xspace::InflateLimitsForBudget());
  if (!inflated.ok()) return "";
  return FindPlaneInBytes(*inflated, xspace::kMetadataPlaneName, kMaxXlaPlaneBytes).value_or("");
}

// Writes the summary beside the file, else in the cache directory; the path written or
// the reason none was.
StatusOr<std::string> WriteSummary(const HostProfileFile& file, const SummaryOptions& options, const std::string& bytes) {
  const std::string beside = BesidePath(file);
  if (DirectoryLooksWritable(fs::path(beside).parent_path().string()) && base::WriteFileAtomically(beside, bytes).ok()) {
    return beside;
  }
  const std::string cached = CachePath(file, options);
  Status made = base::CreateDirectories(fs::path(cached).parent_path().string());
  if (made.ok()) made = base::WriteFileAtomically(cached, bytes);
  if (!made.ok()) return made;
  return cached;
}

}  // namespace

StatusOr<analysis::ProfileModel> LoadCombinedModelFromSummaries(const std::vector<HostProfileFile>& files,
                                                                const SummaryOptions& options,
                                                                std::vector<std::string>* notes) {
  // One slot per host (each written by its own task), reported in host order.
  std::vector<std::string> rebuilt(files.size());
  StatusOr<analysis::ProfileModel> model = CombineHostsBuiltInParallel(
      files.size(), [&](size_t i) -> StatusOr<analysis::ProfileModel> {
        STEPSCOPE_ASSIGN_OR_RETURN(SummarizedHost host, SummarizeHost(files[i], options));
        if (host.found == SummaryFound::kStale || host.found == SummaryFound::kCorrupt) {
          rebuilt[i] = "the summary " + host.note + "; rebuilt";
        }
        return std::move(host.model);
      });
  for (std::string& note : rebuilt) {
    if (notes != nullptr && !note.empty()) notes->push_back(std::move(note));
  }
  return model;
}

StatusOr<analysis::ProfileModel> LoadRunModel(const std::vector<HostProfileFile>& files,
                                              const analysis::ModelOptions& options, const SummaryOptions& summaries,
                                              std::vector<std::string>* notes) {
  if (files.size() > 1 && !options.step.has_value()) return LoadCombinedModelFromSummaries(files, summaries, notes);
  return LoadCombinedModel(files, options);
}

std::string_view SummaryStateName(SummaryFound found) {
  switch (found) {
    case SummaryFound::kCurrent: return "current";
    case SummaryFound::kNone: return "built";
    case SummaryFound::kStale: return "rebuilt_stale";
    case SummaryFound::kCorrupt: return "rebuilt_corrupt";
  }
  return "built";
}

std::string SummaryCacheDir(const SummaryOptions& options) {
  if (!options.cache_dir.empty()) return options.cache_dir;
  if (const char* dir = std::getenv("STEPSCOPE_CACHE_DIR"); dir != nullptr && *dir != '\0') return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return (fs::path(xdg) / "stepscope").string();
  }
  const char* home = std::getenv("HOME");
  return (fs::path(home != nullptr && *home != '\0' ? home : "/tmp") / ".cache" / "stepscope").string();
}

StatusOr<std::vector<HostInRun>> ListHostFiles(const std::string& path) {
  STEPSCOPE_ASSIGN_OR_RETURN(xspace::ProfilePathKind kind, xspace::ClassifyProfilePath(path));
  std::vector<HostInRun> hosts;
  if (kind == xspace::ProfilePathKind::kLogdir) {
    STEPSCOPE_ASSIGN_OR_RETURN(std::vector<RunProfiles> runs, ListLogdirRuns(path, {.assemble_sessions = false}));
    for (const RunProfiles& run : runs) {
      for (const HostProfileFile& file : run.hosts) hosts.push_back({run.name, file});
    }
  } else {
    STEPSCOPE_ASSIGN_OR_RETURN(ResolvedProfile resolved, ResolveProfile({.path = path}));
    for (const HostProfileFile& file : resolved.files) hosts.push_back({resolved.run, file});
  }
  std::sort(hosts.begin(), hosts.end(), [](const HostInRun& a, const HostInRun& b) { return a.file.path < b.file.path; });
  return hosts;
}

bool HasCurrentSummary(const HostProfileFile& file, const SummaryOptions& options) {
  StatusOr<FileKey> key = KeyOf(file.path);
  if (!key.ok()) return false;
  for (const std::string& path : {BesidePath(file), CachePath(file, options)}) {
    if (ReadSummary(path, *key).found == SummaryFound::kCurrent) return true;
  }
  return false;
}

StatusOr<SummarizedHost> SummarizeHost(const HostProfileFile& file, const SummaryOptions& options) {
  STEPSCOPE_ASSIGN_OR_RETURN(FileKey key, KeyOf(file.path));
  SummarizedHost result;
  for (const std::string& path : {BesidePath(file), CachePath(file, options)}) {
    Lookup lookup = ReadSummary(path, key);
    if (lookup.found == SummaryFound::kNone) continue;
    if (lookup.model.has_value()) {
      result.model = std::move(*lookup.model);
      result.found = SummaryFound::kCurrent;
      result.summary_path = path;
      result.summary_bytes = lookup.bytes;
      return result;
    }
    if (result.found == SummaryFound::kNone) {  // the first one found says why
      result.found = lookup.found;
      result.note = path + " " + lookup.note;
    }
  }
  STEPSCOPE_ASSIGN_OR_RETURN(result.model, LoadHostModel(file, {.keep_event_tree = false}));
  if (!options.write) return result;
  StatusOr<std::string> compressed = base::Gzip(analysis::EncodeHostSummary(result.model, XlaProgramsOf(file)), 1);
  if (!compressed.ok()) return compressed.status();
  const std::string bytes = Header(key) + *compressed;
  result.summary_bytes = static_cast<int64_t>(bytes.size());
  StatusOr<std::string> written = WriteSummary(file, options, bytes);
  if (written.ok()) {
    result.summary_path = *written;
  } else {
    result.note += (result.note.empty() ? "" : "; ") + std::string("no summary written: ") + written.status().message();
  }
  return result;
}

}  // namespace stepscope::load
