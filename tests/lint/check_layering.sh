#!/usr/bin/env bash
# core/ is the engine: it includes neither Qt nor an OS header, and it knows nothing of platform/ or app/.
set -euo pipefail
cd "$1"
bad=$(grep -rnE '#\s*include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/|unistd\.h|fcntl\.h|sys/|windows\.h|Windows\.h|io\.h|linux/|dirent\.h|pthread\.h|signal\.h|spawn\.h|platform/|app/)' core || true)
if [[ -n "$bad" ]]; then
  echo "core/ includes what it must not:"
  echo "$bad"
  exit 1
fi
bad=$(grep -rnE '#\s*include\s*[<"]app/' platform || true)
if [[ -n "$bad" ]]; then
  echo "platform/ includes app/ headers:"
  echo "$bad"
  exit 1
fi
echo "layering: core has no Qt/OS includes; platform does not reach into app"
