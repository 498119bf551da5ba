// UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF), the check protobuf applies to proto3 `string` fields when it parses. The
// streaming XSpace reader applies it too, so both readers accept the same files.
#pragma once

#include <string_view>

namespace stepscope::base {

bool IsValidUtf8(std::string_view text);

}  // namespace stepscope::base
