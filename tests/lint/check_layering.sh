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
# core's parts in order (core/CMakeLists.txt makes each a library that sees only the parts below it; this
# checks the same from the sources): a part includes only itself and the parts before it.
parts=(base model engine analysis formats)
for i in "${!parts[@]}"; do
  above=("${parts[@]:i+1}")
  [[ ${#above[@]} -eq 0 ]] && continue
  pattern=$(IFS='|'; echo "${above[*]}")
  bad=$(grep -rnE "#\s*include\s*[<\"]core/($pattern)/" "core/${parts[i]}" || true)
  if [[ -n "$bad" ]]; then
    echo "core/${parts[i]}/ includes a part above it (the order is ${parts[*]}):"
    echo "$bad"
    exit 1
  fi
done
bad=$(grep -rnE '#\s*include\s*[<"]app/' platform || true)
if [[ -n "$bad" ]]; then
  echo "platform/ includes app/ headers:"
  echo "$bad"
  exit 1
fi
os_headers='unistd\.h|fcntl\.h|sys/|windows\.h|Windows\.h|io\.h|linux/|dirent\.h|pthread\.h|signal\.h|spawn\.h|shellapi\.h|winioctl\.h'
# The front ends stay portable (the GUI's CMake paths must build with MSVC): OS calls go through platform/.
bad=$(grep -rnE "#\s*include\s*[<\"]($os_headers)" app || true)
if [[ -n "$bad" ]]; then
  echo "app/ includes OS headers (put the call behind platform/platform.h):"
  echo "$bad"
  exit 1
fi
# Each backend stands alone: Windows code uses nothing POSIX, Linux code nothing of Windows.
bad=$(grep -rnE '#\s*include\s*[<"](platform/(linux|posix)/|unistd\.h|sys/|dirent\.h)' platform/windows || true)
bad+=$(grep -rnE '#\s*include\s*[<"](platform/windows/|windows\.h|Windows\.h)' platform/linux platform/posix || true)
if [[ -n "$bad" ]]; then
  echo "a backend reaches into the other:"
  echo "$bad"
  exit 1
fi
# common/ is shared by both backends: it includes no OS header and neither backend.
bad=$(grep -rnE '#\s*include\s*[<"](platform/(linux|posix|windows)/|unistd\.h|fcntl\.h|sys/|windows\.h|Windows\.h|io\.h|linux/|dirent\.h|pthread\.h)' platform/common || true)
if [[ -n "$bad" ]]; then
  echo "platform/common/ includes an OS header or a backend:"
  echo "$bad"
  exit 1
fi
echo "layering: core has no Qt/OS includes and its parts include only the parts below them; app has no OS includes; platform does not reach into app; the Linux and Windows backends are separate"
