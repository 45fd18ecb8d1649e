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
# Medians and ranges for the benchmark scripts' tables: a script's awk
# program is this text followed by its own (awk "$(cat stats.awk)..."),
# since mawk takes no library of functions otherwise.
#
#   median(a, c)  sorts a[1..c] in place, as numbers, and returns their
#                 median
#   add(k, v)     adds v to the sample of key k
#   cell(k)       "median (min to max)" of k's sample, or "n/a"; sets
#                 mid[k], lo[k] and hi[k]
#   ratio(a, b)   mid[a] / mid[b] to two places, or "n/a"
#   spread(k)     the range of k's sample as a share of its median
#   unq(s)        s without its double quotes
#
# Lines of JMH's CSV files (names ending .csv) lose their CR, and their
# first line is read into col[name], the column of each heading.
#
# vals, n, mid, lo, hi and col are its arrays (n[k] counts k's sample): a
# program that includes it cannot use those names for scalars.

function median(a, c,    i, j, t) {
    for (i = 2; i <= c; i++)
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
}
function add(k, v) { vals[k] = vals[k] " " v; n[k]++ }
function cell(k,    c, v) {
    if (!(k in vals)) return "n/a"
    c = split(vals[k], v, " ")
    mid[k] = median(v, c)
    lo[k] = v[1]; hi[k] = v[c]
    return sprintf("%.1f (%.1f to %.1f)", mid[k], lo[k], hi[k])
}
function ratio(a, b) { return (mid[a] > 0 && mid[b] > 0) ? sprintf("%.2f", mid[a] / mid[b]) : "n/a" }
function spread(k) { return (mid[k] > 0) ? sprintf("%.0f %%", 100 * (hi[k] - lo[k]) / mid[k]) : "n/a" }
function unq(s) { gsub(/"/, "", s); return s }

FILENAME ~ /\.csv$/ { sub(/\r$/, "") }
FNR == 1 && FILENAME ~ /\.csv$/ { for (i = 1; i <= NF; i++) col[unq($i)] = i; next }
