// Writes a declared record (schema.h) as JSON and as tables: the generic half of every
// tool result whose struct has a schema. One walk over the declaration, so a field's JSON
// key, its CSV header and its text column are the same id by construction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/schema.h"
#include "src/analysis/output/table.h"

namespace stepscope::analysis::output {

template <typename T>
void WriteRecordJson(const T& record, JsonWriter* writer);

namespace schema_internal {

template <typename V>
constexpr bool IsScalar() {
  if constexpr (IsOptional<V>::value) {
    return IsScalar<typename V::value_type>();
  } else {
    return std::is_arithmetic_v<V> || std::is_same_v<V, std::string> || std::is_same_v<V, std::string_view>;
  }
}

template <typename V>
constexpr ColumnType ColumnTypeOf() {
  if constexpr (IsOptional<V>::value) {
    return ColumnTypeOf<typename V::value_type>();
  } else if constexpr (std::is_same_v<V, bool>) {
    return ColumnType::kBool;
  } else if constexpr (std::is_integral_v<V>) {
    return ColumnType::kInt;
  } else if constexpr (std::is_floating_point_v<V>) {
    return ColumnType::kDouble;
  } else {
    return ColumnType::kString;
  }
}

template <typename V>
Cell ToCell(const V& value) {
  if constexpr (IsOptional<V>::value) {
    return value ? ToCell(*value) : Cell();
  } else if constexpr (std::is_same_v<V, bool>) {
    return Cell(value);
  } else if constexpr (std::is_integral_v<V>) {
    return Cell(static_cast<int64_t>(value));
  } else if constexpr (std::is_floating_point_v<V>) {
    return Cell(static_cast<double>(value));
  } else {
    return Cell(std::string(value));
  }
}

template <typename V>
void WriteValue(const V& value, JsonWriter* w) {
  if constexpr (IsOptional<V>::value) {
    if (value) {
      WriteValue(*value, w);
    } else {
      w->Null();
    }
  } else if constexpr (std::is_same_v<V, bool>) {
    w->Bool(value);
  } else if constexpr (std::is_integral_v<V> && std::is_unsigned_v<V>) {
    w->Uint(static_cast<uint64_t>(value));
  } else if constexpr (std::is_integral_v<V>) {
    w->Int(static_cast<int64_t>(value));
  } else if constexpr (std::is_floating_point_v<V>) {
    w->Double(static_cast<double>(value));
  } else if constexpr (std::is_same_v<V, std::string> || std::is_same_v<V, std::string_view>) {
    w->String(value);
  } else if constexpr (IsMap<V>::value) {
    w->BeginObject();
    for (const auto& [name, element] : value) {
      w->Key(name);
      WriteValue(element, w);
    }
    w->EndObject();
  } else if constexpr (IsVector<V>::value) {
    w->BeginArray();
    for (const auto& element : value) WriteValue(element, w);
    w->EndArray();
  } else {
    WriteRecordJson(value, w);
  }
}

template <typename Parent, typename Row>
Table BuildRowsTable(const Parent& parent, std::string_view name, std::string_view title,
                     const std::vector<Row>& rows);

template <typename R>
void WriteFields(const R& record, JsonWriter* w);

template <typename R, typename F>
void WriteField(const R& record, const F& field, JsonWriter* w) {
  if constexpr (std::is_same_v<F, ConstantDecl>) {
    w->Field(field.id, field.value);
  } else if constexpr (IsTableView<F>::value) {
    // In the tables only.
  } else if constexpr (IsKeyedBy<F>::value) {
    w->Key(field.id);
    w->BeginObject();
    for (const auto& element : record.*field.member) {
      w->Key(element.*field.key);
      WriteValue(element, w);
    }
    w->EndObject();
  } else {
    const auto& value = FieldValue(record, field);
    using V = std::remove_cvref_t<decltype(value)>;
    if constexpr (F::inlined) {
      static_assert(IsRecord<V>, "Inline takes a record");
      WriteFields(value, w);
    } else if constexpr (F::table) {
      static_assert(IsVector<V>::value && IsRecord<typename V::value_type>, "TableField takes a vector of records");
      w->Key(field.id);
      WriteTableRowsJson(BuildRowsTable(record, field.id, field.title, value), w);
    } else {
      if constexpr (IsOptional<V>::value) {
        // Present only sometimes (FieldInfo::when): left out where it has no value, as the
        // TypeScript type's `?` says; other absent values are null.
        if (!field.info.when.empty() && !value.has_value()) return;
      }
      w->Key(field.id);
      WriteValue(value, w);
    }
  }
}

template <typename R>
void WriteFields(const R& record, JsonWriter* w) {
  constexpr auto declared = RecordOf<R>();
  std::apply([&](const auto&... field) { (WriteField(record, field, w), ...); }, declared.fields);
}

template <typename Row, typename F>
void AddColumn(const F& field, std::vector<Column>* columns) {
  if constexpr (HasValue<F>) {
    using V = std::remove_cvref_t<decltype(FieldValue(std::declval<const Row&>(), field))>;
    static_assert(IsScalar<V>(), "a table's row records may only hold numbers, bools and strings");
    columns->push_back({std::string(field.id),
                        std::string(field.info.label.empty() ? field.id : field.info.label),
                        ColumnTypeOf<V>(), field.info.decimals, field.info.max_width,
                        std::string(field.info.unit)});
  }
}

template <typename Row, typename F>
void AddCell(const Row& row, const F& field, const std::vector<bool>& shown, size_t* index, std::vector<Cell>* cells) {
  if constexpr (HasValue<F>) {
    if (shown[(*index)++]) cells->push_back(ToCell(FieldValue(row, field)));
  }
}

template <typename Parent, typename Row>
Table BuildRowsTable(const Parent& parent, std::string_view name, std::string_view title,
                     const std::vector<Row>& rows) {
  constexpr auto declared = RecordOf<Row>();
  std::vector<Column> all;
  std::apply([&](const auto&... field) { (AddColumn<Row>(field, &all), ...); }, declared.fields);
  std::vector<bool> shown(all.size());
  Table table;
  table.name = std::string(name);
  table.title = std::string(title);
  for (size_t i = 0; i < all.size(); ++i) {
    shown[i] = ColumnShown(parent, name, all[i].id);
    if (shown[i]) table.columns.push_back(std::move(all[i]));
  }
  table.rows.reserve(rows.size());
  for (const Row& row : rows) {
    std::vector<Cell> cells;
    cells.reserve(table.columns.size());
    size_t index = 0;
    std::apply([&](const auto&... field) { (AddCell(row, field, shown, &index, &cells), ...); }, declared.fields);
    table.rows.push_back(std::move(cells));
  }
  return table;
}

template <typename R, typename F>
void CollectTable(const R& record, const F& field, std::vector<Table>* tables) {
  if constexpr (IsTableView<F>::value) {
    tables->push_back(BuildRowsTable(record, field.id, field.title, field.fn(record)));
  } else if constexpr (requires { field.member; }) {
    using V = std::remove_cvref_t<decltype(record.*field.member)>;
    if constexpr (F::inlined) {
      constexpr auto declared = RecordOf<V>();
      const V& inner = record.*field.member;
      std::apply([&](const auto&... f) { (CollectTable(inner, f, tables), ...); }, declared.fields);
    } else if constexpr (F::table) {
      tables->push_back(BuildRowsTable(record, field.id, field.title, record.*field.member));
    }
  }
}

}  // namespace schema_internal

// The record as one JSON object: its declared fields in order; tables as arrays of row
// objects keyed by the shown columns.
template <typename T>
void WriteRecordJson(const T& record, JsonWriter* writer) {
  writer->BeginObject();
  schema_internal::WriteFields(record, writer);
  writer->EndObject();
}

// Every table the record declares (its own and its inlined records'), in declaration order.
template <typename T>
std::vector<Table> RecordTables(const T& record) {
  std::vector<Table> tables;
  constexpr auto declared = RecordOf<T>();
  std::apply([&](const auto&... field) { (schema_internal::CollectTable(record, field, &tables), ...); },
             declared.fields);
  return tables;
}

// One declared table of rows on its own (every column shown), e.g. for a tool that
// assembles its tables by hand.
template <typename Row>
Table RowsTable(std::string_view name, std::string_view title, const std::vector<Row>& rows) {
  struct NoParent {};
  return schema_internal::BuildRowsTable(NoParent{}, name, title, rows);
}

}  // namespace stepscope::analysis::output
