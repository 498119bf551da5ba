// Session facts shared inside src/collect (not part of the public API).
#pragma once

namespace stepscope::collect {

// True while any Session (in-memory or started by StartProfiling) is recording.
bool IsSessionActive();

}  // namespace stepscope::collect
