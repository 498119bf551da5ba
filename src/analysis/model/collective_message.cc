#include "src/analysis/model/collective_message.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "src/analysis/model/op_name.h"

namespace stepscope::analysis {
namespace {

// Lower case without '_', '-', ' ' and ':': "nccl:all_reduce", "AllReduce" and
// "all-reduce.3" all contain "allreduce".
std::string Squeezed(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == '_' || c == '-' || c == ' ' || c == ':') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

}  // namespace

std::string_view CollectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllReduce: return "all_reduce";
    case CollectiveKind::kAllGather: return "all_gather";
    case CollectiveKind::kReduceScatter: return "reduce_scatter";
    case CollectiveKind::kAllToAll: return "all_to_all";
    case CollectiveKind::kBroadcast: return "broadcast";
    case CollectiveKind::kReduce: return "reduce";
    case CollectiveKind::kSendRecv: return "send_recv";
    case CollectiveKind::kOther: return "other";
  }
  return "other";
}

CollectiveKind CollectiveKindFromName(std::string_view name) {
  const std::string s = Squeezed(name.substr(0, 256));  // kernel names run long; the kind is near the front
  // Longer names first: "allreduce" and "reducescatter" contain "reduce".
  if (s.find("allreduce") != std::string::npos) return CollectiveKind::kAllReduce;
  if (s.find("reducescatter") != std::string::npos) return CollectiveKind::kReduceScatter;
  if (s.find("allgather") != std::string::npos) return CollectiveKind::kAllGather;
  if (s.find("alltoall") != std::string::npos) return CollectiveKind::kAllToAll;
  if (s.find("broadcast") != std::string::npos) return CollectiveKind::kBroadcast;
  if (s.find("sendrecv") != std::string::npos || s.find("send") != std::string::npos ||
      s.find("recv") != std::string::npos || s.find("collectivepermute") != std::string::npos) {
    return CollectiveKind::kSendRecv;
  }
  if (s.find("reduce") != std::string::npos) return CollectiveKind::kReduce;
  return CollectiveKind::kOther;
}

int64_t DtypeBytes(std::string_view dtype) {
  struct Entry {
    std::string_view name;
    int64_t bytes;
  };
  // c10::ScalarType names (record_param_comms "dtype") and the C++ type names of "Input type".
  static constexpr std::array<Entry, 40> kTable = {{
      {"Float", 4},         {"float", 4},           {"Double", 8},          {"double", 8},
      {"Half", 2},          {"c10::Half", 2},       {"BFloat16", 2},        {"c10::BFloat16", 2},
      {"Long", 8},          {"long int", 8},        {"long", 8},            {"int64_t", 8},
      {"Int", 4},           {"int", 4},             {"Short", 2},           {"short int", 2},
      {"Char", 1},          {"signed char", 1},     {"Byte", 1},            {"unsigned char", 1},
      {"Bool", 1},          {"bool", 1},            {"ComplexHalf", 4},     {"ComplexFloat", 8},
      {"c10::complex<float>", 8}, {"ComplexDouble", 16}, {"c10::complex<double>", 16}, {"Float8_e5m2", 1},
      {"Float8_e4m3fn", 1}, {"c10::Float8_e5m2", 1}, {"c10::Float8_e4m3fn", 1}, {"UInt16", 2},
      {"UInt32", 4},        {"UInt64", 8},          {"QInt8", 1},           {"QUInt8", 1},
      {"QInt32", 4},        {"Float8_e4m3fnuz", 1}, {"Float8_e5m2fnuz", 1}, {"int8_t", 1},
  }};
  for (const Entry& e : kTable) {
    if (EqualsIgnoreCase(e.name, dtype)) return e.bytes;
  }
  return 0;
}

std::optional<int64_t> FirstTensorElements(std::string_view json) {
  // "[[19618307]]", "[[2, 3], []]", "[[], [4]]": the first inner list that has numbers.
  size_t open = json.find('[');
  if (open == std::string_view::npos) return std::nullopt;
  size_t i = open + 1;
  while (i < json.size()) {
    size_t inner = json.find('[', i);
    if (inner == std::string_view::npos) return std::nullopt;
    size_t close = json.find(']', inner);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view dims = json.substr(inner + 1, close - inner - 1);
    int64_t product = 1;
    bool any = false;
    size_t p = 0;
    while (p < dims.size()) {
      while (p < dims.size() && !std::isdigit(static_cast<unsigned char>(dims[p])) && dims[p] != '-') ++p;
      if (p >= dims.size()) break;
      if (dims[p] == '-') return std::nullopt;  // negative extent: not a tensor shape
      int64_t v = 0;
      while (p < dims.size() && std::isdigit(static_cast<unsigned char>(dims[p]))) {
        if (v > (INT64_MAX - 9) / 10) return std::nullopt;
        v = v * 10 + (dims[p++] - '0');
      }
      if (v != 0 && product > INT64_MAX / v) return std::nullopt;
      product *= v;
      any = true;
    }
    if (any) return product;
    i = close + 1;
  }
  return std::nullopt;
}

