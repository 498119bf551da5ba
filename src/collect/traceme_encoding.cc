#include "src/collect/traceme_encoding.h"

#include <charconv>
#include <span>
#include <string>

#include "stepscope/annotation.h"

namespace stepscope::collect {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view Strip(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Splits "k1=v1,k2=[a,b],k3='x,y'" at top-level commas.
void SplitPairs(std::string_view metadata, std::vector<TraceMeArg>* args) {
  int depth = 0;       // nesting of (), [], {}
  char quote = '\0';   // the open quote character, if inside quotes
  size_t pair_begin = 0;
  auto flush = [&](size_t end) {
    std::string_view pair = metadata.substr(pair_begin, end - pair_begin);
    size_t eq = pair.find('=');
    if (eq == std::string_view::npos) return;
    std::string_view key = Strip(pair.substr(0, eq));
    std::string_view value = Strip(pair.substr(eq + 1));
    if (!key.empty() && !value.empty()) args->push_back({key, value});
  };
  for (size_t i = 0; i < metadata.size(); ++i) {
    char c = metadata[i];
    if (quote != '\0') {
      if (c == quote) quote = '\0';
      continue;
    }
    switch (c) {
      case '"':
      case '\'':
        quote = c;
        break;
      case '(':
      case '[':
      case '{':
        ++depth;
        break;
      case ')':
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      case ',':
        if (depth == 0) {
          flush(i);
          pair_begin = i + 1;
        }
        break;
      default:
        break;
    }
  }
  flush(metadata.size());
}

void AppendArgs(std::span<const MetadataArg> args, std::string* out) {
  bool first = true;
  for (const MetadataArg& arg : args) {
    if (!first) out->push_back(',');
    first = false;
    out->append(arg.key());
    out->push_back('=');
    out->append(arg.value());
  }
}

}  // namespace

DecodedTraceMeName DecodeTraceMeName(std::string_view encoded) {
  DecodedTraceMeName decoded;
  if (encoded.empty() || encoded.back() != '#') {
    decoded.name = encoded;
    return decoded;
  }
  size_t first_hash = encoded.find('#');
  decoded.name = Strip(encoded.substr(0, first_hash));
  std::string_view rest = encoded.substr(first_hash + 1);
  while (!rest.empty()) {
    size_t hash = rest.find('#');
    std::string_view part = rest.substr(0, hash);
    if (!part.empty()) SplitPairs(part, &decoded.args);
    if (hash == std::string_view::npos) break;
    rest.remove_prefix(hash + 1);
  }
  return decoded;
}

}  // namespace stepscope::collect

namespace stepscope {

MetadataArg::MetadataArg(std::string_view key, double value) : key_(key) {
  // Shortest text that round-trips; an integral double prints without a point and so
  // decodes as an int stat, as TensorFlow's absl::AlphaNum formatting does.
  auto result = std::to_chars(number_, number_ + sizeof(number_), value);
  number_size_ = result.ec == std::errc() ? static_cast<uint8_t>(result.ptr - number_) : 0;
  if (number_size_ == 0) text_ = "nan";
}

void MetadataArg::FormatSigned(int64_t value) {
  auto result = std::to_chars(number_, number_ + sizeof(number_), value);
  number_size_ = static_cast<uint8_t>(result.ptr - number_);
}

void MetadataArg::FormatUnsigned(uint64_t value) {
  auto result = std::to_chars(number_, number_ + sizeof(number_), value);
  number_size_ = static_cast<uint8_t>(result.ptr - number_);
}

std::string EncodeMetadata(std::string_view name, std::initializer_list<MetadataArg> args) {
  return EncodeMetadataList(name, std::span<const MetadataArg>(args.begin(), args.size()));
}

std::string EncodeMetadataList(std::string_view name, std::span<const MetadataArg> args) {
  std::string out(name);
  if (args.empty()) return out;
  out.push_back('#');
  collect::AppendArgs(args, &out);
  out.push_back('#');
  return out;
}

std::string AppendMetadata(std::string_view encoded_name, std::initializer_list<MetadataArg> args) {
  std::string out(encoded_name);
  if (args.size() == 0) return out;
  if (!out.empty() && out.back() == '#') {
    out.back() = ',';  // "a#x=1#" -> "a#x=1," then the new pairs and the closing '#'
  } else {
    out.push_back('#');
  }
  collect::AppendArgs(std::span<const MetadataArg>(args.begin(), args.size()), &out);
  out.push_back('#');
  return out;
}

}  // namespace stepscope
