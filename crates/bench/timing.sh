# Shared by the whole-process benchmark scripts (sourced, not run): each
# timed run appends "WALL_SECONDS PEAK_KB" (`/usr/bin/time -a -o FILE -f
# '%e %M'`) to one file per tool, and these summarise the files.

# summ COLUMN FILE: the median, min and max of that column.
summ() { cut -d' ' -f"$1" "$2" | sort -n | awk '{v[NR]=$1} END {printf "%s %s %s", v[int((NR+1)/2)], v[1], v[NR]}'; }

# median FILE: the median wall time, seconds.
median() { summ 1 "$1" | cut -d' ' -f1; }

# header WIDTH TITLE: the table's first line.
header() { printf "%-${1}s %-28s %s\n" "$2" 'wall s: median (min-max)' 'peak RSS MB: median (min-max)'; }

# row WIDTH NAME FILE: one tool's line, wall time and peak memory.
row() {
  _width=$1 _name=$2
  set -- $(summ 1 "$3") $(summ 2 "$3")
  printf "%-${_width}s %-28s %s\n" "$_name" "$1 ($2-$3)" "$(($4 / 1024)) ($(($5 / 1024))-$(($6 / 1024)))"
}