double BusBandwidthFactor(CollectiveKind kind, int64_t ranks) {
  if (ranks < 1) return 0.0;
  const double n = static_cast<double>(ranks);
  switch (kind) {
    case CollectiveKind::kAllReduce: return 2.0 * (n - 1) / n;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllToAll: return (n - 1) / n;
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kReduce:
    case CollectiveKind::kSendRecv:
    case CollectiveKind::kOther: return 1.0;
  }
  return 1.0;
}

int64_t CollectiveSizeBytes(const CollectiveMessage& m, int64_t ranks) {
  const int64_t n = m.group_size > 0 ? m.group_size : ranks;
  switch (m.kind) {
    case CollectiveKind::kAllGather:  // the gathered output
      if (m.out_bytes > 0) return m.out_bytes;
      return n > 0 ? m.in_bytes * n : 0;
    case CollectiveKind::kReduceScatter:  // the full input
      if (m.in_bytes > 0) return m.in_bytes;
      return n > 0 ? m.out_bytes * n : 0;
    default:
      return m.in_bytes > 0 ? m.in_bytes : m.out_bytes;
  }
}

CollectiveStatReader::CollectiveStatReader(const xspace::ColumnarPlane& plane) : plane_(plane) {
  static constexpr std::string_view kNames[kNumRoles] = {"Collective name", "dtype",      "In msg nelems", "Out msg nelems",
                                                         "Group size",      "Input Dims", "Input type"};
  for (uint32_t i = 0; i < plane.stat_metadata.size(); ++i) {
    for (int role = 0; role < kNumRoles; ++role) {
      if (plane.stat_metadata[i].name == kNames[role]) index_[role] = i;
    }
  }
  has_any_ = index_[kInNelems] != xspace::ColumnarPlane::kNoStat || index_[kOutNelems] != xspace::ColumnarPlane::kNoStat ||
             index_[kInputDims] != xspace::ColumnarPlane::kNoStat;
}

std::optional<CollectiveMessage> CollectiveStatReader::Read(uint32_t event) const {
  if (!has_any_) return std::nullopt;
  auto find = [&](Role role, xspace::ColumnarStat* stat) {
    return index_[role] != xspace::ColumnarPlane::kNoStat && plane_.FindEventStat(event, index_[role], stat);
  };
  auto integer = [&](Role role) -> int64_t {
    xspace::ColumnarStat stat;
    if (!find(role, &stat)) return 0;
    if (xspace::ColumnarPlane::IsNumeric(stat.kind)) return xspace::ColumnarPlane::AsInt64(stat);
    std::string_view text = plane_.AsString(stat);
    int64_t v = 0;
    for (char c : text) {
      if (c < '0' || c > '9' || v > (INT64_MAX - 9) / 10) return 0;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  auto text = [&](Role role) -> std::string_view {
    xspace::ColumnarStat stat;
    if (!find(role, &stat)) return {};
    std::string_view t = plane_.AsString(stat);
    if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);  // Kineto quotes some
    return t;
  };
  CollectiveMessage m;
  const int64_t in = integer(kInNelems), out = integer(kOutNelems);
  int64_t element = 0;
  if (in > 0 || out > 0) {
    element = DtypeBytes(text(kDtype));
    if (element == 0) return std::nullopt;
    m.in_bytes = in > INT64_MAX / element ? 0 : in * element;
    m.out_bytes = out > INT64_MAX / element ? 0 : out * element;
  } else {
    // "Input Dims" is on every op of a trace recorded with shapes: only the
    // nccl:<collective> scopes' is a message.
    if (!plane_.event_name(event).starts_with("nccl:")) return std::nullopt;
    // Older PyTorch: the first input tensor of the nccl:<collective> scope.
    std::string_view type = text(kInputType);
    if (!type.empty() && type.front() == '[') {  // ["float"] -> float
      size_t open = type.find('"');
      size_t close = open == std::string_view::npos ? open : type.find('"', open + 1);
      type = close == std::string_view::npos ? std::string_view() : type.substr(open + 1, close - open - 1);
    }
    std::optional<int64_t> elements = FirstTensorElements(text(kInputDims));
    element = DtypeBytes(type);
    if (elements && element > 0 && *elements <= INT64_MAX / element) m.in_bytes = *elements * element;
  }
  if (!m.sized()) return std::nullopt;
  std::string_view name = text(kName);
  m.kind = CollectiveKindFromName(name.empty() ? plane_.event_name(event) : name);
  m.group_size = std::max<int64_t>(integer(kGroupSize), 0);
  return m;
}

int64_t PlaneWorldSize(const xspace::ColumnarPlane& plane) {
  for (uint32_t i = 0; i < plane.stat_metadata.size(); ++i) {
    if (plane.stat_metadata[i].name != "world_size") continue;
    for (uint32_t s = plane.plane_stats_begin; s < plane.plane_stats_end; ++s) {
      const xspace::ColumnarStat& stat = plane.other_stats[s];
      if (stat.metadata_index == i && xspace::ColumnarPlane::IsNumeric(stat.kind)) {
        return std::max<int64_t>(xspace::ColumnarPlane::AsInt64(stat), 0);
      }
    }
  }
  return 0;
}

}  // namespace stepscope::analysis
