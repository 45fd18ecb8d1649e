#!/usr/bin/env bash
# Sets up the JMH jars that upstream's --with-jmh wants (one directory of
# jmh-core-*, jmh-generator-annprocess-*, jopt-simple-* and commons-math3-*
# jars) in the cache, from Maven Central through the machine's Maven, and
# prints that directory.
. "$(dirname "$0")/common.sh"

dir=$RDIO_CACHE/jmh/$(echo "$JMH_ARTIFACTS" | sha256sum | cut -c1-12)
if [ ! -f "$dir/.rdio-complete" ]; then
    command -v mvn >/dev/null || die "mvn not found: Maven is needed to fetch JMH ($JMH_ARTIFACTS)"
    rm -rf "$dir"
    mkdir -p "$dir"
    note "downloading JMH from Maven Central" >&2
    for gav in ${JMH_ARTIFACTS//,/ }; do
        mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
            -Dartifact="$gav" -DoutputDirectory="$dir" >"$dir/mvn.log" 2>&1 ||
            die "cannot download $gav from Maven Central (network down?; see $dir/mvn.log)"
    done
    rm -f "$dir/mvn.log"
    touch "$dir/.rdio-complete"
fi
echo "$dir"
