#!/usr/bin/env bash
# Prints the whole fork as one unified diff against pristine upstream (new
# overlay files and patched files alike), the way a webrev shows a change,
# and proves that it applies: the diff is applied to a scratch copy of the
# pristine files it touches and the result compared with build/src.
#
#   review-diff.sh PRISTINE_DIR > fork.diff
. "$(dirname "$0")/common.sh"

pristine=${1:?usage: review-diff.sh PRISTINE_DIR}
src=$RDIO_BUILD/src
files=$RDIO_BUILD/assemble/files
[ -f "$files" ] || die "build/src is not assembled: run make assemble"

diff=$RDIO_BUILD/review.diff
: > "$diff"
while read -r f; do
    old=$pristine/$f label=a/$f
    [ -f "$old" ] || old=/dev/null label=/dev/null
    # diff exits 1 when the files differ, which is the point.
    diff -u --label "$label" --label "b/$f" "$old" "$src/$f" >> "$diff" || [ $? = 1 ] ||
        die "diff failed on $f"
done < "$files"

# The check: apply to pristine copies, compare with the assembled tree.
scratch=$RDIO_BUILD/review-check
rm -rf "$scratch"
mkdir -p "$scratch"
copy_pristine "$pristine" "$scratch" < "$files"
if [ -s "$diff" ]; then
    patch -p1 -d "$scratch" --fuzz=0 --no-backup-if-mismatch -s < "$diff" >&2 ||
        die "the review diff does not apply to pristine upstream $UPSTREAM_VERSION"
fi
while read -r f; do
    cmp -s "$scratch/$f" "$src/$f" || die "the review diff does not reproduce $f"
done < "$files"
rm -rf "$scratch"

cat "$diff"
note "$(wc -l < "$files") files, $(grep -v '^+++ ' "$diff" | grep -c '^+' || true) added lines; applies to pristine $UPSTREAM_VERSION (checked); also in $diff" >&2
