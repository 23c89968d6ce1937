#!/bin/sh
# Print the most recent release tag, or nothing when there is none.
git describe --tags --abbrev=0 2>/dev/null || true
