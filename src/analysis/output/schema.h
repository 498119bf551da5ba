// Schema: a tool result's shape, declared once next to its struct, from which every
// presentation follows - the JSON object, the tables (CSV, text, /api/tables), the UI's
// TypeScript types and the per-tool reference in docs/tools.md.
//
// XProf writes each tool's result as a protobuf message so that its front end and its
// converters agree by construction; a schema gives the same guarantee without a code
// generator, and adds what a .proto cannot say: a column's label, unit and text format.
//
// A record (a struct written as one JSON object) declares its fields by ADL:
//
//   constexpr auto DescribeRecord(std::type_identity<OpTypeRow>) {
//     using R = OpTypeRow;
//     return output::Record("OpTypeRow",
//         output::Field("rank", &R::rank, {.label = "Rank", .description = "1 = most self time"}),
//         output::Field("type", &R::type, {.label = "Type", .max_width = 40}));
//   }
//
// Members not declared are internal (never written). A field's value is a number, bool,
// string, std::optional of one (absent: JSON null, an empty CSV cell, "-" in text), a
// record, a std::vector of those, or a map by name (std::map<std::string, V>, or a
// std::vector<std::pair<std::string, V>> to keep an order: a JSON object; KeyedBy writes
// a vector of records as such an object, keyed by one of their members). A vector of
// records declared with TableField is also a table: its scalar fields are the columns,
// the field id is the table name. TableView declares a table computed from the record that
// is not in the JSON, because the JSON holds the same rows in another shape (a tree).
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace stepscope::analysis::output {

// What people and generated code learn about one field.
struct FieldInfo {
  std::string_view label;        // text and UI column header; empty: the id
  std::string_view unit;         // "ms", "us", "ps", "%", "points", "bytes", "count", "B/s"...; empty for names
  std::string_view description;  // docs and UI tooltips
  int decimals = 2;              // digits after the point in text output (doubles)
  int max_width = 0;             // text output truncates longer strings (0 = no limit)
  // Non-empty: the field or column is only present when this holds ("the profile records
  // allocations"); TypeScript marks it optional, docs say when. A std::optional field with
  // a `when` is left out of its JSON object where it has no value (without: null).
  std::string_view when;
};

// What a member declaration is; compile-time, so that only tables are instantiated as tables.
enum class FieldRole {
  kValue,   // written as its value
  kTable,   // a vector of records that is also a table
  kInline,  // a record whose fields are written into the parent object
};

template <typename R, typename V, FieldRole kRole = FieldRole::kValue>
struct FieldDecl {
  std::string_view id;
  V R::*member;
  FieldInfo info;
  std::string_view title;  // kTable: the table's heading in text output
  static constexpr bool table = kRole == FieldRole::kTable;
  static constexpr bool inlined = kRole == FieldRole::kInline;
};

// A value derived from the record when written (an average from a total and a count), so
// the struct keeps one source for it: `fn(const R&)` returns a schema value type.
template <typename R, typename Fn>
struct ComputedDecl {
  std::string_view id;
  Fn fn;
  FieldInfo info;
  static constexpr bool table = false;
  static constexpr bool inlined = false;
};

// A table computed from the record for CSV, text and /api/tables only: `fn(const R&)`
// returns a std::vector of row records (a tree flattened to rows, which the JSON nests).
template <typename R, typename Fn>
struct TableViewDecl {
  std::string_view id;
  Fn fn;
  std::string_view title;
  FieldInfo info;
};

// A vector of records written as a JSON object keyed by one of their string members
// (XProf's per-allocator map from a vector the model keeps in order), without a copy.
template <typename R, typename E, typename K>
struct KeyedByDecl {
  std::string_view id;
  std::vector<E> R::*member;
  K E::*key;
  FieldInfo info;
  static constexpr bool table = false;
  static constexpr bool inlined = false;
};

// A constant string field ("tool": "framework_op_stats"): TypeScript types it as the literal.
struct ConstantDecl {
  std::string_view id;
  std::string_view value;
  FieldInfo info;
};

template <typename R, typename V>
constexpr FieldDecl<R, V> Field(std::string_view id, V R::*member, FieldInfo info = {}) {
  return {id, member, info};
}
template <typename R, typename V>
constexpr FieldDecl<R, V, FieldRole::kTable> TableField(std::string_view id, V R::*member, std::string_view title,
                                                        FieldInfo info = {}) {
  return {id, member, info, title};
}
template <typename R, typename V>
constexpr FieldDecl<R, V, FieldRole::kInline> Inline(V R::*member) {
  return {{}, member, {}, {}};
}
template <typename R, typename Fn>
constexpr ComputedDecl<R, Fn> Computed(std::string_view id, Fn fn, FieldInfo info = {}) {
  return {id, fn, info};
}
template <typename R, typename Fn>
constexpr TableViewDecl<R, Fn> TableView(std::string_view id, Fn fn, std::string_view title, FieldInfo info = {}) {
  return {id, fn, title, info};
}
template <typename R, typename E, typename K>
constexpr KeyedByDecl<R, E, K> KeyedBy(std::string_view id, std::vector<E> R::*member, K E::*key, FieldInfo info = {}) {
  return {id, member, key, info};
}
constexpr ConstantDecl Constant(std::string_view id, std::string_view value, FieldInfo info = {}) {
  return {id, value, info};
}

template <typename... F>
struct RecordDecl {
  std::string_view name;  // the TypeScript interface name
  std::tuple<F...> fields;
};
template <typename... F>
constexpr RecordDecl<F...> Record(std::string_view name, F... fields) {
  return {name, std::tuple<F...>(fields...)};
}

// A computed field's value where it applies, else absent (null in JSON, "-" in text): a
// figure the profile cannot give is not shown as 0.
template <typename T>
std::optional<T> OptionalIf(bool applies, T value) {
  return applies ? std::optional<T>(std::move(value)) : std::nullopt;
}

// The value a member or computed field declaration reads from a record.
template <typename R, typename F>
decltype(auto) FieldValue(const R& record, const F& field) {
  if constexpr (requires { field.member; }) {
    return (record.*field.member);
  } else {
    return field.fn(record);
  }
}
template <typename F>
struct IsKeyedBy : std::false_type {};
template <typename R, typename E, typename K>
struct IsKeyedBy<KeyedByDecl<R, E, K>> : std::true_type {};
template <typename F>
struct IsTableView : std::false_type {};
template <typename R, typename Fn>
struct IsTableView<TableViewDecl<R, Fn>> : std::true_type {};
// A declaration with a value in the record's JSON (and so a column, in a row record).
template <typename F>
concept HasValue = requires(F f) { f.id; } && !std::is_same_v<F, ConstantDecl> && !IsTableView<F>::value;

// A type with a record declaration (found by ADL).
template <typename T>
concept IsRecord = requires { DescribeRecord(std::type_identity<T>{}); };

template <typename T>
constexpr auto RecordOf() {
  return DescribeRecord(std::type_identity<T>{});
}

// Whether a table column of `table` is shown for this result: a record may declare
//   bool ShowColumn(const R&, std::string_view table, std::string_view column);
// (found by ADL) for columns that exist only for some profiles; default: all are.
template <typename R>
bool ColumnShown(const R& record, std::string_view table, std::string_view column) {
  if constexpr (requires { ShowColumn(record, table, column); }) {
    return ShowColumn(record, table, column);
  } else {
    return true;
  }
}

// ---- The type-erased description, for generators (TypeScript, docs) and tests. ----

enum class ValueKind { kInt, kDouble, kBool, kString, kRecord, kArray, kOptional, kConstant, kMap };

struct TypeDesc;
struct FieldDesc {
  std::string_view id;
  const TypeDesc* type = nullptr;
  FieldInfo info;
  bool table = false;
  std::string_view title;
  bool inlined = false;
  std::string_view constant;  // kConstant: the value
  bool json = true;           // false: a TableView, in the tables only
};
struct TypeDesc {
  ValueKind kind = ValueKind::kString;
  std::string_view name;            // kRecord
  const TypeDesc* element = nullptr;  // kArray, kOptional, kMap (the values)
  std::vector<FieldDesc> fields;    // kRecord
};

// One description per type for the life of the process (records refer to each other by
// pointer, so a type used in several places is described once).
template <typename V>
const TypeDesc& DescribeType();

namespace schema_internal {

template <typename V>
struct IsOptional : std::false_type {};
template <typename V>
struct IsOptional<std::optional<V>> : std::true_type {};
template <typename V>
struct IsVector : std::false_type {};
template <typename V>
struct IsVector<std::vector<V>> : std::true_type {};
// A map by name, written as a JSON object (std::vector of pairs: in the vector's order).
template <typename V>
struct IsMap : std::false_type {};
template <typename V>
struct IsMap<std::map<std::string, V>> : std::true_type {
  using value_type = V;
};
template <typename V>
struct IsMap<std::vector<std::pair<std::string, V>>> : std::true_type {
  using value_type = V;
};

template <typename R, typename V, FieldRole kRole>
FieldDesc DescribeField(const FieldDecl<R, V, kRole>& f) {
  return {f.id, &DescribeType<V>(), f.info, f.table, f.title, f.inlined, {}};
}
template <typename R, typename Fn>
FieldDesc DescribeField(const ComputedDecl<R, Fn>& f) {
  using V = std::remove_cvref_t<std::invoke_result_t<Fn, const R&>>;
  return {f.id, &DescribeType<V>(), f.info, false, {}, false, {}};
}
template <typename R, typename Fn>
FieldDesc DescribeField(const TableViewDecl<R, Fn>& f) {
  using V = std::remove_cvref_t<std::invoke_result_t<Fn, const R&>>;
  return {f.id, &DescribeType<V>(), f.info, true, f.title, false, {}, false};
}
template <typename R, typename E, typename K>
FieldDesc DescribeField(const KeyedByDecl<R, E, K>& f) {
  return {f.id, &DescribeType<std::map<std::string, E>>(), f.info, false, {}, false, {}};
}
inline FieldDesc DescribeField(const ConstantDecl& c) {
  static const TypeDesc constant{ValueKind::kConstant};
  return {c.id, &constant, c.info, false, {}, false, c.value};
}

template <typename V>
void FillTypeDesc(TypeDesc& d) {
  if constexpr (std::is_same_v<V, bool>) {
    d.kind = ValueKind::kBool;
  } else if constexpr (std::is_integral_v<V>) {
    d.kind = ValueKind::kInt;
  } else if constexpr (std::is_floating_point_v<V>) {
    d.kind = ValueKind::kDouble;
  } else if constexpr (std::is_same_v<V, std::string> || std::is_same_v<V, std::string_view>) {
    d.kind = ValueKind::kString;
  } else if constexpr (IsOptional<V>::value) {
    d.kind = ValueKind::kOptional;
    d.element = &DescribeType<typename V::value_type>();
  } else if constexpr (IsMap<V>::value) {
    d.kind = ValueKind::kMap;
    d.element = &DescribeType<typename IsMap<V>::value_type>();
  } else if constexpr (IsVector<V>::value) {
    d.kind = ValueKind::kArray;
    d.element = &DescribeType<typename V::value_type>();
  } else {
    static_assert(IsRecord<V>, "a schema field must be a number, bool, string, optional, vector, map or record");
    d.kind = ValueKind::kRecord;
    constexpr auto record = RecordOf<V>();
    d.name = record.name;
    std::apply([&](const auto&... field) { (d.fields.push_back(DescribeField(field)), ...); }, record.fields);
  }
}

// Guards the one-time filling of descriptions (a recursive record, e.g. a tree node,
// reaches its own description while filling it).
std::recursive_mutex& DescribeMutex();

}  // namespace schema_internal

template <typename V>
const TypeDesc& DescribeType() {
  static TypeDesc desc;
  static bool filled = false;
  std::lock_guard<std::recursive_mutex> lock(schema_internal::DescribeMutex());
  if (!filled) {
    filled = true;  // before filling: a recursive record then refers to this same object
    schema_internal::FillTypeDesc<V>(desc);
  }
  return desc;
}

}  // namespace stepscope::analysis::output
