// Status and StatusOr: how every fallible stepscope function reports failure.
//
// stepscope libraries never throw. A function that can fail returns Status (or
// StatusOr<T> when it also produces a value); the message names the problem in words a
// user can act on ("file.xplane.pb: truncated at byte 812", not "parse error").
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace stepscope {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // the caller passed something malformed
  kNotFound,            // a file, run, host or tool does not exist
  kAlreadyExists,       // e.g. a second profiling session in one process
  kFailedPrecondition,  // called in the wrong state (stop before start)
  kPermissionDenied,    // refused by policy (e.g. a write outside the allowed directory)
  kResourceExhausted,   // an input exceeds a size or count limit
  kDataLoss,            // truncated or corrupt input
  kUnavailable,         // a peer cannot be reached
  kDeadlineExceeded,
  kUnimplemented,
  kIoError,             // output could not be written: disk full, file too large, I/O error
  kInternal,            // a bug in stepscope
};

// Short lowercase name of a code, e.g. "invalid argument".
std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "<code name>: <message>", or "ok".
  std::string ToString() const;

  // Returns a copy whose message is "<context>: <message>", keeping the code.
  Status WithContext(std::string_view context) const;

  // Marks a deliberately dropped status.
  void IgnoreError() const {}

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
inline Status InvalidArgumentError(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status NotFoundError(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status AlreadyExistsError(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
inline Status FailedPreconditionError(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
inline Status PermissionDeniedError(std::string m) { return {StatusCode::kPermissionDenied, std::move(m)}; }
inline Status ResourceExhaustedError(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
inline Status DataLossError(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
inline Status UnavailableError(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
inline Status DeadlineExceededError(std::string m) { return {StatusCode::kDeadlineExceeded, std::move(m)}; }
inline Status UnimplementedError(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
inline Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
inline Status InternalError(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

// Either a value or a non-ok Status. Accessing value() of an error is a bug (asserts).
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok() && "StatusOr needs a value or an error");
    if (status_.ok()) status_ = InternalError("StatusOr constructed from an ok Status");
  }
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  T& value() & { assert(ok()); return *value_; }
  const T& value() const& { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace stepscope
