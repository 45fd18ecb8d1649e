#!/usr/bin/env bash
# Sets up jtreg 8 in the cache from Debian's jtreg8 binary package and its
# Java dependencies, and prints the jtreg home (the directory holding
# lib/jtreg.jar, as upstream's --with-jtreg expects).
#
# The packages are downloaded with apt-get against a private package list
# for $DEBIAN_SUITE and unpacked with dpkg -x: nothing is installed.
. "$(dirname "$0")/common.sh"

root=$RDIO_CACHE/jtreg/$JTREG_DEBIAN_VERSION
home=$root/usr/share/jtreg

if [ ! -f "$root/.rdio-complete" ]; then
    rm -rf "$root" "$root.tmp"
    mkdir -p "$root.tmp/debs"
    note "downloading $JTREG_PACKAGE $JTREG_DEBIAN_VERSION from Debian $DEBIAN_SUITE" >&2
    deps=$(suite_apt apt-cache depends "$JTREG_PACKAGE=$JTREG_DEBIAN_VERSION" 2>/dev/null |
           awk '$1 == "Depends:" && $2 !~ /^</ { print $2 }' | sort -u | grep .) ||
        die "$JTREG_PACKAGE $JTREG_DEBIAN_VERSION is not in Debian $DEBIAN_SUITE (network down, or the archive moved on: update make/upstream.conf)"
    (cd "$root.tmp/debs" &&
        suite_apt apt-get -qq download "$JTREG_PACKAGE=$JTREG_DEBIAN_VERSION" $deps >download.log 2>&1) ||
        die "cannot download $JTREG_PACKAGE and its dependencies ($deps) (see $root.tmp/debs/download.log)"
    for deb in "$root.tmp"/debs/*.deb; do
        dpkg -x "$deb" "$root.tmp" || die "cannot unpack $deb"
    done
    # Jars that the package links to its dependencies' copies in
    # /usr/share/java must resolve inside our root (its final path), not on
    # the host.
    for jar in "$root.tmp"/usr/share/jtreg/lib/*.jar; do
        if [ -L "$jar" ]; then
            target=$(readlink "$jar")
            case $target in
                /*) ln -sfn "$root${target}" "$jar" ;;
            esac
        fi
    done
    rm -rf "$root.tmp/debs"
    mv "$root.tmp" "$root"
    [ -f "$home/lib/jtreg.jar" ] || die "$JTREG_PACKAGE did not provide lib/jtreg.jar"
    touch "$root/.rdio-complete"
fi
echo "$home"
