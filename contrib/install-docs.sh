#!/bin/sh
# Installs the documentation where contrib/pbemd.service's Documentation=
# points, /usr/local/share/doc/pbemd: README.md, docs/ (which README.md
# links to) and the sample alert rules. Run it from anywhere in the source
# tree, as root; DESTDIR stages it elsewhere (for a package, or a test):
#
#   sh contrib/install-docs.sh
#   DESTDIR=/tmp/stage sh contrib/install-docs.sh
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
doc="${DESTDIR:-}/usr/local/share/doc/pbemd"
install -d -m 0755 "$doc" "$doc/docs"
install -m 0644 "$src/README.md" "$doc/README.md"
install -m 0644 "$src"/docs/*.md "$doc/docs/"
install -m 0644 "$src/contrib/pbemd-alerts.yml" "$doc/pbemd-alerts.yml"
echo "pbemd: documentation installed in $doc"
