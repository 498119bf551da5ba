// Field numbers of proto/stepscope/xplane.proto, for the code that reads and writes the
// wire format without generated classes (columnar_reader.cc, columnar_writer.cc).
#pragma once

#include <cstdint>

namespace stepscope::xspace::field {

constexpr uint32_t kSpacePlanes = 1, kSpaceErrors = 2, kSpaceWarnings = 3, kSpaceHostnames = 4;
constexpr uint32_t kPlaneId = 1, kPlaneName = 2, kPlaneLines = 3, kPlaneEventMetadata = 4, kPlaneStatMetadata = 5,
                   kPlaneStats = 6;
constexpr uint32_t kLineId = 1, kLineName = 2, kLineTimestampNs = 3, kLineEvents = 4, kLineDurationPs = 9,
                   kLineDisplayId = 10, kLineDisplayName = 11;
constexpr uint32_t kEventMetadataId = 1, kEventOffsetPs = 2, kEventDurationPs = 3, kEventStats = 4,
                   kEventNumOccurrences = 5;
constexpr uint32_t kStatMetadataId = 1, kStatDouble = 2, kStatUint64 = 3, kStatInt64 = 4, kStatStr = 5,
                   kStatBytes = 6, kStatRef = 7;
// Map entries (event_metadata, stat_metadata).
constexpr uint32_t kMapKey = 1, kMapValue = 2;
// XEventMetadata and XStatMetadata (their own id is field 1 too).
constexpr uint32_t kEventMetadataIdField = 1, kEventMetadataName = 2, kEventMetadataDisplayName = 4,
                   kEventMetadataStats = 5;
constexpr uint32_t kStatMetadataIdField = 1, kStatMetadataName = 2, kStatMetadataDescription = 3;

}  // namespace stepscope::xspace::field
