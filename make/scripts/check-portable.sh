#!/usr/bin/env bash
#
# Copyright (c) 2026, the rdio JDK authors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
# Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
# or visit www.oracle.com if you need additional information or have any
# questions.
#

# Checks that the fork's Java code under share/ and unix/ builds on every
# platform it belongs to, from Linux, where only Linux is built:
#
#   1. Every Java file the fork adds or patches under share/classes or
#      unix/classes (build/assemble/files) is compiled with the Linux-only
#      directories left out: against the boot JDK's own modules (upstream
#      JDK 25, which has none of the fork's classes), patched with these
#      files only.  A reference to a class the fork adds under linux/
#      does not compile.
#   2. The classes compiled from share/ may name only classes that exist on
#      every platform (in share/, or in unix/ and windows/, or in each of
#      linux/, macosx/, aix/ and windows/); those from unix/ only classes of
#      every Unix.  This catches a reference to one of upstream's platform
#      classes, which the boot JDK has.
#   3. No file the fork adds under a platform directory is in a package its
#      module exports to everyone: public API lives in share/.
#
#   check-portable.sh        (after make assemble)
. "$(dirname "$0")/common.sh"

files=$RDIO_BUILD/assemble/files
src=$RDIO_BUILD/src/src
[ -f "$files" ] || die "build/src is not assembled: run make assemble"
boot_jdk=$(config_value RDIO_BOOT_JDK)
[ -x "$boot_jdk/bin/javac" ] || die "no javac in the boot JDK '$boot_jdk' of build/config.mk: re-run bash configure"

work=$RDIO_BUILD/check-portable
rm -rf "$work"
mkdir -p "$work/src" "$work/classes"

# 1. Stage the share/ and unix/ Java files, one source root per module.
mapfile -t java < <(grep -E '^src/[^/]+/(share|unix)/classes/.*\.java$' "$files" | grep -v '/module-info\.java$')
[ ${#java[@]} -gt 0 ] || die "no share/ or unix/ Java files in $files"
declare -A modules=()
for f in "${java[@]}"; do
    module=${f#src/}; module=${module%%/*}
    rel=${f#src/"$module"/*/classes/}
    mkdir -p "$work/src/$module/$(dirname "$rel")"
    cp "$RDIO_BUILD/src/$f" "$work/src/$module/$rel"
    modules[$module]=1
done
# One module at a time (javac patches one module from source), java.base
# first; the later ones see its compiled classes.
order=()
[ -n "${modules[java.base]:-}" ] && order+=(java.base)
for m in $(printf '%s\n' "${!modules[@]}" | sort); do
    [ "$m" = java.base ] || order+=("$m")
done
for m in "${order[@]}"; do
    args=(--patch-module "$m=$work/src/$m")
    if [ "$m" != java.base ] && [ -n "${modules[java.base]:-}" ]; then
        args+=(--patch-module "java.base=$work/classes/java.base")
    fi
    mapfile -t srcs < <(find "$work/src/$m" -name '*.java' | sort)
    if ! "$boot_jdk/bin/javac" -nowarn -XDignore.symbol.file -implicit:none \
            "${args[@]}" -d "$work/classes/$m" "${srcs[@]}" > "$work/javac-$m.log" 2>&1; then
        cat "$work/javac-$m.log" >&2
        die "the fork's share/ and unix/ Java sources of $m do not compile without the Linux-only directories (see above)"
    fi
done

# 2. What the compiled classes name, against where each name's source is.
# The platforms a top-level class exists on, from the assembled tree; a
# class with no source there (generated, or from another module's gensrc)
# is taken to exist everywhere.
platforms_of() {   # MODULE-LESS PATH a/b/C
    local found=() m d
    for d in "$src"/*/share/classes/"$1".java; do [ -f "$d" ] && { echo "linux macosx aix windows"; return; }; done
    for m in "$src"/*/; do
        for d in unix linux macosx aix windows; do
            [ -f "$m$d/classes/$1.java" ] && found+=("$d")
        done
    done
    [ ${#found[@]} -gt 0 ] || { echo "linux macosx aix windows"; return; }
    local out=" ${found[*]} "
    case $out in *" unix "*) out="$out linux macosx aix " ;; esac
    echo "$out"
}

# Which source file, and so which directory, each class file comes from.
declare -A origin=()
classes=()
for f in "${java[@]}"; do
    module=${f#src/}; module=${module%%/*}
    rel=${f#src/"$module"/*/classes/}; rel=${rel%.java}
    for cls in "$work/classes/$module/$rel.class" "$work/classes/$module/$rel"\$*.class; do
        [ -f "$cls" ] || continue
        origin[$cls]=$f
        classes+=("$cls")
    done
done

bad=0
declare -A seen=()
# javap prints "Classfile PATH" before each class, then its constant pool,
# where "#12 = Class #34 // a/b/C" is a class the code names.
while read -r cls ref; do
    f=${origin[$cls]}
    module=${f#src/}; module=${module%%/*}
    rest=${f#src/"$module"/}; dir=${rest%%/*}
    rel=${f#src/"$module"/*/classes/}; rel=${rel%.java}
    case $dir in
        share) need="linux macosx aix windows" ;;
        unix)  need="linux macosx aix" ;;
    esac
    top=${ref%%\$*}
    [ "$top" = "$rel" ] && continue
    key="$f:$top"
    [ -n "${seen[$key]:-}" ] && continue
    seen[$key]=1
    have=" $(platforms_of "$top") "
    for p in $need; do
        if [[ $have != *" $p "* ]]; then
            echo "$f: names ${top//\//.}, which does not exist on $p" >&2
            bad=$((bad + 1))
            break
        fi
    done
done < <("$boot_jdk/bin/javap" -v -p "${classes[@]}" |
         awk '/^Classfile / { cls = $2; next }
              $2 == "=" && $3 == "Class" && $5 == "//" {
                  ref = $6; gsub(/^"?\[*L?|;?"?$/, "", ref)
                  if (ref ~ /\//) print cls, ref
              }')

# 3. Public API in a platform directory.
for f in $(grep -E '^src/[^/]+/(linux|unix|macosx|aix|windows)/classes/.*\.java$' "$files"); do
    module=${f#src/}; module=${module%%/*}
    pkg=$(dirname "${f#src/"$module"/*/classes/}"); pkg=${pkg//\//.}
    [ -f "$RDIO_TOP/$f" ] || continue   # a patched upstream file: not ours to place
    if grep -Eq "^[[:space:]]*exports[[:space:]]+${pkg//./\\.}[[:space:]]*;" "$src/$module/share/classes/module-info.java"; then
        echo "$f: is public API (module $module exports $pkg) but exists on one platform only: put it under share/" >&2
        bad=$((bad + 1))
    fi
done

[ "$bad" = 0 ] || die "$bad platform-only names in code that must build on every platform (see above)"
note "portable: ${#java[@]} share/ and unix/ Java files compile without the Linux-only directories and name only classes of their platforms"
