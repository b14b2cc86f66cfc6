#!/usr/bin/env bash
# Builds Tinode's server and tinode-db (github.com/tinode/chat v0.25.3,
# GPL-3.0) with this adapter linked in, into $TINODE_BUILD/bin (default
# the user cache, outside the repository, so gofmt and go vet of the
# repository never meet Tinode's source). Nothing of Tinode's is committed:
# the module is copied from the Go module cache, one file that
# blank-imports the adapter is added to each of the two main packages, and
# a build module replaces github.com/tinode/chat with that copy.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
adapter="$(cd "$here/.." && pwd)"
root="$(cd "$adapter/../.." && pwd)"
build="${TINODE_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/singletable-tinode}"
version=v0.25.3

mkdir -p "$build/bin"
src="$(cd "$adapter" && go mod download -json "github.com/tinode/chat@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [ -z "$src" ]; then
	echo "build.sh: github.com/tinode/chat@$version not in the module cache" >&2
	exit 1
fi
rm -rf "$build/chat"
cp -R "$src" "$build/chat"
chmod -R u+w "$build/chat"
for dir in server tinode-db; do
	cat > "$build/chat/$dir/zz_singletable.go" <<'GO'
package main

// Links the singletable DynamoDB adapter ("use_adapter": "dynamodb").
import _ "github.com/singletable/singletable/adapters/tinode"
GO
done
# The load test's metered adapter (e2e/tinodemeter, "dynamodb_metered"),
# linked only into bin/tinode-metered, built when TINODE_METERED=1.
cat > "$build/chat/server/zz_singletable_meter.go" <<'GO'
//go:build singletable_meter

package main

// Links the load test's metered adapter ("use_adapter": "dynamodb_metered").
import _ "github.com/singletable/singletable/adapters/tinode/e2e/tinodemeter"
GO
cat > "$build/go.mod" <<MOD
module tinodebuild

go 1.26.0

require (
	github.com/tinode/chat $version
	github.com/singletable/singletable/adapters/tinode v0.0.0
	github.com/singletable/singletable v0.0.0
)

replace (
	github.com/tinode/chat => ./chat
	github.com/singletable/singletable/adapters/tinode => $adapter
	github.com/singletable/singletable => $root
)
MOD
cp "$adapter/go.sum" "$build/go.sum"
cat "$build/chat/go.sum" >> "$build/go.sum"
cd "$build"
# Built with the build tag postgres as well, so the same binaries also
# serve Tinode's own PostgreSQL adapter ("use_adapter": "postgres") for the
# differential run (diff_test.go); the DynamoDB runs select "dynamodb".
GOFLAGS=-mod=mod go build -tags postgres -o bin/tinode github.com/tinode/chat/server
GOFLAGS=-mod=mod go build -tags postgres -o bin/tinode-db github.com/tinode/chat/tinode-db
echo "built $build/bin/tinode and $build/bin/tinode-db"
if [ "${TINODE_METERED:-}" = 1 ]; then
	GOFLAGS=-mod=mod go build -tags 'postgres singletable_meter' -o bin/tinode-metered github.com/tinode/chat/server
	echo "built $build/bin/tinode-metered"
fi
