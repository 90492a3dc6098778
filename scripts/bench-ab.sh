#!/usr/bin/env bash
# A/B timing of Kiln's own kernels: the benchmarks built from a base revision and from the working
# tree, their JMH runs alternated in one session (base, head, base, head, ...), so that a change is
# judged against the machine's state at the same time rather than against a table from another day
# (this CI machine's speed moves 15-30% between runs). Kiln's side only: no PyTorch, no agreement
# check (scripts/bench.sh does both).
#
# usage: bash scripts/bench-ab.sh BASE_REV [CASES] [ROUNDS]
#   BASE_REV  a commit to compare with (e.g. HEAD~1, main, a hash)
#   CASES     a regex of SideBySide's case names (default 'Softmax|LayerNormFwd|Gelu')
#   ROUNDS    how many times each side runs (default 2); each run is JMH's 1 fork, 8 + 5 iterations
#
# Both builds install into the local Maven repository, the working tree's last, so it is left as it
# was. Prints each run's milliseconds per case and, per case, the ratio of the medians (head / base).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
base=${1:?usage: bash scripts/bench-ab.sh BASE_REV [CASES] [ROUNDS]}
cases=${2:-Softmax|LayerNormFwd|Gelu}
rounds=${3:-2}
work=$(mktemp -d)
cleanup() {
  git worktree remove --force "$work/base" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

build() { mvn -B -q -Pbench install -DskipTests -pl benchmarks -am -Dkiln.bench.sums=exact; }
echo "building $base ..."
git worktree add --detach "$work/base" "$base" >/dev/null
(cd "$work/base" && build)
cp "$work/base/benchmarks/target/kiln-benchmarks.jar" "$work/base.jar"
echo "building the working tree ..."
build
cp benchmarks/target/kiln-benchmarks.jar "$work/head.jar"

for r in $(seq "$rounds"); do
  for side in base head; do
    if ! java --add-modules jdk.incubator.vector -cp "$work/$side.jar" org.openjdk.jmh.Main \
      "dev\.kiln\.bench\.Cases\.($cases)\.kiln\$" -f 1 -wi 8 -i 5 -rf csv -rff "$work/$side-$r.csv" \
      >"$work/jmh.log" 2>&1; then
      echo "JMH failed on the $side build (cases '$cases'; a name, not an anchored regex: no \$ or ^):" >&2
      tail -20 "$work/jmh.log" >&2
      exit 1
    fi
    awk -F, -v side="$side" -v round="$r" 'NR > 1 {
        gsub(/"/, "", $1); sub(/^dev\.kiln\.bench\.Cases\./, "", $1); sub(/\.kiln$/, "", $1);
        printf "round %d %-4s %-16s %8.3f ms\n", round, side, $1, $5 }' "$work/$side-$r.csv"
  done
done

echo
echo "medians over the rounds (head / base < 1: the working tree is faster):"
cat "$work"/base-*.csv | awk -F, 'NR > 0 && $1 !~ /Benchmark/ { gsub(/"/, "", $1); print "base", $1, $5 }' > "$work/all.txt"
cat "$work"/head-*.csv | awk -F, '$1 !~ /Benchmark/ { gsub(/"/, "", $1); print "head", $1, $5 }' >> "$work/all.txt"
for name in $(awk '{ print $2 }' "$work/all.txt" | sort -u); do
  short=${name#dev.kiln.bench.Cases.}
  short=${short%.kiln}
  b=$(awk -v n="$name" '$1 == "base" && $2 == n { print $3 }' "$work/all.txt" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  h=$(awk -v n="$name" '$1 == "head" && $2 == n { print $3 }' "$work/all.txt" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  awk -v s="$short" -v b="$b" -v h="$h" 'BEGIN { printf "%-16s base %8.3f ms  head %8.3f ms  head/base %.2f\n", s, b, h, h / b }'
done
