// ReadColumnarXSpaceFile: memory-maps the file and hands consumed pages back while parsing.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "src/base/cores.h"
#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/xspace/columnar/columnar_reader.h"

namespace stepscope::xspace {
namespace {

class MappedFile {
 public:
  ~MappedFile() {
    if (data_ != nullptr) munmap(data_, size_);
    if (fd_ >= 0) close(fd_);
  }
  Status Open(const std::string& path, uint64_t max_bytes) {
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      return errno == ENOENT ? NotFoundError(path + ": no such file")
                             : InvalidArgumentError(path + ": cannot open: " + std::strerror(errno));
    }
    struct stat st;
    if (fstat(fd_, &st) != 0) return InvalidArgumentError(path + ": cannot stat: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return InvalidArgumentError(path + ": not a regular file");
    size_ = static_cast<uint64_t>(st.st_size);
    if (size_ > max_bytes) {
      return ResourceExhaustedError(path + ": " + std::to_string(size_) + " bytes exceeds the limit of " +
                                    std::to_string(max_bytes));
    }
    if (size_ == 0) return OkStatus();
    void* mapped = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (mapped == MAP_FAILED) return InvalidArgumentError(path + ": cannot map: " + std::strerror(errno));
    data_ = static_cast<char*>(mapped);
    madvise(data_, size_, MADV_SEQUENTIAL);
    return OkStatus();
  }
  std::string_view bytes() const { return {data_, static_cast<size_t>(size_)}; }
  // Drops the resident pages of [begin, end) (both rounded down to a page): they are not
  // read again, and being file-backed they cost nothing once dropped. A page shared with
  // bytes still to be read is safe to drop too: a read-only private mapping reads it from
  // the file again. Thread-safe (no state).
  void Release(uint64_t begin, uint64_t end) const {
    static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    begin = begin / page * page;
    end = std::min(end, size_) / page * page;
    if (end > begin) madvise(data_ + begin, end - begin, MADV_DONTNEED);
  }

 private:
  int fd_ = -1;
  char* data_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace

StatusOr<ColumnarXSpace> ReadColumnarXSpaceFile(const std::string& path, const ColumnarReadOptions& options) {
  MappedFile file;
  Status status = file.Open(path, options.limits.max_file_bytes);
  if (!status.ok()) return status;
  ParseOptions parse;
  parse.threads = options.threads > 0 ? options.threads : base::UsableCores();
  parse.memory_event_records = options.memory_event_records;
  parse.max_decoded_bytes = options.limits.max_decoded_bytes;
  if (base::IsGzip(file.bytes())) {
    StatusOr<std::string> inflated = base::GunzipWithLimit(file.bytes(), options.limits.inflate);
    if (!inflated.ok()) return inflated.status().WithContext(path);
    // The inflated bytes are held while the columns are built: both count.
    parse.max_decoded_bytes -= std::min<uint64_t>(parse.max_decoded_bytes, inflated->size());
    return ParseColumnarXSpace(*inflated, path, parse);
  }
  if (options.release_input_while_reading) {
    parse.on_consumed = [&file](uint64_t begin, uint64_t end) { file.Release(begin, end); };
  }
  return ParseColumnarXSpace(file.bytes(), path, parse);
}

}  // namespace stepscope::xspace
