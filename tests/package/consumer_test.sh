#!/bin/sh
# consumer_test.sh BUILD_DIR CONSUMER_SOURCE WORK_DIR: installs BUILD_DIR into WORK_DIR/prefix,
# configures and builds the consumer project against it with find_package(stepscope), runs
# it, and checks with the build's own CLI that it wrote a profile with its three steps.
set -eu
build="$1" source="$2" work="$3"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/include/stepscope/stepscope.h"
cmake -S "$source" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
profile=$("$work/build/consumer" "$work/logdir")
test -f "$profile"
"$build/bin/stepscope" info "$profile" --format json | tr -d ' \n' | grep -q '"name":"train","root_level":1,"count":3,' || {
  echo "the consumer's profile does not hold its 3 train steps:" >&2
  "$build/bin/stepscope" info "$profile" >&2
  exit 1
}
echo "consumer built against $work/prefix and wrote $profile"
