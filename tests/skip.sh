#!/bin/sh
# A test this build configuration cannot run, registered so that it is reported skipped
# with its reason rather than missing: tests/skip.sh REASON
echo "SKIP: $1"
exit 77
