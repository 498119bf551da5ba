// The MCP stdio transport's framing: newline-delimited messages read from a file
// descriptor with a bound on each line, and the serve loop that feeds them to a
// JsonRpcEndpoint and writes its answers to stdout. A line past the bound is skipped to
// its end (never held whole) and answered with an error; the loop goes on.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "src/cli/mcp_json_rpc.h"

namespace stepscope::cli::mcp {

class LineReader {
 public:
  // Reads `fd` (not owned) with lines of at most `max_line_bytes`.
  LineReader(int fd, size_t max_line_bytes);

  enum class Next { kLine, kTooLong, kEnd };
  // The next line without its '\n' (kLine), or kTooLong after skipping a line over the
  // bound, or kEnd at end of input (a last line without '\n' is still a line) or on a
  // read error.
  Next Read(std::string* line);

 private:
  bool Fill();  // false at end of input

  int fd_;
  size_t max_line_bytes_;
  std::string buffer_;
  size_t start_ = 0;  // unread bytes are buffer_[start_, end)
  bool eof_ = false;
};

// Reads messages from `in_fd` until end of input, answering each through `endpoint`;
// `write` gets every response line (and must flush it: the client waits for it) and
// returns false once the output is gone (the client closed it), which ends the loop too.
void ServeLines(int in_fd, JsonRpcEndpoint& endpoint, const std::function<bool(std::string_view)>& write,
                size_t max_line_bytes = kMaxMessageBytes);

}  // namespace stepscope::cli::mcp
